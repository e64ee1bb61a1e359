"""The Agency's scripted cards."""

from __future__ import annotations

from rules.coc_lcg import table as T
from tests.rules.coc_lcg.helpers import Table

CLERK = "agency-blackwood-file-clerk"  # Agency resource
YOUNG = "cthulhu-young-deep-one"  # skill 0


def _flush(t: Table) -> None:
    t.s.stack = []
    t.s.tasks = [{"t": "end"}]
    t.settle()


def test_thomas_f_malone_destroys_a_villain_at_his_story() -> None:
    t = Table()
    st = t.stories[0]
    m = t.put(0, "agency-thomas-f-malone", story=st)
    v = t.put(1, "cthulhu-keeper-of-the-golden-path", story=st)
    T.trigger(t.s, "story_resolved", story=st, chars=[m, v], ctl=0)
    _flush(t)
    t.use(m)
    assert v in t.s.players[1].discard


def test_thomas_f_malone_is_a_response_that_power_drain_cancels() -> None:
    """CoC-R118/R120: Malone's ability is a Response (the card data says so, as both card databases print
    it), so Power Drain, which cancels any Action or Response, saves the opponent's villain from it."""
    t = Table()
    st = t.stories[0]
    m = t.put(0, "agency-thomas-f-malone", story=st)
    v = t.put(1, "cthulhu-keeper-of-the-golden-path", story=st)
    pd = t.hand(1, "hastur-power-drain")
    t.res(1, 0, "hastur-mad-artist", "hastur-mad-artist")
    t.knows(1, "hastur-power-drain")
    T.trigger(t.s, "story_resolved", story=st, chars=[m, v], ctl=0)
    _flush(t)
    t.use(m)
    t.play(pd, 0)
    assert v in t.s.play and pd in t.s.players[1].discard


def test_kirby_odonnell_buffs_heroes_and_weakens_villains_while_committed() -> None:
    t = Table()
    k = t.put(0, "agency-kirby-odonnell", story=t.stories[0])
    g = t.put(0, "agency-g-men")
    v = t.put(1, "cthulhu-keeper-of-the-golden-path")
    assert t.stats(g).icons[1] == 6 and t.stats(v).icons[0] == 1 and t.stats(k).icons[1] == 2
    t.s.play[k].story = None
    assert t.stats(g).icons[1] == 5


def test_local_sheriff_returns_from_the_discard_pile_the_same_phase() -> None:
    t = Table()
    sh = t.put(0, "agency-local-sheriff")
    t.res(0, 0, CLERK)
    T.destroy(t.s, sh, t.events)
    t.operations()
    t.use(sh, 0, 0)
    assert sh in t.s.players[0].hand


def test_paul_lemond_copies_printed_icons() -> None:
    t = Table()
    p = t.put(0, "agency-paul-lemond")
    g = t.put(1, "agency-g-men")
    t.res(0, 0, CLERK)
    t.operations()
    t.use(p, 0, 0)
    t.choose(g) if t.s.stack[-1].kind == "choose" else None
    assert t.stats(p).icons == [0, 5, 0, 0]


def test_professor_hermann_mulder_goes_insane_at_six_characters() -> None:
    t = Table()
    m = t.put(0, "agency-professor-hermann-mulder")
    for _ in range(5):
        t.put(1, CLERK)
    t.operations()
    assert t.s.play[m].insane


def test_monster_hunter_wounds_a_low_skill_character_after_a_big_win() -> None:
    t = Table()
    mh = t.put(0, "agency-monster-hunter")
    y = t.put(1, YOUNG)
    t.res(0, 0, CLERK, CLERK)
    T.trigger(t.s, "struggle_won", story=t.stories[0], icon=1, ctl=0, margin=3)
    _flush(t)
    t.use(mh, 0, 0)
    assert set(t.options()) == {y, mh}  # skill 2 or less, itself included
    t.choose(y)
    assert y not in t.s.play


def test_monster_hunter_is_not_unique() -> None:
    """CoC-R111 does not apply: the card data settles the databases' disagreement as not unique (see its
    note), so a second copy may join the first."""
    t = Table(active=0)
    t.put(0, "agency-monster-hunter")
    assert T.may_enter(t.s, t.hand(0, "agency-monster-hunter"), 0) is None


def test_peeler_has_willpower_while_an_attachment_is_in_play() -> None:
    t = Table()
    p = t.put(0, "agency-peeler")
    assert "willpower" not in t.stats(p).kws
    t.put(1, "neutral-45-pistols", host=t.put(1, CLERK))
    assert "willpower" in t.stats(p).kws


def test_t_men_wound_a_character_when_entering_play() -> None:
    t = Table()
    tm = t.hand(0, "agency-t-men")
    t.res(0, 0, CLERK, CLERK, CLERK, CLERK, CLERK)
    v = t.put(1, YOUNG)
    t.operations()
    t.play(tm, 0)
    t.choose(v)
    assert v not in t.s.play


def test_shotgun_lets_its_committed_host_wound_at_the_same_story() -> None:
    t = Table()
    st = t.stories[0]
    host = t.put(0, CLERK, story=st)
    gun = t.put(0, "agency-shotgun", host=host)
    foe = t.put(1, YOUNG, story=st)
    t.put(1, YOUNG)  # not at the story
    t.res(0, 0, CLERK)
    t.operations()
    t.use(gun, 0, 0)
    t.choose(foe) if t.s.stack[-1].kind == "choose" else None
    assert foe not in t.s.play


def test_patrol_wagon_toughness_and_cancel_a_wound() -> None:
    t = Table()
    host = t.put(0, CLERK)
    w = t.put(0, "agency-patrol-wagon", host=host)
    assert t.stats(host).toughness == 1
    t.res(0, 0, CLERK, CLERK)
    blast = t.hand(1, "agency-shotgun-blast")
    t.res(1, 0, CLERK, CLERK, CLERK)
    t.operations()
    t.pass_()
    t.play(blast, 0)
    t.choose(host) if t.s.stack[-1].kind == "choose" else None
    assert t.owing() == (0, "react")
    t.use(w, 1, 0)
    assert t.s.play[host].wounds == 0


def test_shotgun_blast_wounds_skill_x_or_lower() -> None:
    t = Table()
    b = t.hand(0, "agency-shotgun-blast")
    t.res(0, 0, CLERK)
    low, high = t.put(1, "miskatonic-laboratory-assistant"), t.put(1, CLERK)
    t.operations()
    t.play(b, 0)  # X = 1
    assert low not in t.s.play and high in t.s.play


def test_short_fuse_seven_wounds_only_in_operations() -> None:
    t = Table()
    sf = t.hand(0, "agency-short-fuse")
    t.res(0, 0, CLERK, CLERK, CLERK)
    g = t.put(1, "agency-g-men")
    t.turn()
    assert not any(a.type == "play" and a.card == sf for a in t.legal(0))
    t.until("window", "operations")
    t.play(sf, 0)
    assert g not in t.s.play


def test_torch_the_joint_destroys_a_non_agency_resource_or_location() -> None:
    t = Table()
    tj = t.hand(0, "agency-torch-the-joint")
    t.res(0, 0, CLERK, CLERK)
    theirs = t.res(1, 0, YOUNG)[0]
    t.res(1, 1, CLERK)
    loc = t.put(1, "neutral-arkham-asylum")
    t.operations()
    t.play(tj, 0)
    assert set(t.options()) == {theirs, loc}
    t.choose(theirs)
    assert theirs in t.s.players[1].discard and not t.s.players[1].domains[0].resources


def test_small_price_to_pay_one_insane_one_wounded() -> None:
    t = Table()
    sp = t.hand(0, "agency-small-price-to-pay")
    t.res(0, 0, CLERK)
    mine, theirs = t.put(0, CLERK), t.put(1, YOUNG)
    t.operations()
    t.play(sp, 0)
    t.choose("theirs")
    assert theirs in t.s.play and t.s.play[theirs].insane
    assert mine not in t.s.play


def test_working_a_hunch_combat_and_overpay_bonus() -> None:
    t = Table()
    wh = t.hand(0, "agency-working-a-hunch")
    t.res(0, 0, CLERK, CLERK)
    c = t.put(0, CLERK)
    t.operations()
    t.play(wh, 0)  # overpaid by one
    assert t.stats(c).icons == [0, 2, 1, 2]


def test_steve_clarney_removes_all_toughness_while_committed() -> None:
    t = Table()
    s = t.put(0, "agency-steve-clarney", story=t.stories[0])
    g = t.put(1, "agency-g-men")
    assert t.stats(g).toughness == 0
    t.s.play[s].story = None
    assert t.stats(g).toughness == 3


def test_small_price_to_pay_never_picks_a_willpower_character_to_go_insane() -> None:
    """Small Price to Pay (CoC-R108): Undercover Security has Willpower, so it is the one wounded and the
    opposing character goes insane, without asking."""
    t = Table()
    sp = t.hand(0, "agency-small-price-to-pay")
    t.res(0, 0, CLERK)
    mine, theirs = t.put(0, "agency-undercover-security"), t.put(1, CLERK)
    t.operations()
    t.play(sp, 0)
    assert t.s.play[theirs].insane and mine in t.s.players[0].discard  # no Toughness: one wound destroys it


def test_small_price_to_pay_needs_a_pair_one_of_which_can_go_insane() -> None:
    """Small Price to Pay (CoC-R77/R108): when every character on both sides is immune to insanity, it
    cannot be played at all."""
    from rules.coc_lcg.playing import playable

    t = Table()
    sp = t.hand(0, "agency-small-price-to-pay")
    t.res(0, 0, CLERK)
    t.put(0, "agency-undercover-security"), t.put(1, "agency-g-men")
    t.operations()
    assert not any(c == sp for c, _ in playable(t.s, 0, "action", None, "operations"))

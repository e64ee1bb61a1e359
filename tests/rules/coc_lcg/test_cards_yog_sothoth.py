"""Yog-Sothoth's scripted cards."""

from __future__ import annotations

from rules.coc_lcg import table as T
from tests.rules.coc_lcg.helpers import Table

YS = "yog-sothoth-servant-of-nodens"  # Yog-Sothoth resource, TC, skill 2
CLERK = "agency-blackwood-file-clerk"


def _flush(t: Table) -> None:
    t.s.stack = []
    t.s.tasks = [{"t": "end"}]
    t.settle()


def test_yog_sothoth_costs_less_per_spell_in_the_discard_pile() -> None:
    t = Table()
    y = t.hand(0, "yog-sothoth-yog-sothoth")
    assert T.play_cost(t.s, 0, y, None) == 8
    for _ in range(3):
        t.discard(0, "yog-sothoth-dampen-light")
    assert T.play_cost(t.s, 0, y, None) == 5


def test_servant_from_out_of_time_sacrifices_a_resource() -> None:
    t = Table()
    s = t.hand(0, "yog-sothoth-servant-from-out-of-time")
    r = t.res(0, 0, YS)[0]
    t.operations()
    t.play(s)
    assert r in t.s.players[0].discard and not t.s.players[0].domains[0].resources


def test_son_of_yeb_combat_per_cultist() -> None:
    t = Table()
    s = t.put(0, "yog-sothoth-son-of-yeb")
    t.put(0, "yog-sothoth-arcane-initiate")
    assert t.stats(s).icons[1] == 1 + 2


def test_living_mummy_wounds_everyone_when_it_dies() -> None:
    t = Table()
    m = t.put(0, "yog-sothoth-living-mummy")
    a, b = t.put(0, CLERK), t.put(1, CLERK)
    T.destroy(t.s, m, t.events)
    _flush(t)
    assert a not in t.s.play and b not in t.s.play


def test_fishers_from_outside_bounce_an_exhausted_character() -> None:
    t = Table()
    f = t.hand(0, "yog-sothoth-fishers-from-outside")
    t.res(0, 0, YS, YS, YS)
    t.res(0, 1, YS)
    c = t.put(1, CLERK, exhausted=True)
    t.operations()
    t.play(f, 0)
    assert c in t.s.players[1].hand


def test_cannibal_ghast_stays_home_on_its_own_turn() -> None:
    t = Table()
    g = t.put(0, "yog-sothoth-cannibal-ghast")
    assert not T.can_commit(t.s, g)
    t.s.active = 1
    assert T.can_commit(t.s, g)


def test_spell_bound_shoggoth_minus_one_to_every_other() -> None:
    t = Table()
    s = t.put(0, "yog-sothoth-spell-bound-shoggoth")
    c = t.put(1, CLERK)
    assert t.stats(c).skill == 2 and t.stats(s).skill == 3


def test_guardian_elder_thing_wounds_its_story() -> None:
    t = Table()
    st = t.stories[0]
    g = t.put(0, "yog-sothoth-guardian-elder-thing", story=st)
    a, far = t.put(1, CLERK, story=st), t.put(1, CLERK)
    t.res(0, 0, YS, YS)
    t.operations()
    t.use(g, 0, 0)
    assert a not in t.s.play and far in t.s.play and t.s.play[g].wounds == 1


def test_hound_of_tindalos_attaches_and_detaches() -> None:
    t = Table()
    h = t.put(0, "yog-sothoth-hound-of-tindalos")
    c = t.put(1, CLERK)
    t.res(0, 0, YS)
    t.operations()
    t.use(h, 0)
    assert t.s.play[h].host == c and t.stats(c).skill == -1 and h not in T.characters(t.s)
    t.pass_()
    t.use(h, 1, 0)
    assert t.s.play[h].host is None


def test_disciple_of_the_gate_skill_counts_yog_sothoth_characters() -> None:
    t = Table()
    d = t.put(0, "yog-sothoth-disciple-of-the-gate")
    t.put(1, "yog-sothoth-son-of-yeb")
    assert t.stats(d).skill == 2


def test_forbidden_shrine_plus_one_to_committed() -> None:
    t = Table()
    t.put(0, "yog-sothoth-forbidden-shrine")
    c = t.put(0, CLERK, story=t.stories[0])
    idle = t.put(0, CLERK)
    assert t.stats(c).skill == 4 and t.stats(idle).skill == 3


def test_blackmoor_estate_mills_x() -> None:
    t = Table()
    b = t.put(0, "yog-sothoth-blackmoor-estate")
    t.res(0, 0, YS, YS)
    t.operations()
    t.use(b, 0, 0)
    t.choose("1")
    assert len(t.s.players[1].discard) == 2


def test_journey_to_the_other_side_reorders_and_keeps_one_when_overpaid() -> None:
    t = Table()
    j = t.hand(0, "yog-sothoth-journey-to-the-other-side")
    t.res(0, 0, YS, YS)
    tops = [t.top(0, "agency-g-men") for _ in range(5)]
    t.operations()
    t.play(j, 0)
    t.choose(tops[0])  # keep one
    for _ in range(3):
        t.choose(t.options()[-1])
    assert tops[0] in t.s.players[0].hand and len(t.s.players[0].deck) == 24 and t.s.players[0].peek == []


def test_opening_the_limbo_gate_one_from_each_discard() -> None:
    t = Table()
    o = t.hand(0, "yog-sothoth-opening-the-limbo-gate")
    t.res(0, 0, YS, YS, YS, YS)
    a, b = t.discard(0, CLERK), t.discard(1, CLERK)
    t.operations()
    t.play(o, 0)
    assert t.s.play[a].ctl == 0 and t.s.play[b].ctl == 1


def test_a_single_glimpse_opponent_sacrifices() -> None:
    t = Table()
    g = t.hand(0, "yog-sothoth-a-single-glimpse")
    t.res(0, 0, YS, YS)
    c = t.put(1, CLERK)
    t.operations()
    t.play(g, 0)
    assert c in t.s.players[1].discard


def test_gathering_at_the_stones_discard_to_hand() -> None:
    t = Table()
    g = t.hand(0, "yog-sothoth-gathering-at-the-stones")
    t.res(0, 0, YS, YS)
    d = t.discard(0, CLERK)
    t.operations()
    t.play(g, 0)
    t.choose(d)
    assert d in t.s.players[0].hand


def test_unspeakable_resurrection_cost_x_from_discard() -> None:
    t = Table()
    u = t.hand(0, "yog-sothoth-unspeakable-resurrection")
    t.res(0, 0, YS, YS)
    d = t.discard(0, CLERK)
    t.discard(0, "agency-g-men")
    t.operations()
    t.play(u, 0)
    t.choose(d)
    assert d in t.s.play


def test_dampen_light_everything_costs_one_more() -> None:
    t = Table()
    dl = t.hand(0, "yog-sothoth-dampen-light")
    t.res(0, 0, YS)
    c = t.hand(1, CLERK)
    t.operations()
    t.play(dl, 0)
    assert T.play_cost(t.s, 1, c, None) == 3


def test_dampen_light_raises_x_costs_too() -> None:
    """Dampen Light: an X cost is raised as well: Shotgun Blast paid with a 3-resource domain has X = 2,
    and without a domain it cannot be played for X = 0 any more."""
    from rules.coc_lcg.playing import playable

    t = Table()
    dl = t.hand(0, "yog-sothoth-dampen-light")
    t.res(0, 0, YS)
    blast = t.hand(1, "agency-shotgun-blast")
    t.res(1, 0, CLERK, CLERK, CLERK)
    strong = t.put(0, "agency-hired-muscle")  # skill 3
    weak = t.put(0, "miskatonic-laboratory-assistant")  # skill below 3
    t.operations()
    t.play(dl, 0)
    assert t.owing() == (1, "window")
    purse = T.Purse(t.s, 1)
    assert purse.x(blast, 0) == 2 and purse.error(blast, None) is not None
    assert [d for c, d in playable(t.s, 1, "action", None, "operations") if c == blast] == [0]
    t.play(blast, 0)
    assert weak not in t.s.play  # the only character with skill 2 or less: taken without asking
    assert strong in t.s.play and t.s.play[strong].wounds == 0

"""Hastur's scripted cards."""

from __future__ import annotations

from rules.coc_lcg import table as T
from tests.rules.coc_lcg.helpers import Table

HA = "hastur-mad-artist"  # Hastur resource, CA, skill 2
CLERK = "agency-blackwood-file-clerk"  # I, skill 3


def _flush(t: Table) -> None:
    t.s.stack = []
    t.s.tasks = [{"t": "end"}]
    t.settle()


def test_hastur_drives_a_character_insane_for_three() -> None:
    t = Table()
    h = t.put(0, "hastur-hastur")
    c = t.put(1, CLERK)
    t.res(0, 0, HA, HA, HA)
    t.operations()
    t.use(h, 0, 0)
    assert t.s.play[c].insane


def test_victoria_glasser_drives_a_character_insane_on_entering() -> None:
    t = Table()
    v = t.hand(0, "hastur-victoria-glasser")
    t.res(0, 0, HA, HA)
    c = t.put(1, CLERK)
    t.operations()
    t.play(v, 0)
    assert t.s.play[c].insane  # Victoria herself has Terror icons, so only the clerk qualifies


def test_yellow_muse_takes_fast_from_the_others_at_its_story() -> None:
    t = Table()
    st = t.stories[0]
    t.put(0, "hastur-yellow-muse", story=st)
    b = t.put(1, "syndicate-bag-man", story=st)
    far = t.put(1, "syndicate-bag-man")
    assert "fast" not in t.stats(b).kws and "fast" in t.stats(far).kws


def test_demon_lover_minus_two_skill() -> None:
    t = Table()
    d = t.put(0, "hastur-demon-lover")
    c = t.put(1, CLERK)
    t.operations()
    t.use(d)
    t.choose(c)
    assert t.stats(c).skill == 1 and t.s.play[d].exhausted


def test_thing_from_the_stars_discount_and_destroys_insane() -> None:
    t = Table()
    th = t.hand(0, "hastur-thing-from-the-stars")
    t.res(0, 0, HA, CLERK, "cthulhu-young-deep-one")
    assert T.play_cost(t.s, 0, th, 0) == 3
    thing = t.put(0, "hastur-thing-from-the-stars")
    mad = t.put(1, CLERK, insane=True, exhausted=True)
    t.operations()
    t.use(thing, 1)
    assert mad in t.s.players[1].discard


def test_messenger_from_beyond_removes_a_terror_icon() -> None:
    t = Table()
    m = t.put(0, "hastur-messenger-from-beyond")
    k = t.put(1, "cthulhu-keeper-of-the-golden-path")
    t.operations()
    t.use(m)
    t.choose(k)
    assert t.stats(k).icons[0] == 1


def test_performance_artist_cancels_an_opposing_card_ability() -> None:
    t = Table(active=1)
    pa = t.put(0, "hastur-performance-artist")
    club = t.put(1, "neutral-gentlemans-club")
    t.res(1, 0, CLERK, CLERK)
    t.operations()
    t.use(club, 0, 0)
    assert t.owing() == (0, "react")
    t.use(pa)
    assert pa in t.s.players[0].discard and t.s.players[1].hand == [] and t.s.players[1].domains[0].drained


def test_predatory_byakhee_mills_three() -> None:
    t = Table()
    pb = t.put(0, "hastur-predatory-byakhee")
    t.operations()
    t.use(pb)
    assert len(t.s.players[1].deck) == 17 and len(t.s.players[1].discard) == 3


def test_bearer_of_the_yellow_sign_madness_when_overpaid() -> None:
    t = Table()
    b = t.hand(0, "hastur-bearer-of-the-yellow-sign")
    t.res(0, 0, HA, HA, HA, HA)
    c = t.put(1, CLERK)
    t.operations()
    t.play(b, 0)
    assert t.owing() == (0, "react")
    t.use(b)
    assert t.s.play[c].insane


def test_ghost_invulnerable_only_while_committed() -> None:
    t = Table()
    g = t.put(0, "hastur-ghost")
    assert "invulnerable" not in t.stats(g).kws
    t.s.play[g].story = t.stories[0]
    assert "invulnerable" in t.stats(g).kws


def test_victorias_loft_stops_the_refresh_restore() -> None:
    t = Table()
    t.put(1, "hastur-victorias-loft")
    mad = t.put(0, CLERK, insane=True, exhausted=True)
    t.turn()
    assert t.s.play[mad].insane


def test_sedated_keeps_its_host_insane() -> None:
    t = Table()
    mad = t.put(0, CLERK, insane=True, exhausted=True)
    sed = t.hand(1, "hastur-sedated")
    t.res(1, 0, HA)
    t.s.active = 1
    t.operations()
    t.play(sed, 0)
    assert t.s.play[sed].host == mad
    assert not T.can_restore(t.s, mad) and not T.can_restore(t.s, mad, framework=False)


def test_byakhee_attack_opponent_discards_two() -> None:
    t = Table()
    ba = t.hand(0, "hastur-byakhee-attack")
    t.res(0, 0, HA, HA)
    for _ in range(3):
        t.hand(1, CLERK)
    t.operations()
    t.play(ba, 0)
    t.choose(t.options()[0])
    t.choose(t.options()[0])
    assert len(t.s.players[1].hand) == 1 and len(t.s.players[1].discard) == 2


def test_agoraphobia_returns_a_character_without_terror() -> None:
    t = Table()
    a = t.hand(0, "hastur-agoraphobia")
    t.res(0, 0, HA, HA)
    c = t.put(1, CLERK)
    t.put(1, "cthulhu-keeper-of-the-golden-path")
    t.operations()
    t.play(a, 0)
    assert c in t.s.players[1].hand


def test_scotophobia_opponents_lose_printed_terror() -> None:
    t = Table()
    s = t.hand(0, "hastur-scotophobia")
    t.res(0, 0, HA, HA)
    k = t.put(1, "cthulhu-keeper-of-the-golden-path")
    mine = t.put(0, "cthulhu-keeper-of-the-golden-path")
    t.operations()
    t.play(s, 0)
    assert t.stats(k).icons[0] == 0 and t.stats(mine).icons[0] == 2


def test_despair_returns_a_character_without_attachments() -> None:
    t = Table()
    d = t.hand(0, "hastur-despair")
    t.res(0, 0, HA)
    t.knows(0, "hastur-despair")
    c = t.put(1, CLERK)
    armed = t.put(1, CLERK)
    t.put(1, "neutral-45-pistols", host=armed)
    T.trigger(t.s, "struggle_won", story=t.stories[0], icon=0, ctl=0, margin=2)
    _flush(t)
    t.play(d, 0)
    assert c in t.s.players[1].hand and armed in t.s.play


def test_blind_submission_borrows_a_weak_character() -> None:
    t = Table()
    bs = t.hand(0, "hastur-blind-submission")
    t.res(0, 0, HA, HA)
    weak = t.put(1, "miskatonic-laboratory-assistant")
    t.put(1, CLERK)
    t.operations()
    t.play(bs, 0)
    assert t.s.play[weak].ctl == 0


def test_power_drain_cancels_an_opposing_action() -> None:
    t = Table(active=1)
    pd = t.hand(0, "hastur-power-drain")
    t.res(0, 0, HA, HA)
    t.knows(0, "hastur-power-drain")
    un = t.hand(1, "miskatonic-unearthing-the-ancients")
    t.res(1, 0, "miskatonic-laboratory-assistant", CLERK, CLERK)
    t.operations()
    t.play(un, 0)
    t.play(pd, 0)
    assert t.s.players[1].hand == [] and un in t.s.players[1].discard


def test_performance_artist_cancels_his_own_players_card_ability() -> None:
    """Performance Artist: any ability of a character or support, its own controller's included."""
    t = Table(active=0)
    pa = t.put(0, "hastur-performance-artist")
    club = t.put(0, "neutral-gentlemans-club")
    t.res(0, 0, CLERK, CLERK)
    t.operations()
    t.use(club, 0, 0)
    assert t.owing() == (0, "react")
    t.use(pa)
    assert pa in t.s.players[0].discard and t.s.players[0].hand == []


def test_power_drain_cancels_its_own_players_action() -> None:
    """Power Drain: any Action or Response, not only the opponent's."""
    t = Table(active=0)
    pd = t.hand(0, "hastur-power-drain")
    t.res(0, 1, HA, HA)
    t.knows(0, "hastur-power-drain")
    club = t.put(0, "neutral-gentlemans-club")
    t.res(0, 0, CLERK, CLERK)
    t.operations()
    t.use(club, 0, 0)
    assert t.owing() == (0, "react")
    t.play(pd, 1)
    assert t.s.players[0].hand == [] and pd in t.s.players[0].discard

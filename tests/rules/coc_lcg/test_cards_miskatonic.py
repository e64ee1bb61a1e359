"""Miskatonic University's scripted cards."""

from __future__ import annotations

from rules.coc_lcg import table as T
from tests.rules.coc_lcg.helpers import Table

MU = "miskatonic-laboratory-assistant"  # Miskatonic resource, skill 1, I
CLERK = "agency-blackwood-file-clerk"


def _flush(t: Table) -> None:
    t.s.stack = []
    t.s.tasks = [{"t": "end"}]
    t.settle()


def _commit(t: Table, card: str, story: str) -> None:
    t.story()
    t.until("commit")
    t.act({"type": "commit", "card": card, "story": story})
    t.act({"type": "commit_done"})


def test_professor_albert_wilmarth_story_loses_a_chosen_icon() -> None:
    t = Table()
    w = t.put(0, "miskatonic-professor-albert-wilmarth")
    st = t.stories[0]
    _commit(t, w, st)
    assert t.owing() == (0, "choose")
    t.choose("terror")
    assert T.struggles_of(t.s, st) == [0, 1, 1, 1]
    t.s.play[w].story = None
    assert T.struggles_of(t.s, st) == [1, 1, 1, 1]


def test_dr_ali_kafour_draws_when_committed() -> None:
    t = Table()
    k = t.put(0, "miskatonic-dr-ali-kafour")
    _commit(t, k, t.stories[0])
    t.use(k)
    assert len(t.s.players[0].hand) == 1


def test_professor_nathaniel_peaslee_brings_back_this_phases_dead() -> None:
    t = Table()
    p = t.put(0, "miskatonic-professor-nathaniel-peaslee")
    c = t.put(1, CLERK)
    t.res(0, 0, MU, MU)
    t.operations()
    T.destroy(t.s, c, t.events)
    T.destroy(t.s, p, t.events)
    _flush(t)
    t.use(p, 0, 0)
    assert c in t.s.play and t.s.play[c].ctl == 1 and p in t.s.play


def test_anthropology_advisor_cheaper_investigators_with_investigation() -> None:
    t = Table()
    t.put(0, "miskatonic-anthropology-advisor")
    inv = t.hand(0, CLERK)
    c = t.put(0, CLERK)
    assert T.play_cost(t.s, 0, inv, None) == 1 and t.stats(c).icons[3] == 2


def test_visiting_author_returns_from_the_discard_pile() -> None:
    t = Table()
    va = t.put(0, "miskatonic-visiting-author")
    t.res(0, 0, MU)
    T.destroy(t.s, va, t.events)
    t.operations()
    t.use(va, 0, 0)
    assert va in t.s.players[0].hand


def test_mad_genius_token_when_restored() -> None:
    t = Table()
    mg = t.put(0, "miskatonic-mad-genius", insane=True, exhausted=True)
    t.turn()
    assert t.owing() == (0, "react")
    t.use(mg)
    t.choose(t.stories[2])
    assert t.s.tokens[t.stories[2]] == [1, 0]


def test_strange_librarian_sends_one_to_the_bottom_and_orders_the_rest() -> None:
    t = Table()
    sl = t.put(0, "miskatonic-strange-librarian")
    a, b, c = t.top(1, CLERK), t.top(1, MU), t.top(1, "agency-g-men")  # c on top
    t.operations()
    t.use(sl)
    t.choose("1")
    assert set(t.options()) == {a, b, c}
    assert t.s.players[0].peek == [c, b, a]
    t.choose(b)
    assert t.s.players[1].deck[0] == b
    t.choose(a)  # a on top, then c
    assert t.s.players[1].deck[-2:] == [c, a] and t.s.players[0].peek == []


def test_itinerant_scholar_moves_a_drain_marker() -> None:
    t = Table()
    sc = t.put(0, "miskatonic-itinerant-scholar")
    t.s.players[0].domains[0].drained = True
    t.operations()
    t.use(sc)
    t.choose("0") if "0" in t.options() and len(t.options()) == 1 else None
    t.choose("2")
    assert [d.drained for d in t.s.players[0].domains] == [False, False, True]


def test_natural_philosopher_draws_then_everyone_discards() -> None:
    t = Table()
    np_ = t.hand(0, "miskatonic-natural-philosopher")
    t.res(0, 0, MU, MU, MU)
    keep = t.hand(1, CLERK)
    t.operations()
    t.play(np_, 0)
    assert t.owing() == (0, "choose")
    t.choose(t.options()[0])
    assert t.owing() == (1, "choose") and t.options() == [keep]
    t.choose(keep)
    assert keep in t.s.players[1].discard and len(t.s.players[0].hand) == 0


def test_student_archaeologist_draws_and_discards_when_restored() -> None:
    t = Table()
    sa = t.put(0, "miskatonic-student-archaeologist", insane=True, exhausted=True)
    t.hand(1, CLERK)
    t.turn()
    t.use(sa)
    t.choose(t.options()[0])
    t.choose(t.options()[0])
    assert len(t.s.players[0].hand) == 0 and len(t.s.players[1].hand) == 0


def test_celano_fragments_takes_a_cheap_character_off_its_story() -> None:
    t = Table()
    cf = t.put(0, "miskatonic-celano-fragments")
    foe = t.put(1, CLERK, story=t.stories[0])
    t.res(0, 0, MU, MU)
    t.operations()
    t.use(cf, 0, 0)
    assert t.s.play[foe].story is None and t.s.play[cf].exhausted


def test_open_for_inspection_adds_arcane_and_investigation_struggles() -> None:
    t = Table()
    oi = t.hand(0, "miskatonic-open-for-inspection")
    t.res(0, 0, MU, MU)
    t.operations()
    t.play(oi, 0)
    t.choose(t.stories[0])
    assert T.boosters(t.s, t.stories[0], 2) == 1 and T.boosters(t.s, t.stories[0], 3) == 2


def test_atwood_science_hall_skill_per_investigation_icon() -> None:
    t = Table()
    t.put(0, "miskatonic-atwood-science-hall")
    t.put(0, "miskatonic-anthropology-advisor")  # +1 Investigation to Investigators, counted too
    c = t.put(0, CLERK)
    assert t.stats(c).skill == 3 + 2


def test_binding_strips_printed_icons_this_phase() -> None:
    t = Table()
    b = t.hand(0, "miskatonic-binding")
    t.res(0, 0, MU)
    g = t.put(1, "agency-g-men")
    t.operations()
    t.play(b, 0)  # the only character: targeted without a question
    assert t.stats(g).icons == [0, 0, 0, 0]


def test_feast_or_famine_draws_two_then_each_discards() -> None:
    t = Table()
    f = t.hand(0, "miskatonic-feast-of-famine")
    t.res(0, 0, MU, MU, MU)
    t.operations()
    t.play(f, 0)
    t.choose(t.options()[0])
    assert len(t.s.players[0].hand) == 1


def test_restless_and_wary_readies_every_character() -> None:
    t = Table()
    r = t.hand(0, "miskatonic-restless-and-wary")
    t.res(0, 0, MU, MU)
    a, b = t.put(0, CLERK, exhausted=True), t.put(1, CLERK, exhausted=True)
    t.operations()
    t.play(r, 0)
    assert not t.s.play[a].exhausted and not t.s.play[b].exhausted


def test_dr_carsons_treatment_restores_two_with_overpay_combat() -> None:
    t = Table()
    dc = t.hand(0, "miskatonic-dr-carsons-treatment")
    t.res(0, 0, MU, MU)
    a, b = t.put(0, CLERK, insane=True, exhausted=True), t.put(0, CLERK, insane=True, exhausted=True)
    t.operations()
    t.play(dc, 0)
    t.choose(a)
    t.choose(b)
    assert not t.s.play[a].insane and not t.s.play[b].exhausted and t.stats(b).icons[1] == 2


def test_unearthing_the_ancients_draws_three() -> None:
    t = Table()
    u = t.hand(0, "miskatonic-unearthing-the-ancients")
    t.res(0, 0, MU, MU, MU)
    t.operations()
    t.play(u, 0)
    assert len(t.s.players[0].hand) == 3

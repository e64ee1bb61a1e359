"""Components, views and the remaining general rules: CoC-R3, R4, R6..R8, R12..R15, R53..R59, R125,
R139, R140, A14..A17, A20, A21, A31, D1, D2."""

from __future__ import annotations

from rules.coc_lcg import table as T
from rules.coc_lcg.actions import ACTION_TYPES
from rules.coc_lcg.cards import PACKETS, by_number, catalog
from tests.rules.coc_lcg.helpers import ENGINE, SEATS, Table, new

CLERK = "agency-blackwood-file-clerk"


def test_r7_r8_card_breakdown() -> None:
    """CoC-R7/R8: 165 cards; F156..F165 stories; packets F141..F147 and F148..F154; F155 a conspiracy."""
    assert len(catalog()) == 165
    assert all(by_number()[n].type == "story" for n in range(156, 166))
    assert PACKETS == {"A": tuple(range(141, 148)), "B": tuple(range(148, 155))}
    assert all(by_number()[n].faction == "neutral" for n in range(141, 156))
    assert by_number()[155].type == "conspiracy"


def test_r12_r13_r14_r15_d1_d2_a16_public_board() -> None:
    """CoC-R12..R15/D1/D2/A16: the public view shows stories and tokens per side, the story deck count,
    wounds on characters, drained domains, resources, discard piles, hand sizes, insane cards by name;
    starting domains are spare cards with no identity."""
    t = Table()
    c = t.put(0, CLERK, wounds=0, insane=True, exhausted=True)
    t.s.tokens[t.stories[0]] = [2, 1]
    t.s.players[1].domains[1].drained = True
    t.hand(1, CLERK)
    d = t.discard(1, CLERK)
    v = ENGINE.view(t.s, None)
    assert v.tokens[t.stories[0]] == [2, 1] and v.story_deck_count == 7
    assert v.play[c]["insane"] and v.play[c]["card"] == CLERK
    assert v.players[1].domains[1].drained and v.players[1].hand_count == 1 and v.players[1].hand is None
    assert v.players[1].discard == [d]
    assert all(x.card is None for x in t.s.players[0].domains)


def test_r3_r4_r84_a_story_is_won_at_five_tokens() -> None:
    """CoC-R3/R4: tokens come from struggles and success; 5 on your side win the story."""
    t = Table()
    st = t.stories[0]
    T.place_tokens(t.s, st, 0, 4, t.events)
    t.settle()
    assert st in t.stories
    T.place_tokens(t.s, st, 0, 1, t.events)
    t.settle()
    assert st in t.s.players[0].won


def test_r6_r138_a21_the_first_end_condition_decides() -> None:
    """CoC-R6/R138/A21: events are processed in order; the first end decides (no later change)."""
    t = Table(deck=1)
    T.mill(t.s, 0, 1, t.events)
    assert t.s.phase == "over" and t.s.winner == 1
    T.place_tokens(t.s, t.stories[0], 0, 5, t.events)
    assert ENGINE.result(t.s).winners == ["b"]


def test_r53_golden_rule_card_text_beats_the_rulebook() -> None:
    """CoC-R53: Victoria's Loft overrides the Refresh restore; Terror/Willpower beat card effects."""
    t = Table()
    t.put(1, "hastur-victorias-loft")
    mad = t.put(0, CLERK, insane=True, exhausted=True)
    t.turn()
    assert t.s.play[mad].insane
    w = t.put(1, "agency-local-sheriff")
    assert not T.go_insane(t.s, w, t.events)


def test_r54_a17_your_means_the_controller() -> None:
    """CoC-R54/A17: "your characters" covers a character you control but do not own."""
    t = Table()
    t.put(0, "shub-niggurath-altar-of-the-blessed")
    borrowed = t.put(1, CLERK, ctl=0)
    assert t.stats(borrowed).skill == 4


def test_r55_r59_card_types_behave() -> None:
    """CoC-R55..R59: characters and supports stay in play; events go to the discard pile after
    resolving; stories and conspiracies take tokens."""
    t = Table()
    ev = t.hand(0, "miskatonic-unearthing-the-ancients")
    t.res(0, 0, "miskatonic-laboratory-assistant", CLERK, CLERK)
    sup = t.hand(0, "neutral-gentlemans-club")
    t.res(0, 1, CLERK, CLERK)
    t.operations()
    t.play(ev, 0)
    assert ev in t.s.players[0].discard and not t.s.resolving
    t.pass_()
    t.play(sup, 1)
    assert sup in t.s.play
    assert {catalog()[c[2:]].type for c in t.stories} == {"story"}


def test_r125_no_core_card_sets_day_or_night() -> None:
    """CoC-R125: Day/Night exist only for cards that set them; no Core Set card does."""
    import json
    from pathlib import Path

    raw = json.loads((Path(T.__file__).parent / "data" / "cards.json").read_text(encoding="utf-8"))
    assert not any("Day" in c["text"]["en"].split() or "Night" in c["text"]["en"].split() for c in raw["cards"])


def test_r139_no_other_end_and_no_concede_action() -> None:
    """CoC-R139: the game ends only by stories or deck-out; there is no concession or turn limit. The
    bot's ``concede`` (a player leaving the table, tests/rules/coc_lcg/test_forfeit.py) is never offered."""
    s = new()
    assert ENGINE.result(s) is None
    assert {a.model_fields["type"].default for a in ACTION_TYPES} == {
        "setup_resource", "pass", "play", "use", "attach_resource", "commit", "withdraw", "commit_done", "choose",
        "concede"}
    assert not any(a.type == "concede" for seat in SEATS for a in ENGINE.legal_actions(s, seat))


def test_r140_won_conspiracies_keep_their_owner() -> None:
    """CoC-R140/R97: a won conspiracy is still its owner's card."""
    t = Table()
    con = t.put(1, "neutral-the-bootleg-whiskey-cover-up")
    T.place_tokens(t.s, con, 0, 5, t.events)
    t.settle()
    assert con in t.s.players[0].won and T.owner(con) == 1


def test_a14_resources_are_not_in_play() -> None:
    """CoC-A14: a unique card used as a resource does not stop a copy from being played."""
    t = Table()
    t.res(0, 0, "agency-thomas-f-malone")
    assert T.may_enter(t.s, t.hand(0, "agency-thomas-f-malone"), 0) is None


def test_a15_domains_are_unlimited() -> None:
    """CoC-A15: more domains than the box's markers are fine."""
    t = Table()
    for _ in range(5):
        T.add_domain(t.s, 0, t.events)
    assert len(t.s.players[0].domains) == 8


def test_a20_an_empty_story_deck_leaves_the_slot_empty() -> None:
    """CoC-A20: with no story left to draw, the won story is not replaced."""
    t = Table()
    t.s.story_deck = []
    st = t.stories[0]
    T.place_tokens(t.s, st, 0, 5, t.events)
    t.settle()
    t.choose("none") if t.s.stack and t.s.stack[-1].kind == "choose" else None
    assert len(t.s.stories) == 2


def test_a31_two_players_only() -> None:
    """CoC-A31: multiplayer is out of scope (see CoC-R1)."""
    import pytest

    from rules.core import RuleError

    with pytest.raises(RuleError):
        ENGINE.new_game(["a"], None, 1)

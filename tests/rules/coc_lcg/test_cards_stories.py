"""The ten story cards' effects (F156..F165)."""

from __future__ import annotations

from rules.coc_lcg import table as T
from tests.rules.coc_lcg.helpers import ENGINE, Table, run_story

CLERK = "agency-blackwood-file-clerk"  # printed skill 3
SCHOLAR = "miskatonic-laboratory-assistant"  # printed skill 1


def test_nowhere_to_hide_clears_every_token() -> None:
    t = Table()
    for st in t.stories:
        t.s.tokens[st] = [2, 3]
    run_story(t, "story-nowhere-to-hide")
    assert all(v == [0, 0] for v in t.s.tokens.values())


def test_the_shadow_out_of_time_swaps_hand_for_discard_top() -> None:
    t = Table()
    h1, h2 = t.hand(0, CLERK), t.hand(0, SCHOLAR)
    d1, d2 = t.discard(0, "agency-g-men"), t.discard(0, "agency-t-men")
    run_story(t, "story-the-shadow-out-of-time")
    assert t.owing() == (0, "choose") and t.options() == ["0", "1", "2"]
    t.choose("1")
    assert set(t.options()) == {h1, h2}
    t.choose(h2)
    assert d2 in t.s.players[0].hand and h2 in t.s.players[0].discard and d1 in t.s.players[0].discard
    assert h1 in t.s.players[0].hand
    assert t.s.stack == [] or t.owing()[0] == 1  # the opponent (empty discard) is skipped


def test_opening_night_brings_every_discarded_character_back_insane() -> None:
    t = Table()
    a, b = t.discard(0, CLERK), t.discard(1, SCHOLAR)
    ev = t.discard(1, "agency-shotgun-blast")
    run_story(t, "story-opening-night")
    assert t.s.play[a].insane and t.s.play[b].insane and t.s.play[b].ctl == 1
    assert ev in t.s.players[1].discard


def test_ancient_apocrypha_new_domain_of_discarded_characters() -> None:
    t = Table()
    a = t.discard(0, CLERK)
    e = t.discard(0, "agency-shotgun-blast")
    run_story(t, "story-ancient-apocrypha")
    d = t.s.players[0].domains[3]
    assert d.resources == [a] and d.card is not None and e in t.s.players[0].discard
    assert len(t.s.players[1].domains) == 4 and t.s.players[1].domains[3].resources == []


def test_the_call_of_cthulhu_each_searches_the_deck() -> None:
    t = Table()
    want = t.top(0, "agency-g-men")
    t.s.players[0].deck.insert(0, t.s.players[0].deck.pop())  # bury it
    run_story(t, "story-the-call-of-cthulhu")
    assert t.owing() == (0, "choose") and want in t.options()
    t.choose(want)
    assert want in t.s.players[0].hand and want not in t.s.players[0].deck
    assert t.owing() == (1, "choose")
    t.choose(t.options()[0])
    assert len(t.s.players[1].hand) == 1


def test_through_the_gates_and_rotting_away_sacrifice_by_printed_skill() -> None:
    t = Table()
    big, small = t.put(0, CLERK), t.put(1, SCHOLAR)
    run_story(t, "story-through-the-gates")
    assert big not in t.s.play and small in t.s.play
    run_story(t, "story-rotting-away")
    assert small not in t.s.play and small in t.s.players[1].discard


def test_frozen_in_time_each_resource_mills_two_or_is_destroyed() -> None:
    t = Table()
    r = t.res(0, 0, CLERK)[0]
    t.res(1, 1, SCHOLAR)
    run_story(t, "story-frozen-in-time")
    assert t.owing() == (0, "choose") and t.options() == ["mill", "destroy"]
    t.choose("destroy")
    assert r in t.s.players[0].discard and not t.s.players[0].domains[0].resources
    assert t.owing() == (1, "choose")
    t.choose("mill")
    assert len(t.s.players[1].deck) == 18 and len(t.s.players[1].discard) == 2


def test_dreamwalkers_returns_another_won_story_to_the_deck() -> None:
    t = Table()
    won = t.s.story_deck.pop()
    t.s.players[1].won = [won]
    run_story(t, "story-dreamwalkers")
    assert won in t.s.story_deck and t.s.players[1].won == []


def test_the_other_path_optional_token_where_two_or_fewer() -> None:
    t = Table()
    full, open_ = t.stories[0], t.stories[1]
    t.s.tokens[full] = [3, 0]
    run_story(t, "story-the-other-path")
    assert full not in t.options() and open_ in t.options() and "none" in t.options()
    t.choose(open_)
    t.choose("none")
    assert t.s.tokens[open_] == [1, 0] and T.WIN_TOKENS == 5


def test_a21_ancient_apocrypha_emptying_both_decks_is_a_draw() -> None:
    """CoC-A21: both players add a domain from their last deck card in one effect: a draw, not a loss for
    whoever happened to be processed first."""
    t = Table(deck=1)
    run_story(t, "story-ancient-apocrypha")
    assert t.s.phase == "over" and t.s.winner is None and t.s.end_reason == "both_decks_out"
    assert all(len(p.domains) == 4 for p in t.s.players), "the second player's domain is still added"
    r = ENGINE.result(t.s)
    assert r is not None and r.winners == [] and r.ranking == [["a", "b"]]


def test_a21_ancient_apocrypha_one_deck_out_loses_as_usual() -> None:
    """CoC-A21/R138: only the winner's deck runs out in the effect: the winner of the story loses."""
    t = Table()
    t.s.players[0].deck[:] = t.s.players[0].deck[-1:]
    run_story(t, "story-ancient-apocrypha")
    assert t.s.phase == "over" and t.s.winner == 1 and t.s.end_reason == "deck_out"


def test_a21_frozen_in_time_judges_deck_outs_after_every_answer() -> None:
    """CoC-A21: both players mill their last cards under Frozen in Time: the game ends in a draw once both
    have answered, not at the first empty deck."""
    t = Table(deck=2)
    t.res(0, 0, CLERK)
    t.res(1, 1, SCHOLAR)
    run_story(t, "story-frozen-in-time")
    t.choose("mill")
    assert t.s.phase != "over" and t.owing() == (1, "choose")
    t.choose("mill")
    assert t.s.phase == "over" and t.s.winner is None and ENGINE.result(t.s).reason == "both_decks_out"

"""Leaving a running game of Call to Glory (issue #14, bot ruling): with two players the leaver concedes and
the game ends on the standings so far (CTG-R15's ranking, the leaver last); with three or four ``forfeit``
gives None and the bot hands the seat to an AI."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.call_to_glory import UI
from cogs.games.ui import Names
from rules.core import errors as E
from tests.rules.call_to_glory.helpers import ENGINE, SPEC
from tests.rules.forfeit import Position, forfeit, play_into, refused

NAMES = Names({"p0": "Alice", "p1": "Борис", "p2": "Chen"})
VARIANTS = SPEC.options_model(imperial_tasks=True, ninja_power=True)


def _position(n: int, seed: int, depth: int, options: Any = None, mid_decision: bool = False) -> Position:
    """``depth`` random moves into an ``n``-player game; with ``mid_decision``, on until a question (a Ninja
    victim's pile, a task to reveal) is open on the stack."""
    return play_into(SPEC, [f"p{i}" for i in range(n)], options or SPEC.options_model(), seed,
                     lambda s, k: k >= depth and (not mid_decision or bool(s.stack)))


@pytest.mark.parametrize(("seed", "depth", "variants", "mid"), [
    (1, 0, False, False), (2, 9, False, False), (3, 60, False, False), (4, 140, False, False),
    (5, 30, True, True), (6, 120, True, True), (7, 80, True, False),
])
@pytest.mark.parametrize("leaver", [0, 1])
def test_two_players_the_leaver_concedes(seed: int, depth: int, variants: bool, mid: bool, leaver: int) -> None:
    pos = _position(2, seed, depth, VARIANTS if variants else None, mid)
    assert ENGINE.pending(pos.state), "the position is a running game"
    if mid:
        assert pos.state.stack, "the position is in the middle of a decision"
    seat, other = f"p{leaver}", f"p{1 - leaver}"
    state, events, action = forfeit(SPEC, pos, seat)
    assert action.type == "concede"
    assert state.phase == "over" and not state.stack and ENGINE.pending(state) == []
    result = ENGINE.result(state)
    assert result is not None
    assert result.winners == [other] and result.ranking == [[other], [seat]] and result.reason == "conceded"
    assert result.scores == {p.seat: p.total for p in pos.state.players}, "the round in progress is not scored"
    assert [e.type for e in events] == ["conceded", "game_ended"]
    assert events[0].seat == seat and events[0].winners == [other] and events[1].ranking == result.ranking
    for locale, word in (("en", "concedes"), ("ru", "сдаётся")):
        line = UI.event_text(events[0], locale, NAMES)
        assert line is not None and word in line and NAMES(seat) in line and NAMES(other) in line
        (announcement,) = UI.announcements(events, locale, NAMES)
        assert NAMES.mention(other) in announcement.splitlines()[1], "first place goes to the player who stayed"


@pytest.mark.parametrize("n", [3, 4])
def test_three_or_four_players_play_on_with_an_ai(n: int) -> None:
    """No action: the bot keeps the seat in the game and an AI plays it."""
    pos = _position(n, 11, 40)
    assert all(ENGINE.forfeit(pos.state, p.seat, i) is None for i, p in enumerate(pos.state.players))


def test_a_concession_ranks_the_others_by_the_end_scoring_and_the_leaver_last() -> None:
    """The engine takes a concession at any table size: the totals so far, ranked by CTG-R15 (total, then
    best round), decide the places of those who stay, and the leaver is last even when leading."""
    pos = _position(3, 12, 0)
    state = pos.state.model_copy(deep=True)
    for p, rounds in zip(state.players, ([30, 10], [20, 25], [40, 5])):
        p.round_scores = rounds  # totals 40, 45, 45; p1 has the better best round of the two at 45
    after, events = ENGINE.apply(state, "p2", {"type": "concede"})
    result = ENGINE.result(after)
    assert result is not None
    assert result.ranking == [["p1"], ["p0"], ["p2"]] and result.winners == ["p1"] and result.reason == "conceded"
    assert events[0].winners == ["p1"]


def test_a_concession_keeps_a_tie_shared() -> None:
    pos = _position(3, 13, 0)
    state = pos.state.model_copy(deep=True)
    for p, rounds in zip(state.players, ([30, 10], [10, 30], [50, 50])):
        p.round_scores = rounds
    after, _ = ENGINE.apply(state, "p2", {"type": "concede"})
    result = ENGINE.result(after)
    assert result is not None and result.ranking == [["p0", "p1"], ["p2"]] and result.winners == ["p0", "p1"]


def test_conceding_is_refused_once_the_game_is_over_and_to_a_stranger() -> None:
    pos = _position(2, 14, 25)
    assert refused(SPEC, pos.state, "stranger", {"type": "concede"}).code == E.UNKNOWN_SEAT
    state, _, _ = forfeit(SPEC, pos, "p1")
    for seat in ("p0", "p1"):
        assert refused(SPEC, state, seat, {"type": "concede"}).code == E.GAME_OVER

"""Leaving a running game of Cthulhu Fluxx (issue #14, bot ruling beside FLX-R23, which covers joining):
``forfeit`` gives ``leave``; with two players the one who stays wins at once, with three or more the
others play on unless an effect still waits on the leaver (then the bot lets an AI play the seat)."""

from __future__ import annotations

import pytest

from cogs.fluxx_cthulhu import UI
from cogs.games.ui import Names
from rules.core import errors as E
from tests.rules.fluxx_cthulhu.helpers import ENGINE, SPEC, all_cards, full
from tests.rules.forfeit import Position, forfeit, play_into, refused

NAMES = Names({"p0": "Alice", "p1": "Борис", "p2": "Chen"})
CULT_CLASH = SPEC.options_model(meta_rule=True)


def _position(n: int, seed: int, depth: int, mid_decision: bool = False, options=None) -> Position:
    """``depth`` random moves into an ``n``-player game; with ``mid_decision``, on until something is being
    resolved (a question or a reaction window open, a card in play)."""
    def stop(s, k: int) -> bool:
        return k >= depth and (not mid_decision or bool(s.stack or s.chain or s.resolving))

    return play_into(SPEC, [f"p{i}" for i in range(n)], options or SPEC.options_model(), seed, stop)


@pytest.mark.parametrize(("seed", "depth", "mid"), [(1, 0, False), (2, 5, False), (3, 20, True), (4, 35, False),
                                                    (5, 12, True), (6, 30, True)])
@pytest.mark.parametrize("leaver", [0, 1])
def test_two_players_the_one_who_stays_wins(seed: int, depth: int, mid: bool, leaver: int) -> None:
    pos = _position(2, seed, depth, mid, CULT_CLASH if seed % 2 else None)
    assert ENGINE.pending(pos.state), "the position is a running game"
    seat, other = f"p{leaver}", f"p{1 - leaver}"
    state, events, action = forfeit(SPEC, pos, seat, remaining=[other])
    assert action.type == "leave" and action.place == leaver
    assert [p.seat for p in state.players] == [other]
    assert state.phase == "over" and not state.stack and not state.chain and ENGINE.pending(state) == []
    result = ENGINE.result(state)
    assert result is not None
    assert result.winners == [other] and result.ranking == [[other]] and result.reason == "conceded"
    assert [e.type for e in events] == ["player_left", "game_ended"] and events[1].winner == other
    assert all_cards(state) == full(state), "every card is still accounted for"
    for locale in ("en", "ru"):
        for e in events:
            line = UI.event_text(e, locale, NAMES)
            assert line is not None and "fluxx_cthulhu." not in line and "{" not in line
        assert NAMES(other) in (UI.event_text(events[1], locale, NAMES) or "")
        (announcement,) = UI.announcements(events, locale, NAMES)
        assert NAMES.mention(other) in announcement


def _free_to_leave(pos: Position) -> tuple[str, int]:
    """A seat the game does not wait on (not on turn, asked nothing), and its place."""
    s = pos.state
    asked = {p.seat for p in ENGINE.pending(s)}
    seat = next(p.seat for i, p in enumerate(s.players) if i != s.current and p.seat not in asked)
    return seat, pos.seats.index(seat)


@pytest.mark.parametrize(("n", "seed", "depth"), [(3, 7, 0), (3, 8, 25), (4, 9, 40), (5, 10, 15)])
def test_three_or_more_the_others_play_on(n: int, seed: int, depth: int) -> None:
    pos = play_into(SPEC, [f"p{i}" for i in range(n)], SPEC.options_model(), seed,
                    lambda s, k: k >= depth and not s.stack)  # between plays: nobody but the player on turn is asked
    seat, place = _free_to_leave(pos)
    remaining = [p.seat for p in pos.state.players if p.seat != seat]
    state, events, action = forfeit(SPEC, pos, seat, remaining=remaining)
    assert action.type == "leave" and action.place == place
    assert [p.seat for p in state.players] == remaining and events[0].type == "player_left"
    prompts = ENGINE.pending(state)
    assert prompts and ENGINE.result(state) is None, "the game goes on"
    assert all(p.seat in remaining and ENGINE.legal_actions(state, p.seat) for p in prompts)
    assert all_cards(state) == full(state)


def test_leave_later_refusals_stay_and_change_nothing() -> None:
    """With three, the player in the middle of their own card cannot leave yet (the bot then lets an AI play
    the seat); with two, the same moment ends the game."""
    for seed in range(20, 60):
        pos = _position(3, seed, 4, mid_decision=True)
        s = pos.state
        if ENGINE.pending(s) and (s.stack or s.chain or s.resolving):
            break
    else:
        pytest.fail("no game reached a card being resolved")
    seat = s.players[s.current].seat
    action = ENGINE.forfeit(s, seat, pos.seats.index(seat))
    assert refused(SPEC, s, seat, action).code == "flx.leave_later"


def test_leaving_is_refused_once_the_game_is_over_and_to_a_stranger() -> None:
    pos = _position(2, 11, 10)
    assert refused(SPEC, pos.state, "stranger", {"type": "leave", "place": 0}).code == E.UNKNOWN_SEAT
    state, _, _ = forfeit(SPEC, pos, "p0", remaining=["p1"])
    assert refused(SPEC, state, "p1", {"type": "leave", "place": 0}).code == E.GAME_OVER

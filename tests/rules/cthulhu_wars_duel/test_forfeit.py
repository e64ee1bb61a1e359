"""Leaving a running duel (issue #14, bot ruling): the leaver concedes and the other player wins at once,
in any phase and in the middle of any decision; the concession replays from the log and renders."""

from __future__ import annotations

import pytest

from cogs.cthulhu_wars_duel import UI
from cogs.games.ui import Names
from rules.core import errors as E
from tests.rules.cthulhu_wars_duel.helpers import ENGINE, SPEC
from tests.rules.forfeit import Position, forfeit, play_into, refused

SEATS = ["s1", "s2"]
NAMES = Names({"s1": "Alice", "s2": "Борис"})


def _position(seed: int, depth: int, mid_decision: bool = False) -> Position:
    """A game ``depth`` random moves in; with ``mid_decision``, further on until a question (a battle's,
    a choice's) is open on the stack."""
    return play_into(SPEC, SEATS, SPEC.options_model(), seed,
                     lambda s, n: n >= depth and (not mid_decision or bool(s.stack)))


@pytest.mark.parametrize(("seed", "depth", "mid"), [(1, 0, False), (2, 7, False), (3, 40, False), (4, 25, True),
                                                     (5, 90, True), (9, 140, False)])
@pytest.mark.parametrize("leaver", [0, 1])
def test_the_leaver_concedes_and_the_other_wins(seed: int, depth: int, mid: bool, leaver: int) -> None:
    pos = _position(seed, depth, mid)
    assert ENGINE.pending(pos.state), "the position is a running game"
    if mid:
        assert pos.state.stack, "the position is in the middle of a decision"
    seat, other = SEATS[leaver], SEATS[1 - leaver]
    state, events, action = forfeit(SPEC, pos, seat)
    assert action.type == "concede"
    assert state.phase == "over" and not state.stack and state.battle is None and state.move is None
    assert ENGINE.pending(state) == []
    result = ENGINE.result(state)
    assert result is not None
    assert result.winners == [other] and result.ranking == [[other], [seat]] and result.reason == "conceded"
    assert [e.type for e in events] == ["conceded", "game_over"]
    assert events[0].data == {"seat": seat, "winner": other}
    for locale, word in (("en", "concedes"), ("ru", "сдаётся")):
        line = UI.event_text(events[0], locale, NAMES)
        assert line is not None and word in line and "Alice" in line and "Борис" in line
        (announcement,) = UI.announcements(events, locale, NAMES)
        assert NAMES.mention(other) in announcement.splitlines()[-1], "the announcement names the player who stayed"


def test_a_concession_beats_a_doom_lead() -> None:
    """The Doom totals stay on record, but the player who stayed wins even when behind."""
    pos = _position(9, 60)
    pos.state.players[0]["doom"], pos.state.players[1]["doom"] = 5, 20
    action = ENGINE.forfeit(pos.state, SEATS[1], 1)
    assert action is not None
    state, _ = ENGINE.apply(pos.state, SEATS[1], action)  # a hand-edited position: no log rebuilds it
    result = ENGINE.result(state)
    assert result is not None and result.winners == [SEATS[0]] and result.scores == {"s1": 5, "s2": 20}


def test_conceding_is_refused_once_the_game_is_over_and_to_a_stranger() -> None:
    pos = _position(9, 30)
    err = refused(SPEC, pos.state, "stranger", {"type": "concede"})
    assert err.code == E.UNKNOWN_SEAT
    state, _, _ = forfeit(SPEC, pos, "s1")
    for seat in SEATS:
        assert refused(SPEC, state, seat, {"type": "concede"}).code == E.GAME_OVER

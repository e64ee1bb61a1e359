"""Leaving a running game of the LCG (issue #14, bot ruling; the rulebook has no concession, CoC-R139):
the leaver concedes and the opponent wins at once, whatever is being decided; the concession replays from
the log and renders."""

from __future__ import annotations

import pytest

from cogs.coc_lcg import UI
from cogs.games.ui import Names
from rules.core import errors as E
from tests.rules.coc_lcg.helpers import ENGINE, SEATS, SPEC
from tests.rules.forfeit import Position, forfeit, play_into, refused

NAMES = Names({"a": "Alice", "b": "Борис"})
OPTIONS = SPEC.parse_options({"deck1": {"factions": ["agency", "cthulhu"], "packet": "A"},
                              "deck2": {"factions": ["miskatonic", "hastur"], "packet": "B"}})


def _position(seed: int, depth: int, kind: str | None = None) -> Position:
    """A game ``depth`` random moves in; with ``kind``, further on until a decision of that kind is open."""
    return play_into(SPEC, SEATS, OPTIONS, seed,
                     lambda s, n: n >= depth and (kind is None or (bool(s.stack) and s.stack[-1].kind == kind)))


@pytest.mark.parametrize(("seed", "depth", "kind"), [(1, 0, None), (2, 3, "resource"), (3, 30, "commit"),
                                                     (4, 60, "choose"), (5, 90, "react"), (6, 150, None)])
@pytest.mark.parametrize("leaver", [0, 1])
def test_the_leaver_concedes_and_the_opponent_wins(seed: int, depth: int, kind: str | None, leaver: int) -> None:
    pos = _position(seed, depth, kind)
    assert ENGINE.pending(pos.state), "the position is a running game"
    if kind is not None:
        assert pos.state.stack[-1].kind == kind
    seat, other = SEATS[leaver], SEATS[1 - leaver]
    state, events, action = forfeit(SPEC, pos, seat)
    assert action.type == "concede"
    assert state.phase == "over" and not state.stack and not state.tasks and ENGINE.pending(state) == []
    result = ENGINE.result(state)
    assert result is not None
    assert result.winners == [other] and result.ranking == [[other], [seat]] and result.reason == "conceded"
    assert [(e.type, e.seat if e.type == "conceded" else None, e.winner) for e in events] == [
        ("conceded", seat, other), ("game_over", None, other)]
    for locale, word in (("en", "concedes"), ("ru", "сдаётся")):
        line = UI.event_text(events[0], locale, NAMES)
        assert line is not None and word in line and "Alice" in line and "Борис" in line
        over = UI.event_text(events[1], locale, NAMES)
        assert over is not None and "coc_lcg." not in over
        (announcement,) = UI.announcements(events, locale, NAMES)
        assert NAMES.mention(other) in announcement


def test_conceding_is_refused_once_the_game_is_over_and_to_a_stranger() -> None:
    pos = _position(7, 20)
    assert refused(SPEC, pos.state, "stranger", {"type": "concede"}).code == E.UNKNOWN_SEAT
    state, _, _ = forfeit(SPEC, pos, "b")
    for seat in SEATS:
        assert refused(SPEC, state, seat, {"type": "concede"}).code == E.GAME_OVER

"""Which of a seat's own moves it may take back: the pure rule behind "take a move back by agreement".

A take-back rewinds the game to the state before the seat's latest decision. It is allowed only while
nothing after that decision crossed a barrier: chance (a shuffle, a die, a card drawn), something
face-down shown to anyone, or another seat's move (automatic ones included, since even a forced pass tells
the table that seat had nothing to answer with). The engines mark the barriers (``Engine.reveals``), so the
rule is each game's own, not the bot's guess.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from rules.core.spec import GameSpec


@dataclass(frozen=True)
class LoggedStep:
    """One applied step of a game's log, as the take-back rule sees it."""

    seat: str
    auto: bool
    reveals: bool


def takeback_point(steps: Sequence[LoggedStep], seat: str) -> int | None:
    """The index of the step to undo from (the game goes back to the state before it), or ``None`` when
    ``seat`` has no decision it may take back: its latest one, together with the automatic steps it alone
    took after it, provided none of them crossed a barrier."""
    for i in range(len(steps) - 1, -1, -1):
        step = steps[i]
        if step.seat != seat or step.reveals:
            return None
        if not step.auto:
            return i
    return None


def replay_marked(
    spec: GameSpec,
    seats: Sequence[str],
    options: BaseModel | dict[str, Any] | None,
    seed: int,
    log: Iterable[tuple[str, BaseModel | dict[str, Any] | str, bool]],
) -> Iterator[tuple[BaseModel, LoggedStep]]:
    """Replay a log of (seat, action, automatic) from the start, yielding the state before each step with
    the step's take-back marks, so a caller can both find the point and rebuild the state to rewind to."""
    opts = options if isinstance(options, BaseModel) else spec.parse_options(options)
    state = spec.engine.new_game(seats=list(seats), options=opts, seed=seed)
    for seat, raw, auto in log:
        after, events = spec.engine.apply(state, seat, spec.parse_action(raw))
        yield state, LoggedStep(seat=seat, auto=auto, reveals=spec.engine.reveals(state, after, events))
        state = after

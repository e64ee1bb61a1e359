"""Where a seat's take-back would lead, read from the stored log: the pure part of "take a move back by
agreement", so the session service only checks who asks and stores the outcome.

The rule itself is ``rules.core.takeback``: the latest decision of the seat with its own automatic steps
after it, provided none of them crossed a barrier the engine marks (a draw, a shuffle, a die, something
hidden shown) and nobody else moved since. Here the log's current line is replayed to find it, and a
refusal says which step stood in the way, so the player can be told what was revealed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import BaseModel

from bot import history
from bot.storage import LogEntry, SessionRecord
from rules.core import Event
from rules.core.takeback import takeback_point


@dataclass(frozen=True)
class Point:
    """A take-back the seat may ask for: the state before its decision and how many steps go."""

    seat: str
    undo: int
    state: BaseModel
    decision: LogEntry
    """The seat's decision that is taken back (the first of the undone steps)."""


@dataclass(frozen=True)
class Barrier:
    """Why there is nothing to take back: ``reason`` ``nothing`` (the seat made no decision yet),
    ``moved`` (another seat moved after it) or ``revealed`` (a step of the seat's own showed something or
    drew on chance: ``events`` are that step's, for naming what)."""

    reason: str
    entry: LogEntry | None = None
    events: list[Event] = field(default_factory=list)


def find(rec: SessionRecord, entries: list[LogEntry], seat: str) -> Point | Barrier:
    """The take-back ``seat`` may ask for now, or what stands in its way."""
    marked = list(history.marked_line(rec, entries))
    index = takeback_point([m.mark for m in marked], seat)
    if index is not None:
        return Point(seat, len(marked) - index, marked[index].before, marked[index].entry)
    for m in reversed(marked):
        if m.mark.seat != seat:
            return Barrier("moved" if any(x.mark.seat == seat for x in marked) else "nothing", m.entry)
        if m.mark.reveals:
            return Barrier("revealed", m.entry, m.events)
    return Barrier("nothing")

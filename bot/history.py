"""A game's history rebuilt from its stored action log: the log lines of ``/game log``, the steps of
``/game replay``, the "Last moves" of a table after a restart. Nothing here is stored besides the log."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot.storage import LogEntry, SessionRecord
from rules import registry
from rules.core import Event, GameSpec, replay
from rules.core.takeback import LoggedStep

TAKEBACK = "$takeback"
"""The ``type`` of a logged take-back; a ``$`` begins no game's action type, so no action reads as one."""
SEATING = frozenset({"join", "leave"})
"""Actions that change who sits at the table: never taken back (a rebuild seats players from them)."""


class Takeback(BaseModel):
    """A take-back agreed at the table, as the log keeps it: the game's line loses its last ``undo`` steps.
    Logged like a move (its own version), so a replay of the log goes back exactly where the table did."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["$takeback"] = "$takeback"
    undo: int = Field(ge=1)


def takeback_of(entry: LogEntry) -> Takeback | None:
    """The take-back an entry logs, None for a game's own action."""
    if TAKEBACK not in entry.action_json:
        return None
    try:
        return Takeback.model_validate_json(entry.action_json)
    except ValidationError:
        return None


def line(entries: list[LogEntry]) -> list[LogEntry]:
    """The entries the game stands on now: the log with every taken-back step (and the take-back) left out."""
    out: list[LogEntry] = []
    for entry in entries:
        taken = takeback_of(entry)
        if taken is None:
            out.append(entry)
        else:
            del out[max(0, len(out) - taken.undo):]
    return out


@dataclass(frozen=True)
class Step:
    """One logged action and the state and events it produced; ``undone``: how many steps a take-back
    undid (its state is the one it went back to, its events none)."""

    entry: LogEntry
    state: BaseModel
    events: list[Event]
    undone: int = 0


def starting_seats(seats: list[int], entries: list[LogEntry]) -> list[str]:
    """The seats a game started with, from today's seats and its log: walking the log backwards, a
    player who joined mid-game had no seat before, and one who left sat at the place their ``leave``
    logged."""
    out = [str(s) for s in seats]
    for entry in reversed(line(entries)):
        action = json.loads(entry.action_json)
        if action.get("type") == "join":
            out.remove(entry.seat)
        elif action.get("type") == "leave" and action.get("place") is not None and entry.seat not in out:
            out.insert(action["place"], entry.seat)  # (a leave that ended the game kept its seat)
    return out


def initial_state(spec: GameSpec, rec: SessionRecord, entries: list[LogEntry]) -> BaseModel:
    return spec.engine.new_game(starting_seats(rec.seats, entries), spec.parse_options(rec.options), rec.seed)


def rebuild(rec: SessionRecord, entries: list[LogEntry]) -> BaseModel:
    """The state the seed, options, seats and log rebuild: a snapshot's stand-in, and the check of a move
    between databases."""
    spec = registry.get(rec.game_id)
    return replay(spec, starting_seats(rec.seats, entries), rec.options, rec.seed,
                  [(e.seat, e.action_json) for e in line(entries)])


def steps(rec: SessionRecord, entries: list[LogEntry], count: int | None = None) -> Iterator[Step]:
    """The game replayed from its whole log (which says how it was seated), the first ``count`` actions.
    A take-back is a step of its own: the game goes back to the state before the steps it undid, replayed
    again from the start (take-backs are rare; keeping every earlier state would cost memory on every
    replay)."""
    spec = registry.get(rec.game_id)
    state = initial_state(spec, rec, entries)
    done: list[LogEntry] = []
    for entry in entries[:count]:
        taken = takeback_of(entry)
        if taken is None:
            state, events = spec.engine.apply(state, entry.seat, spec.parse_action(entry.action_json))
            done.append(entry)
            yield Step(entry, state, events)
            continue
        del done[max(0, len(done) - taken.undo):]
        state = initial_state(spec, rec, entries)
        for kept in done:
            state, _events = spec.engine.apply(state, kept.seat, spec.parse_action(kept.action_json))
        yield Step(entry, state, [], undone=taken.undo)


@dataclass(frozen=True)
class Marked:
    """One step of the game's current line with its take-back marks and the state before it."""

    entry: LogEntry
    before: BaseModel
    mark: LoggedStep
    events: list[Event]


def marked_line(rec: SessionRecord, entries: list[LogEntry]) -> Iterator[Marked]:
    """The current line replayed with the engine's barrier marks (``Engine.reveals``); a step that changes
    the seating is a barrier too."""
    spec = registry.get(rec.game_id)
    state = initial_state(spec, rec, entries)
    for entry in line(entries):
        action = spec.parse_action(entry.action_json)
        after, events = spec.engine.apply(state, entry.seat, action)
        barrier = spec.engine.reveals(state, after, events) or getattr(action, "type", None) in SEATING
        yield Marked(entry, state, LoggedStep(entry.seat, entry.auto, barrier), events)
        state = after


def state_at(rec: SessionRecord, entries: list[LogEntry], count: int) -> BaseModel:
    """The state after the first ``count`` logged actions (0: as dealt)."""
    state = initial_state(registry.get(rec.game_id), rec, entries)
    for step in steps(rec, entries, count):
        state = step.state
    return state

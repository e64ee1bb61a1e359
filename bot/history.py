"""A game's history rebuilt from its stored action log: the log lines of ``/game log``, the steps of
``/game replay``, the "Last moves" of a table after a restart. Nothing here is stored besides the log."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

from pydantic import BaseModel

from bot.storage import LogEntry, SessionRecord
from rules import registry
from rules.core import Event, GameSpec, replay


@dataclass(frozen=True)
class Step:
    """One logged action and the state and events it produced."""

    entry: LogEntry
    state: BaseModel
    events: list[Event]


def starting_seats(seats: list[int], entries: list[LogEntry]) -> list[str]:
    """The seats a game started with, from today's seats and its log: walking the log backwards, a
    player who joined mid-game had no seat before, and one who left sat at the place their ``leave``
    logged."""
    out = [str(s) for s in seats]
    for entry in reversed(entries):
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
                  [(e.seat, e.action_json) for e in entries])


def steps(rec: SessionRecord, entries: list[LogEntry], count: int | None = None) -> Iterator[Step]:
    """The game replayed from its whole log (which says how it was seated), the first ``count`` actions."""
    spec = registry.get(rec.game_id)
    state = initial_state(spec, rec, entries)
    for entry in entries[:count]:
        state, events = spec.engine.apply(state, entry.seat, spec.parse_action(entry.action_json))
        yield Step(entry, state, events)


def state_at(rec: SessionRecord, entries: list[LogEntry], count: int) -> BaseModel:
    """The state after the first ``count`` logged actions (0: as dealt)."""
    state = initial_state(registry.get(rec.game_id), rec, entries)
    for step in steps(rec, entries, count):
        state = step.state
    return state

"""A game's history rebuilt from its stored action log: the log lines of ``/game log``, the steps of
``/game replay``, the "Last moves" of a table after a restart. Nothing here is stored besides the log."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

from pydantic import BaseModel

from bot.storage import LogEntry, SessionRecord
from rules import registry
from rules.core import Event, GameSpec


@dataclass(frozen=True)
class Step:
    """One logged action and the state and events it produced."""

    entry: LogEntry
    state: BaseModel
    events: list[Event]


def first_seats(rec: SessionRecord, entries: list[LogEntry]) -> list[str]:
    """Players who joined mid-game enter through their logged "join", not at the start."""
    joined = {e.seat for e in entries if json.loads(e.action_json).get("type") == "join"}
    return [str(s) for s in rec.seats if str(s) not in joined]


def initial_state(spec: GameSpec, rec: SessionRecord, entries: list[LogEntry]) -> BaseModel:
    return spec.engine.new_game(first_seats(rec, entries), spec.parse_options(rec.options), rec.seed)


def steps(rec: SessionRecord, entries: list[LogEntry]) -> Iterator[Step]:
    spec = registry.get(rec.game_id)
    state = initial_state(spec, rec, entries)
    for entry in entries:
        state, events = spec.engine.apply(state, entry.seat, spec.parse_action(entry.action_json))
        yield Step(entry, state, events)


def state_at(rec: SessionRecord, entries: list[LogEntry], count: int) -> BaseModel:
    """The state after the first ``count`` logged actions (0: as dealt)."""
    spec = registry.get(rec.game_id)
    state = initial_state(spec, rec, entries)
    for entry in entries[:count]:
        state, _ = spec.engine.apply(state, entry.seat, spec.parse_action(entry.action_json))
    return state

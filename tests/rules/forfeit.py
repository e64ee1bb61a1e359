"""Shared checks for leaving a running game (issue #14): each game's ``test_forfeit.py`` plays seeded random
legal moves into a game, takes a seat out with ``engine.forfeit`` and checks what only it knows; this module
checks what every game owes the bot: the forfeit action is never a legal action, ``apply`` takes it from
the seat whether or not it is that seat's turn, the log with the forfeit in it replays to the same state,
and the views and a determinization of the new state still build.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from rules.core import Event, GameSpec, Rng, RuleError, replay


@dataclass
class Position:
    """A game reached by random legal moves: its state and what rebuilds it (seats it began with, options,
    seed, log)."""

    state: Any
    seats: list[str]
    options: BaseModel
    seed: int
    log: list[tuple[str, str]]


def play_into(
    spec: GameSpec,
    seats: list[str],
    options: BaseModel,
    seed: int,
    stop: Callable[[Any, int], bool],
    max_steps: int = 4000,
) -> Position:
    """Random legal moves (seeded by ``seed``) until ``stop(state, steps)`` holds or the game ends."""
    engine = spec.engine
    rnd = random.Random(seed)
    state = engine.new_game(seats, options, seed)
    log: list[tuple[str, str]] = []
    steps = 0
    while (prompts := engine.pending(state)) and not stop(state, steps) and steps < max_steps:
        seat = rnd.choice(prompts).seat
        action = rnd.choice(engine.legal_actions(state, seat))
        state, _ = engine.apply(state, seat, action)
        log.append((seat, action.model_dump_json()))
        steps += 1
    return Position(state, list(seats), options, seed, log)


def forfeit(spec: GameSpec, pos: Position, seat: str, remaining: list[str] | None = None
            ) -> tuple[Any, list[Event], BaseModel]:
    """Take ``seat`` out through the contract and check what every game owes: the action is none of
    anyone's legal actions, applying it leaves the old state alone, the log with it replays to the new
    state (through JSON, as the bot stores it), and the views and determinizations of the new state build
    for the ``remaining`` seats (by default every seat the game began with)."""
    engine = spec.engine
    action = engine.forfeit(pos.state, seat, pos.seats.index(seat))
    assert action is not None
    for s in pos.seats:
        assert action not in engine.legal_actions(pos.state, s)
    before = pos.state.model_dump_json()
    state, events = engine.apply(pos.state, seat, action)
    assert pos.state.model_dump_json() == before, "apply must work on a copy"
    log = pos.log + [(seat, action.model_dump_json())]
    assert replay(spec, pos.seats, pos.options, pos.seed, log) == state
    assert spec.state_model.model_validate_json(state.model_dump_json()) == state
    still_renders(spec, state, pos.seats if remaining is None else remaining)
    return state, events, action


def still_renders(spec: GameSpec, state: Any, seats: list[str]) -> None:
    """The public view, every remaining seat's view and a determinization for each of them build."""
    engine = spec.engine
    engine.view(state, None).model_dump_json()
    for s in seats:
        engine.view(state, s).model_dump_json()
        engine.determinize(state, s, Rng.from_seed(7))


def refused(spec: GameSpec, state: Any, seat: str, action: BaseModel | dict[str, Any]) -> RuleError:
    """``apply`` refuses ``action`` with a RuleError and leaves the state exactly as it was."""
    before = state.model_dump_json()
    try:
        spec.engine.apply(state, seat, action)
    except RuleError as err:
        assert state.model_dump_json() == before
        return err
    raise AssertionError(f"{seat} {action!r} was accepted")

"""The engine contract, checked on random legal games for any game in the registry.

Each game's property test supplies what only it knows (its invariants, its junk actions, its view leak
check); the loop here checks what every engine owes: a seat that owes a decision has a legal action and
nobody else has one but the game's any-time actions (which the loop takes now and then), illegal or malformed input is refused with a RuleError and changes nothing, states
round-trip through JSON, events go only to their audience, replaying the log rebuilds the state, and the
game ends with a result that ranks every seat.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from rules.core import GameSpec, RuleError, replay

Junk = Callable[[random.Random, list[str]], list[object]]
Check = Callable[[Any], None]


@dataclass
class Playthrough:
    state: Any
    log: list[tuple[str, str]]
    seats: list[str]
    steps: int


@dataclass
class Checks:
    junk: Junk
    every_step: Check = lambda state: None
    views: Check = lambda state: None
    view_every: int = 7
    junk_every: int = 1
    max_steps: int = 20_000
    joiner_prefix: str | None = None  # a game that lets people join mid-game: new seat names
    join_chance: float = 0.0
    any_time: frozenset[str] = frozenset()  # action types open to a seat that owes nothing (CWD-R121)
    any_time_chance: float = 0.0  # how often a seat that owes nothing takes one of them


def refuse_or_equivalent(spec: GameSpec, state: BaseModel, seat: str, raw: object) -> None:
    """Illegal input raises RuleError and leaves the state as it was; input the engine accepts must
    give the same outcome as one of the legal actions (e.g. leaving out a pile the rules force)."""
    engine = spec.engine
    snapshot = state.model_dump_json()
    legal = engine.legal_actions(state, seat)
    try:
        accepted, _ = engine.apply(state, seat, raw)  # type: ignore[arg-type]
    except RuleError:
        pass
    else:
        outcomes = [engine.apply(state, seat, a)[0] for a in legal]
        assert accepted in outcomes, f"illegal action accepted: {seat} {raw!r}"
    assert state.model_dump_json() == snapshot, f"a refused action changed the state: {seat} {raw!r}"


def play_random_game(
    spec: GameSpec, seats: list[str], options: BaseModel, seed: int, policy_seed: int, checks: Checks
) -> Playthrough:
    engine = spec.engine
    rnd = random.Random(policy_seed)
    seats = list(seats)
    first_seats = list(seats)
    state = engine.new_game(seats, options, seed)
    log: list[tuple[str, str]] = []
    steps = 0
    while prompts := engine.pending(state):
        steps += 1
        assert steps < checks.max_steps, "a game must end"
        checks.every_step(state)
        if steps % checks.view_every == 0:
            checks.views(state)
            assert spec.state_model.model_validate_json(state.model_dump_json()) == state
        owing = {p.seat for p in prompts}
        idle: list[tuple[str, BaseModel]] = []
        for seat in seats:
            legal = engine.legal_actions(state, seat)
            if seat in owing:
                assert legal, f"{seat} owes a decision but has no legal action"
            else:
                assert all(a.type in checks.any_time for a in legal), f"{seat} owes nothing but may {legal}"  # type: ignore[attr-defined]
                idle += [(seat, a) for a in legal]
        if steps % checks.junk_every == 0:
            for raw in rnd.sample(checks.junk(rnd, seats), 3):
                refuse_or_equivalent(spec, state, rnd.choice(seats + ["stranger"]), raw)
        if checks.joiner_prefix and len(seats) < spec.max_seats and rnd.random() < checks.join_chance:
            newcomer = f"{checks.joiner_prefix}{len(seats)}"
            state, _ = engine.apply(state, newcomer, {"type": "join"})
            seats.append(newcomer)
            log.append((newcomer, '{"type":"join"}'))
            continue
        if idle and rnd.random() < checks.any_time_chance:
            seat, action = rnd.choice(idle)
        else:
            seat = prompts[0].seat
            action = rnd.choice(engine.legal_actions(state, seat))
        state, events = engine.apply(state, seat, action)
        assert all(e.audience is None or e.audience in seats for e in events)
        log.append((seat, action.model_dump_json()))
    result = engine.result(state)
    assert result is not None
    assert sorted(s for group in result.ranking for s in group) == sorted(seats)
    assert replay(spec, first_seats, options, seed, log) == state
    checks.views(state)
    return Playthrough(state, log, seats, steps)

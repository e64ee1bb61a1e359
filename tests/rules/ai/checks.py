"""Checks every game's ``determinize`` and AI owe, run on positions from random legal games.

- A sample looks the same to the seat it was drawn for (``view`` equal), round-trips through JSON and
  goes on as a game (every seat the engine waits for has a legal action that applies).
- A sample depends only on that view: re-sampling from a sample with the same generator gives the same
  state, i.e. two real states that seat cannot tell apart give the same sample.
- What is hidden varies: over a position's samples, some other seat's view (or the hidden state) differs.
- ``choose_action`` returns a legal action and the same one for states with equal views.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from pydantic import BaseModel

from rules.ai import choose_action
from rules.core import GameSpec, Rng


def positions(
    spec: GameSpec, seats: list[str], options: BaseModel, seed: int, every: int, limit: int = 400
) -> Iterator[Any]:
    """States along one random legal game, every ``every`` actions, and the last one."""
    engine = spec.engine
    rnd = random.Random(seed)
    state = engine.new_game(seats, options, seed)
    steps = 0
    while (prompts := engine.pending(state)) and steps < limit:
        if steps % every == 0:
            yield state
        seat = prompts[0].seat
        state, _ = engine.apply(state, seat, rnd.choice(engine.legal_actions(state, seat)))
        steps += 1
    yield state


def check_sample(spec: GameSpec, state: Any, seat: str, seed: int) -> Any:
    engine = spec.engine
    real = state.model_dump_json()
    sample = engine.determinize(state, seat, Rng.from_seed(seed))
    assert engine.view(sample, seat) == engine.view(state, seat)
    assert spec.state_model.model_validate_json(sample.model_dump_json()) == sample
    # Only the view matters: a sample of the sample, drawn alike, is the sample.
    again = engine.determinize(sample, seat, Rng.from_seed(seed))
    assert again.model_dump_json() == sample.model_dump_json()
    # The real state is left alone.
    assert engine.view(state, seat) == engine.view(sample, seat)
    for prompt in engine.pending(sample):
        actions = engine.legal_actions(sample, prompt.seat)
        assert actions, prompt
        engine.apply(sample, prompt.seat, actions[0])
    # Nor do sampling and playing on the sample touch it anywhere, hidden parts included: a sample may
    # share containers with the real state (Call to Glory's does) only if neither side edits them.
    assert state.model_dump_json() == real
    return sample


def check_positions(
    spec: GameSpec,
    seats: list[str],
    options: BaseModel,
    games: int,
    every: int,
    hidden: Callable[[Any, str], Any],
    limit: int = 400,
) -> int:
    """Run ``check_sample`` over random games and return how many positions showed hidden parts varying
    between samples (``hidden(state, seat)`` extracts them); callers assert that is most of them."""
    varied = 0
    for g in range(games):
        for n, state in enumerate(positions(spec, seats, options, g, every, limit)):
            for seat in seats:
                a = check_sample(spec, state, seat, 1000 * g + n)
                b = check_sample(spec, state, seat, 1000 * g + n + 7)
                if hidden(a, seat) != hidden(b, seat):
                    varied += 1
    return varied


def check_choices(
    spec: GameSpec, seats: list[str], options: BaseModel, games: int, every: int, level: str = "easy",
    limit: int = 400,
) -> int:
    """The AI's action is legal and the same for two states with equal views; returns decisions checked."""
    engine = spec.engine
    checked = 0
    for g in range(games):
        for n, state in enumerate(positions(spec, seats, options, 50 + g, every, limit)):
            for prompt in engine.pending(state)[:1]:
                seat = prompt.seat
                twin = engine.determinize(state, seat, Rng.from_seed(99 + n))
                assert engine.view(twin, seat) == engine.view(state, seat)
                a = choose_action(spec, state, seat, seed=n, level=level)
                b = choose_action(spec, twin, seat, seed=n, level=level)
                assert a in engine.legal_actions(state, seat)
                assert a == b, (a, b)
                checked += 1
    return checked


def play_with_ai(
    spec: GameSpec, seats: list[str], options: BaseModel, ai_seat: str, seed: int, level: str = "easy",
    limit: int = 3000,
) -> int:
    """A game where ``ai_seat`` is the AI and the rest play at random; every AI action must be legal
    (``apply`` refuses anything else). Returns how many decisions the AI made."""
    engine = spec.engine
    rnd = random.Random(seed)
    state = engine.new_game(seats, options, seed)
    made = steps = 0
    while (prompts := engine.pending(state)) and steps < limit:
        owing = [p.seat for p in prompts]
        seat = ai_seat if ai_seat in owing else owing[0]
        legal = engine.legal_actions(state, seat)
        if seat == ai_seat:
            act = choose_action(spec, state, seat, seed=seed * 7919 + steps, level=level)
            assert act in legal
            made += 1
        else:
            act = rnd.choice(legal)
        state, _ = engine.apply(state, seat, act)
        steps += 1
    return made

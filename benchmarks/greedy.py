"""The one-ply greedy baseline the AI is measured against (benchmarks only, not an AI level).

It plays what looks best one action ahead: each legal action is applied to one sample of the state as
the seat could imagine it (``engine.determinize``, so it never peeks) and the result is judged by the
game's own evaluation from ``rules/<game>/ai.py`` (a finished game by its result); ties are broken at
random. It is the strongest opponent one can build without looking further ahead, which is what makes
beating it a fair test of the search. It weighs the moves the AI seat searches (the game's ``prune``
hook), so it cannot wander into the endless free loops the hook cuts (opening and cancelling a Move in
Cthulhu Wars: Duel, the Necronomicon under Play All in Cthulhu Fluxx) that the search avoids too.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from rules.ai.hooks import hooks_for
from rules.ai.search import terminal_rewards
from rules.core import GameSpec, Rng, RuleError


def greedy_action(spec: GameSpec, state: Any, seat: str, rnd: random.Random) -> BaseModel:
    engine = spec.engine
    actions = engine.legal_actions(state, seat)
    if len(actions) == 1:
        return actions[0]
    ai = hooks_for(spec)
    if ai.prune is not None:
        actions = ai.prune(state, seat, actions) or actions
    sample = engine.determinize(state, seat, Rng.from_seed(rnd.getrandbits(63)))
    best: list[BaseModel] = []
    best_value = -1.0
    for act in actions:
        try:
            after, _ = engine.apply(sample, seat, act)
        except RuleError:
            continue
        done = terminal_rewards(spec, after)
        rewards: Mapping[str, float] = done if done is not None else ai.evaluate(after) if ai.evaluate is not None else {}
        value = rewards.get(seat, 0.5)
        if value > best_value + 1e-9:
            best, best_value = [act], value
        elif abs(value - best_value) <= 1e-9:
            best.append(act)
    return rnd.choice(best or actions)

"""AI seats for every game: one information-set Monte Carlo tree search over the engine contract.

``choose_action(spec, state, seat, seed=..., level=...)`` picks an AI seat's move and ``hint(...)`` ranks
a seat's best moves with the same search (``rules.ai.hint``). The search looks at the real
state only through ``legal_actions`` and ``determinize`` for ``seat``, both of which depend on nothing
that seat cannot see, so two states with the same view for it (and the same seed) get the same action.
"""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel

from rules.ai.hint import HintMove, hint
from rules.ai.hooks import LEVELS, GameAI, hooks_for
from rules.ai.search import Searcher
from rules.core import GameSpec


def choose_action(spec: GameSpec, state: Any, seat: str, *, seed: int, level: str = "normal") -> BaseModel:
    """One of ``spec.engine.legal_actions(state, seat)``, chosen by a search whose budget and exploration
    ``level`` sets ("easy", "normal", "hard"); deterministic for a given seed. ValueError when ``seat``
    has nothing to decide or the level is unknown."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; known: {LEVELS}")
    actions = spec.engine.legal_actions(state, seat)
    if not actions:
        raise ValueError(f"{seat!r} has no decision to make")
    if len(actions) == 1:
        return actions[0]
    ai = hooks_for(spec)
    searcher = Searcher(spec, ai, random.Random(seed), level)
    candidates = searcher.legal(state, seat)
    if len(candidates) == 1:
        return candidates[0]
    if ai.policy is not None and level in ai.policy_levels:
        return ai.policy(state, seat, candidates, searcher.rnd)
    return searcher.run(state, seat, candidates, ai.iterations_for(state, level))


__all__ = ["LEVELS", "GameAI", "HintMove", "choose_action", "hint"]

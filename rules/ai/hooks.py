"""What a game may add to the generic searcher, and how the searcher finds it.

Every game works with the defaults (uniform random rollouts played to the end, a win worth 1). A game's
``rules/<game>/ai.py`` exports ``AI = GameAI(...)`` with what makes it play well and fast: an estimate of
an unfinished game (so rollouts can stop early), a better rollout policy, pruning of silly moves, and the
iteration budgets that keep its decisions within the time targets.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from rules.core import GameSpec

# seat -> how good the position is for that seat, in [0, 1] (1 = a sure win).
Evaluate = Callable[[Any], Mapping[str, float]]
# (state, seat, legal actions, generator) -> the action a quick simulated player takes.
Rollout = Callable[[Any, str, list[BaseModel], random.Random], BaseModel]
# (state, seat, legal actions) -> the actions worth searching (never empty when the input is not). At the
# root it sees the real state, so it must look only at what ``seat`` can see (the table, its own hand).
Prune = Callable[[Any, str, list[BaseModel]], list[BaseModel]]
Budget = Callable[[Any, str], int]

LEVELS = ("easy", "normal", "hard")
"""Stored level names. Players see "hard" as "thorough": a bigger budget of the same search, which duels
against normal have not shown to be clearly stronger (benchmarks/results/README.md)."""


@dataclass(frozen=True)
class GameAI:
    """A game's additions; every field has a default that works for any engine."""

    evaluate: Evaluate | None = None
    rollout: Rollout | None = None
    prune: Prune | None = None
    # Search iterations per level: one iteration = one determinization, one tree walk, one rollout.
    iterations: Mapping[str, int] = field(default_factory=lambda: {"easy": 40, "normal": 200, "hard": 800})
    # (state, level) -> the iterations of one decision, for a game whose best budget depends on the table
    # (the number of players, say); None: ``iterations[level]``. It sees the real state, so it must look
    # only at public facts.
    budget: Budget | None = None
    # Simulated actions after the tree before the position is judged (``evaluate``) instead of played out;
    # without ``evaluate`` rollouts run to the end of the game.
    rollout_depth: int = 60
    # UCB1's exploration constant per level. Evaluated rewards of sibling moves often differ by a few
    # hundredths, so 0.7 spreads visits almost evenly (a flat Monte Carlo over the root's moves); a lower
    # constant lets a larger budget go into the lines that look best and read them deeper.
    exploration: Mapping[str, float] = field(default_factory=lambda: {"easy": 0.7, "normal": 0.7, "hard": 0.15})
    # A game whose search is too dear for some levels may decide there at once with its own policy
    # (same signature as ``rollout``) instead of searching; ``policy_levels`` names those levels. Like
    # ``prune`` it sees the real state, so it must look only at what ``seat`` can see. By default every
    # level searches.
    policy: Rollout | None = None
    policy_levels: frozenset[str] = frozenset()

    def iterations_for(self, state: Any, level: str) -> int:
        """The search budget of one decision at ``level`` in ``state``."""
        return self.budget(state, level) if self.budget is not None else self.iterations[level]


def hooks_for(spec: GameSpec) -> GameAI:
    """The game's ``AI`` from ``rules/<game>/ai.py``, or the defaults when it has none."""
    try:
        module = importlib.import_module(f"rules.{spec.id}.ai")
    except ModuleNotFoundError as exc:
        if exc.name != f"rules.{spec.id}.ai":
            raise
        return GameAI()
    ai = getattr(module, "AI", None)
    return ai if isinstance(ai, GameAI) else GameAI()

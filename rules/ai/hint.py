"""A hint for a human seat: the moves the AI would weigh most from that seat's place, with how they fared.

It is the very search an AI seat at ``level`` runs (same budget, same game hooks, same seed handling),
so it sees only what the seat sees (``legal_actions`` and ``determinize`` for that seat) and the hint
for two states the seat cannot tell apart is the same. It never returns a state: the caller's state is
left as it was, and asking for a hint is not a move. Games whose AI decides by a hand-written policy at
some level (Eldritch Horror at normal) are still searched here, because a hint owes each move a share of
simulated games won, which only the search gives.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from rules.ai.hooks import LEVELS, hooks_for
from rules.ai.search import Searcher
from rules.core import GameSpec


@dataclass(frozen=True)
class HintMove:
    """One suggested move. ``win_share`` is the mean result of the simulated games that began with it,
    0 … 1 from the seat's side (a game cut short by the game's evaluation counts as its estimated chance,
    a shared win as a half); ``simulations`` is how many there were."""

    action: BaseModel
    win_share: float
    simulations: int


def hint(
    spec: GameSpec, state: Any, seat: str, *, seed: int, level: str = "normal", top: int = 3
) -> list[HintMove]:
    """The ``top`` moves the search at ``level`` ranks best for ``seat``, best first; only moves that
    were simulated at least once, so fewer than ``top`` when the search reached fewer. A seat with a
    single legal move gets that move, simulated like any other. ValueError when ``seat`` has nothing to
    decide, the level is unknown or ``top`` is below 1."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; known: {LEVELS}")
    if top < 1:
        raise ValueError("top must be at least 1")
    if not spec.engine.legal_actions(state, seat):
        raise ValueError(f"{seat!r} has no decision to make")
    ai = hooks_for(spec)
    searcher = Searcher(spec, ai, random.Random(seed), level)
    candidates = searcher.legal(state, seat)
    ranked = searcher.ranked(state, seat, candidates, ai.iterations_for(state, level))
    return [HintMove(action, round(value, 4), visits) for action, visits, value in ranked if visits][:top]

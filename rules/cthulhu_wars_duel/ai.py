"""What makes the generic searcher play Cthulhu Wars: Duel well and fast.

The game is won on Doom (CWD-R130s), so the estimate of an unfinished game is each faction's Doom, plus
what its face-down Elder Signs are worth on average (2 … 1 … 3, about 1.7 each), plus what feeds future
Doom: Gates held (Doom and Power every round), Power in hand and units on the map. The difference with
the rival is turned into a win chance.

Backing out of a Move (``CancelMove``) undoes it for free, so a seat that judges the Move and its undo
alike could open and cancel Moves for ever (a one-ply greedy seat did, every game it moved first); the
searcher and every baseline built on these hooks leave it out and choose their action before opening a
Move instead.
"""

from __future__ import annotations

import math

from pydantic import BaseModel

from rules.ai.hooks import GameAI
from rules.cthulhu_wars_duel.actions import CancelMove
from rules.cthulhu_wars_duel.state import CwdState

_SCALE = 6.0


def _worth(state: CwdState, p: int) -> float:
    pl = state.players[p]
    gates = sum(1 for c in state.gates.values() if c == p)
    units = sum(n for kinds in state.units[p].values() for n in kinds.values())
    return pl["doom"] + 1.7 * len(pl["signs"]) + 2.5 * gates + 0.25 * pl["power"] + 0.3 * units + len(pl["books"])


def evaluate(state: CwdState) -> dict[str, float]:
    a, b = _worth(state, 0), _worth(state, 1)
    lead = 1.0 / (1.0 + math.exp(-(a - b) / _SCALE))
    return {state.seats[0]: lead, state.seats[1]: 1.0 - lead}


def prune(state: CwdState, seat: str, actions: list[BaseModel]) -> list[BaseModel]:
    """Every action but the undo of an open Move (when anything else is left)."""
    return [a for a in actions if not isinstance(a, CancelMove)] or actions


AI = GameAI(evaluate=evaluate, prune=prune, iterations={"easy": 30, "normal": 110, "hard": 500}, rollout_depth=14)

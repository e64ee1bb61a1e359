"""What makes the generic searcher play Call to Glory well and fast.

A round scores the values of the characters in front of each player (CTG-R13), so the estimate of an
unfinished game is each player's banked total plus the sets now out plus task bonus already earned,
compared with the best rival's. Simulated players lay out a set whenever they can, the most valuable
character first (a discard scores nothing), which makes rollouts much closer to real play than random
moves; everything else (draws, discard choices) stays random.
"""

from __future__ import annotations

import math
import random

from pydantic import BaseModel

from rules.ai.hooks import GameAI
from rules.call_to_glory.actions import LayOut
from rules.call_to_glory.state import CtgState

_SCALE = 12.0  # points at which a lead counts as about a 3:1 favourite


def evaluate(state: CtgState) -> dict[str, float]:
    points = {p.seat: p.total + sum(p.sets) + p.round_bonus for p in state.players}
    out = {}
    for seat, mine in points.items():
        rival = max(v for s, v in points.items() if s != seat)
        out[seat] = 1.0 / (1.0 + math.exp(-(mine - rival) / _SCALE))
    return out


def rollout(state: CtgState, seat: str, actions: list[BaseModel], rnd: random.Random) -> BaseModel:
    lays = [a for a in actions if isinstance(a, LayOut)]
    if lays:
        top = max(a.character for a in lays)
        return rnd.choice([a for a in lays if a.character == top])
    return actions[rnd.randrange(len(actions))]


AI = GameAI(
    evaluate=evaluate,
    rollout=rollout,
    iterations={"easy": 60, "normal": 300, "hard": 1500},
    rollout_depth=40,
)

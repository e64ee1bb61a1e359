"""What makes the generic searcher play Eldritch Horror well and fast.

The investigators win together by solving mysteries (EH-R74/R75) before Doom runs out (EH-R33/R34), so
the estimate of an unfinished game is shared by every seat: mysteries solved and progress on the current
one count for, Doom spent, open gates, monsters on the board and Eldritch tokens against; investigators in
good shape (health, sanity, clues, assets) count a little for. A win is worth 1 to every seat.
"""

from __future__ import annotations

import math

from rules.ai.hooks import GameAI
from rules.eldritch_horror.state import EhState


def _worth(state: EhState) -> float:
    active = [i for i in state.investigators if i["status"] == "active"]
    shape = sum(i["health"] + i["sanity"] + 1.5 * len(i["clues"]) + len(i["assets"]) + len(i["artifacts"])
                + 0.5 * len(i["spells"]) - len(i["conditions"]) for i in active)
    mystery = state.mystery["tokens"] if state.mystery else 0
    return (6.0 * len(state.solved) + 1.0 * mystery + 0.8 * state.doom - 1.2 * len(state.gates)
            - 0.3 * len(state.monsters) - 4.0 * state.awakened
            + 0.25 * shape - 3.0 * (len(state.investigators) - len(active)))


def evaluate(state: EhState) -> dict[str, float]:
    value = 1.0 / (1.0 + math.exp(-(_worth(state) - 15.0) / 8.0))
    return {seat: value for seat in state.seats}


AI = GameAI(evaluate=evaluate, iterations={"easy": 20, "normal": 60, "hard": 300}, rollout_depth=20)

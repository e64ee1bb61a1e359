"""What makes the generic searcher play Eldritch Horror well and fast.

The investigators win together by solving mysteries (EH-R74/R75) before Doom runs out (EH-R33/R34), so
the estimate of an unfinished game is shared by every seat: mysteries solved and progress on the current
one count for, Doom spent, open gates, monsters on the board and Eldritch tokens against; investigators in
good shape (health, sanity, clues, assets) count a little for. A win is worth 1 to every seat.
Simulated investigators act with a purpose (see ``rollout``), since random ones waste whole rounds.
"""

from __future__ import annotations

import math
import random

from pydantic import BaseModel

from rules.ai.hooks import GameAI
from rules.eldritch_horror.actions import Choose
from rules.eldritch_horror.data import SKILLS
from rules.eldritch_horror.state import EhState

# Encounter choices that move the game towards a win: clue (research) encounters, gates, mysteries.
_PROGRESS_WORDS = ("research", "other_world", "gate", "clue", "mystery", "expedition")


def _worth(state: EhState) -> float:
    active = [i for i in state.investigators if i["status"] == "active"]
    shape = sum(i["health"] + i["sanity"] + 1.5 * len(i["clues"]) + len(i["assets"]) + len(i["artifacts"])
                + 0.5 * len(i["spells"]) - len(i["conditions"]) for i in active)
    mystery = state.mystery["tokens"] if state.mystery else 0
    clues = sum(len(i["clues"]) for i in active)
    return (10.0 * len(state.solved) + 3.0 * mystery + 1.0 * state.doom - 1.5 * len(state.gates)
            - 0.3 * len(state.monsters) - 4.0 * state.awakened + 1.5 * min(clues, 6)
            + 0.2 * shape - 3.0 * (len(state.investigators) - len(active)))


def evaluate(state: EhState) -> dict[str, float]:
    value = 1.0 / (1.0 + math.exp(-(_worth(state) - 20.0) / 10.0))
    return {seat: value for seat in state.seats}


def rollout(state: EhState, seat: str, actions: list[BaseModel], rnd: random.Random) -> BaseModel:
    """Simulated investigators use their actions (ending early wastes them), travel towards clues and
    gates, and take encounters that advance a mystery; anything else is random."""
    options = [a.option for a in actions if isinstance(a, Choose)]
    if len(options) != len(actions):
        return actions[rnd.randrange(len(actions))]
    targets = set(state.clues) | set(state.gates)
    useful = [i for i, o in enumerate(options)
              if (o.startswith("travel:") and o[7:] in targets) or any(w in o for w in _PROGRESS_WORDS)]
    if useful and rnd.random() < 0.7:
        return actions[rnd.choice(useful)]
    busy = [i for i, o in enumerate(options) if o != "end"]
    return actions[rnd.choice(busy or range(len(actions)))]


_SKILLS = frozenset(SKILLS)


def _shift(option: str) -> bool:
    a, sep, b = option.partition(">")
    return bool(sep) and a in _SKILLS and b in _SKILLS


def prune(state: EhState, seat: str, actions: list[BaseModel]) -> list[BaseModel]:
    """Free moves that can be undone for free are cut, or a search that sees no gain either way repeats
    them for ever: inside a trade giving and taking back (the AI closes a trade at once and does not open
    one), Lola Hayes's one-point improvement shifts (the AI keeps her improvements where they are)."""
    kind = state.stack[-1].kind if state.stack else ""
    options = [a for a in actions if isinstance(a, Choose)]
    if kind == "trade" or (any(a.option == "done" for a in options) and any(_shift(a.option) for a in options)):
        return [a for a in options if a.option == "done"] or actions
    if kind == "action":
        return [a for a in options if not a.option.startswith("trade")] or actions
    return actions


AI = GameAI(evaluate=evaluate, rollout=rollout, prune=prune, iterations={"easy": 20, "normal": 60, "hard": 300}, rollout_depth=20)

"""What makes the generic searcher play Eldritch Horror well and fast.

The investigators win together by solving mysteries (EH-R74/R75) before Doom runs out (EH-R33/R34), so
the estimate of an unfinished game is shared by every seat (:func:`policy.worth`). A search iteration over
an EH round costs dozens of engine steps, so the normal level plays the hand-written policy of
``policy.py`` at once (its fixed rules, and a short look-ahead for the small choices); easy and hard
search, with that policy's cheap form in their rollouts.
"""

from __future__ import annotations

import math

from pydantic import BaseModel

from rules.ai.hooks import GameAI
from rules.eldritch_horror.actions import Choose
from rules.eldritch_horror.data import SKILLS
from rules.eldritch_horror.engine import EldritchHorrorEngine
from rules.eldritch_horror.policy import make_decide, quick, worth
from rules.eldritch_horror.state import EhState


def evaluate(state: EhState) -> dict[str, float]:
    """The shared estimate: :func:`policy.worth` squashed into [0, 1], the same for every seat."""
    value = 1.0 / (1.0 + math.exp(-(worth(state) - 60.0) / 25.0))
    return dict.fromkeys(state.seats, value)


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


AI = GameAI(evaluate=evaluate, rollout=quick, prune=prune, iterations={"easy": 20, "normal": 60, "hard": 100},
            rollout_depth=20, policy=make_decide(EldritchHorrorEngine()), policy_levels=frozenset({"normal"}))

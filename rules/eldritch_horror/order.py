"""Whether the order of several reckonings can change anything (EH-R35: the lead orders them).

Asking the lead to order six Shoggoths healing themselves is a chore with no decision in it. Each pending
reckoning gets a *reach*: the empty set when it only touches itself (its own monster's health, its own
card's Eldritch tokens, a die roll that may advance doom), the investigators it hurts when it only takes
health or sanity from investigators where it stands, or ``None`` when it can touch anything (moving,
spawning, choosing, conditions ...). Two reckonings interact when one reaches everything and the other
reaches something, or when both hurt the same investigator; the lead is asked only if some pair interacts.
"""

from __future__ import annotations

from typing import Any

from rules.eldritch_horror import people as P
from rules.eldritch_horror.data import load
from rules.eldritch_horror.state import EhState

C = load()
Reach = frozenset[int] | None
_HURTS = ({"op": "lose_health", "n": 1}, {"op": "lose_sanity", "n": 1})
_LOCAL = ("each_on_this_space", "each_on_this_or_adjacent_space")


def reach(state: EhState, effects: list[dict[str, Any]], ctx: dict[str, Any]) -> Reach:
    """What one reckoning can touch besides itself (see the module text); ``None``: anything."""
    out: set[int] = set()
    for o in effects:
        name = o["op"]
        if name == "this_monster_recovers_all_health":
            continue
        if name == "roll_dice" and all(e["op"] == "advance_doom" for eff in o["outcomes"].values() for e in eff):
            continue
        if name == "remove_eldritch" and o.get("where") == "this_card" and isinstance(o.get("n"), int):
            card = next((m for m in state.in_play if m["id"] == ctx.get("card")), None)
            if card is not None and (card["eldritch"] > o["n"] or not C.mythos[card["id"]].get("on_zero_eldritch")):
                continue  # tokens left afterwards: nothing is set off
            return None
        if name == "for_investigators" and o["who"] in _LOCAL and all(e in _HURTS for e in o["effects"]):
            out |= set(P.target_investigators(state, o["who"], ctx))
            continue
        return None
    return frozenset(out)


def order_matters(state: EhState, items: list[tuple[list[dict[str, Any]], dict[str, Any]]]) -> bool:
    """True when resolving ``items`` (effects, context) in another order could end differently."""
    reaches = [reach(state, effects, ctx) for effects, ctx in items]
    for k, a in enumerate(reaches):
        for b in reaches[k + 1:]:
            if a is None and b is None:
                return True
            if (a is None and b) or (b is None and a) or (a and b and a & b):
                return True
    return False


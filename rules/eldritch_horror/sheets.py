"""Investigator sheet abilities and the card abilities that act like them (extra actions, trades at a
distance, clue gifts, Clairvoyance): each is an op the data names in a sheet's or card's "action"."""

from __future__ import annotations

from typing import Any

from rules.eldritch_horror import people as P
from rules.eldritch_horror import world as W
from rules.eldritch_horror.data import load
from rules.eldritch_horror.machine import Ctx, Events, Op, ask, ev, op, pick, resume
from rules.eldritch_horror.phases import action_options, draw_encounter, move_item, take_action, trade_options
from rules.eldritch_horror.state import EhState

C = load()


@resume("extra_action")
def _resume_extra(state: EhState, frame: Any, choice: str, events: Events) -> None:
    """An extra action (Charlie Kane) is taken at once and does not use up one of the investigator's two."""
    if choice == "skip":
        return
    state.investigators[frame.params["inv"]]["extra"] += 1
    take_action(state, frame, choice, events)


@op("grant_extra_action")
def _grant_extra(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    i = ctx["inv"]
    if o.get("who") == "self":
        state.investigators[i]["extra"] += 1
        return
    names = [state.investigators[j]["name"] for j in W.active(state) if j != i]
    who = pick(state, ctx, o, names)
    if who is None:
        return
    j = next(j for j in W.active(state) if state.investigators[j]["name"] == who)
    opts = [x for x in action_options(state, j) if x != "end"]
    ask(state, "extra_action", j, ["skip", *opts])


@op("swap_clues")
def _swap_clues(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """Jacqueline Fine: trade clues with an investigator anywhere."""
    i = ctx["inv"]
    names = [state.investigators[j]["name"] for j in W.active(state) if j != i]
    who = pick(state, ctx, o, names)
    if who is None:
        return
    j = next(j for j in W.active(state) if state.investigators[j]["name"] == who)
    ask(state, "trade", i, trade_options(state, i, j, clues_only=True), partner=j, clues_only=True)


@op("give_away")
def _give_away(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """Wireless Report (clues) and Delivery Service (items): hand things to an investigator anywhere."""
    i = ctx["inv"]
    if "to" not in o:
        names = [state.investigators[j]["name"] for j in W.active(state) if j != i]
        who = pick(state, ctx, o, names)
        if who is None:
            return
        o = {"op": "give_away", "what": o["what"], "to": who}
    inv = state.investigators[i]
    if o["what"] == "clue":
        items = ["clue"] * bool(inv["clues"])
    else:
        items = [f"asset:{a}" for a in inv["assets"] if "item" in P.traits(C.assets[a])]
        items += [f"artifact:{a}" for a in inv["artifacts"] if "item" in P.traits(C.artifacts[a])]
    if not items:
        return
    choice = o.get("choice") or pick(state, ctx, o, ["done", *sorted(set(items))])
    if choice in (None, "done"):
        return
    j = next(j for j in W.active(state) if state.investigators[j]["name"] == o["to"])
    move_item(state, inv, state.investigators[j], choice)
    ev(events, "traded", source=inv["name"], target=o["to"], item=choice)
    state.work[-1]["ops"].insert(0, {"op": "give_away", "what": o["what"], "to": o["to"]})


@op("trade_anywhere")
def _trade_anywhere(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """Mi-Go Brain Case: a trade with an investigator anywhere."""
    i = ctx["inv"]
    names = [state.investigators[j]["name"] for j in W.active(state) if j != i]
    who = pick(state, ctx, o, names)
    if who is None:
        return
    j = next(j for j in W.active(state) if state.investigators[j]["name"] == who)
    if state.investigators[j]["seat"] != state.investigators[i]["seat"]:
        ask(state, "trade_consent", j, ["allow", "refuse"], partner=i, free=True, swap=True)
    else:
        ask(state, "trade", i, trade_options(state, i, j), partner=j, swap=True)


@resume("swap_places")
def _resume_swap(state: EhState, frame: Any, choice: str, events: Events) -> None:
    """Mi-Go Brain Case: after the trade the two may trade places too."""
    if choice == "swap":
        a, b = state.investigators[frame.params["inv"]], state.investigators[frame.params["partner"]]
        there, here = b["space"], a["space"]
        P.move_to(state, frame.params["inv"], there, events)
        P.move_to(state, frame.params["partner"], here, events)


@op("remote_research")
def _remote_research(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """Clairvoyance: a research encounter at another space with a clue, as if there (monsters ignored)."""
    i = ctx["inv"]
    here = state.investigators[i]["space"]
    space = pick(state, ctx, o, sorted(c for c in state.clues if c != here))
    if space is None:
        return
    inv_ctx = {k: v for k, v in ctx.items() if k not in ("card", "card_kind", "spell", "successes", "passed")}
    draw_encounter(state, "research", space, {**inv_ctx, "remote": space}, events)


@op("shift_health_sanity")
def _shift(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """Lily Chen: spend health to recover as much sanity, or the other way round."""
    i = ctx["inv"]
    inv = state.investigators[i]
    data = C.investigators[inv["name"]]
    opts = [f"health>sanity:{k}" for k in range(1, min(inv["health"] - 1, data["sanity"] - inv["sanity"]) + 1)]
    opts += [f"sanity>health:{k}" for k in range(1, min(inv["sanity"] - 1, data["health"] - inv["health"]) + 1)]
    choice = pick(state, ctx, o, opts)
    if choice is None:
        return
    way, _, k = choice.partition(":")
    src, dst = way.split(">")
    inv[src] -= int(k)
    P.recover(state, i, dst, int(k))


@op("shift_improvement")
def _shift_improvement(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """Lola Hayes: move improvement points from one skill to others, one point at a time, until done."""
    inv = state.investigators[ctx["inv"]]
    improve = inv["improve"]
    opts = [f"{a}>{b}" for a in improve if improve[a] for b in improve if b != a and improve[b] < 2]
    if not opts:
        return
    choice = pick(state, ctx, o, ["done", *opts])
    if choice in (None, "done"):
        return
    a, b = choice.split(">")
    inv["improve"][a] -= 1
    inv["improve"][b] += 1
    state.work[-1]["ops"].insert(0, {"op": "shift_improvement"})


@op("arrange_gate_stack")
def _arrange(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """Akachi Onyele: look at the top two gates; one stays on top, the other goes to the bottom."""
    if len(state.gate_stack) < 2:
        return
    top, second = state.gate_stack[-1], state.gate_stack[-2]
    keep = pick(state, ctx, o, sorted({f"keep:{top}", f"keep:{second}"}))
    if keep is None:  # the two gates are now shown with the question: a take-back may not cross this
        ev(events, "gates_seen", investigator=state.investigators[ctx["inv"]]["name"])
        return
    keep = keep.split(":", 1)[1]
    other = second if keep == top else top
    state.gate_stack = [other, *list(state.gate_stack[:-2]), keep]


@op("diana_cultist")
def _diana(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """Diana Stanley: discard every monster here, or send a Cultist here to any space."""
    i = ctx["inv"]
    here = state.investigators[i]["space"]
    cultist = next((m for m in W.monsters_on(state, here) if W.TOKENS[m["id"]] == "Cultist"), None)
    if cultist is None:
        return
    choice = pick(state, ctx, o, ["discard_all", *[f"move:{s}" for s in sorted(C.spaces) if s != here]])
    if choice is None:
        return
    if choice == "discard_all":
        for m in list(W.monsters_on(state, here)):
            if not W.is_epic(m["id"]):
                W.remove_monster(state, m["id"], events, defeated=False)
    else:
        cultist["space"] = choice.split(":", 1)[1]
        ev(events, "monster_moved", id=cultist["id"], space=cultist["space"])


@op("hand_over")
def _hand_over(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    names = [state.investigators[j]["name"] for j in W.active(state)]
    who = pick(state, ctx, o, names)
    if who is not None:
        j = next(j for j in W.active(state) if state.investigators[j]["name"] == who)
        P.gain_asset(state, j, o["card"], events, {**ctx, "inv": j})

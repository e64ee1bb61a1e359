"""Ops on what investigators hold and suffer: gaining and losing cards and conditions, and losses that a
card can stop (Bandages, Whiskey, Grotesque Statue, Flesh Ward, Instill Bravery)."""

from __future__ import annotations

from typing import Any

from rules.eldritch_horror import world as W
from rules.eldritch_horror.data import load
from rules.eldritch_horror.machine import Ctx, Events, Op, ask, ev, op, pick, push, redo, resume
from rules.eldritch_horror.people import (
    acting,
    alive,
    conditions_with_trait,
    discard_condition,
    draw_matching,
    gain_asset,
    gain_condition,
    has_condition,
    kind_of,
    lose,
    refill_reserve,
    spend_clues,
    target_investigators,
    traits,
)
from rules.eldritch_horror.state import EhState

C = load()


def preventers(state: EhState, i: int, what: str, tried: list[str]) -> list[str]:
    """Cards that can stop a loss: a one-shot item on the same space (Bandages, Whiskey) or a ward spell
    anyone holds, once per round (Flesh Ward, Instill Bravery)."""
    here = state.investigators[i]["space"]
    out = []
    for j in W.active(state):
        other = state.investigators[j]
        for a in other["assets"]:
            rule = (C.assets[a].get("mechanics") or {}).get("prevent")
            if rule and rule["what"] == what and other["space"] == here:
                out.append(f"use:{a}@{other['name']}")
        if j == i:  # Grotesque Statue: a clue, once per round, cancels one whole loss of its owner
            for a in other["artifacts"]:
                rule = (C.artifacts[a].get("mechanics") or {}).get("prevent")
                if rule and rule["what"] == what and len(other["clues"]) >= rule["cost_clues"] \
                        and f"prevent:{a}" not in other["used"]:
                    out.append(f"use:{a}@{other['name']}")
        for c in other["spells"]:
            rule = C.spells[kind_of(c)].get("prevent_cast")
            if rule and rule["what"] == what and f"cast:{kind_of(c)}" not in other["used"]:
                out.append(f"cast:{kind_of(c)}@{other['name']}")
    return sorted(set(out) - set(tried))


@op("lose_health", "lose_sanity")
def _lose(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    i = acting(state, ctx)
    if i is None:
        return
    what = o["op"].split("_")[1]
    n = W.amount(state, o.get("n", 1), ctx)
    if o.get("after_cast"):
        n = max(0, n - state.shield.pop(str(i), 0))
    tried = list(o.get("tried", []))
    choice = o.get("choice")
    if choice is None:
        options = preventers(state, i, what, tried) if n > 0 else []
        if not options:
            lose(state, i, what, n, events)
            return
        helpers = [k for k in W.active(state) if k != i
                   and any(c.endswith("@" + state.investigators[k]["name"]) for c in options)]
        if helpers:  # another's card is spent by its owner (Bandages: "discard it"), so the owner decides
            j = helpers[0]
            offer = [c for c in options if c.endswith("@" + state.investigators[j]["name"])]
            ask(state, "prevent_other", j, [*offer, "decline"],
                op={"op": o["op"], "n": n, "tried": tried, "offer": offer}, partner=i)
            return
        ask(state, "prevent", i, ["take", *options], op={"op": o["op"], "n": n, "tried": tried})
        return
    if choice == "decline":  # that owner keeps their cards for this loss; the next helper (or you) decides
        _lose(state, ctx, {"op": o["op"], "n": n, "tried": tried + list(o.get("offer", []))}, events)
        return
    if choice == "take":
        lose(state, i, what, n, events)
        return
    how, _, rest = choice.partition(":")
    card, _, owner_name = rest.partition("@")
    j = next(k for k in W.active(state) if state.investigators[k]["name"] == owner_name)
    owner = state.investigators[j]
    again = {"op": o["op"], "tried": [*tried, choice]}
    if how == "use":
        rule = ((C.assets.get(card) or C.artifacts[card]).get("mechanics") or {})["prevent"]
        if rule.get("keep"):
            owner["used"].append(f"prevent:{card}")
            spend_clues(state, j, rule["cost_clues"])
        else:
            owner["assets"].remove(card)
            state.discards["assets"].append(card)
        ev(events, "prevented", investigator=state.investigators[i]["name"], card=card)
        state.work[-1]["ops"].insert(0, {**again, "n": max(0, n - int(rule["n"]))})
        return
    rule = C.spells[card]["prevent_cast"]
    owner["used"].append(f"cast:{card}")
    state.work[-1]["ops"].insert(0, {**again, "n": n, "after_cast": True})
    instance = next(c for c in owner["spells"] if kind_of(c) == card)
    shield = [{"op": "shield", "target": i, "n": rule["n"]}]
    push(state, [{"op": "test", "skill": rule["skill"], "mod": rule["mod"], "pass": shield, "fail": []},
                 {"op": "flip_this_card"}],
         {"inv": j, "bound": j, "card": instance, "card_kind": "spell", "spell": True})


@op("shield")
def _shield(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    key = str(o["target"])
    state.shield[key] = state.shield.get(key, 0) + int(o["n"])


@resume("prevent")
@resume("prevent_other")
def _resume_prevent(state: EhState, frame: Any, choice: str, events: Events) -> None:
    redo(state, frame.params["op"], choice)


@op("gain_condition")
def _gain_condition(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    named: list[int | None]
    if o.get("who") in (None, "that_investigator"):
        named = [ctx.get("inv")]
    else:
        named = list(target_investigators(state, o["who"], ctx))
    if o.get("who") == "lead":
        named = [state.lead]
    targets = [t for t in named if t is not None and alive(state, t)]
    if not targets:
        return
    name = o.get("name")
    if name is None:
        kinds = sorted(k for k, c in C.conditions.items() if c["trait"] == o["trait"]
                       and not has_condition(state.investigators[targets[0]], k))
        name = pick(state, ctx, o, kinds, inv=targets[0])
        if name is None:
            return
    for t in targets:
        gain_condition(state, t, name, events)


@op("discard_condition")
def _discard_condition(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    i = acting(state, ctx)
    if o.get("who") == "any_investigator":
        holders = [state.investigators[j]["name"] for j in W.active(state)
                   if has_condition(state.investigators[j], o["name"])]
        who = pick(state, ctx, o, [*holders, "none"], inv=state.lead)
        if who is None or who == "none":
            return
        i = next(j for j in W.active(state) if state.investigators[j]["name"] == who)
    if i is None:
        return
    inv = state.investigators[i]
    if o.get("name") not in (None, "any"):
        discard_condition(state, i, o["name"], events)
        return
    held = sorted({kind_of(c) for c in (conditions_with_trait(inv, o["trait"]) if o.get("trait")
                                         else inv["conditions"])})
    name = pick(state, ctx, o, held)
    if name is not None:
        discard_condition(state, i, name, events)


@op("gain_asset")
def _gain_asset(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    i = acting(state, ctx)
    if i is None:
        return
    trait = (o.get("trait") or "").lower()
    cap = W.amount(state, o["max_cost"], ctx) if o.get("max_cost") else None

    def fits(name: str) -> bool:
        card = C.assets[name]
        return (not trait or trait in traits(card)) and (cap is None or card["cost"] <= cap)

    if o.get("name"):
        card = draw_matching(state, "assets", lambda c: c == o["name"])
        if card is not None:
            gain_asset(state, i, card, events, ctx)
        return
    if o.get("from") == "reserve":
        choice = pick(state, ctx, o, sorted({c for c in state.reserve if fits(c)}))
        if choice is None:
            return
        state.reserve.remove(choice)
        refill_reserve(state)
        gain_asset(state, i, choice, events, ctx)
        return
    if o.get("from") == "reserve_or_discard":  # Leo Anderson: the reserve or the asset discard pile
        cands = ({f"reserve:{c}" for c in state.reserve if fits(c)}
                 | {f"discarded:{c}" for c in state.discards["assets"] if fits(c)})
        choice = pick(state, ctx, o, sorted(cands))
        if choice is None:
            return
        pile, _, name = choice.partition(":")
        (state.reserve if pile == "reserve" else state.discards["assets"]).remove(name)
        refill_reserve(state)
        gain_asset(state, i, name, events, ctx)
        return
    for _ in range(int(o.get("n", 1))):
        card = draw_matching(state, "assets", fits)
        if card is not None:
            gain_asset(state, i, card, events, ctx)


@op("gain_artifact")
def _gain_artifact(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    i = acting(state, ctx)
    if i is None:
        return
    want = o.get("name")
    trait = (o.get("trait") or "").lower()
    card = draw_matching(state, "artifacts",
                         lambda c: (want is None or c == want) and (not trait or trait in traits(C.artifacts[c])))
    if card is not None:
        state.investigators[i]["artifacts"].append(card)
        ev(events, "gain_artifact", investigator=state.investigators[i]["name"], card=card)


@op("gain_spell")
def _gain_spell(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    i = acting(state, ctx)
    if i is None:
        return
    want, kind = o.get("name"), o.get("trait")
    for _ in range(int(o.get("n", 1))):
        card = draw_matching(
            state, "spells",
            lambda c: (want is None or kind_of(c) == want) and (kind is None or C.spells[kind_of(c)]["type"] == kind),
        )
        if card is not None:
            state.investigators[i]["spells"].append(card)
            ev(events, "gain_spell", investigator=state.investigators[i]["name"], card=kind_of(card))


@op("discard_possession")
def _discard_possession(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    i = acting(state, ctx)
    if i is None:
        return
    inv = state.investigators[i]
    kind, trait = o.get("kind", "possession"), (o.get("trait") or "").lower()
    cands: list[str] = []
    if kind in ("asset", "possession"):
        cands += [f"asset:{a}" for a in inv["assets"] if not trait or trait in traits(C.assets[a])]
    if kind == "possession":
        cands += [f"artifact:{a}" for a in inv["artifacts"] if not trait or trait in traits(C.artifacts[a])]
    if kind in ("spell", "possession") and not trait:
        cands += [f"spell:{kind_of(s)}" for s in inv["spells"]]
    cands = sorted(set(cands))
    if o.get("n") == "any":
        choice = pick(state, ctx, o, [*cands, "done"]) if "choice" not in o and cands else o.get("choice")
        if choice in (None, "done"):
            return
        _drop(state, i, choice, events)
        push(state, [{k: v for k, v in o.items() if k != "choice"}], ctx)
        return
    left = int(o["left"] if "left" in o else o.get("n", 1))
    if left <= 0 or not cands:
        return
    choice = pick(state, ctx, o, cands)
    if choice is None:
        return
    _drop(state, i, choice, events)
    if left > 1:
        push(state, [{**{k: v for k, v in o.items() if k != "choice"}, "left": left - 1}], ctx)


def _drop(state: EhState, i: int, key: str, events: Events) -> None:
    inv = state.investigators[i]
    kind, name = key.split(":", 1)
    if kind == "asset":
        inv["assets"].remove(name)
        state.discards["assets"].append(name)
    elif kind == "artifact":
        inv["artifacts"].remove(name)
        state.discards["artifacts"].append(name)
    else:
        card = next(s for s in inv["spells"] if kind_of(s) == name)
        inv["spells"].remove(card)
        state.discards["spells"].append(card)
    ev(events, "discarded", investigator=inv["name"], card=name)

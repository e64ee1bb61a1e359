"""The Mythos phase (EH-R31..R40): draw, resolve the card's icons in printed order, reckoning, rumors,
then replacements and the lead's choice at the end of the phase (EH-R63, §11.14)."""

from __future__ import annotations

from typing import Any

from rules.eldritch_horror import people as P
from rules.eldritch_horror import world as W
from rules.eldritch_horror.data import load
from rules.eldritch_horror.machine import Ctx, Events, Op, ask, ev, op, push, redo, resume
from rules.eldritch_horror.order import order_matters
from rules.eldritch_horror.state import EhState

C = load()
ICON_OPS = {
    "advance_omen": "advance_omen",
    "resolve_reckoning": "reckoning",
    "spawn_gates": "spawn_gates_ref",
    "monster_surge": "monster_surge",
    "spawn_clues": "spawn_clues_ref",
    "place_rumor": "place_rumor",
    "place_eldritch": "place_card_eldritch",
    "resolve_text": "resolve_text",
}


def reference(state: EhState) -> dict[str, int]:
    return C.reference_for(len(state.investigators))


def stages_left(state: EhState) -> list[int]:
    """Cards left in stages I, II and III of the Mythos deck. The deck is only ever drawn from the top and
    each stage's size is printed on the Ancient One's sheet, so counting tells the stage (as players do)."""
    left = len(state.mythos_deck)
    out = []
    for stage in ("stage3", "stage2", "stage1"):
        size = sum(C.ancient_ones[state.ancient_one]["mythos"][stage])
        out.append(min(left, size))
        left -= out[-1]
    return out[::-1]


def ensure_in_play(state: EhState, card_id: str) -> dict[str, Any]:
    card = next((m for m in state.in_play if m["id"] == card_id), None)
    if card is None:
        card = {"id": card_id, "eldritch": 0, "health": 0}
        state.in_play.append(card)
    return card


@op("mythos_draw")
def _draw(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """EH-R40: a Mythos card that cannot be drawn is a loss."""
    if not state.mythos_deck:
        W.finish(state, False, "mythos_deck_empty", events)
        return
    card_id = state.mythos_deck.pop()
    card = C.mythos[card_id]
    ev(events, "mythos", card=card["name"], colour=card["color"], id=card_id)
    icons = [{"op": ICON_OPS[i]} for i in card["icons"]]
    push(state, [*icons, {"op": "mystery_check"}], {"inv": None, "card": card_id, "card_kind": "mythos"})


@op("spawn_gates_ref")
def _spawn_gates(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """EH-R36."""
    for _ in range(reference(state)["spawn_gates"]):
        W.spawn_gate(state, events)


@op("monster_surge")
def _surge(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """EH-R37: monsters at every gate of the current omen; with no such gate, a gate instead."""
    colour = W.omen_colour(state)
    matching = [g for g in state.gates if C.gate_tokens[g] == colour]
    if not matching:
        W.spawn_gate(state, events)
        return
    for g in matching:
        for _ in range(reference(state)["monster_surge"]):
            W.spawn_monster(state, g, events)


@op("spawn_clues_ref")
def _spawn_clues(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """EH-R38."""
    for _ in range(reference(state)["spawn_clues"]):
        W.spawn_clue(state, events)


@op("place_rumor")
def _place_rumor(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """EH-R39."""
    card = C.mythos[ctx["card"]]
    space = state.expedition if card["rumor_space"] == "active_expedition" else card["rumor_space"]
    ensure_in_play(state, ctx["card"])
    if space:
        state.rumors[space] = ctx["card"]
        ev(events, "rumor", card=card["name"], space=space)


@op("place_card_eldritch")
def _place_eldritch(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    ensure_in_play(state, ctx["card"])["eldritch"] += int(C.mythos[ctx["card"]]["eldritch_tokens"] or 0)


@op("resolve_text")
def _resolve_text(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """EH-R40: an event resolves and is discarded; ongoing and rumor cards stay in play."""
    card = C.mythos[ctx["card"]]
    if card["subtype"] == "event":
        push(state, card["effects"] + [{"op": "mythos_discard"}], ctx)
    else:
        ensure_in_play(state, ctx["card"])
        push(state, card["effects"], ctx)


@op("mythos_discard")
def _discard(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    state.mythos_discard.append(ctx["card"])


# ---------------------------------------------------------------- reckoning


def monster_reckonings(state: EhState) -> list[tuple[list[Op], Ctx]]:
    out = []
    for m in sorted((m for m in state.monsters if not m.get("ambush")), key=lambda m: (m["space"], m["id"])):
        effects = W.stats(state, m["id"]).get("reckoning_effects") or []
        if effects:
            out.append((effects, {"inv": None, "monster": m["id"], "space": m["space"]}))
    return out


def mythos_reckonings(state: EhState) -> list[tuple[list[Op], Ctx]]:
    return [
        (C.mythos[m["id"]]["reckoning"], {"inv": None, "card": m["id"], "card_kind": "mythos"})
        for m in state.in_play if C.mythos[m["id"]].get("reckoning")
    ]


def _reckon_key(ctx: Ctx) -> str:
    """An option naming one reckoning: ``12:Ghoul@Space 5`` for a monster, the card id for a Mythos card."""
    if "monster" in ctx:
        return f"{ctx['monster']}:{W.TOKENS[ctx['monster']]}@{ctx['space']}"
    return str(ctx["card"])


def reckon_in_order(state: EhState, category: str, times: int = 1) -> None:
    """EH-R35: within the monsters or the Mythos cards, the lead picks which reckoning resolves next."""
    items = monster_reckonings(state) if category == "monster" else mythos_reckonings(state)
    keys = [_reckon_key(ctx) for _, ctx in items] * times
    if keys:
        push(state, [{"op": "reckon_next", "category": category, "keys": keys}], {"inv": None})


@op("reckon_next")
def _reckon_next(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """One reckoning of the category, then the rest; one whose monster or card has gone is skipped."""
    items = monster_reckonings(state) if o["category"] == "monster" else mythos_reckonings(state)
    by_id = {str(c.get("monster", c.get("card"))): (e, c) for e, c in items}
    keys = [k for k in o["keys"] if k.split(":")[0] in by_id]
    if not keys:
        return
    choices = sorted(set(keys), key=keys.index)
    key = str(o["choice"]) if o.get("choice") in choices else None
    if key is None:
        if len(choices) > 1 and order_matters(state, [by_id[k.split(":")[0]] for k in choices]):
            ask(state, "reckoning_order", state.lead, choices, op={k: v for k, v in o.items() if k != "choice"})
            return
        key = choices[0]
    rest = list(keys)
    rest.remove(key)
    if rest:
        push(state, [{"op": "reckon_next", "category": o["category"], "keys": rest}], ctx)
    effects, item_ctx = by_id[key.split(":")[0]]
    push(state, effects, item_ctx)


@resume("reckoning_order")
def _resume_reckoning_order(state: EhState, frame: Any, choice: str, events: Events) -> None:
    redo(state, frame.params["op"], choice)


def condition_reckonings(state: EhState, name: str | None = None) -> list[tuple[list[Op], Ctx]]:
    out = []
    for i in W.order(state):
        inv = state.investigators[i]
        if inv["status"] != "active":
            continue
        for c in inv["conditions"]:
            effects = (C.conditions[P.kind_of(c)]["mechanics"] or {}).get("reckoning") or []
            if effects and name in (None, P.kind_of(c)):
                out.append((effects, {"inv": i, "bound": i, "card": c, "card_kind": "condition"}))
    return out


def push_all(state: EhState, items: list[tuple[list[Op], Ctx]], extra: Ctx | None = None) -> None:
    for effects, ctx in reversed(items):
        push(state, effects, {**ctx, **(extra or {})})


@op("reckoning")
def _reckoning(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """EH-R35: monsters, then the Ancient One sheet, then ongoing Mythos cards, then investigators."""
    ao = C.ancient_ones[state.ancient_one]
    sheet = ao["awakened"].get("reckoning", []) if state.awakened else ao["reckoning"]
    push_all(state, condition_reckonings(state))  # pushed first, so resolved last
    reckon_in_order(state, "mythos")
    if sheet:
        push(state, sheet, {"inv": None})
    reckon_in_order(state, "monster")


@op("resolve_monster_reckonings")
def _monsters_again(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    reckon_in_order(state, "monster", int(o.get("times", 1)))


@op("resolve_mythos_reckonings")
def _mythos_again(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    reckon_in_order(state, "mythos", int(o.get("times", 1)))


@op("resolve_condition_reckonings", "resolve_condition_reckoning")
def _conditions_again(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """Every investigator's condition reckonings again; the singular op only those of the investigator the
    effect is about (Legitimate Banking: the lead's own Debt, not everyone's)."""
    extra = {"dice_all": o["dice_all"]} if o.get("dice_all") else None
    items = condition_reckonings(state, o.get("name"))
    if o["op"] == "resolve_condition_reckoning" and ctx.get("inv") is not None:
        items = [(effects, c) for effects, c in items if c["inv"] == ctx["inv"]]
    push_all(state, items, extra)


@op("draw_and_resolve_rumor_from_box")
def _rumor_from_box(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    rumors = [c for c in state.decks.get("mythos_box", []) if C.mythos[c]["subtype"] == "rumor"]
    if not rumors:
        return
    card_id = rumors[state.rng.below(len(rumors))]
    state.decks["mythos_box"].remove(card_id)
    ev(events, "mythos", card=C.mythos[card_id]["name"], colour=C.mythos[card_id]["color"])
    icons = [i for i in C.mythos[card_id]["icons"] if i in ("place_rumor", "place_eldritch", "resolve_text")]
    push(state, [{"op": ICON_OPS[i]} for i in icons], {"inv": None, "card": card_id, "card_kind": "mythos"})


# ---------------------------------------------------------------- end of the phase


@op("mythos_replace")
def _replace(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """EH-R63: each player whose investigator fell takes an unused one; with none left they are out."""
    for i, inv in enumerate(state.investigators):
        if inv["status"] not in ("defeated", "devoured"):
            continue
        if not state.unused:
            inv["status"] = "eliminated"
            continue
        ask(state, "replace", i, sorted(state.unused))
        state.work[-1]["ops"].insert(0, {"op": "mythos_replace"})
        return
    if not W.active(state):
        W.finish(state, False, "all_eliminated", events)


@resume("replace")
def _resume_replace(state: EhState, frame: Any, choice: str, events: Events) -> None:
    from rules.eldritch_horror.setup import equip

    i = frame.params["inv"]
    seat = state.investigators[i]["seat"]
    state.unused.remove(choice)
    state.investigators[i] = P.new_investigator(choice, seat)
    ev(events, "replacement", investigator=choice, seat=seat)
    if not P.alive(state, state.lead):  # the lead token was left with a fallen investigator: it comes back
        state.lead = i
    equip(state, i, events)


@op("mythos_lead")
def _lead(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """EH-R3: the lead may hand the token to any investigator."""
    others = [state.investigators[j]["name"] for j in W.active(state) if j != state.lead]
    if others:
        ask(state, "lead", state.lead, ["keep", *[f"pass:{n}" for n in others]])


@resume("lead")
def _resume_lead(state: EhState, frame: Any, choice: str, events: Events) -> None:
    if choice.startswith("pass:"):
        name = choice.split(":", 1)[1]
        state.lead = next(i for i, inv in enumerate(state.investigators) if inv["name"] == name)
        ev(events, "lead", investigator=name)


@op("new_round")
def _new_round(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    state.round += 1
    state.phase = "action"
    state.turn = 0
    for inv in state.investigators:
        inv.update(acted=[], used=[], done=False, extra=0, no_extra_encounter=False, ignore_monsters=False)
    ev(events, "round", round=state.round)

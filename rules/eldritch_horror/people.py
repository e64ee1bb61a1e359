"""Investigators: health and sanity, defeat and devouring, possessions, conditions, skills (EH-R48..R65)."""

from __future__ import annotations

from typing import Any

from rules.eldritch_horror import world as W
from rules.eldritch_horror.data import SKILLS, load
from rules.eldritch_horror.events import EhEvent
from rules.eldritch_horror.machine import Ctx, Events, Op, abort, ask, drop_bound, ev, op, pick, push, resume
from rules.eldritch_horror.state import EhState

C = load()
TICKET_LIMIT = 2  # EH-R16


def kind_of(instance: str) -> str:
    """``Amnesia#2`` -> ``Amnesia``: the copy number decides the hidden back and never leaves the state."""
    return instance.split("#")[0]


def new_investigator(name: str, seat: str) -> dict[str, Any]:
    d = C.investigators[name]
    return {
        "name": name, "seat": seat, "space": d["start"], "health": d["health"], "sanity": d["sanity"],
        "improve": dict.fromkeys(SKILLS, 0), "clues": [], "tickets": {"train": 0, "ship": 0},
        "assets": [], "artifacts": [], "spells": [], "conditions": [], "delayed": False,
        "status": "active", "acted": [], "used": [], "done": False, "extra": 0, "no_extra_encounter": False,
        "ignore_monsters": False,
    }


def alive(state: EhState, i: int | None) -> bool:
    return i is not None and 0 <= i < len(state.investigators) and state.investigators[i]["status"] == "active"


def living(state: EhState, i: int | None) -> int | None:
    """``i`` while that investigator is in the game, else None: one test that also tells the type checker
    the index is usable (a context's ``inv`` may be missing or point at someone eliminated)."""
    return i if alive(state, i) else None


def has_condition(inv: dict[str, Any], name: str) -> bool:
    return any(kind_of(c) == name for c in inv["conditions"])


def conditions_with_trait(inv: dict[str, Any], trait: str) -> list[str]:
    return [c for c in inv["conditions"] if C.conditions[kind_of(c)]["trait"] == trait]


def possessions(inv: dict[str, Any]) -> list[dict[str, Any]]:
    """Asset, artifact and spell cards with their data (for bonuses, rerolls, traits)."""
    out = [C.assets[a] for a in inv["assets"]] + [C.artifacts[a] for a in inv["artifacts"]]
    return out + [C.spells[kind_of(s)] for s in inv["spells"]]


# ---------------------------------------------------------------- health, sanity, defeat


def lose(state: EhState, i: int, what: str, n: int, events: Events) -> None:
    inv = state.investigators[i]
    if n <= 0 or inv["status"] != "active":
        return
    inv[what] = max(0, inv[what] - n)
    ev(events, f"lose_{what}", investigator=inv["name"], n=n, value=inv[what])
    if inv["health"] == 0 or inv["sanity"] == 0:
        defeat(state, i, events, devoured=inv["health"] == 0 and inv["sanity"] == 0)


def recover(state: EhState, i: int, what: str, n: int) -> None:
    """EH-R59: never above the printed maximum."""
    inv = state.investigators[i]
    inv[what] = min(C.investigators[inv["name"]][what], inv[what] + n)


def defeat(state: EhState, i: int, events: Events, devoured: bool = False) -> None:
    """EH-R60 (defeat), EH-R64 (devoured; also both health and sanity at 0, §11.2), EH-R65 (elimination)."""
    inv = state.investigators[i]
    if inv["status"] != "active":
        return
    token = "health" if inv["health"] == 0 else "sanity"
    inv["status"] = "devoured" if devoured else "defeated"
    ev(events, "devoured" if devoured else "defeated", investigator=inv["name"])
    drop_bound(state, i)
    for c in inv["conditions"]:
        state.discards["conditions"].append(c)
    inv["conditions"] = []
    loot = {k: inv[k] for k in ("assets", "artifacts", "spells", "clues")} | {"tickets": dict(inv["tickets"])}
    if devoured or state.awakened:
        _discard_loot(state, loot)
        if state.awakened:
            inv["status"] = "eliminated"  # EH-R65, §11.15: no corpse after awakening
    else:
        dist = C.distances[inv["space"]]
        best = min(d for s, d in dist.items() if C.spaces[s].type == "city")
        cities = sorted(s for s, d in dist.items() if d == best and C.spaces[s].type == "city")
        state.corpses.append({"name": inv["name"], "space": cities[0], "token": token, **loot})
        inv["space"] = cities[0]
        if len(cities) > 1:  # §11.3: the defeated player breaks the tie
            ask(state, "defeat_city", i, cities)
    inv.update(assets=[], artifacts=[], spells=[], clues=[], tickets={"train": 0, "ship": 0})
    inv["improve"] = dict.fromkeys(SKILLS, 0)  # EH-R60 step 3 / EH-R64: improvement tokens go back to the supply
    W.advance_doom(state, 1, events)
    if state.phase == "over":
        return
    if W.all_eliminated(state):  # EH-R77(b); a player still awaiting a replacement is not out yet
        W.finish(state, False, "all_eliminated", events)
        return
    if state.lead == i:
        others = [state.investigators[j]["name"] for j in W.active(state)]
        if len(others) == 1:
            state.lead = W.active(state)[0]
        elif others:
            ask(state, "pass_lead", i, others)


@resume("defeat_city")
def _defeat_city(state: EhState, frame: Any, choice: str, events: Events) -> None:
    inv = state.investigators[frame.params["inv"]]
    inv["space"] = choice
    for corpse in state.corpses:
        if corpse["name"] == inv["name"]:
            corpse["space"] = choice


@resume("pass_lead")
def _pass_lead(state: EhState, frame: Any, choice: str, events: Events) -> None:
    state.lead = next(i for i, inv in enumerate(state.investigators) if inv["name"] == choice)
    ev(events, "lead", investigator=choice)


def _discard_loot(state: EhState, loot: dict[str, Any]) -> None:
    state.discards["assets"] += loot["assets"]
    state.discards["artifacts"] += loot["artifacts"]
    state.discards["spells"] += loot["spells"]
    state.clue_pool += loot["clues"]


def move_to(state: EhState, i: int, space: str, events: Events) -> None:
    """Put an investigator on ``space``; Cthulhu's sheet punishes entering a space with an Eldritch token."""
    inv = state.investigators[i]
    inv["space"] = space
    ev(events, "moved", investigator=inv["name"], space=space)
    if "eldritch_space_delays" in W.rules_in_force(state) and state.space_eldritch.get(space):
        delay(state, i, events)
        lose(state, i, "sanity", 1, events)


def immune(inv: dict[str, Any], what: str) -> bool:
    """Mark Harrigan (Delayed, Detained) and the Pocket Watch (Delayed) protect against what nobody wants."""
    if what in ((C.investigators[inv["name"]].get("passive") or {}).get("immune") or []):
        return True
    return any(what in ((c.get("mechanics") or {}).get("immune") or []) for c in possessions(inv))


def delay(state: EhState, i: int, events: Events, chosen: bool = False) -> None:
    """Lay the investigator's token down (EH-R19); immunity stops only a delay they did not choose."""
    if not chosen and immune(state.investigators[i], "delayed"):
        return
    state.investigators[i]["delayed"] = True
    ev(events, "delayed", investigator=state.investigators[i]["name"])


# ---------------------------------------------------------------- cards


def draw_matching(state: EhState, deck: str, test: Any) -> str | None:
    """The first card of ``deck`` passing ``test`` (the deck is shuffled, so this is a random one);
    an exhausted deck takes its discard pile back first (digest §11.6)."""
    for attempt in range(2):
        cards = state.decks[deck]
        for k in range(len(cards) - 1, -1, -1):
            if test(cards[k]):
                return cards.pop(k)
        if attempt == 0 and state.discards.get(deck):
            state.decks[deck] = state.discards[deck] + cards
            state.discards[deck] = []
            state.rng.shuffle(state.decks[deck])
    return None


def refill_reserve(state: EhState) -> None:
    """EH-R17: empty reserve slots are refilled from the asset deck (not while Driven to Bankruptcy lasts)."""
    if "reserve_cannot_be_filled" in W.rules_in_force(state):
        return
    while len(state.reserve) < 4:
        card = draw_matching(state, "assets", lambda c: True)
        if card is None:
            return
        state.reserve.append(card)


def gain_asset(state: EhState, i: int, name: str, events: Events, ctx: Ctx) -> None:
    inv = state.investigators[i]
    ev(events, "gain_asset", investigator=inv["name"], card=name)
    mech = C.assets[name].get("mechanics") or {}
    if mech.get("on_gain"):
        state.discards["assets"].append(name)
        push(state, mech["on_gain"], {**ctx, "inv": i, "card": name})
    else:
        inv["assets"].append(name)


def traits(card: dict[str, Any]) -> set[str]:
    return {t.lower() for t in card.get("traits") or [card.get("type") or ""]}


def gain_condition(state: EhState, i: int, name: str, events: Events) -> None:
    """A copy from the condition deck; no duplicates; Blessed and Cursed cancel each other."""
    inv = state.investigators[i]
    opposite = {"Blessed": "Cursed", "Cursed": "Blessed"}.get(name)
    if opposite and has_condition(inv, opposite):
        discard_condition(state, i, opposite, events)
        return
    if has_condition(inv, name) and opposite:  # a second Blessed (Cursed) flips the first
        card = next(c for c in inv["conditions"] if kind_of(c) == name)
        push(state, [{"op": "flip_this_card"}], {"inv": i, "bound": i, "card": card, "card_kind": "condition"})
        return
    if has_condition(inv, name) or immune(inv, name):
        return
    card = draw_matching(state, "conditions", lambda c: kind_of(c) == name)
    if card is None:
        return
    inv["conditions"].append(card)
    ev(events, "gain_condition", investigator=inv["name"], condition=name)
    for j in W.active(state):  # Jacqueline Fine, once per round: a look at the back and a clue
        seer = state.investigators[j]
        if j != i and (C.investigators[seer["name"]].get("passive") or {}).get("clue_when_others_gain_condition") \
                and "passive:psychic" not in seer["used"]:
            seer["used"].append("passive:psychic")
            back = C.conditions[name]["backs"][int(card.split("#")[1])]["effects"]
            events.append(EhEvent(type="peek", audience=seer["seat"],
                                  data={"investigator": inv["name"], "condition": name, "back": back}))
            gain_clue(state, j, events)


def discard_condition(state: EhState, i: int, name: str, events: Events) -> None:
    inv = state.investigators[i]
    card = next((c for c in inv["conditions"] if kind_of(c) == name), None)
    if card is not None:
        inv["conditions"].remove(card)
        state.discards["conditions"].append(card)
        ev(events, "discard_condition", investigator=inv["name"], condition=name)


def gain_clue(state: EhState, i: int, events: Events, space: str | None = None) -> None:
    inv = state.investigators[i]
    if space is not None and space in state.clues:
        state.clues.remove(space)
        inv["clues"].append(space)
    elif state.clue_pool:
        inv["clues"].append(state.clue_pool.pop(state.rng.below(len(state.clue_pool))))
    else:
        return
    ev(events, "gain_clue", investigator=inv["name"], total=len(inv["clues"]))


def spend_clues(state: EhState, i: int, n: int) -> None:
    inv = state.investigators[i]
    for _ in range(n):
        state.clue_pool.append(inv["clues"].pop())


def gain_ticket(state: EhState, i: int, kind: str, events: Events) -> None:
    inv = state.investigators[i]
    inv["tickets"][kind] += 1
    ev(events, "gain_ticket", investigator=inv["name"], ticket=kind)
    _over_ticket_limit(state, i)


@resume("drop_ticket")
def _drop_ticket(state: EhState, frame: Any, choice: str, events: Events) -> None:
    i = frame.params["inv"]
    state.investigators[i]["tickets"][choice] -= 1
    _over_ticket_limit(state, i)


def target_investigators(state: EhState, who: str, ctx: Ctx) -> list[int]:
    """Who an effect for ``who`` reaches, in play order from the lead."""
    here = ctx.get("space")
    if here is None and ctx.get("monster") is not None:
        m = W.monster_at(state, ctx["monster"])
        here = m["space"] if m else None
    if here is None and alive(state, ctx.get("inv")):
        here = state.investigators[ctx["inv"]]["space"]
    out = []
    for i in W.order(state):
        inv = state.investigators[i]
        if inv["status"] != "active":
            continue
        sp = inv["space"]
        ok = {
            "lead": i == state.lead,
            "each": True,
            "each_on_city": C.spaces[sp].type == "city",
            "each_on_city_with_weapon": (C.spaces[sp].type == "city"
                                         and any("weapon" in traits(p) for p in possessions(inv))),
            "each_with_ally": any("ally" in traits(C.assets[a]) for a in inv["assets"]),
            "each_on_this_space": sp == here,
            "each_on_this_or_adjacent_space": here is not None and (sp == here or sp in C.spaces[here].routes),
            "each_on_or_adjacent_active_expedition": state.expedition is not None
            and (sp == state.expedition or sp in C.spaces[state.expedition].routes),
            "each_on_sea_without_eldritch": C.spaces[sp].type == "sea" and not state.space_eldritch.get(sp),
            "each_on_gate_space": sp in state.gates,
            "that_investigator": i == ctx.get("inv"),
            "nearest_investigator": False,
        }
        if who.startswith("each_with_condition:"):
            ok[who] = has_condition(inv, who.split(":", 1)[1])
        if ok.get(who):
            out.append(i)
    if who in ("nearest_investigator", "nearest") and here is not None:
        spaces = {state.investigators[i]["space"] for i in W.active(state)}
        target = W.nearest(state, here, lambda s: s in spaces)
        out = [i for i in W.order(state) if alive(state, i) and state.investigators[i]["space"] == target][:1]
    return out


# ---------------------------------------------------------------- ops


def acting(state: EhState, ctx: Ctx) -> int | None:
    return living(state, ctx.get("inv"))


@op("recover_health", "recover_sanity")
def _recover(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    i = acting(state, ctx)
    if i is not None:
        recover(state, i, o["op"].split("_")[1], int(o.get("n", 1)))


@op("lose_health_per", "lose_sanity_per")
def _lose_per(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    i = acting(state, ctx)
    if i is None:
        return
    inv = state.investigators[i]
    per = o["per"]
    count = {
        "item_possession": sum(1 for p in possessions(inv) if "item" in traits(p)),
        "injury_condition": len(conditions_with_trait(inv, "Injury")),
        "madness_condition": len(conditions_with_trait(inv, "Madness")),
        "spell": len(inv["spells"]),
        "gate_matching_omen": sum(1 for g in state.gates if C.gate_tokens[g] == W.omen_colour(state)),
        "health_token_on_this_card": next((m["health"] for m in state.in_play if m["id"] == ctx.get("card")), 0),
    }[per]
    n = count * int(o.get("n", 1))
    if n:
        ctx["lost_sanity"] = o["op"] == "lose_sanity_per"
        push(state, [{"op": o["op"][: -len("_per")], "n": n}], ctx)  # a plain loss: cards may still stop it


@op("become_delayed")
def _delayed(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    if o.get("who") == "that_investigator" and ctx.get("carried"):  # Nightgaunt: whoever it carried away
        for j in ctx["carried"]:
            if alive(state, j):
                delay(state, j, events)
        return
    i = acting(state, ctx)
    if i is not None:
        delay(state, i, events, chosen=bool(o.get("chosen")))


@op("devoured")
def _devoured(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    i = acting(state, ctx)
    if i is not None:
        defeat(state, i, events, devoured=True)


@op("gain_clue")
def _gain_clue(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    i = acting(state, ctx)
    if i is None:
        return
    for _ in range(W.amount(state, o.get("n", 1), ctx)):
        here = None
        if o.get("source") == "this_space_clue_first":
            here = ctx.get("remote") or state.investigators[i]["space"]
        gain_clue(state, i, events, here)


@op("discard_clue")
def _discard_clue(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    i = acting(state, ctx)
    if i is not None:
        inv = state.investigators[i]
        n = len(inv["clues"]) if o["n"] == "all" else W.amount(state, o["n"], ctx)
        spend_clues(state, i, min(n, len(inv["clues"])))


@op("discard_clue_per")
def _discard_clue_per(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    i = acting(state, ctx)
    if i is not None:
        inv = state.investigators[i]
        n = len(conditions_with_trait(inv, "Deal")) * int(o.get("n", 1))
        spend_clues(state, i, min(n, len(inv["clues"])))


def sanity_for_clue(state: EhState, i: int) -> bool:
    """Whether investigator ``i`` may now pay 1 sanity in place of 1 clue (Norman Withers, once per round).

    The sheet sets no other limit; paying his last sanity is not offered, as it would only defeat him."""
    inv = state.investigators[i]
    return bool((C.investigators[inv["name"]].get("passive") or {}).get("sanity_for_clue")) \
        and "passive:sanity_for_clue" not in inv["used"] and inv["sanity"] > 1


@op("spend")
def _spend(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """Pay clues; a cost that is not paid (declined or unaffordable) cancels the rest of its frame."""
    n = W.amount(state, o.get("n", 1), ctx)
    if o.get("group"):  # the investigators pay together; the lead says who pays each clue
        left = int(o.get("left", n))
        holders = [state.investigators[j]["name"] for j in W.active(state) if state.investigators[j]["clues"]]
        if sum(len(state.investigators[j]["clues"]) for j in W.active(state)) < left:
            abort(state)
            return
        if left == 0:
            ev(events, "group_spent_clues", n=n)
            return
        payer = pick(state, ctx, {**o, "left": left}, holders, inv=state.lead)
        if payer is None:
            return
        spend_clues(state, next(j for j in W.active(state) if state.investigators[j]["name"] == payer), 1)
        state.work[-1]["ops"].insert(0, {**{k: v for k, v in o.items() if k != "choice"}, "left": left - 1})
        return
    i = acting(state, ctx)
    if i is None:
        abort(state)
        return
    inv = state.investigators[i]
    key = any((C.artifacts[a].get("mechanics") or {}).get("clue_discount") for a in inv["artifacts"])
    discount = int(key and n > 0 and "discount" not in inv["used"])  # The Silver Key, once per round
    n -= discount
    swap = n > 0 and sanity_for_clue(state, i)
    short = n - len(inv["clues"])
    if short > int(swap):
        abort(state)
        return
    if o.get("optional") or (swap and short <= 0):  # a choice: pay, pay one clue with sanity, or decline
        ways = ((["pay"] if short <= 0 else []) + (["pay_sanity"] if swap else [])
                + (["decline"] if o.get("optional") else []))
        if "choice" not in o and len(ways) > 1:
            ask(state, "target", i, ways, op=o)
            return
        choice = str(o.get("choice", ways[0]))
    else:
        choice = "pay_sanity" if swap else "pay"
    if choice == "decline":
        abort(state)
        return
    if choice == "pay_sanity":  # Norman Withers: once per round, 1 sanity in place of 1 clue
        inv["used"].append("passive:sanity_for_clue")
        n -= 1
        lose(state, i, "sanity", 1, events)
    if discount:
        inv["used"].append("discount")
    spend_clues(state, i, n)
    ev(events, "spent_clues", investigator=state.investigators[i]["name"], n=n)


@op("improve_skill")
def _improve(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """EH-R54: +1, then +2; never beyond."""
    i = acting(state, ctx)
    if i is None:
        return
    skill = o["skill"]
    if skill == "any":
        skill = pick(state, ctx, o, list(SKILLS))
        if skill is None:
            return
    inv = state.investigators[i]
    n = int(o.get("n", 1)) * (2 if (C.investigators[inv["name"]].get("passive") or {}).get("improve_twice") else 1)
    inv["improve"][skill] = min(2, inv["improve"][skill] + n)
    ev(events, "improved", investigator=inv["name"], skill=skill, value=inv["improve"][skill])


@op("move")
def _move(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    i = acting(state, ctx)
    if i is None:
        return
    here = state.investigators[i]["space"]
    to = o.get("to")
    if to in C.spaces:
        move_to(state, i, to, events)
        return
    if to in ("nearest_city", "nearest_wilderness", "nearest_sea"):
        kind = to.split("_")[1]
        dest = W.nearest(state, here, lambda s: C.spaces[s].type == kind)
        if dest:
            move_to(state, i, dest, events)
        return
    if to == "clue_or_gate":
        dest = pick(state, ctx, o, sorted((set(state.clues) | set(state.gates)) - {here}))
        if dest is not None:
            move_to(state, i, dest, events)
        return
    reach = o.get("spaces")
    cands = sorted(s for s, d in C.distances[here].items()
                   if d > 0 and (reach is None or to == "any_space" or d <= reach))
    if o.get("route"):
        cands = sorted(s for s, kind in C.spaces[here].routes.items() if kind == o["route"])
    dest = pick(state, ctx, o, cands)
    if dest is not None:
        move_to(state, i, dest, events)
        if o.get("replaces") == "remaining_encounter":  # Byakhee: the flight is instead of the encounter
            state.investigators[i]["no_extra_encounter"] = True


@op("for_investigators")
def _for_investigators(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    for i in reversed(target_investigators(state, o["who"], ctx)):
        push(state, o["effects"], {**ctx, "inv": i, "bound": i})


@op("lead_chooses_investigator")
def _lead_chooses(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    names = [state.investigators[j]["name"] for j in W.active(state)]
    who = pick(state, ctx, o, names, inv=state.lead)
    if who is not None:
        j = next(j for j in W.active(state) if state.investigators[j]["name"] == who)
        push(state, o["effects"], {**ctx, "inv": j, "bound": j})


@op("choose_investigator")
def _choose_investigator(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """Spells that help "an investigator" (the caster included, EH-R6): on the caster's space or anywhere."""
    i = acting(state, ctx)
    if i is None:
        return
    here = state.investigators[i]["space"]
    names = [
        state.investigators[j]["name"] for j in W.order(state) if alive(state, j)
        and (o["where"] == "anywhere" or state.investigators[j]["space"] == here)
        and not (o.get("without") and has_condition(state.investigators[j], o["without"]))
    ]
    who = pick(state, ctx, o, names)
    if who is not None:
        j = next(j for j in W.active(state) if state.investigators[j]["name"] == who)
        push(state, o["effects"], {**ctx, "inv": j})


@op("take_corpse_possessions")
def _take_corpse(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    i = acting(state, ctx)
    corpse = next((c for c in state.corpses if c["name"] == ctx.get("corpse")), None)
    if i is None or corpse is None:
        return
    inv = state.investigators[i]
    for k in ("assets", "artifacts", "spells", "clues"):
        inv[k] += corpse[k]
        corpse[k] = []
    for k, v in corpse["tickets"].items():
        inv["tickets"][k] += v
    corpse["tickets"] = {"train": 0, "ship": 0}
    ev(events, "took_possessions", investigator=inv["name"], of=corpse["name"])
    _over_ticket_limit(state, i)


def _over_ticket_limit(state: EhState, i: int) -> None:
    """EH-R16: past 2 tickets, the owner says which one goes, one at a time, so the 2 they like stay."""
    inv = state.investigators[i]
    if sum(inv["tickets"].values()) > TICKET_LIMIT:
        ask(state, "drop_ticket", i, sorted(k for k, v in inv["tickets"].items() if v))

"""The Action phase (EH-R8..R19) and the Encounter phase (EH-R20..R30)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from rules.eldritch_horror import people as P
from rules.eldritch_horror import progress as G
from rules.eldritch_horror import world as W
from rules.eldritch_horror.combat import fight
from rules.eldritch_horror.data import load
from rules.eldritch_horror.effects import set_expedition
from rules.eldritch_horror.machine import PHASE_STEP, Ctx, Events, Op, ask, ev, op, pick, push, redo, resume
from rules.eldritch_horror.state import EhState

C = load()
BASIC = ("travel", "rest", "trade", "prepare", "acquire")


# ---------------------------------------------------------------- action phase


def travel_paths(state: EhState, i: int) -> list[list[str]]:
    """EH-R11/R12: one step along any route, then one more per ticket along a route of its kind.

    Only journeys worth offering: none passes a space twice or comes back to the start, and of the ways to
    one destination only those not beaten by another are kept: a way that spends more tickets than another
    (the same ones and more) goes, and of ways spending the same tickets the one crossing the fewest spaces
    with Eldritch tokens (Cthulhu's sheet delays there) stays, then the first by name."""
    inv = state.investigators[i]
    start = inv["space"]
    found: dict[tuple[str, int, int], tuple[int, list[str]]] = {}

    def extend(path: list[str], tickets: dict[str, int]) -> None:
        spent = (inv["tickets"]["train"] - tickets["train"], inv["tickets"]["ship"] - tickets["ship"])
        risk = sum(1 for s in path[:-1] if state.space_eldritch.get(s))
        key = (path[-1], *spent)
        if key not in found or (risk, path) < found[key]:
            found[key] = (risk, path)
        for nxt, kind in C.spaces[path[-1]].routes.items():
            if tickets.get(kind, 0) > 0 and nxt != start and nxt not in path:
                extend([*path, nxt], {**tickets, kind: tickets[kind] - 1})

    for first in C.spaces[start].routes:
        extend([first], {"train": inv["tickets"]["train"], "ship": inv["tickets"]["ship"]})
    return [path for (dest, train, ship), (_, path) in sorted(found.items())
            if not any(d == dest and t <= train and s <= ship and (t, s) != (train, ship) for d, t, s in found)]


def _requires_met(state: EhState, i: int, requires: list[str]) -> bool:
    inv = state.investigators[i]
    here = inv["space"]
    for r in requires:
        if r == "monster_here" and not W.monsters_on(state, here):
            return False
        if r == "gate_here" and here not in state.gates:
            return False
        if r.startswith("clues>=") and len(inv["clues"]) + int(P.sanity_for_clue(state, i)) < int(r[7:]):
            return False
        if r.startswith("clues==") and len(inv["clues"]) != int(r[7:]):
            return False
        if r.startswith("no_condition:") and P.has_condition(inv, r.split(":", 1)[1]):
            return False
        if r == "gate_stack>=2" and len(state.gate_stack) < 2:
            return False
        if r == "another_investigator" and len(W.active(state)) < 2:
            return False
        if r == "cultist_here" and not any(W.TOKENS[m["id"]] == "Cultist" for m in W.monsters_on(state, here)):
            return False
        if r == "ship_route" and "ship" not in C.spaces[here].routes.values():
            return False
        if r == "has_improvement" and not any(inv["improve"].values()):
            return False
    return True


def component_actions(state: EhState, i: int) -> dict[str, tuple[list[Op], Ctx]]:
    """Every "Action:" a component offers investigator ``i`` now (EH-R10, EH-R18), keyed for the option."""
    inv = state.investigators[i]
    out: dict[str, tuple[list[Op], Ctx]] = {}
    base = {"inv": i, "bound": i}
    sheet = C.investigators[inv["name"]]["action"]
    if sheet and _requires_met(state, i, sheet["requires"]):
        out["component:sheet"] = (sheet["effects"], {**base, "card": inv["name"], "card_kind": "sheet"})
    for kind, names in (("asset", inv["assets"]), ("artifact", inv["artifacts"])):
        for name in names:
            act = ((C.assets if kind == "asset" else C.artifacts)[name].get("mechanics") or {}).get("action")
            if act and _requires_met(state, i, act["requires"]):
                out[f"component:{kind}:{name}"] = (act["effects"], {**base, "card": name, "card_kind": kind})
    for card in inv["spells"]:
        act = C.spells[P.kind_of(card)]["action"]
        if act and _requires_met(state, i, act["requires"]):
            out[f"component:spell:{P.kind_of(card)}"] = (
                act["effects"], {**base, "card": card, "card_kind": "spell", "spell": True}
            )
    for j in W.active(state):
        other = state.investigators[j]
        if j != i and other["space"] != inv["space"]:
            continue
        for card in other["conditions"]:
            act = (C.conditions[P.kind_of(card)]["mechanics"] or {}).get("action")
            if act and (j == i or act.get("local")):
                key = f"component:condition:{other['name']}:{P.kind_of(card)}"
                out[key] = (act["effects"], {**base, "owner": j, "card": card, "card_kind": "condition"})
    return out


def action_options(state: EhState, i: int) -> list[str]:
    inv = state.investigators[i]
    here = inv["space"]
    acted = set(inv["acted"])
    comps = {k: v for k, v in component_actions(state, i).items() if k not in acted}
    if P.has_condition(inv, "Detained"):  # a restriction: only its own local action
        return [k for k in comps if k.endswith(":Detained")] + ["end"]
    opts: list[str] = []
    city = C.spaces[here].type == "city"
    monster = bool(W.monsters_on(state, here))
    if "travel" not in acted:
        opts += ["travel:" + ">".join(p) for p in travel_paths(state, i)]
    if "rest" not in acted and not monster and "no_rest_action" not in W.rules_in_force(state):
        opts.append("rest")
    if "trade" not in acted:
        opts += [f"trade:{state.investigators[j]['name']}" for j in W.active(state)
                 if j != i and state.investigators[j]["space"] == here]
    if "prepare" not in acted and city:
        kinds = set(C.spaces[here].routes.values())
        opts += [f"prepare:{k}" for k in ("train", "ship") if k in kinds]
    if "acquire" not in acted and city and not monster and state.reserve:
        opts.append("acquire")
    ruby = [a for a in inv["artifacts"] if (C.artifacts[a].get("mechanics") or {}).get("extra_action_for_sanity")]
    if ruby and "free:ruby" not in inv["used"] and inv["sanity"] > 1:
        opts.append(f"free:{ruby[0]}")  # Ruby of R'lyeh: not an action itself
    return opts + list(comps) + ["end"]


def action_step(state: EhState, events: Events) -> None:
    order = W.order(state)
    while state.turn < len(order):
        i = order[state.turn]
        inv = state.investigators[i]
        if inv["status"] != "active" or inv["done"] or len(inv["acted"]) >= 2 + inv["extra"]:
            state.turn += 1
            continue
        if inv["delayed"]:  # EH-R19: standing up is the whole turn
            if not inv["acted"]:
                inv["delayed"] = False
                ev(events, "stood_up", investigator=inv["name"])
            inv["done"] = True
            state.turn += 1
            continue
        ask(state, "action", i, action_options(state, i))
        return
    begin_encounters(state, events)


@resume("action")
def take_action(state: EhState, frame: Any, choice: str, events: Events) -> None:
    i = frame.params["inv"]
    inv = state.investigators[i]
    kind, _, arg = choice.partition(":")
    if kind == "end":
        inv["done"] = True
        return
    if kind == "free":
        inv["used"].append("free:ruby")
        inv["extra"] += 1
        P.lose(state, i, "sanity", 1, events)
        return
    inv["acted"].append(choice if kind == "component" else kind)
    ev(events, "action", investigator=inv["name"], action=choice)
    if kind == "travel":
        here = inv["space"]
        for k, step in enumerate(arg.split(">")):
            if k:
                inv["tickets"][C.spaces[here].routes[step]] -= 1
            P.move_to(state, i, step, events)
            here = step
            if inv["delayed"] or inv["status"] != "active":  # stopped on the way (Cthulhu's Eldritch tokens)
                break
    elif kind == "rest":
        _rest(state, i, events)
    elif kind == "prepare":
        P.gain_ticket(state, i, arg, events)
    elif kind == "acquire":
        after = [{"op": "acquire_buy"}]
        push(state, [{"op": "test", "skill": "influence", "mod": 0, "pass": after, "fail": after}],
             {"inv": i, "bound": i, "acquire": True})
    elif kind == "trade":
        j = next(j for j in W.active(state) if state.investigators[j]["name"] == arg)
        if state.investigators[j]["seat"] != inv["seat"]:  # §11.22: the partner's player agrees first
            ask(state, "trade_consent", j, ["allow", "refuse"], partner=i)
        else:
            ask(state, "trade", i, trade_options(state, i, j), partner=j)
    elif kind == "component":
        effects, ctx = component_actions(state, i)[choice]
        push(state, effects, ctx)


def _rest(state: EhState, i: int, events: Events) -> None:
    """EH-R13, plus the rest hooks of conditions (a die roll may shed a Madness or Injury)."""
    P.recover(state, i, "health", 1)
    P.recover(state, i, "sanity", 1)
    inv = state.investigators[i]
    for j in W.active(state):  # Witch Doctor helps whoever rests on its owner's space
        if state.investigators[j]["space"] == inv["space"]:
            for a in state.investigators[j]["assets"]:
                push(state, (C.assets[a].get("mechanics") or {}).get("rest_here", []), {"inv": i, "bound": i})
    for a in inv["assets"]:  # the resting investigator's own "when you rest" cards
        hook = (C.assets[a].get("mechanics") or {}).get("on_rest")
        if hook:
            push(state, hook, {"inv": i, "bound": i, "card": a, "card_kind": "asset"})
    for card in list(inv["conditions"]):
        rest = (C.conditions[P.kind_of(card)]["mechanics"] or {}).get("rest")
        if rest:
            die = state.rng.die()
            ev(events, "roll", die=die)
            if die in rest["rest_discard_on"]:
                P.discard_condition(state, i, P.kind_of(card), events)


def _items(inv: dict[str, Any]) -> list[str]:
    out = [f"asset:{a}" for a in inv["assets"]] + [f"artifact:{a}" for a in inv["artifacts"]]
    out += [f"spell:{P.kind_of(s)}" for s in inv["spells"]]
    out += ["clue"] * bool(inv["clues"])
    out += [f"ticket:{k}" for k, v in inv["tickets"].items() if v]
    return sorted(set(out))


def trade_options(state: EhState, i: int, j: int, clues_only: bool = False) -> list[str]:
    """EH-R14: possessions only (never conditions or improvements); tickets within the limit of 2."""
    a, b = state.investigators[i], state.investigators[j]
    if clues_only:
        return ["done"] + ["give:clue"] * bool(a["clues"]) + ["take:clue"] * bool(b["clues"])
    give = [f"give:{x}" for x in _items(a) if not x.startswith("ticket") or sum(b["tickets"].values()) < P.TICKET_LIMIT]
    take = [f"take:{x}" for x in _items(b) if not x.startswith("ticket") or sum(a["tickets"].values()) < P.TICKET_LIMIT]
    return ["done", *give, *take]


def move_item(state: EhState, src: dict[str, Any], dst: dict[str, Any], item: str) -> None:
    kind, _, name = item.partition(":")
    if kind in ("asset", "artifact"):
        src[kind + "s"].remove(name)
        dst[kind + "s"].append(name)
    elif kind == "spell":
        card = next(s for s in src["spells"] if P.kind_of(s) == name)
        src["spells"].remove(card)
        dst["spells"].append(card)
    elif kind == "clue":
        dst["clues"].append(src["clues"].pop())
    else:
        src["tickets"][name] -= 1
        dst["tickets"][name] += 1


@resume("trade_consent")
def _resume_consent(state: EhState, frame: Any, choice: str, events: Events) -> None:
    j, i = frame.params["inv"], frame.params["partner"]
    if choice == "refuse":  # a refused trade costs no action
        if not frame.params.get("free"):
            state.investigators[i]["acted"].remove("trade")
        ev(events, "trade_refused", investigator=state.investigators[j]["name"])
        return
    ask(state, "trade", i, trade_options(state, i, j), partner=j, swap=bool(frame.params.get("swap")))


@resume("trade")
def _resume_trade(state: EhState, frame: Any, choice: str, events: Events) -> None:
    if choice == "done":
        if frame.params.get("swap"):
            ask(state, "swap_places", frame.params["inv"], ["stay", "swap"], partner=frame.params["partner"])
        return
    i, j = frame.params["inv"], frame.params["partner"]
    a, b = state.investigators[i], state.investigators[j]
    way, _, item = choice.partition(":")
    src, dst = (a, b) if way == "give" else (b, a)
    move_item(state, src, dst, item)
    ev(events, "traded", source=src["name"], target=dst["name"], item=item)
    only = bool(frame.params.get("clues_only"))
    ask(state, "trade", i, trade_options(state, i, j, only),
        partner=j, clues_only=only, swap=bool(frame.params.get("swap")))


@op("acquire_buy")
def _acquire_buy(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """EH-R17: any reserve cards whose total cost is within the successes; with none taken, one may be
    discarded; the reserve refills after the whole action (§11.25)."""
    budget = int(ctx.get("successes") or 0)
    cards = sorted(state.reserve)
    buys = sorted({
        "+".join(combo)
        for r in range(1, len(cards) + 1)
        for combo in combinations(cards, r)
        if sum(C.assets[c]["cost"] for c in combo) <= budget
    })
    options = [f"buy:{b}" for b in buys] + [f"discard:{c}" for c in sorted(set(cards))] + ["nothing"]
    choice = pick(state, ctx, o, options, kind="buy")
    if choice is None:
        return
    kind, _, arg = choice.partition(":")
    i = ctx["inv"]
    if kind == "buy":
        generous = (C.investigators[state.investigators[i]["name"]].get("passive") or {}).get("buys_for_others")
        for name in arg.split("+"):
            state.reserve.remove(name)
            if generous and len(W.active(state)) > 1:  # Charlie Kane: anyone may receive what he buys
                push(state, [{"op": "hand_over", "card": name}], ctx)
            else:
                P.gain_asset(state, i, name, events, ctx)
    elif kind == "discard":
        state.reserve.remove(arg)
        state.discards["assets"].append(arg)
    P.refill_reserve(state)


# ---------------------------------------------------------------- encounter phase


def begin_encounters(state: EhState, events: Events) -> None:
    state.phase = "encounter"
    ev(events, "phase", phase="encounter")
    push(state, [{"op": "enter_mythos"}], {"inv": None})
    for i in reversed(W.order(state)):
        push(state, [{"op": "encounter_turn"}], {"inv": i, "bound": i})


def encounter_options(state: EhState, i: int, after_combat: bool) -> list[str]:
    """EH-R23..R26: the location encounters and every token encounter on the space."""
    inv = state.investigators[i]
    here = inv["space"]
    opts = ["location:general"]
    region = C.spaces[here].region
    if region:
        opts.append(f"location:{region}")
    if here in state.clues and state.decks["research"] + state.discards.get("research", []):
        opts.append("research")
    if here in state.gates:
        opts.append("other_world")
    rules = W.rules_in_force(state)
    if here == state.expedition and "no_expedition_encounters" not in rules:
        opts.append("expedition")
    rumor = state.rumors.get(here)
    if rumor and any(r["op"] == "rumor_encounter" for r in C.mythos[rumor]["solve"] or []):
        opts.append(f"rumor:{rumor}")
    opts += [f"corpse:{c['name']}" for c in state.corpses if c["space"] == here]
    opts += G.encounter_options(state, i)  # the mystery's (or Final Mystery's) own encounters
    opts += sorted({f"cast:{P.kind_of(c)}" for c in inv["spells"] if C.spells[P.kind_of(c)].get("encounter_option")}
                   if set(state.clues) - {here} else set())
    if after_combat:
        opts.append("none")
    return opts


@op("encounter_turn")
def _encounter_turn(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """EH-R21/R22: fight every monster here first (in the order you choose), then perhaps one encounter."""
    i = ctx["inv"]
    if not P.alive(state, i):
        return
    inv = state.investigators[i]
    for card in inv["conditions"]:
        instead = (C.conditions[P.kind_of(card)]["mechanics"] or {}).get("encounter_instead")
        if instead:  # Detained: flip it instead of encountering
            push(state, instead, {**ctx, "card": card, "card_kind": "condition"})
            return
    monsters = [] if inv["ignore_monsters"] else W.monsters_on(state, inv["space"])
    fought = list(o.get("fought", []))
    left = [m for m in monsters if m["id"] not in fought]
    if left and "encounter" not in o:
        casts = [] if fought or o.get("cast") else [
            f"cast:{P.kind_of(c)}" for c in inv["spells"] if C.spells[P.kind_of(c)].get("encounter_cast")]
        if not fought and any((C.artifacts[a].get("mechanics") or {}).get("ignore_monsters") for a in inv["artifacts"]):
            casts.append("mask")  # Pallid Mask: choose an encounter as if no monster were here
        key = pick(state, ctx, o, [f"fight:{m['id']}:{W.TOKENS[m['id']]}" for m in left] + casts, kind="fight")
        if key is None:
            return
        if key == "mask":
            push(state, [{"op": "ignore_monsters"}, {"op": "encounter_turn", "cast": True}], ctx)
            return
        if key.startswith("cast:"):  # Mists of Releh: on a pass, encounter as if no monster were here
            card = next(c for c in inv["spells"] if P.kind_of(c) == key[5:])
            push(state, [{"op": "encounter_turn", "cast": True}], ctx)
            push(state, C.spells[key[5:]]["encounter_cast"]["effects"],
                 {**ctx, "card": card, "card_kind": "spell", "spell": True})
            return
        mid = int(key.split(":")[1])
        push(state, [{"op": "encounter_turn", "fought": [*fought, mid]}], ctx)
        fight(state, i, mid)
        return
    if monsters and "encounter" not in o:  # survivors stay: no further encounter this round
        return
    if o.get("fought") and inv["no_extra_encounter"]:
        return
    choice = o.get("encounter") or pick(state, ctx, o, encounter_options(state, i, bool(o.get("fought"))),
                                        kind="encounter")
    if choice is None:
        return
    inv["ignore_monsters"] = False
    encounter(state, i, choice, ctx, events)


@op("ignore_monsters")
def _ignore_monsters(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    if P.alive(state, ctx.get("inv")):
        state.investigators[ctx["inv"]]["ignore_monsters"] = True


@resume("encounter")
def _resume_encounter(state: EhState, frame: Any, choice: str, events: Events) -> None:
    redo(state, {**frame.params["op"], "encounter": choice}, choice)


def draw(state: EhState, deck: str) -> str | None:
    """Top card of an encounter deck; an empty deck takes back its discards first (EH-R30)."""
    if not state.decks[deck] and state.discards.get(deck):
        state.decks[deck] = state.discards[deck]
        state.discards[deck] = []
        state.rng.shuffle(state.decks[deck])
    return state.decks[deck].pop() if state.decks[deck] else None


def section(card: dict[str, Any], key: str) -> dict[str, Any] | None:
    """The part of an encounter card read for ``key`` (the space's type or name, or the card's own world,
    location or mystery); a card with a single part is read whole."""
    for s in card["sections"]:
        if s["section"] in (key, card.get("world"), card.get("location"), card.get("mystery")):
            return s
    return card["sections"][0] if len(card["sections"]) == 1 else None


def encounter(state: EhState, i: int, choice: str, ctx: Ctx, events: Events) -> None:
    inv = state.investigators[i]
    here = inv["space"]
    kind, _, arg = choice.partition(":")
    ev(events, "encounter", investigator=inv["name"], choice=choice)
    base = {**ctx, "inv": i, "bound": i, "space": here, "combat": False}
    if kind == "none":
        return
    if kind == "cast":
        card = next(c for c in inv["spells"] if P.kind_of(c) == arg)
        push(state, C.spells[arg]["encounter_option"]["effects"],
             {**base, "card": card, "card_kind": "spell", "spell": True})
        return
    if kind == "rumor":
        push(state, C.mythos[arg]["solve"] or [], {**base, "card": arg, "card_kind": "mythos"})
        return
    if kind == "corpse":
        corpse = next(c for c in state.corpses if c["name"] == arg)
        effects = C.investigators[arg]["defeated"][corpse["token"]]["effects"]
        push(state, [{"op": "corpse_done"}], {**base, "corpse": arg})
        push(state, effects, {**base, "corpse": arg})
        return
    if kind == "mystery":
        G.mystery_encounter(state, i, base)
        return
    deck = {"location": arg, "research": "research", "other_world": "other_world",
            "expedition": "expedition", "special": "special"}[kind]
    draw_encounter(state, deck, here, base, events)


def draw_encounter(state: EhState, deck: str, here: str, ctx: Ctx, events: Events) -> None:
    card_id = draw(state, deck)
    if card_id is None:
        return
    card = C.encounters[card_id]
    key = C.spaces[here].type if deck in ("general", "research") else here
    part = section(card, key)
    # the part read is public, so the table can show its text (the card is face up once drawn)
    ev(events, "encounter_card", deck=deck, card=card_id, section=part["section"] if part else None)
    push(state, [{"op": "encounter_discard", "deck": deck, "id": card_id}], ctx)
    push(state, G.after_encounter(state, deck, ctx), ctx)
    push(state, part["effects"] if part else [], {**ctx, "card": card_id, "card_kind": "encounter"})


@op("encounter_discard")
def _encounter_discard(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    state.discards.setdefault(o["deck"], []).append(o["id"])
    if o["deck"] == "expedition":
        set_expedition(state)


@op("corpse_done")
def _corpse_done(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """EH-R62: after the encounter the sheet leaves the game; what was not taken is discarded."""
    corpse = next((c for c in state.corpses if c["name"] == ctx.get("corpse")), None)
    if corpse is None:
        return
    state.corpses.remove(corpse)
    state.discards["assets"] += corpse["assets"]
    state.discards["artifacts"] += corpse["artifacts"]
    state.discards["spells"] += corpse["spells"]
    state.clue_pool += corpse["clues"]


@op("rumor_encounter")
def _rumor_encounter(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    i = P.living(state, ctx.get("inv"))
    if i is None:
        return
    if o.get("action") == "resolve_other_world_encounter":
        draw_encounter(state, "other_world", state.investigators[i]["space"], {**ctx, "rumor_close": ctx["card"]},
                       events)
        return
    if o.get("test") and o["test"].get("skill"):
        push(state, [{"op": "test", "skill": o["test"]["skill"], "mod": o["test"].get("mod", 0),
                      "pass": o.get("on_pass", []), "fail": []}], ctx)
        return
    push(state, o.get("on_pass") or o.get("on_encounter") or [], ctx)


@op("enter_mythos")
def _enter_mythos(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    state.phase = "mythos"
    ev(events, "phase", phase="mythos")
    push(state, [{"op": "mythos_draw"}, {"op": "mythos_replace"}, {"op": "mythos_lead"}, {"op": "new_round"}],
         {"inv": None})


def _idle(state: EhState, events: Events) -> None:
    """Encounter and Mythos phases run entirely as frames; an empty machine there is a bug."""
    raise RuntimeError(f"no work left in the {state.phase} phase")


PHASE_STEP["action"] = action_step
PHASE_STEP["encounter"] = _idle
PHASE_STEP["mythos"] = _idle

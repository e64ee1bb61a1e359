"""The general ops of the effect vocabulary: choices, conditions, cards, gates, monsters and tokens on the map.

What is feasible matters for choices: an option whose first step cannot be done (spend a clue you do not
have, discard a condition you do not hold) is not offered, because paying it would do nothing.
"""

from __future__ import annotations

from typing import Any

from rules.eldritch_horror import people as P
from rules.eldritch_horror import progress as G
from rules.eldritch_horror import world as W
from rules.eldritch_horror.data import load
from rules.eldritch_horror.machine import Ctx, Events, Op, ev, op, pick, push
from rules.eldritch_horror.state import EhState

C = load()


def feasible(state: EhState, ctx: Ctx, ops: list[Op]) -> bool:
    """Whether the first step of ``ops`` can be carried out by the investigator in ``ctx``."""
    if not ops:
        return True
    first = ops[0]
    i = P.living(state, ctx.get("inv"))
    inv = state.investigators[i] if i is not None else None
    name = first["op"]
    if name == "spend":
        n = W.amount(state, first.get("n", 1), ctx)
        if first.get("group"):
            return sum(len(state.investigators[j]["clues"]) for j in W.active(state)) >= n
        return i is not None and len(state.investigators[i]["clues"]) + int(n > 0 and P.sanity_for_clue(state, i)) >= n
    if name == "discard_condition" and inv is not None:
        want = first.get("name")
        if want in (None, "any"):
            return bool(inv["conditions"])
        return P.has_condition(inv, want)
    if name == "discard_possession" and inv is not None:
        kind = first.get("kind", "possession")
        trait = (first.get("trait") or "").lower()
        cards = [C.assets[a] for a in inv["assets"]] if kind in ("asset", "possession") else []
        cards += [C.artifacts[a] for a in inv["artifacts"]] if kind == "possession" else []
        if kind in ("spell", "possession") and not trait:
            cards += [C.spells[P.kind_of(s)] for s in inv["spells"]]
        return any(not trait or trait in P.traits(c) for c in cards)
    if name == "discard_monster" and first.get("target") == "monster_on_your_space":
        return inv is not None and any(not W.is_epic(m["id"]) for m in W.monsters_on(state, inv["space"]))
    return True


def condition(state: EhState, ctx: Ctx, cond: str) -> bool:
    i = P.living(state, ctx.get("inv"))
    inv = state.investigators[i] if i is not None else None
    if cond.startswith("has_condition:"):
        return inv is not None and P.has_condition(inv, cond.split(":", 1)[1])
    if cond == "monsters_on_board>=10":
        return len([m for m in state.monsters if not m.get("ambush")]) >= 10
    if cond.startswith("monsters_on_space_"):
        space, _, n = cond[len("monsters_on_space_"):].partition(">=")
        return len(W.monsters_on(state, f"Space {space}")) >= int(n)
    m = W.monster_at(state, ctx.get("monster", -1))
    table = {
        "has_spell": inv is not None and bool(inv["spells"]),
        "hound_of_tindalos_on_board": any(W.TOKENS[x["id"]] == "Hound of Tindalos" for x in state.monsters),
        "lost_sanity_from_this": bool(ctx.get("lost_sanity")),
        "any_solved_mystery": bool(state.solved),
        "any_mythos_in_play_with_reckoning": any(C.mythos[x["id"]].get("reckoning") for x in state.in_play),
        "any_monster_with_reckoning": any(W.stats(state, x["id"]).get("reckoning_effects") for x in state.monsters),
        "rumors_in_play>0": any(C.mythos[x["id"]]["subtype"] == "rumor" for x in state.in_play),
        "gates_matching_omen>0": any(C.gate_tokens[g] == W.omen_colour(state) for g in state.gates),
        "investigator_on_this_space": m is not None
        and any(state.investigators[j]["space"] == m["space"] for j in W.active(state)),
        "last_test_failed": ctx.get("passed") is False,
    }
    return table[cond]


# Fields shown as bare words (``gain_asset 1 item``), then qualifiers shown as ``field=value`` so that two
# options differing only there (an item from the reserve or from the deck) get different keys.
_WORDS = ("n", "name", "monster", "trait", "what", "skill")
_QUALIFIERS = ("from", "source", "kind", "group")


def _label(ops: list[Op]) -> str:
    parts = []
    for o in ops:
        bits = [o["op"]] + [str(o[k]) for k in _WORDS if o.get(k) is not None]
        bits += [f"{k}={str(o[k]).lower()}" for k in _QUALIFIERS if o.get(k) not in (None, False)]
        parts.append(" ".join(bits))
    return " + ".join(parts) or "nothing"


def by_choice(ops: list[Op]) -> list[Op]:
    """``ops`` as taken by the investigator's own choice: a Delay among them then happens even to someone
    who cannot otherwise be delayed (the Pocket Watch and Mark Harrigan only protect against unwanted ones)."""
    return [{**o, "chosen": True} if o["op"] == "become_delayed" else o for o in ops]


@op("choose_one")
def _choose_one(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    options = [opts for opts in o["options"] if feasible(state, ctx, opts)]
    labels = []
    for k, opts in enumerate(options):
        label = _label(opts)
        labels.append(label if label not in labels else f"{label} ({k + 1})")
    if "choice" in o:
        chosen = options[labels.index(o["choice"])]
    elif not options:
        return
    else:
        key = pick(state, ctx, o, labels, kind="choose")
        if key is None:
            return
        chosen = options[labels.index(key)]
    push(state, by_choice(chosen), ctx)


@op("optional")
def _optional(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """``may``: pay ``cost`` (if any) and get ``then``; declining does nothing."""
    cost = o.get("cost", [])
    who = ctx["inv"] if ctx.get("inv") is not None else state.lead
    if not feasible(state, ctx, cost) or not P.alive(state, who):
        return
    choice = pick(state, ctx, o, ["yes", "no"], kind="optional", inv=who, effect=_label(cost + o["then"]))
    if choice == "yes":
        push(state, by_choice(cost + o["then"]), ctx)


@op("if")
def _if(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    push(state, o["then"] if condition(state, ctx, o["cond"]) else o.get("else", []), ctx)


# ---------------------------------------------------------------- cards held


def _card_back(card: str, kind: str) -> list[Op]:
    name, _, copy = card.partition("#")
    data = C.spells[name] if kind == "spell" else C.conditions[name]
    return data["backs"][int(copy)]["effects"]


@op("flip_this_card")
def _flip(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """EH-R57: only now is the back read (and shown), then resolved at once."""
    card, kind = ctx.get("card"), ctx.get("card_kind")
    i = P.living(state, ctx.get("owner", ctx.get("inv")))
    if kind not in ("spell", "condition") or i is None or card is None:
        return
    if card not in state.investigators[i]["spells" if kind == "spell" else "conditions"]:
        return
    back = _card_back(card, kind)
    ev(events, "flipped", investigator=state.investigators[i]["name"], card=P.kind_of(card), back=back)
    push(state, back, {**ctx, "inv": i, "combat": False})


@op("discard_this_card")
def _discard_this(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    card, kind = ctx.get("card"), ctx.get("card_kind")
    if card is None:
        return
    if kind == "mythos":
        G.solve_rumor(state, card, events)
        return
    i = P.living(state, ctx.get("owner", ctx.get("inv")))
    if i is None:
        return
    inv = state.investigators[i]
    pile = {"asset": "assets", "artifact": "artifacts", "spell": "spells", "condition": "conditions"}.get(kind or "")
    if pile and card in inv[pile]:
        inv[pile].remove(card)
        state.discards[pile].append(card)
        ev(events, "discarded", investigator=inv["name"], card=P.kind_of(card))


# ---------------------------------------------------------------- gates, clues, monsters on the map


def _here(state: EhState, ctx: Ctx) -> str | None:
    if ctx.get("remote"):  # Clairvoyance: an encounter at another space
        return str(ctx["remote"])
    if P.alive(state, ctx.get("inv")):
        return state.investigators[ctx["inv"]]["space"]
    return ctx.get("space")


@op("close_gate")
def _close_gate(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """EH-R28; on a rumor's borrowed Other World card, closing solves the rumor instead."""
    if ctx.get("rumor_close"):
        G.solve_rumor(state, ctx["rumor_close"], events)
        return
    here = _here(state, ctx)
    if here and W.close_gate(state, here, events):
        G.gate_closed(state, ctx, here, events)
        i = P.living(state, ctx.get("inv"))
        if i is None:
            return
        for card in P.possessions(state.investigators[i]):  # Gate Box
            push(state, (card.get("mechanics") or {}).get("on_close_gate", []), {**ctx, "card": None})
        if (C.investigators[state.investigators[i]["name"]].get("passive") or {}).get("move_after_closing"):
            push(state, [{"op": "optional", "then": [{"op": "move", "to": "clue_or_gate"}]}], ctx)  # Akachi Onyele


@op("move_toward_nearest_gate")
def _toward_gate(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """One step along a shortest route towards the nearest open gate (ties: alphabetical); none open: stay."""
    i = P.living(state, ctx.get("inv"))
    if i is None:
        return
    here = state.investigators[i]["space"]
    target = W.nearest(state, here, lambda s: s in state.gates)
    if target is None or target == here:
        return
    P.move_to(state, i, min(C.spaces[here].routes, key=lambda s: (C.distances[s][target], s)), events)


@op("discard_gate", "group_discard_gate")
def _discard_gate(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    gate = pick(state, ctx, o, sorted(state.gates), inv=state.lead if o["op"] == "group_discard_gate" else None)
    if gate is None:
        return
    state.gates.remove(gate)
    state.gate_discard.append(gate)
    ev(events, "gate_discarded", space=gate)
    if o["op"] == "group_discard_gate" and C.gate_tokens[gate] != W.omen_colour(state):
        push(state, o.get("then_if_not_current_omen", []), ctx)


@op("discard_gates_matching_omen")
def _discard_omen_gates(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    gone = [g for g in state.gates if C.gate_tokens[g] == W.omen_colour(state)]
    for g in gone:
        state.gates.remove(g)
        state.gate_discard.append(g)
    W.advance_doom(state, len(gone), events)


def _monster_key(state: EhState, m: dict[str, Any]) -> str:
    return f"{m['id']}:{W.TOKENS[m['id']]}@{m['space']}"


def _monsters(state: EhState, target: str, ctx: Ctx) -> list[dict[str, Any]]:
    here = _here(state, ctx)
    board = [m for m in state.monsters if not m.get("ambush")]
    if target in ("monster_on_your_space", "each_monster_on_your_space"):
        return [m for m in board if m["space"] == here]
    if target in C.monsters or target in C.epics:
        return [m for m in board if W.TOKENS[m["id"]] == target]
    return board


@op("discard_monster")
def _discard_monster(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """EH-R72: epic monsters cannot be discarded."""
    cands = [m for m in _monsters(state, o.get("target", ""), ctx) if not W.is_epic(m["id"])]
    key = pick(state, ctx, o, [_monster_key(state, m) for m in cands])
    if key is None:
        return
    mid = int(key.split(":")[0])
    loss = W.toughness(state, mid)
    W.remove_monster(state, mid, events, defeated=False)
    if o.get("then") == "lose_health_equal_toughness" and P.alive(state, ctx.get("inv")):
        P.lose(state, ctx["inv"], "health", loss, events)


@op("monster_loses_health")
def _monster_loses(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    n = W.amount(state, o.get("n", 1), ctx)
    target = o.get("target", "")
    if target == "each_monster_on_space_of_choice":
        spaces = sorted({m["space"] for m in state.monsters if not m.get("ambush")})
        space = pick(state, ctx, o, spaces)
        if space is not None:
            for m in [m for m in state.monsters if m["space"] == space and not m.get("ambush")]:
                G.hurt_monster(state, m["id"], n, events)
        return
    if target == "each_monster_on_your_space":
        for m in list(_monsters(state, target, ctx)):
            G.hurt_monster(state, m["id"], n, events)
        return
    key = pick(state, ctx, o, [_monster_key(state, m) for m in _monsters(state, target, ctx)])
    if key is not None:
        G.hurt_monster(state, int(key.split(":")[0]), n, events)


@op("defeat_monsters_on_your_space")
def _defeat_here(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    for m in list(_monsters(state, "monster_on_your_space", ctx)):
        if not W.is_epic(m["id"]):
            G.defeat_monster(state, m["id"], events)


@op("move_monster")
def _move_monster(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """Two answers in turn: which monster, then where (unless it comes to your space)."""
    if "monster_key" in o:
        key, dest = o["monster_key"], o.get("choice")
    else:
        cands = [m for m in _monsters(state, o.get("target", ""), ctx) if not W.is_epic(m["id"])]
        key = pick(state, ctx, o, [_monster_key(state, m) for m in cands])
        if key is None:
            return
        if o.get("to") == "your_space":
            dest = _here(state, ctx)
        else:
            asked = {k: v for k, v in o.items() if k != "choice"} | {"monster_key": key}
            dest = pick(state, ctx, asked, sorted(C.spaces))
    m = W.monster_at(state, int(key.split(":")[0]))
    if m is not None and dest:
        m["space"] = dest
        ev(events, "monster_moved", id=m["id"], space=dest)


@op("discard_this_clue")
def _discard_this_clue(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    here = _here(state, ctx)
    if here in state.clues:
        state.clues.remove(here)
        state.clue_pool.append(here)


@op("move_this_clue")
def _move_this_clue(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """A clue token names its space, so a moved clue is the one for the destination (if it is free)."""
    here = _here(state, ctx)
    if here not in state.clues:
        return
    kind = o["to"].split("_")[1]
    dest = W.nearest(state, here, lambda s: C.spaces[s].type == kind and s in state.clue_pool)
    state.clues.remove(here)
    state.clue_pool.append(here)
    if dest is not None:
        state.clue_pool.remove(dest)
        state.clues.append(dest)
        ev(events, "clue_moved", space=dest)


@op("spawn_monster")
def _spawn_monster(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    where = o.get("where", "this_space")
    if where == "this_space":
        spaces = [ctx.get("space") or _here(state, ctx)]
    elif where == "active_expedition":
        spaces = [state.expedition]
    elif where == "each_space_with_cultist":
        spaces = sorted({m["space"] for m in state.monsters if W.TOKENS[m["id"]] == "Cultist" and not m.get("ambush")})
    elif where == "random_space":
        spaces = [W.random_space(state)]
    else:
        spaces = [where]
    name = o.get("name")
    if o.get("which", "").startswith("Dark Young"):
        name = "Dark Young"
    for space in spaces:
        if space is None:
            continue
        for _ in range(int(o.get("n", 1))):
            W.spawn_monster(state, space, events, name=name)


@op("move_omen_any")
def _omen_any(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    keys = [f"{k}:{c}" for k, c in enumerate(C.omen_track)]
    if o.get("optional"):
        keys.append("no")
    key = pick(state, ctx, o, keys, inv=state.lead if ctx.get("inv") is None else None)
    if key is None or key == "no":
        return
    state.omen = int(key.split(":")[0])
    ev(events, "omen", colour=W.omen_colour(state))
    if o.get("advance_doom", False):
        W.advance_doom(state, sum(1 for g in state.gates if C.gate_tokens[g] == W.omen_colour(state)), events)


@op("clear_defeated_investigators")
def _clear_corpses(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    for c in state.corpses:
        state.discards["assets"] += c["assets"]
        state.discards["artifacts"] += c["artifacts"]
        state.discards["spells"] += c["spells"]
        state.clue_pool += c["clues"]
    state.corpses = []


@op("refill_reserve")
def _refill(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    P.refill_reserve(state)


@op("discard_reserve")
def _discard_reserve(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    state.discards["assets"] += state.reserve
    state.reserve = []
    P.refill_reserve(state)


@op("shuffle_deck")
def _shuffle(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    deck = o["deck"]
    state.decks[deck] += state.discards.get(deck, [])
    state.discards[deck] = []
    state.rng.shuffle(state.decks[deck])
    if deck == "expedition":
        set_expedition(state)


def set_expedition(state: EhState) -> None:
    """The Active Expedition token follows the back of the top expedition card (setup 9F, EH-R29)."""
    if not state.decks["expedition"] and state.discards.get("expedition"):
        state.decks["expedition"] = state.discards["expedition"]
        state.discards["expedition"] = []
        state.rng.shuffle(state.decks["expedition"])
    deck = state.decks["expedition"]
    state.expedition = C.encounters[deck[-1]]["location"] if deck else None


@op("remove_expedition_cards_of_active_location")
def _remove_expedition(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    where = state.expedition
    state.decks["expedition"] = [c for c in state.decks["expedition"] if C.encounters[c]["location"] != where]
    state.discards["expedition"] = [c for c in state.discards.get("expedition", [])
                                    if C.encounters[c]["location"] != where]
    emptied = not state.decks["expedition"] and not state.discards["expedition"]
    if emptied and o.get("if_deck_empty") == "investigators_lose":
        W.finish(state, False, "card_effect", events)
        return
    set_expedition(state)


@op("move_investigator")
def _move_investigator(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    m = W.monster_at(state, ctx.get("monster", -1))
    if m is None:
        return
    for i in P.target_investigators(state, "nearest_investigator", ctx):
        here = state.investigators[i]["space"]
        if here != m["space"]:
            step = min(C.spaces[here].routes, key=lambda s: (C.distances[s][m["space"]], s))
            P.move_to(state, i, step, events)


@op("move_this_monster_with_investigator")
def _carry(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    m = W.monster_at(state, ctx.get("monster", -1))
    if m is None:
        return
    dest = pick(state, ctx, o, sorted(C.spaces[m["space"]].routes), inv=state.lead)
    if dest is None:
        return
    for i in P.target_investigators(state, "each_on_this_space", ctx):
        P.move_to(state, i, dest, events)
        ctx.setdefault("carried", []).append(i)
    m["space"] = dest
    ev(events, "monster_moved", id=m["id"], space=dest)


@op("skip_additional_encounter")
def _no_extra(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    if P.alive(state, ctx.get("inv")):
        state.investigators[ctx["inv"]]["no_extra_encounter"] = True


@op("pull_monster_and_encounter")
def _pull(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    from rules.eldritch_horror.combat import fight

    i = P.living(state, ctx.get("inv"))
    if i is None:
        return
    here = state.investigators[i]["space"]
    board = [m for m in state.monsters if not m.get("ambush") and (o.get("epic_allowed") or not W.is_epic(m["id"]))]
    key = pick(state, ctx, o, sorted(_monster_key(state, m) for m in board))  # the card lets you pick any one
    if key is None:
        return
    m = W.monster_at(state, int(key.split(":")[0]))
    if m is None:
        return
    m["space"] = here
    ev(events, "monster_moved", id=m["id"], space=here)
    fight(state, i, m["id"])


@op("remove_assets_from_game")
def _remove_assets(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """Faded From Society: assets costing at least the card's Eldritch tokens leave the game."""
    card = next((m for m in state.in_play if m["id"] == ctx.get("card")), None)
    if card is None:
        return
    gone = [a for a in state.decks["assets"] + state.discards["assets"] + state.reserve
            if C.assets[a]["cost"] >= card["eldritch"]]
    state.decks["assets"] = [a for a in state.decks["assets"] if a not in gone]
    state.discards["assets"] = [a for a in state.discards["assets"] if a not in gone]
    state.reserve = [a for a in state.reserve if a not in gone]
    state.discards.setdefault("removed", []).extend(sorted(gone))
    P.refill_reserve(state)


@op("rumor_trophy")
def _trophy(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """Return of the Ancient Ones: a monster beaten on its space may go on the card; enough toughness there
    solves the rumor."""
    card = next((m for m in state.in_play if m["id"] == o["card"]), None)
    if card is None:
        return
    card["health"] += int(o["n"])
    if card["health"] >= W.n_investigators(state):
        G.solve_rumor(state, o["card"], events)


@op("give_condition_here")
def _give_here(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """Holy Water: an investigator on your space (you included) gains the condition."""
    i = P.living(state, ctx.get("inv"))
    if i is None:
        return
    here = state.investigators[i]["space"]
    names = [state.investigators[j]["name"] for j in W.active(state) if state.investigators[j]["space"] == here]
    who = pick(state, ctx, o, names)
    if who is not None:
        j = next(j for j in W.active(state) if state.investigators[j]["name"] == who)
        P.gain_condition(state, j, o["name"], events)

"""Ops for tokens and pieces that Mystery cards and Ancient One sheets move about.

Eldritch tokens go on the active mystery, on a Mythos card, on the green omen space or on map spaces (one
count per space in ``state.space_eldritch``: Cthulhu's front side reads the same tokens). A mystery also
keeps what it has banked on itself: clues (research mysteries), monsters (Hunting the Thousand), gates
(Where the Old Ones Broke Through) and the map spaces where it put its own tokens.
"""

from __future__ import annotations

from rules.eldritch_horror import combat
from rules.eldritch_horror import people as P
from rules.eldritch_horror import progress as G
from rules.eldritch_horror import world as W
from rules.eldritch_horror.data import load
from rules.eldritch_horror.effects import feasible
from rules.eldritch_horror.machine import Ctx, Events, Op, ev, op, pick, push
from rules.eldritch_horror.state import EhState

C = load()


def _on_space(state: EhState, space: str, events: Events, mine: bool = False) -> None:
    """One Eldritch token onto a map space; ``mine``: it belongs to the active mystery's card."""
    state.space_eldritch[space] = state.space_eldritch.get(space, 0) + 1
    if mine and state.mystery is not None:
        state.mystery.setdefault("board", []).append(space)
    ev(events, "eldritch_on_space", space=space)


def _for_final(state: EhState, ctx: Ctx) -> bool:
    """A Special Encounter of the Final Mystery's own deck (The Key and the Gate) advances the sheet, not a card."""
    card = C.encounters.get(ctx.get("card") or "") if ctx.get("card_kind") == "encounter" else None
    return bool(card and state.final is not None and card.get("mystery") == state.final["name"])


@op("place_eldritch")
def _place(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    n = W.amount(state, o.get("n", 1), ctx)
    where = o.get("where")
    if where == "active_mystery":
        G.add_tokens(state, n, events, final=_for_final(state, ctx))
    elif where == "omen_track_green":
        state.omen_eldritch += n
    elif where == "your_space" and ctx.get("inv") is not None:
        _on_space(state, state.investigators[ctx["inv"]]["space"], events)
    elif where == "this_card":
        _card_tokens(state, ctx, n, events)
    elif where == "random_spaces":  # The True Name: EH-R46 random spaces
        for _ in range(n):
            space = W.random_space(state)
            if space:
                _on_space(state, space, events, mine=True)
    elif where == "spaces":  # Rituals in the Wild: printed spaces
        for space in o["spaces"]:
            _on_space(state, space, events, mine=True)
    elif where == "nearest_free_sea_each":  # The Deep Ones Attack!: one per investigator, in play order
        for i in W.order(state):
            if P.alive(state, i):
                free = W.nearest(state, state.investigators[i]["space"],
                                 lambda s: C.spaces[s].type == "sea" and not state.space_eldritch.get(s))
                if free:
                    _on_space(state, free, events, mine=True)
    else:
        raise ValueError(f"unknown place for Eldritch tokens {where!r}")


@op("remove_eldritch")
def _remove(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    n = W.amount(state, o.get("n", 1), ctx)
    if o.get("where") == "omen_track_green":
        state.omen_eldritch = max(0, state.omen_eldritch - n)
    else:
        _card_tokens(state, ctx, -n, events)


def _card_tokens(state: EhState, ctx: Ctx, n: int, events: Events) -> None:
    card = next((m for m in state.in_play if m["id"] == ctx.get("card")), None)
    if card is None:
        return
    card["eldritch"] = max(0, card["eldritch"] + n)
    ev(events, "eldritch_on_card", card=C.mythos[card["id"]]["name"], tokens=card["eldritch"])
    if card["eldritch"] == 0 and n < 0:
        push(state, C.mythos[card["id"]].get("on_zero_eldritch") or [], ctx)


@op("place_token")
def _place_token(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    card = next((m for m in state.in_play if m["id"] == ctx.get("card")), None)
    if card is not None:
        card["health"] += int(o.get("n", 1))


@op("place_mystery_token")
def _mystery_space(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    if state.mystery is not None:
        state.mystery["space"] = o["space"]


@op("take_eldritch_to_mystery")
def _take_eldritch(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """An Eldritch token on the encountered space moves onto the active mystery."""
    here = state.investigators[ctx["inv"]]["space"] if P.alive(state, ctx.get("inv")) else None
    if here is None or not state.space_eldritch.get(here):
        return
    state.space_eldritch[here] -= 1
    if not state.space_eldritch[here]:
        del state.space_eldritch[here]
    board = (state.mystery or {}).get("board", [])
    if here in board:
        board.remove(here)
    G.add_tokens(state, 1, events)


@op("offer_research_clue")
def _offer_research_clue(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """After a Research encounter: one clue gained in it may go onto the research mystery."""
    i = P.living(state, ctx.get("inv"))
    if i is None or state.mystery is None:
        return
    held = list(state.investigators[i]["clues"])
    for clue in o["before"]:
        if clue in held:
            held.remove(clue)
    if not held:
        return
    choice = pick(state, ctx, o, ["yes", "no"], kind="optional", effect="mystery_clue")
    if choice == "yes":
        state.investigators[i]["clues"].remove(held[-1])
        state.mystery.setdefault("clues", []).append(held[-1])
        G.add_tokens(state, 1, events)


@op("offer_if_held")
def _offer_if_held(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """Arcane Understanding's offer, made only while the Spell that was cast is still held."""
    i = P.living(state, ctx.get("inv"))
    if i is not None and ctx.get("card") in state.investigators[i]["spells"] and feasible(state, ctx, o["cost"]):
        push(state, [{"op": "optional", "cost": o["cost"], "then": o["then"]}], ctx)


@op("bank_gate")
def _bank_gate(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """Where the Old Ones Broke Through: the closed gate goes onto the card (and to the box once solved)."""
    if state.mystery is None or o["space"] not in state.gate_discard:
        return
    state.gate_discard.remove(o["space"])
    state.mystery.setdefault("gates", []).append(o["space"])
    G.add_tokens(state, 1, events)


@op("bank_monster")
def _bank_monster(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """Hunting the Thousand: the defeated monster goes onto the card; its toughness counts towards the goal."""
    mid = o["monster"]
    if state.mystery is None or mid not in state.cup:
        return
    state.cup.remove(mid)
    state.mystery.setdefault("monsters", []).append(mid)
    G.add_tokens(state, W.toughness(state, mid), events)


@op("move_board_clues")
def _move_clues(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """Every clue on the board moves to the nearest space of the given types. A clue token names its space,
    so a moved clue becomes the destination's token; with that token already out, the next nearest is used
    (and with none free the clue goes back to the pool), as ``move_this_clue`` does."""
    kinds = set(o["to"])
    for here in sorted(state.clues):
        if C.spaces[here].type in kinds:
            continue
        dest = W.nearest(state, here, lambda s: C.spaces[s].type in kinds and s in state.clue_pool)
        state.clues.remove(here)
        state.clue_pool.append(here)
        if dest is not None:
            state.clue_pool.remove(dest)
            state.clues.append(dest)
            ev(events, "clue_moved", space=dest)


@op("move_monsters_to")
def _move_monsters(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """Shub-Niggurath awakens: every monster of the named kinds on the board gathers on one space."""
    for m in state.monsters:
        if W.TOKENS[m["id"]] in o["names"] and not m.get("ambush") and m["space"] != o["to"]:
            m["space"] = o["to"]
            ev(events, "monster_moved", id=m["id"], space=o["to"])


@op("fight_epic_on_its_space")
def _fight_epic(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """Shub-Niggurath's awakened reckoning: each investigator on her space fights her, in play order."""
    m = next((m for m in state.monsters if W.TOKENS[m["id"]] == o["name"]), None)
    if m is None:
        return
    for i in reversed(W.order(state)):
        if P.alive(state, i) and state.investigators[i]["space"] == m["space"]:
            combat.fight(state, i, m["id"])


@op("place_lost_sanity_on_ancient_one_sheet")
def _sanity_on_sheet(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """Cthulhu (epic monster): the Sanity its Will test takes goes onto the Ancient One sheet as tokens."""
    i = P.living(state, ctx.get("inv"))
    if state.final is None or i is None:
        return
    n = min(int(ctx.get("lost", 0)), state.investigators[i]["sanity"])
    if n > 0:
        state.final["sanity"] = state.final.get("sanity", 0) + n
        ev(events, "sanity_on_sheet", tokens=state.final["sanity"])


@op("lose_sanity_per_sheet_token")
def _lose_per_token(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """Cthulhu's awakened reckoning: each investigator loses Sanity equal to the Sanity tokens on the sheet."""
    n = (state.final or {}).get("sanity", 0)
    for i in reversed(W.order(state)):
        if n and P.alive(state, i):
            push(state, [{"op": "lose_sanity", "n": n}], {"inv": i})


@op("cultist_spawns_set_aside")
def _cultist_spawns(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    m = W.monster_at(state, ctx.get("monster", -1))
    if m is None:
        return
    for name in o["names"]:
        if any(W.TOKENS[x] == name for x in state.set_aside):
            W.spawn_monster(state, m["space"], events, name=name)
            W.remove_monster(state, m["id"], events, defeated=False)
            return

"""Mysteries, the Final Mystery, rumors and Eldritch tokens: how the investigators win (EH-R73..R76).

Mystery cards are absent from the sources, so the project designed them (data/mysteries.json, house: true)
from a few data-driven shapes: Eldritch tokens on the card (from research or special encounters, closed
gates or defeated monsters), a component action that pays clues, or an epic monster to defeat.
"""

from __future__ import annotations

from typing import Any

from rules.eldritch_horror import world as W
from rules.eldritch_horror.data import load
from rules.eldritch_horror.machine import Ctx, Events, Op, ev, op, pick, push
from rules.eldritch_horror.state import EhState

C = load()


def mystery_data(state: EhState) -> dict[str, Any] | None:
    return C.mysteries[state.mystery["name"]] if state.mystery else None


def final_data(state: EhState) -> dict[str, Any] | None:
    return C.ancient_ones[state.ancient_one]["awakened"].get("final_mystery") if state.final else None


def target(state: EhState, data: dict[str, Any]) -> int | None:
    need = data["solve"].get("tokens")
    return None if need is None else W.amount(state, need)


def enter_mystery(state: EhState, events: Events) -> None:
    """Draw the next mystery and resolve its entering effects (setup step 9H, EH-R73)."""
    if not state.mystery_deck:
        state.mystery = None
        return
    name = state.mystery_deck.pop()
    state.mystery = {"name": name, "tokens": 0, "space": None}
    ev(events, "mystery", name=name)
    push(state, C.mysteries[name]["enters"], {"inv": None})


def check_win(state: EhState, events: Events) -> None:
    """EH-R74/R75: three mysteries win; once awakened the Final Mystery is needed too."""
    if len(state.solved) >= 3 and (not state.awakened or (state.final is not None and state.final["solved"])):
        W.finish(state, True, "mysteries_solved", events)


def solve_mystery(state: EhState, events: Events) -> None:
    if state.mystery is None:
        return
    state.solved.append(state.mystery["name"])
    ev(events, "mystery_solved", name=state.mystery["name"], solved=len(state.solved))
    state.mystery = None
    check_win(state, events)
    if state.phase != "over" and len(state.solved) < 3:
        enter_mystery(state, events)


def solve_final(state: EhState, events: Events) -> None:
    if state.final is None or state.final["solved"]:
        return
    state.final["solved"] = True
    ev(events, "final_mystery_solved", name=state.final["name"])
    check_win(state, events)


def add_tokens(state: EhState, n: int, events: Events) -> None:
    if state.mystery is None or n <= 0:
        return
    state.mystery["tokens"] += n
    ev(events, "mystery_progress", name=state.mystery["name"], tokens=state.mystery["tokens"])
    need = target(state, C.mysteries[state.mystery["name"]])
    if need is not None and state.mystery["tokens"] >= need:
        solve_mystery(state, events)


def _final_token(state: EhState, trigger: str, events: Events) -> None:
    fd = final_data(state)
    if fd and trigger in fd.get("tokens_on", []) and not state.final["solved"]:
        state.final["tokens"] += 1
        if state.final["tokens"] >= (target(state, fd) or 0):
            solve_final(state, events)


def gate_closed(state: EhState, events: Events) -> None:
    md = mystery_data(state)
    if md and "gate_closed" in md.get("tokens_on", []):
        add_tokens(state, 1, events)
    _final_token(state, "gate_closed", events)


def monster_defeated(state: EhState, name: str, events: Events) -> None:
    md = mystery_data(state)
    if md:
        for trig in md.get("tokens_on", []):
            if trig == "monster_defeated" or (trig.startswith("monster_defeated:") and name in trig.split(":", 1)[1].split(",")):
                add_tokens(state, 1, events)
                break
        if md["solve"].get("defeat_epic") == name:
            solve_mystery(state, events)
    fd = final_data(state)
    if fd and fd["solve"].get("defeat_epic") == name:
        solve_final(state, events)
    for card in list(state.in_play):
        for s in C.mythos[card["id"]].get("solve") or []:
            if s["op"] == "defeat_epic_monster" and s["name"] == name:
                solve_rumor(state, card["id"], events)


def solve_rumor(state: EhState, card_id: str, events: Events) -> None:
    """EH-R76: the card, its tokens and its rumor token leave play."""
    card = next((m for m in state.in_play if m["id"] == card_id), None)
    if card is None:
        return
    state.in_play.remove(card)
    state.mythos_discard.append(card_id)
    state.rumors = {s: c for s, c in state.rumors.items() if c != card_id}
    ev(events, "rumor_ended", card=C.mythos[card_id]["name"])


def mystery_action(state: EhState, i: int) -> dict[str, Any] | None:
    """The active mystery's component action, if investigator ``i`` can take it where they stand."""
    md = mystery_data(state)
    if md is None:
        return None
    act = md.get("action") or md["solve"].get("action")
    if act is None:
        return None
    inv = state.investigators[i]
    where = act["where"]
    here = inv["space"]
    if where == "gate" and here not in state.gates:
        return None
    if where in ("city", "wilderness", "sea") and C.spaces[here].type != where:
        return None
    if len(inv["clues"]) < W.amount(state, act["clues"]):
        return None
    if act.get("spell") and not inv["spells"]:
        return None
    return act


# ---------------------------------------------------------------- ops


@op("place_eldritch")
def _place(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    n = int(o.get("n", 1))
    where = o.get("where")
    if where == "active_mystery":
        add_tokens(state, n, events)
    elif where == "omen_track_green":
        state.omen_eldritch += n
    elif where == "your_space" and ctx.get("inv") is not None:
        sp = state.investigators[ctx["inv"]]["space"]
        state.space_eldritch[sp] = state.space_eldritch.get(sp, 0) + n
        ev(events, "eldritch_on_space", space=sp)
    elif where == "this_card":
        _card_tokens(state, ctx, n, events)


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


@op("solve_this_rumor")
def _solve_this(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    if ctx.get("card"):
        solve_rumor(state, ctx["card"], events)


@op("solve_rumor_in_play")
def _solve_any(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    rumors = sorted(m["id"] for m in state.in_play if C.mythos[m["id"]]["subtype"] == "rumor")
    choice = pick(state, ctx, o, rumors, inv=state.lead)
    if choice is not None:
        solve_rumor(state, choice, events)


@op("return_solved_mystery_to_deck")
def _unsolve(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    if not state.solved:
        return
    if o.get("which") == "choice":
        name = pick(state, ctx, o, sorted(state.solved), inv=state.lead)
        if name is None:
            return
    else:
        name = state.solved[state.rng.below(len(state.solved))]
    state.solved.remove(name)
    state.mystery_deck.insert(state.rng.below(len(state.mystery_deck) + 1), name)
    ev(events, "mystery_returned", name=name)
    if state.mystery is None:  # all three had been solved after awakening: one is open again
        enter_mystery(state, events)


@op("place_mystery_token")
def _mystery_space(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    if state.mystery is not None:
        state.mystery["space"] = o["space"]


@op("spawn_set_aside")
def _spawn_aside(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    for name in o["names"]:
        space = W.random_space(state) if o.get("where") == "random_space" else o["where"]
        if space and any(W.TOKENS[m] == name for m in state.set_aside):
            W.spawn_monster(state, space, events, name=name)


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

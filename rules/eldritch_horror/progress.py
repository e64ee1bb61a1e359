"""Mysteries, the Final Mystery, rumors and winning (EH-R73..R76).

The 16 core Mystery cards are data (data/mysteries.json): what happens when one enters play (``enters``),
what moves it forward (``progress``: a trigger, sometimes a cost, and what goes on the card) and what solves
it (``solve``: an amount of tokens, clues or monster toughness on the card, or a defeated epic monster). As
the cards say, a mystery is checked at the end of the Mythos phase, not the moment its last token arrives;
only a Final Mystery that asks for an epic monster is solved when it falls.

This module holds the bookkeeping and the triggers the rest of the engine calls (a gate closed, a monster
defeated, a research encounter over, a Lore test passed while casting, which encounters a mystery offers);
the ops the mystery data uses live in ``mystery_ops.py``.
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
    """How much the card needs (tokens, clues, gates or toughness on it); None for an epic monster to defeat."""
    need = data["solve"].get("tokens")
    return None if need is None else W.amount(state, need)


def _progress(data: dict[str, Any] | None, trigger: str) -> dict[str, Any] | None:
    p = (data or {}).get("progress")
    return p if p and p["on"] == trigger else None


def _open_final(state: EhState) -> dict[str, Any] | None:
    return final_data(state) if state.final is not None and not state.final["solved"] else None


# ---------------------------------------------------------------- entering, solving, winning


def enter_mystery(state: EhState, events: Events) -> None:
    """Draw the next mystery and resolve its entering effects (setup step 9H, EH-R73)."""
    if not state.mystery_deck:
        state.mystery = None
        return
    name = state.mystery_deck.pop()
    state.mystery = {"name": name, "tokens": 0, "space": None, "clues": [], "monsters": [], "board": [],
                     "defeated": False}
    ev(events, "mystery", name=name)
    push(state, C.mysteries[name]["enters"], {"inv": None})


def check_win(state: EhState, events: Events) -> None:
    """EH-R74/R75: three mysteries win; once awakened the Final Mystery is needed too."""
    if len(state.solved) >= 3 and (not state.awakened or (state.final is not None and state.final["solved"])):
        W.finish(state, True, "mysteries_solved", events)


def _clear_card(state: EhState) -> None:
    """What lay on the solved card leaves it: clues back to the pool, monsters back to the cup, and for the
    cards that say so their Eldritch tokens still on the board are removed (banked gates stay in the box)."""
    m = state.mystery
    assert m is not None
    state.clue_pool += m.get("clues", [])
    state.cup += m.get("monsters", [])
    if C.mysteries[m["name"]].get("clear_board"):
        for space in m.get("board", []):
            if state.space_eldritch.get(space):
                state.space_eldritch[space] -= 1
                if not state.space_eldritch[space]:
                    del state.space_eldritch[space]


def solve_mystery(state: EhState, events: Events) -> None:
    if state.mystery is None:
        return
    _clear_card(state)
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


def add_tokens(state: EhState, n: int, events: Events, final: bool = False) -> None:
    """Eldritch tokens (or clues, or toughness) onto the active mystery, or onto the sheet for the Final Mystery."""
    shown = state.final if final else state.mystery
    if shown is None or n <= 0:
        return
    shown["tokens"] += n
    ev(events, "final_progress" if final else "mystery_progress", name=shown["name"], tokens=shown["tokens"])


def _met(state: EhState, shown: dict[str, Any], data: dict[str, Any]) -> bool:
    if data["solve"].get("defeat_epic"):
        return bool(shown.get("defeated"))
    need = target(state, data)
    return need is not None and shown["tokens"] >= need


@op("mystery_check")
def _mystery_check(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """End of the Mythos phase: the active mystery (and the Final Mystery) solved if the card's goal is met."""
    md = mystery_data(state)
    if md is not None and _met(state, state.mystery, md):  # type: ignore[arg-type]
        solve_mystery(state, events)
    fd = _open_final(state)
    if fd is not None and state.phase != "over" and _met(state, state.final, fd):  # type: ignore[arg-type]
        solve_final(state, events)


# ---------------------------------------------------------------- triggers from the rest of the engine


def gate_closed(state: EhState, ctx: Ctx, space: str, events: Events) -> None:
    """Omen of Devastation (a gate of the current omen, 1 clue) and Where the Old Ones Broke Through (the
    closed gate itself, for 2 spells): the closer may pay to move the mystery on."""
    p = _progress(mystery_data(state), "gate_closed")
    if p is None or ctx.get("inv") is None or not _can_pay(state, ctx["inv"], p["cost"]):
        return
    if p.get("omen_match") and C.gate_tokens[space] != W.omen_colour(state):
        return
    gain: list[Op]
    if p.get("bank_gate"):
        gain = [{"op": "bank_gate", "space": space}]
    else:
        gain = [{"op": "place_eldritch", "n": 1, "where": "active_mystery"}]
    push(state, [{"op": "optional", "cost": p["cost"], "then": gain}], ctx)


def _can_pay(state: EhState, i: int, cost: list[Op]) -> bool:
    """Whether investigator ``i`` holds enough Spells for a cost that discards several (the general
    feasibility check only asks for one); clue costs are checked when paid."""
    spells = sum(int(c.get("n", 1)) for c in cost if c["op"] == "discard_possession" and c.get("kind") == "spell")
    return len(state.investigators[i]["spells"]) >= spells


# ---------------------------------------------------------------- monsters hurt and defeated
# Here rather than in world.py: a defeat moves mysteries, the final mystery and rumors on.


def hurt_monster(state: EhState, mid: int, n: int, events: Events) -> bool:
    """Put ``n`` damage on a monster; True when that defeats it (EH-R69)."""
    m = W.monster_at(state, mid)
    if m is None or n <= 0:
        return False
    for rule in W.stats(state, mid).get("special_effects") or []:
        if rule.get("rule") == "cannot_lose_health_unless" and len(state.solved) < 3:
            return False
    m["damage"] += n
    ev(events, "monster_hurt", id=mid, damage=m["damage"])
    if m["damage"] >= W.toughness(state, mid):
        defeat_monster(state, mid, events)
        return True
    return False


def defeat_monster(state: EhState, mid: int, events: Events) -> None:
    m = W.monster_at(state, mid)
    if m is None:
        return
    if state.combat is not None and state.combat["monster"] == mid:
        state.combat["defeated"] = True
    hooks = [h for h in W.stats(state, mid).get("special_effects") or [] if h.get("when") == "defeated"]
    W.remove_monster(state, mid, events, defeated=True)
    for h in hooks:
        push(state, h["effects"], {"inv": state.lead})
    monster_defeated(state, mid, events)


@op("defeat_this_monster")
def _defeat_this(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    if ctx.get("monster") is not None:
        defeat_monster(state, ctx["monster"], events)


@op("this_monster_loses_health")
def _this_loses(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    if ctx.get("monster") is not None:
        hurt_monster(state, ctx["monster"], W.amount(state, o["n"], ctx), events)


def monster_defeated(state: EhState, mid: int, events: Events) -> None:
    """An epic monster a card waits for; Hunting the Thousand's offer; rumors solved by an epic's defeat."""
    name = W.TOKENS[mid]
    md = mystery_data(state)
    if md is not None and md["solve"].get("defeat_epic") == name:
        state.mystery["defeated"] = True  # type: ignore[index]
    fd = _open_final(state)
    if fd is not None and fd["solve"].get("defeat_epic") == name:
        solve_final(state, events)
    p = _progress(md, "monster_defeated")
    if p is not None and not W.is_epic(mid) and state.phase != "over":
        who = state.combat["inv"] if state.combat is not None else state.lead
        bank = {"op": "bank_monster", "monster": mid}
        push(state, [{"op": "optional", "cost": p["cost"], "then": [bank]}], {"inv": who, "bound": who})
    for card in list(state.in_play):
        for s in C.mythos[card["id"]].get("solve") or []:
            if s["op"] == "defeat_epic_monster" and s["name"] == name:
                solve_rumor(state, card["id"], events)


def _at(state: EhState, where: str, here: str) -> bool:
    if where == "mystery_space":
        return state.mystery is not None and state.mystery["space"] == here
    if where == "gate":
        return here in state.gates
    if where == "eldritch_space":
        return bool(state.space_eldritch.get(here))
    raise ValueError(f"unknown mystery place {where!r}")


def encounter_options(state: EhState, i: int) -> list[str]:
    """The encounters a mystery (or the Final Mystery) adds on investigator ``i``'s space: ``special`` (its
    Special Encounter deck) or ``mystery`` (the card's own encounter)."""
    here = state.investigators[i]["space"]
    out = []
    for data in (mystery_data(state), _open_final(state)):
        p = (data or {}).get("progress")
        if not p or p["on"] not in ("special", "encounter") or not _at(state, p["at"], here):
            continue
        if p["on"] == "special" and state.decks["special"] + state.discards.get("special", []):
            out.append("special")
        elif p["on"] == "encounter":
            out.append("mystery")
    return out


def mystery_encounter(state: EhState, i: int, ctx: Ctx) -> None:
    """Resolve the active mystery's own encounter (Seed of the Daemon Sultan, The True Name, ...)."""
    p = _progress(mystery_data(state), "encounter")
    if p is not None:
        push(state, p["effects"], {**ctx, "card_kind": "mystery"})


def after_encounter(state: EhState, deck: str, ctx: Ctx) -> list[Op]:
    """What follows an encounter card: after a Research encounter, research mysteries offer to take one clue
    gained in it (the clues held before are remembered to tell which are new)."""
    i = ctx.get("inv")
    if deck != "research" or i is None or _progress(mystery_data(state), "research_clue") is None:
        return []
    return [{"op": "offer_research_clue", "before": list(state.investigators[i]["clues"])}]


def test_passed(state: EhState, skill: str, ctx: Ctx) -> None:
    """Arcane Understanding: a Lore test passed while resolving a Spell; once the spell's effect is over, 1 clue
    and that Spell may go to put a token on the card."""
    p = _progress(mystery_data(state), "spell_lore_pass")
    if p is None or skill != "lore" or ctx.get("card_kind") != "spell" or ctx.get("inv") is None:
        return
    then = [{"op": "discard_this_card"}, {"op": "place_eldritch", "n": 1, "where": "active_mystery"}]
    offer = {"op": "offer_if_held", "cost": p["cost"], "then": then}
    spell_frames = [f for f in state.work if f["ctx"].get("card") == ctx.get("card")]
    if spell_frames:  # at the end of the spell's own effects, not between the test and the rest of it
        spell_frames[0]["ops"].append(offer)
    else:
        push(state, [offer], ctx)


# ---------------------------------------------------------------- rumors


def solve_rumor(state: EhState, card_id: str, events: Events) -> None:
    """EH-R76: the card, its tokens and its rumor token leave play."""
    card = next((m for m in state.in_play if m["id"] == card_id), None)
    if card is None:
        return
    state.in_play.remove(card)
    state.mythos_discard.append(card_id)
    state.rumors = {s: c for s, c in state.rumors.items() if c != card_id}
    ev(events, "rumor_ended", card=C.mythos[card_id]["name"])


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

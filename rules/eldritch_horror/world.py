"""The board: doom and omen, gates, monsters, clues and random spaces (EH-R31..R46, R72)."""

from __future__ import annotations

import math
from typing import Any

from rules.eldritch_horror.data import load
from rules.eldritch_horror.machine import Ctx, Events, Op, ev, op, push
from rules.eldritch_horror.state import EhState

C = load()


def _tokens() -> dict[int, str]:
    """Monster token ids: 0.. for the 34 cup tokens, 100.. for the 9 epic monsters."""
    out: dict[int, str] = {}
    i = 0
    for name in sorted(C.monsters):
        for _ in range(C.monsters[name]["count"]):
            out[i] = name
            i += 1
    for j, name in enumerate(sorted(C.epics)):
        out[100 + j] = name
    return out


TOKENS = _tokens()
EPIC_IDS = {name: i for i, name in TOKENS.items() if i >= 100}


def is_epic(mid: int) -> bool:
    return mid >= 100


def active(state: EhState) -> list[int]:
    """Investigators still in play, in seat order."""
    return [i for i, inv in enumerate(state.investigators) if inv["status"] == "active"]


def all_eliminated(state: EhState) -> bool:
    """EH-R65/R77(b): the investigators lose once no player is left. A player whose investigator fell before
    the awakening takes a new one at the end of the Mythos phase (EH-R63), so they still count."""
    return all(inv["status"] == "eliminated" for inv in state.investigators)


def order(state: EhState) -> list[int]:
    """Slots in play order: the lead first, then clockwise (EH-R4)."""
    n = len(state.investigators)
    return [(state.lead + k) % n for k in range(n)]


def n_investigators(state: EhState) -> int:
    return max(1, len(state.investigators))


def amount(state: EhState, n: Any, ctx: Ctx | None = None) -> int:
    """A number written on a card: a literal or one of the few expressions the data uses (only the one
    asked for is worked out: the view asks for a mystery's amount after every move)."""
    if isinstance(n, int):
        return n
    k = n_investigators(state)
    if n == "half_investigators":
        return math.ceil(k / 2)  # EH-R5: halves round up
    if n == "investigators":
        return k
    if n == "twice_investigators":
        return 2 * k
    if n == "successes":
        successes: int = (ctx or {}).get("successes", 0) or 0
        return successes
    if n == "rumors_in_play":
        return sum(1 for m in state.in_play if C.mythos[m["id"]]["subtype"] == "rumor")
    if n == "half_gates_on_board_round_down":
        return len(state.gates) // 2
    if n == "investigators_minus_health_tokens_on_card" and ctx is not None:
        card = next((m for m in state.in_play if m["id"] == ctx.get("card")), None)
        return max(0, k - (card["health"] if card else 0))
    if n == "lead_madness_condition_count":
        inv = state.investigators[state.lead]
        return sum(1 for c in inv["conditions"] if C.conditions[c.split("#")[0]]["trait"] == "Madness")
    raise ValueError(f"unknown amount {n!r}")


# ---------------------------------------------------------------- doom, omen, outcome


def finish(state: EhState, won: bool, reason: str, events: Events) -> None:
    """EH-R7: the game ends the moment a win or loss happens."""
    if state.phase == "over":
        return
    state.phase = "over"
    state.outcome = {"won": won, "reason": reason}
    state.stack.clear()
    state.work.clear()
    state.test = None
    state.combat = None
    ev(events, "game_over", won=won, reason=reason)


def advance_doom(state: EhState, n: int, events: Events) -> None:
    """EH-R33/R34: doom counts down; at 0 the Ancient One awakens (or, awakened, the investigators lose)."""
    if n <= 0 or state.phase == "over":
        return
    state.doom = max(0, state.doom - n)
    ev(events, "doom", value=state.doom)
    if state.doom == 0:
        if state.awakened:
            finish(state, False, "doom_after_awakening", events)
        else:
            awaken(state, events)


def retreat_doom(state: EhState, n: int, events: Events) -> None:
    state.doom = min(C.doom_max, state.doom + n)
    ev(events, "doom", value=state.doom)


def awaken(state: EhState, events: Events) -> None:
    """EH-R75: flip the sheet and resolve its awakening; the back replaces the front."""
    ao = C.ancient_ones[state.ancient_one]
    back = ao["awakened"]
    state.awakened = True
    ev(events, "awakened", ancient_one=state.ancient_one)
    if back["effects"][:1] == [{"op": "investigators_lose"}]:  # Azathoth: waking is the end of the world
        finish(state, False, "awakening", events)
        return
    if back.get("doom"):
        state.doom = back["doom"]
    if back.get("final_mystery"):
        state.final = {"name": back["final_mystery"]["name"], "tokens": 0, "solved": False}
    push(state, back["effects"], {"inv": None, "awakening": True})


def omen_colour(state: EhState) -> str:
    return C.omen_track[state.omen]


def advance_omen(state: EhState, steps: int, events: Events, doom: bool = True) -> None:
    """EH-R32: move the omen, then doom advances once per open gate of the new omen's colour."""
    state.omen = (state.omen + steps) % len(C.omen_track)
    colour = omen_colour(state)
    ev(events, "omen", colour=colour)
    if not doom:
        return
    if "omen_green_doom" in rules_in_force(state) and colour == "green" and steps > 0:
        advance_doom(state, state.omen_eldritch, events)
    advance_doom(state, sum(1 for g in state.gates if C.gate_tokens[g] == colour), events)


def rules_in_force(state: EhState) -> list[str]:
    ao = C.ancient_ones[state.ancient_one]
    out = list(ao["rules"])
    for m in state.in_play:
        out += [r["rule"] for r in C.mythos[m["id"]].get("ongoing_rules") or []]
    return out


# ---------------------------------------------------------------- gates


def spawn_gate(state: EhState, events: Events) -> None:
    """EH-R41: top gate token onto its space, then one monster there; doom does not move."""
    if not state.gate_stack and state.gate_discard:
        state.gate_stack = list(state.gate_discard)
        state.gate_discard = []
        state.rng.shuffle(state.gate_stack)
    if not state.gate_stack:
        ev(events, "no_gate_left")
        return
    space = state.gate_stack.pop()
    state.gates.append(space)
    ev(events, "gate_spawned", space=space, omen=C.gate_tokens[space])
    spawn_monster(state, space, events)


def close_gate(state: EhState, space: str, events: Events) -> bool:
    if space not in state.gates or "gates_cannot_be_closed" in rules_in_force(state):
        return False
    state.gates.remove(space)
    state.gate_discard.append(space)
    ev(events, "gate_closed", space=space)
    return True


# ---------------------------------------------------------------- monsters


def monster_at(state: EhState, mid: int) -> dict[str, Any] | None:
    return next((m for m in state.monsters if m["id"] == mid), None)


def monsters_on(state: EhState, space: str) -> list[dict[str, Any]]:
    return [m for m in state.monsters if m["space"] == space and not m.get("ambush")]


def place_monster(state: EhState, mid: int, space: str, events: Events) -> None:
    state.monsters.append({"id": mid, "space": space, "damage": 0})
    ev(events, "monster_spawned", monster=TOKENS[mid], id=mid, space=space)
    for eff in stats(state, mid).get("spawn_effects") or []:
        if eff["op"] == "move_this_monster":
            state.monsters[-1]["space"] = eff["to"]
            ev(events, "monster_moved", id=mid, space=eff["to"])
        else:
            push(state, [eff], {"inv": None, "monster": mid, "space": space})


def spawn_monster(state: EhState, space: str, events: Events, name: str | None = None) -> None:
    """EH-R43: a random token from the cup (or a named one, from the set-aside tokens first)."""
    pool = state.cup
    if name is not None:
        aside = [m for m in state.set_aside if TOKENS[m] == name]
        named = aside or [m for m in state.cup if TOKENS[m] == name]
        if named:
            mid = named[0]
            (state.set_aside if aside else state.cup).remove(mid)
            place_monster(state, mid, space, events)
            return
    if not pool:
        ev(events, "cup_empty")
        return
    mid = pool.pop(state.rng.below(len(pool)))
    place_monster(state, mid, space, events)


def spawn_epic(state: EhState, name: str, space: str, events: Events) -> None:
    mid = EPIC_IDS[name]
    if mid in state.box:
        state.box.remove(mid)
        place_monster(state, mid, space, events)


def remove_monster(state: EhState, mid: int, events: Events, defeated: bool) -> None:
    """Defeated or discarded: back to the cup (EH-R44), an epic to the box (EH-R72)."""
    m = monster_at(state, mid)
    if m is None:
        return
    state.monsters.remove(m)
    if is_epic(mid):
        state.box.append(mid)
    else:
        state.cup.append(mid)
    ev(events, "monster_defeated" if defeated else "monster_discarded", monster=TOKENS[mid], id=mid)


def toughness(state: EhState, mid: int) -> int:
    return toughness_of(state, stats(state, mid))


def toughness_of(state: EhState, back: dict[str, Any]) -> int:
    """The toughness a monster's back (``stats``) gives it now."""
    t = back["toughness"]
    if isinstance(t, int):
        return t
    if t["type"] == "fixed":
        return int(t["value"])
    if t["type"] == "investigators_plus":
        return len(active(state)) + int(t["value"])
    return int(cultist(state)["toughness"])


def cultist(state: EhState) -> dict[str, Any]:
    ao = C.ancient_ones[state.ancient_one]
    if state.awakened and ao["awakened"].get("cultist"):
        return ao["awakened"]["cultist"]
    return ao["cultist"]


def stats(state: EhState, mid: int) -> dict[str, Any]:
    """A monster's back: cultists read theirs from the Ancient One sheet (EH-R75)."""
    name = TOKENS[mid]
    if name == "Cultist":
        base = dict(C.monsters["Cultist"])
        base.update(cultist(state))
        return base
    return C.epics[name] if is_epic(mid) else C.monsters[name]


# ---------------------------------------------------------------- clues and random spaces


def spawn_clue(state: EhState, events: Events) -> None:
    """EH-R45: a random clue token from the pool goes face down on the space it names."""
    if not state.clue_pool:
        ev(events, "no_clue_left")
        return
    space = state.clue_pool.pop(state.rng.below(len(state.clue_pool)))
    state.clues.append(space)
    ev(events, "clue_spawned", space=space)


def random_space(state: EhState) -> str | None:
    """EH-R46: draw a clue token for its space, then return the token to the pool."""
    if not state.clue_pool:
        return None
    return state.clue_pool[state.rng.below(len(state.clue_pool))]


def nearest(state: EhState, start: str, test: Any) -> str | None:
    """The closest space satisfying ``test`` (ties: alphabetical, see digest §11.3)."""
    best = sorted((d, s) for s, d in C.distances[start].items() if test(s))
    return best[0][1] if best else None


# ---------------------------------------------------------------- ops


@op("advance_doom")
def _advance_doom(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    advance_doom(state, amount(state, o.get("n", 1), ctx), events)


@op("retreat_doom")
def _retreat_doom(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    retreat_doom(state, amount(state, o.get("n", 1), ctx), events)


@op("set_doom")
def _set_doom(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    advance_doom(state, state.doom - int(o["value"]), events)


@op("advance_omen")
def _advance_omen(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    advance_omen(state, int(o.get("n", 1)), events)


@op("move_omen")
def _move_omen(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    advance_omen(state, int(o["steps"]), events, doom=False)


@op("advance_doom_per_gate_matching_omen")
def _doom_per_omen_gate(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    advance_doom(state, sum(1 for g in state.gates if C.gate_tokens[g] == omen_colour(state)), events)


@op("advance_doom_per_gate_on_board")
def _doom_per_gate(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    advance_doom(state, len(state.gates), events)


@op("investigators_lose")
def _lose(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    finish(state, False, "awakening" if ctx.get("awakening") else "card_effect", events)


@op("spawn_gate")
def _spawn_gate(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    for _ in range(int(o.get("n", 1))):
        spawn_gate(state, events)


@op("spawn_clue")
def _spawn_clue(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    for _ in range(int(o.get("n", 1))):
        spawn_clue(state, events)


@op("spawn_epic_monster")
def _spawn_epic(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    where = o.get("space") or o.get("where")
    if where == "this_space":
        where = ctx.get("space")
    if where is not None:
        spawn_epic(state, o["name"], where, events)


@op("all_monsters_recover_health")
def _all_heal(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    for m in state.monsters:
        m["damage"] = 0


@op("this_monster_recovers_all_health")
def _heal_all(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    m = monster_at(state, ctx.get("monster", -1))
    if m is not None:
        m["damage"] = 0


@op("this_monster_recovers_health")
def _heal(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    m = monster_at(state, ctx.get("monster", -1))
    if m is not None:
        m["damage"] = max(0, m["damage"] - int(o["n"]))


@op("discard_this_monster")
def _discard_this_monster(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    if ctx.get("monster") is not None and not is_epic(ctx["monster"]):
        m = monster_at(state, ctx["monster"])
        if m is not None:
            ctx["space"] = m["space"]
        remove_monster(state, ctx["monster"], events, defeated=False)


@op("move_this_monster")
def _move_this_monster(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    m = monster_at(state, ctx.get("monster", -1))
    if m is None or is_epic(m["id"]):
        return
    to = o.get("to")
    if to == "nearest_space_with_investigator":
        spaces = {state.investigators[i]["space"] for i in active(state)}
        to = nearest(state, m["space"], lambda s: s in spaces)
    elif to not in C.spaces:
        to = _step_toward_investigator(state, m["space"], int(o.get("spaces", 1)))
    if to:
        m["space"] = to
        ctx["space"] = to
        ev(events, "monster_moved", id=m["id"], space=to)


def _step_toward_investigator(state: EhState, start: str, steps: int) -> str | None:
    spaces = {state.investigators[i]["space"] for i in active(state)}
    target = nearest(state, start, lambda s: s in spaces)
    if target is None:
        return None
    here = start
    for _ in range(steps):
        if here == target:
            break
        here = min(C.spaces[here].routes, key=lambda s: (C.distances[s][target], s))
    return here


@op("discard_nearest_clue_and_move_there")
def _mi_go(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    m = monster_at(state, ctx.get("monster", -1))
    if m is None:
        return
    target = nearest(state, m["space"], lambda s: s in state.clues)
    if target is None:
        return
    state.clues.remove(target)
    state.clue_pool.append(target)
    m["space"] = target
    ev(events, "monster_moved", id=m["id"], space=target)


@op("discard_all_clues_on_board")
def _discard_board_clues(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    state.clue_pool.extend(state.clues)
    state.clues = []

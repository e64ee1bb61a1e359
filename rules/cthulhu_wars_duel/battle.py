"""Battles (CWD-R60..R73), captures (CWD-R75..R78) and every decision frame the engine can open.

A battle is a record in ``state.battle`` advanced by :func:`step`; whenever a player must choose, a
:class:`Decision` frame is pushed for that player (often the one not on turn) and the battle waits.
"""

from __future__ import annotations

from typing import Any

from rules.core import Decision
from rules.cthulhu_wars_duel import actions as A
from rules.cthulhu_wars_duel.common import (
    ACOLYTE,
    GATE_HOLDER,
    GOOS,
    MONSTERS,
    SLEEPER,
    UNITS,
    WINDWALKER,
    action_cost,
    add,
    draw_sign,
    earn,
    ev,
    gain_doom,
    gmap,
    goo_on_map,
    has_book,
    ice_tax,
    on_map,
    opp,
    pool,
    take_book,
)
from rules.cthulhu_wars_duel.factions import SPELLBOOKS

mk = A.mk
FLOW: dict[str, Any] = {}  # filled by engine.py (turn flow functions), avoiding an import cycle

STEPS = ("nexus", "pre_att", "pre_def", "check", "roll", "k_att", "k_def", "berserk", "p_att", "p_def",
         "apply", "r_att", "r_def", "post", "end")


# ---------------------------------------------------------------------- combat values
def unit_combat(s: Any, p: int, kind: str) -> int:
    """Combat of one unit (CWD-R64, evaluated when counted)."""
    if kind == "formless_spawn":
        return on_map(s, p, "formless_spawn") + (1 if goo_on_map(s, p, "tsathoggua") else 0)
    if kind == "tsathoggua":
        return max(2, s.players[opp(p)]["power"])
    if kind == "ithaqua":
        return -(-s.players[opp(p)]["doom"] // 2)
    return {"serpent_man": 1, "wendigo": 1, "gnoph_keh": 3, "rhan_tegoth": 3}.get(kind, 0)


def side_combat(s: Any, p: int, area: str) -> int:
    return sum(unit_combat(s, p, k) * n for k, n in s.units[p].get(area, {}).items())


def cheapest_monster(s: Any) -> str | None:
    """Death from Below: the cheapest Sleeper monster in the pool (Wizard 1 < Serpent Man 2 < Spawn 3)."""
    for k in ("wizard", "serpent_man", "formless_spawn"):
        if pool(s, SLEEPER, k) > 0:
            return k
    return None


# ---------------------------------------------------------------------- declaring
def declare(s: Any, p: int, area: str, events: list) -> None:
    FLOW["pay"](s, p, action_cost(s, p, "battle", area))
    s.battled.append(area)
    s.battle = {
        "area": area, "att": p, "dfn": opp(p), "step": 0, "ds": None, "dice": [0, 0],
        "left": {"k": [0, 0], "p": [0, 0], "e": [0, 0]},
        "res": [{"k": {}, "p": {}, "e": {}, "x": {}}, {"k": {}, "p": {}, "e": {}, "x": {}}],
        "gk_killed": 0, "sl_killed": False, "retreat": [{}, {}], "fresh": True,
    }
    events.append(ev("battle", None, seat=s.seats[p], area=area))


def _split(s: Any, p: int, area: str) -> dict[str, int]:
    """Units of p in the area, the acolyte on the Gate counted apart (its owner may want to keep it)."""
    u = dict(s.units[p].get(area, {}))
    if s.gates.get(area) == p and u.get(ACOLYTE[p]):
        u[ACOLYTE[p]] -= 1
        if not u[ACOLYTE[p]]:
            del u[ACOLYTE[p]]
        u[GATE_HOLDER] = 1
    return u


def avail(s: Any, b: dict, p: int) -> dict[str, int]:
    u = _split(s, p, b["area"])
    for r in ("k", "p", "e", "x"):
        for k, n in b["res"][p][r].items():
            u[k] = u.get(k, 0) - n
    return {k: n for k, n in u.items() if n > 0}


def _real(p: int, kind: str) -> str:
    return ACOLYTE[p] if kind == GATE_HOLDER else kind


# ---------------------------------------------------------------------- the battle loop
def step(s: Any, events: list) -> None:
    b = s.battle
    name = STEPS[b["step"]]
    att, dfn = b["att"], b["dfn"]
    area = b["area"]
    if name == "nexus":
        b["step"] += 1
        sl = s.players[SLEEPER]
        # Energy Nexus: just before any battle in an area with a Sleeper Wizard, whoever declared it
        # (CWD-R60b); a hibernated player takes no more actions.
        if (has_book(s, SLEEPER, "energy_nexus") and s.units[SLEEPER].get(area, {}).get("wizard")
                and sl["power"] >= 1 and not sl["hibernating"]):
            s.stack.append(Decision(kind="nexus", seats=[s.seats[SLEEPER]], params={"area": area}))
        return
    if name in ("pre_att", "pre_def"):
        b["step"] += 1
        p = att if name == "pre_att" else dfn
        if not (s.units[0].get(area) and s.units[1].get(area)):
            return
        if p == WINDWALKER:
            if has_book(s, p, "howl") and s.units[p][area].get("wendigo"):
                s.stack.append(Decision(kind="howl", seats=[s.seats[p]], params={"area": area}))
        elif has_book(s, p, "demand_sacrifice") and goo_on_map(s, p, "tsathoggua"):
            # The Sleeper always uses it (neither option can hurt him, CWD-R4); the victim chooses.
            s.stack.append(Decision(kind="sacrifice", seats=[s.seats[WINDWALKER]], params={"area": area}))
        return
    if name == "check":
        b["step"] += 1
        if not (s.units[0].get(area) and s.units[1].get(area)):
            events.append(ev("battle_void", None, area=area))  # CWD-R63
            b["step"] = STEPS.index("end")
        return
    if name == "roll":
        b["step"] += 1
        for p in (att, dfn):
            n = side_combat(s, p, area)
            b["dice"][p] = n
            rolls = [s.rng.die() for _ in range(n)]
            kills = sum(1 for r in rolls if r == 6)
            pains = sum(1 for r in rolls if r in (4, 5))
            converted = 0
            if p == WINDWALKER and b["ds"] == "pains":
                converted = kills  # Demand Sacrifice: the Windwalker's Kills count as Pains
                pains += kills
                kills = 0
            b["left"]["k"][opp(p)] = kills
            b["left"]["p"][opp(p)] = pains
            events.append(ev("dice", None, seat=s.seats[p], dice=n, rolls=rolls, kills=kills, pains=pains,
                             converted=converted))
            if p == SLEEPER and n >= 6:
                earn(s, SLEEPER, "sl_req_roll_6_dice", events)  # held until the battle is over (CWD-R71)
        return
    if name in ("k_att", "k_def", "p_att", "p_def", "berserk"):
        if name == "berserk":
            p, r = SLEEPER, "e"
            if b.get("berserk_set") is None:
                b["berserk_set"] = True
                if has_book(s, WINDWALKER, "berserkergang"):
                    b["left"]["e"][SLEEPER] = b["gk_killed"]
        else:
            p = att if name.endswith("att") else dfn
            r = name[0]
        _assign_step(s, b, p, r, events)
        return
    if name == "apply":
        b["step"] += 1
        _apply(s, b, events)
        return
    if name in ("r_att", "r_def"):
        p = att if name == "r_att" else dfn
        _retreat_step(s, b, p, events)
        return
    if name == "post":
        b["step"] += 1
        if (b["sl_killed"] and has_book(s, WINDWALKER, "cannibalism")
                and (pool(s, WINDWALKER, "wendigo") or pool(s, WINDWALKER, "ww_acolyte"))):
            s.stack.append(Decision(kind="cannibalism", seats=[s.seats[WINDWALKER]], params={"area": area}))
        return
    # end
    s.battle = None
    events.append(ev("battle_over", None, area=area))


def _assign_step(s: Any, b: dict, p: int, r: str, events: list) -> None:
    """CWD-R67: the owner gives results to its own units, Kills (and Berserkergang eliminations) first."""
    left = b["left"][r][p]
    av = avail(s, b, p)
    if r == "e":
        av = {k: n for k, n in av.items() if k not in GOOS[p]}
    total = sum(av.values())
    if left <= 0 or total == 0:
        b["left"][r][p] = 0
        b["step"] += 1
        return
    if left >= total or len(av) == 1:
        give(s, b, p, next(iter(sorted(av))), r, events)
        return
    s.stack.append(Decision(kind="assign", seats=[s.seats[p]], params={"result": r, "area": b["area"], "left": left}))


def give(s: Any, b: dict, p: int, kind: str, r: str, events: list) -> None:
    b["left"][r][p] -= 1
    if kind == "rhan_tegoth" and r in ("k", "p") and s.players[WINDWALKER]["power"] >= 1:
        s.stack.append(Decision(kind="eternal", seats=[s.seats[WINDWALKER]], params={"result": r}))
        return
    _record(b, p, kind, r)


def _record(b: dict, p: int, kind: str, r: str) -> None:
    res = b["res"][p][r]
    res[kind] = res.get(kind, 0) + 1
    if r == "k" and kind == "gnoph_keh":
        b["gk_killed"] += 1


def _apply(s: Any, b: dict, events: list) -> None:
    """CWD-R70a: killed and eliminated units go to the pools; CWD-R80: their cost in Doom to the enemy."""
    area = b["area"]
    for p in (b["att"], b["dfn"]):
        res = b["res"][p]
        for r in ("k", "e"):
            for kind, n in res[r].items():
                real = _real(p, kind)
                add(s, p, area, real, -n)
                if kind == GATE_HOLDER:
                    s.gates[area] = -1
                events.append(ev("killed" if r == "k" else "eliminated", None,
                                 seat=s.seats[p], kind=real, count=n, area=area))
                gain_doom(s, opp(p), UNITS[real][4] * n, events, "kill" if r == "k" else "elimination")
        if p == SLEEPER and res["k"]:
            b["sl_killed"] = True
        if res["x"]:
            events.append(ev("eternal", None, seat=s.seats[p]))
        b["retreat"][p] = dict(res["p"])


def _retreat_areas(s: Any, p: int, area: str) -> list[str]:
    enemy = s.units[opp(p)]
    return [a for a in gmap(s.map).adj[area] if not enemy.get(a)]


def _retreat_step(s: Any, b: dict, p: int, events: list) -> None:
    """CWD-R70b/c: pained units retreat (attacker first); with nowhere to go, one of them is eliminated."""
    pend = {k: n for k, n in b["retreat"][p].items() if n > 0}
    if not pend:
        b["step"] += 1
        return
    dsts = _retreat_areas(s, p, b["area"])
    if not dsts:
        if len(pend) == 1:
            blocked_elim(s, b, p, next(iter(pend)), events)
        else:
            s.stack.append(Decision(kind="retreat_elim", seats=[s.seats[p]], params={"area": b["area"]}))
        return
    if len(dsts) == 1:
        for kind, n in pend.items():
            for _ in range(n):
                retreat(s, b, p, kind, dsts[0], events)
        return
    s.stack.append(Decision(kind="retreat", seats=[s.seats[p]], params={"area": b["area"]}))


def retreat(s: Any, b: dict, p: int, kind: str, dst: str, events: list) -> None:
    b["retreat"][p][kind] -= 1
    real = _real(p, kind)
    if kind == GATE_HOLDER:
        s.gates[b["area"]] = -1
    add(s, p, b["area"], real, -1)
    add(s, p, dst, real, 1)
    events.append(ev("retreated", None, seat=s.seats[p], kind=real, src=b["area"], dst=dst))


def blocked_elim(s: Any, b: dict, p: int, kind: str, events: list) -> None:
    real = _real(p, kind)
    if kind == GATE_HOLDER:
        s.gates[b["area"]] = -1
    add(s, p, b["area"], real, -1)
    b["retreat"][p] = {}  # the others stay as if unpained
    events.append(ev("eliminated", None, seat=s.seats[p], kind=real, count=1, area=b["area"], blocked=True))
    gain_doom(s, opp(p), UNITS[real][4], events, "elimination")


# ---------------------------------------------------------------------- captures
def capture_cultist(s: Any, p: int, area: str, events: list) -> None:
    q = opp(p)
    if s.gates.get(area) == q and s.units[q][area][ACOLYTE[q]] >= 2:
        s.stack.append(Decision(kind="capture_victim", seats=[s.seats[q]], params={"area": area}))  # CWD-R77
        return
    do_capture(s, p, area, GATE_HOLDER if s.gates.get(area) == q else ACOLYTE[q], events)


def do_capture(s: Any, p: int, area: str, kind: str, events: list) -> None:
    """CWD-R78: the captive sits on the captor's card; capture counts as elimination (A6: 1 Doom)."""
    q = opp(p)
    real = _real(q, kind)
    if kind == GATE_HOLDER:
        s.gates[area] = -1
    add(s, q, area, real, -1)
    s.captives[p][real] = s.captives[p].get(real, 0) + 1
    events.append(ev("captured", None, seat=s.seats[p], kind=real, area=area))
    gain_doom(s, p, UNITS[real][4], events, "capture")


def capture_monster(s: Any, p: int, area: str, events: list) -> None:
    kinds = [k for k in MONSTERS[WINDWALKER] if s.units[WINDWALKER].get(area, {}).get(k)]
    if len(kinds) > 1:
        s.stack.append(Decision(kind="capture_monster_victim", seats=[s.seats[WINDWALKER]], params={"area": area}))
        return
    do_capture(s, p, area, kinds[0], events)


# ---------------------------------------------------------------------- frames: options and answers
def move_cost(s: Any, mv: dict, kind: str, src: str, dst: str) -> tuple[int, int]:
    """(cost of this unit, Ice Age surcharge): Arctic Wind followers are free; Ice Age once per action.
    ``s`` needs only the books and the Ice Age token, so a button is priced from a view with this code."""
    p = mv["p"]
    unit = 1
    if mv["ith"] == [src, dst] and kind != "ithaqua" and has_book(s, p, "arctic_wind"):
        unit = 0
    tax = 1 if (ice_tax(s, p, dst) and not mv["iced"]) else 0
    return unit, tax


def movable(s: Any, mv: dict, p: int, area: str) -> dict[str, int]:
    u = dict(s.units[p].get(area, {}))
    for k, n in mv["arrived"].get(area, {}).items():
        u[k] = u.get(k, 0) - n
    if s.gates.get(area) == p and u.get(ACOLYTE[p]):
        u[ACOLYTE[p]] -= 1
    return {k: n for k, n in u.items() if n > 0}


def _nexus_code(a: Any) -> str:
    if a.type in ("summon", "awaken"):
        return f"{a.type}:{a.kind}"
    if a.type == "unique":
        return f"unique:{a.ability}"
    return a.type


def _cancel_move(s: Any, p: int, top: Decision, events: list) -> None:
    """Undo every step of the open Move, refund its Power, and go back to where it was chosen: the turn
    (main action not yet used, free Gate changes restored) or the Energy Nexus question."""
    mv = s.move
    for kind, src, dst, paid in reversed(mv["steps"]):
        add(s, p, dst, kind, -1)
        add(s, p, src, kind, 1)
        s.players[p]["power"] += paid
    s.stack.pop()
    s.move = None
    events.append(ev("move_cancelled", None, seat=s.seats[p], steps=len(mv["steps"])))
    if top.params.get("nexus"):
        s.stack.append(Decision(kind="nexus", seats=[s.seats[p]], params={"area": mv["origin"]}))
    else:
        s.acted = False
        s.toggled = list(mv.get("toggled", []))


def frame_options(s: Any, p: int, top: Decision) -> list[Any]:
    k = top.kind
    D = A.Decide
    m = gmap(s.map)
    if k == "choose_start":
        return [mk(D, choice="start", area=a) for a in top.params["areas"]]
    if k == "choose_book":
        return [mk(D, choice=bk) for bk in SPELLBOOKS[p] if bk not in s.players[p]["books"]]
    if k == "choose_first":
        return [mk(D, choice=seat) for seat in s.seats]
    if k == "reveal_window":
        return [mk(D, choice="done")]
    if k == "place_tower":
        return [mk(D, choice="tower", area=a) for a in m.tower_glyph if a not in s.towers]
    if k == "move":
        mv = s.move
        power = s.players[p]["power"]
        out: list[Any] = []
        srcs = [mv["origin"]] if mv["origin"] else sorted(s.units[p])
        for src in srcs:
            for kind in sorted(movable(s, mv, p, src)):
                for dst in m.adj[src]:
                    unit, tax = move_cost(s, mv, kind, src, dst)
                    if power >= unit + tax:
                        out.append(mk(A.MoveUnit, kind=kind, src=src, dst=dst))
        if mv["n"]:
            out.append(mk(A.EndMove))
        if len(mv.get("steps", ())) == mv["n"]:  # a Move begun before steps were recorded cannot be undone
            out.append(mk(A.CancelMove))
        return out
    area = top.params.get("area")
    if k == "nexus":
        at: str = top.params["area"]  # a nexus, a howl's victim and a retreat always name their area
        out = [mk(D, choice="decline")]
        if movable(s, {"p": p, "arrived": {}}, p, at):
            out.append(mk(D, choice="move"))
        for a in FLOW["nexus_actions"](s, at):
            out.append(mk(D, choice=_nexus_code(a), area=at))
        return out
    if k in ("howl", "eternal"):
        return [mk(D, choice="yes"), mk(D, choice="no")]
    if k == "howl_victim":
        at = top.params["area"]
        return [mk(D, choice=kind, area=a) for kind in sorted(_split(s, p, at)) for a in m.adj[at]]
    if k == "sacrifice":
        return [mk(D, choice="elder_sign"), mk(D, choice="pains")]
    if k == "assign":
        av = avail(s, s.battle, p)
        if top.params["result"] == "e":
            av = {x: n for x, n in av.items() if x not in GOOS[p]}
        return [mk(D, choice=kind) for kind in sorted(av)]
    if k == "retreat":
        pend = s.battle["retreat"][p]
        dsts = _retreat_areas(s, p, top.params["area"])
        return [mk(D, choice=kind, area=a) for kind in sorted(pend) if pend[kind] > 0 for a in dsts]
    if k == "retreat_elim":
        pend = s.battle["retreat"][p]
        return [mk(D, choice=kind) for kind in sorted(pend) if pend[kind] > 0]
    if k == "cannibalism":
        out = [mk(D, choice="decline")]
        out.extend(mk(D, choice=kind) for kind in ("wendigo", "ww_acolyte") if pool(s, p, kind))
        return out
    if k == "capture_victim":
        return [mk(D, choice=GATE_HOLDER), mk(D, choice=ACOLYTE[p])]
    if k == "capture_monster_victim":
        return [mk(D, choice=kind) for kind in MONSTERS[WINDWALKER] if s.units[p].get(area, {}).get(kind)]
    raise AssertionError(k)


def answer_frame(s: Any, p: int, act: Any, events: list) -> None:
    top = s.stack[-1]
    k = top.kind
    seat = s.seats[p]
    if k == "move":
        mv = s.move
        if act.type == "end_move":
            s.stack.pop()
            if mv["spent"] >= 2 and has_book(s, p, "burrow"):
                s.players[p]["power"] += 1  # Burrow
                events.append(ev("burrow", None, seat=seat))
            s.move = None
            events.append(ev("move_over", None, seat=seat, moved=mv["n"]))
            return
        if act.type == "cancel_move":
            _cancel_move(s, p, top, events)
            return
        unit, tax = move_cost(s, mv, act.kind, act.src, act.dst)
        FLOW["pay"](s, p, unit + tax)
        mv.setdefault("steps", []).append([act.kind, act.src, act.dst, unit + tax])
        if tax:
            mv["iced"] = True
        mv["spent"] += unit + tax  # Burrow counts the whole cost of the Move action
        mv["n"] += 1
        if act.kind == "ithaqua":
            mv["ith"] = [act.src, act.dst]
        add(s, p, act.src, act.kind, -1)
        add(s, p, act.dst, act.kind, 1)
        arr = mv["arrived"].setdefault(act.dst, {})
        arr[act.kind] = arr.get(act.kind, 0) + 1
        events.append(ev("moved", None, seat=seat, kind=act.kind, src=act.src, dst=act.dst, cost=unit + tax))
        return
    s.stack.pop()
    c, area = act.choice, act.area
    b = s.battle
    if k == "choose_start":
        s.players[WINDWALKER]["start"] = area
        s.units[WINDWALKER][area] = {"ww_acolyte": 6}
        s.gates[area] = WINDWALKER
        events.append(ev("start_chosen", None, seat=seat, area=area))
        if gmap(s.map).reconstructed:
            events.append(ev("map_reconstructed", None, map=s.map))  # the bot must say the layout is invented
        s.phase = "action"
        s.first = SLEEPER  # the Windwalker may not be first player at the start
        s.turn = SLEEPER
        FLOW["begin_turn"](s, events)
    elif k == "choose_book":
        take_book(s, p, c, events)
    elif k == "choose_first":
        FLOW["set_first"](s, s.seats.index(c), events)
    elif k == "reveal_window":
        FLOW["after_window"](s, events)
    elif k == "place_tower":
        FLOW["place_tower"](s, area, events)
        left = top.params["left"] - 1
        if left > 0 and any(a not in s.towers for a in gmap(s.map).tower_glyph):
            s.stack.append(Decision(kind="place_tower", seats=[seat], params={"left": left}))
        else:
            FLOW["after_towers"](s, events)
    elif k == "nexus":
        events.append(ev("energy_nexus", None, seat=seat, used=c == "move"))
        if c == "move":
            s.move = {"p": p, "spent": 0, "iced": False, "n": 0, "arrived": {}, "ith": None,
                      "origin": top.params["area"], "steps": []}
            s.stack.append(Decision(kind="move", seats=[seat], params={"nexus": True}))
        elif c != "decline":
            chosen = next(a for a in FLOW["nexus_actions"](s, top.params["area"]) if _nexus_code(a) == c)
            FLOW["perform"](s, p, chosen, events)
    elif k == "howl":
        if c == "yes":
            events.append(ev("howl", None, seat=seat))
            s.stack.append(Decision(kind="howl_victim", seats=[s.seats[SLEEPER]], params={"area": top.params["area"]}))
    elif k == "howl_victim":
        src = top.params["area"]
        real = _real(p, c)
        if c == GATE_HOLDER:
            s.gates[src] = -1
        add(s, p, src, real, -1)
        add(s, p, area, real, 1)
        events.append(ev("howled_out", None, seat=seat, kind=real, src=src, dst=area))
    elif k == "sacrifice":
        b["ds"] = c
        events.append(ev("demand_sacrifice", None, seat=seat, choice=c))
        if c == "elder_sign":
            draw_sign(s, SLEEPER, events)
    elif k == "assign":
        give(s, b, p, c, top.params["result"], events)
    elif k == "eternal":
        r = top.params["result"]
        if c == "yes":
            s.players[WINDWALKER]["power"] -= 1
            b["res"][WINDWALKER]["x"]["rhan_tegoth"] = 1
            events.append(ev("eternal_paid", None, seat=seat, result=r))
            if r == "k":
                gain_doom(s, SLEEPER, 3, events, "escaped_kill")  # CWD-R82: half of 6
        else:
            _record(b, WINDWALKER, "rhan_tegoth", r)
    elif k == "retreat":
        retreat(s, b, p, c, area, events)
    elif k == "retreat_elim":
        blocked_elim(s, b, p, c, events)
    elif k == "cannibalism":
        if c != "decline":
            add(s, p, top.params["area"], c, 1)
            events.append(ev("cannibalism", None, seat=seat, kind=c, area=top.params["area"]))
    elif k == "capture_victim" or k == "capture_monster_victim":
        do_capture(s, opp(p), top.params["area"], c, events)

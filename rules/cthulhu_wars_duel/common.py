"""Small helpers over the state shared by the engine and the battle code."""

from __future__ import annotations

from typing import Any

from rules.core import Decision
from rules.core.fastmodel import build
from rules.cthulhu_wars_duel.events import CwdEvent
from rules.cthulhu_wars_duel.factions import (
    ACOLYTE,
    GATE_HOLDER,
    GOOS,
    KINDS,
    MONSTERS,
    SLEEPER,
    SPELLBOOKS,
    UNITS,
    WINDWALKER,
)
from rules.cthulhu_wars_duel.maps import GameMap, load

__all__ = ["ACOLYTE", "GATE_HOLDER", "GOOS", "KINDS", "MONSTERS", "SLEEPER", "UNITS", "WINDWALKER"]


def gmap(map_id: str) -> GameMap:
    return load(map_id)


def opp(p: int) -> int:
    return 1 - p


def ev(type_: str, audience: str | None, **data: Any) -> CwdEvent:
    return build(CwdEvent, {"type": type_, "audience": audience, "data": data})


def count(s: Any, p: int, area: str, kind: str) -> int:
    return s.units[p].get(area, {}).get(kind, 0)


def in_area(s: Any, p: int, area: str) -> int:
    return sum(s.units[p].get(area, {}).values())


def add(s: Any, p: int, area: str, kind: str, n: int) -> None:
    u = s.units[p].setdefault(area, {})
    v = u.get(kind, 0) + n
    assert v >= 0, (area, kind, n)
    if v:
        u[kind] = v
    else:
        u.pop(kind, None)
        if not u:
            del s.units[p][area]


def on_map(s: Any, p: int, kind: str) -> int:
    return sum(u.get(kind, 0) for u in s.units[p].values())


def units_total(s: Any, p: int) -> int:
    return sum(sum(u.values()) for u in s.units[p].values())


def held(s: Any, p: int, kind: str) -> int:
    """Units of player p off the map but not in the pool: captives on the enemy card, Ancient Sorcery,
    Cursed Slumber."""
    n = s.captives[opp(p)].get(kind, 0)
    if kind == "serpent_man":
        n += s.sorcery
    if kind == "sl_acolyte" and s.slumber:
        n += 1
    return n


def pool(s: Any, p: int, kind: str) -> int:
    return UNITS[kind][2] - on_map(s, p, kind) - held(s, p, kind)


def goo_on_map(s: Any, p: int, kind: str) -> bool:
    return any(u.get(kind) for u in s.units[p].values())


def is_monster(kind: str) -> bool:
    return UNITS[kind][1] == "monster"


def has_book(s: Any, p: int, book: str) -> bool:
    return book in s.players[p]["books"]


def ice_tax(s: Any, p: int, area: str | None) -> int:
    """Ice Age: an enemy action ending in the token's area costs the Sleeper one more Power."""
    return 1 if p == SLEEPER and area is not None and s.ice == area else 0


def kind_cost(s: Any, p: int, kind: str) -> int:
    if kind == "gnoph_keh":
        return pool(s, p, kind)  # CWD-R31: 4, 3, 2, 1
    return UNITS[kind][3]  # type: ignore[return-value]


# Power the main actions cost before the Ice Age surcharge; a summon or an awakening costs its unit's price.
ACTION_COST = {"recruit": 1, "build_gate": 3, "battle": 1, "capture": 1}


def action_cost(s: Any, p: int, kind: str, area: str | None, unit: str | None = None) -> int:
    """What player ``p`` pays for a main action in ``area``. ``s`` needs only the public facts (units,
    captives, the Ice Age token), so the Discord layer prices a button from a view with the same code."""
    base = kind_cost(s, p, unit) if unit is not None else ACTION_COST[kind]
    return base + ice_tax(s, p, area)


def inactive(s: Any, p: int) -> bool:
    pl = s.players[p]
    return pl["power"] == 0 or pl["hibernating"]


def gain_doom(s: Any, p: int, n: int, events: list, why: str) -> None:
    if n:
        s.players[p]["doom"] += n
        events.append(ev("doom", None, seat=s.seats[p], amount=n, why=why, total=s.players[p]["doom"]))


def draw_sign(s: Any, p: int, events: list) -> None:
    """CWD-R120/R122: a random Elder Sign from the bag, face down; an empty bag gives 1 Doom instead."""
    total = sum(s.bag)
    if total == 0:
        gain_doom(s, p, 1, events, "empty_bag")
        return
    r = s.rng.below(total)
    v = 1
    while r >= s.bag[v - 1]:
        r -= s.bag[v - 1]
        v += 1
    s.bag[v - 1] -= 1
    s.players[p]["signs"].append(v)
    events.append(ev("elder_sign_drawn", None, seat=s.seats[p]))
    events.append(ev("elder_sign_value", s.seats[p], value=v))


def earn(s: Any, p: int, req: str, events: list) -> None:
    """CWD-R101: a met requirement earns a spellbook at once, or after the battle (CWD-R71)."""
    pl = s.players[p]
    if req in pl["reqs"]:
        return
    pl["reqs"].append(req)
    events.append(ev("requirement_met", None, seat=s.seats[p], requirement=req))
    if s.battle is not None:
        s.deferred.append([p, req])
    else:
        grant_book(s, p, req, events)


def grant_book(s: Any, p: int, req: str, events: list) -> None:
    free = [b for b in SPELLBOOKS[p] if b not in s.players[p]["books"]]
    if len(free) == 1:
        take_book(s, p, free[0], events)
    elif free:
        s.stack.append(Decision(kind="choose_book", seats=[s.seats[p]], params={"requirement": req}))


def take_book(s: Any, p: int, book: str, events: list) -> None:
    s.players[p]["books"].append(book)
    events.append(ev("spellbook", None, seat=s.seats[p], book=book))
    if len(s.players[p]["books"]) == 6:
        events.append(ev("six_spellbooks", None, seat=s.seats[p]))
        if p == SLEEPER:
            earn(s, WINDWALKER, "ww_req_opp_6_books_or_spend_6", events)


def check_continuous(s: Any, events: list) -> None:
    """Windwalker requirement: a Gate (anyone's, even towered) in its glyph area where it did not start."""
    ww = s.players[WINDWALKER]
    if ww["start"] is None or "ww_req_gate_other_glyph_area" in ww["reqs"]:
        return
    for a in gmap(s.map).windwalker_start:
        if a != ww["start"] and a in s.gates:
            earn(s, WINDWALKER, "ww_req_gate_other_glyph_area", events)

"""Loading and validating the game's data files (rules/eldritch_horror/data/*.json).

Everything the engine knows about cards, the board and the Ancient Ones comes from these files, so a wrong
number is fixed by editing data, never code. ``load`` checks the files against each other (every route
joins two known spaces, every named card exists, every mythos build can be dealt) and raises
:class:`DataError` on the first inconsistency: a broken data edit fails at import, not mid-game.
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
SKILLS = ("lore", "influence", "observation", "strength", "will")
SPACE_TYPES = ("city", "wilderness", "sea")
ROUTE_TYPES = ("train", "ship", "uncharted")
OMENS = ("green", "blue", "red")
COLOURS = ("green", "yellow", "blue")
DIFFICULTIES = ("easy", "normal", "hard")


class DataError(ValueError):
    """A data file contradicts itself or another file."""


@dataclass(frozen=True)
class Space:
    name: str
    type: str
    region: str | None
    expedition: bool
    routes: dict[str, str]  # neighbour -> route type


@dataclass(frozen=True)
class Content:
    spaces: dict[str, Space]
    gate_tokens: dict[str, str]  # space -> omen colour
    omen_track: tuple[str, ...]
    doom_max: int
    reference: dict[str, dict[str, int]]
    investigators: dict[str, dict[str, Any]]
    ancient_ones: dict[str, dict[str, Any]]
    monsters: dict[str, dict[str, Any]]
    epics: dict[str, dict[str, Any]]
    mythos: dict[str, dict[str, Any]]
    encounters: dict[str, dict[str, Any]]
    decks: dict[str, list[str]]  # encounter deck name -> card ids
    assets: dict[str, dict[str, Any]]
    artifacts: dict[str, dict[str, Any]]
    spells: dict[str, dict[str, Any]]
    conditions: dict[str, dict[str, Any]]
    mysteries: dict[str, dict[str, Any]]
    distances: dict[str, dict[str, int]] = field(default_factory=dict)

    def reference_for(self, investigators: int) -> dict[str, int]:
        """The reference card for this many investigators (1-2, 3-4, 5-6, 7-8)."""
        for key, row in self.reference.items():
            lo, hi = (int(x) for x in key.split("-"))
            if lo <= investigators <= hi:
                return row
        raise DataError(f"no reference card for {investigators} investigators")


def _read(name: str) -> dict[str, Any]:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def _check(cond: bool, msg: str) -> None:
    if not cond:
        raise DataError(msg)


def _board(raw: dict[str, Any]) -> tuple[dict[str, Space], dict[str, str]]:
    routes: dict[str, dict[str, str]] = {s["name"]: {} for s in raw["spaces"]}
    _check(len(routes) == 36, f"the board has 36 spaces, the data {len(routes)}")
    for a, b, kind in raw["routes"]:
        _check(a in routes and b in routes, f"route {a}-{b} names an unknown space")
        _check(kind in ROUTE_TYPES, f"route {a}-{b} has unknown type {kind}")
        _check(b not in routes[a], f"route {a}-{b} is listed twice")
        routes[a][b] = kind
        routes[b][a] = kind
    _check(len(raw["routes"]) == 58, f"the board has 58 routes, the data {len(raw['routes'])}")
    spaces = {}
    for s in raw["spaces"]:
        _check(s["type"] in SPACE_TYPES, f"{s['name']} has unknown type {s['type']}")
        _check(bool(routes[s["name"]]), f"{s['name']} has no route")
        spaces[s["name"]] = Space(s["name"], s["type"], s["region"], s["expedition"],
                                  dict(sorted(routes[s["name"]].items())))
    gates = {g["space"]: g["omen"] for g in raw["gate_tokens"]}
    _check(len(gates) == 9 and all(g in spaces and c in OMENS for g, c in gates.items()),
           "9 gate tokens on known spaces")
    _check(sum(1 for s in spaces.values() if s.region) == 9, "nine named cities have a region deck")
    _check(sum(1 for s in spaces.values() if s.expedition) == 6, "six expedition sites")
    return spaces, gates


def _bfs(spaces: dict[str, Space]) -> dict[str, dict[str, int]]:
    out = {}
    for start in spaces:
        dist = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for nxt in spaces[here].routes:
                if nxt not in dist:
                    dist[nxt] = dist[here] + 1
                    queue.append(nxt)
        out[start] = dist
    return out


MYSTERY_TRIGGERS = ("research_clue", "gate_closed", "encounter", "special", "monster_defeated", "spell_lore_pass")


def _mystery_ok(m: dict[str, Any], spaces: dict[str, Space]) -> bool:
    """A mystery's trigger is one progress.py knows, and every space it names is on the board."""
    p = m.get("progress")
    named = [o.get("space") for o in m["enters"] if o.get("space")]
    named += [x for o in m["enters"] for x in o.get("spaces", [])]
    return (p is None or p["on"] in MYSTERY_TRIGGERS) and all(x in spaces for x in named) \
        and ("tokens" in m["solve"]) != ("defeat_epic" in m["solve"])


@cache
def load() -> Content:
    """The validated content; cached because it never changes while the process runs."""
    board = _read("board.json")
    spaces, gates = _board(board)
    distances = _bfs(spaces)
    _check(all(len(d) == 36 for d in distances.values()), "the board is connected")
    items = _read("items.json")
    assets = {a["name"]: a for a in items["assets"]}
    artifacts = {a["name"]: a for a in items["artifacts"]}
    spells = {s["name"]: s for s in items["spells"]}
    conditions = {c["name"]: c for c in items["conditions"]}
    _check(len(assets) == 40, "40 assets")
    _check(sum(s["copies"] for s in spells.values()) == 20, "20 spell cards")
    _check(sum(c["copies"] for c in conditions.values()) == 36, "36 condition cards")
    for c in [*spells.values(), *conditions.values()]:
        _check(len(c["backs"]) == c["copies"], f"{c['name']}: one back per copy")
    invs = {i["name"]: i for i in _read("investigators.json")["investigators"]}
    _check(len(invs) == 12, "12 investigators")
    for i in invs.values():
        _check(i["start"] in spaces, f"{i['name']} starts on unknown space {i['start']}")
        _check(set(i["skills"]) == set(SKILLS), f"{i['name']} has five skills")
        _check(all(a in assets for a in i["assets"]), f"{i['name']}: unknown starting asset")
        _check(all(s in spells for s in i["spells"]), f"{i['name']}: unknown starting spell")
    mon = _read("monsters.json")
    monsters = {m["name"]: m for m in mon["monsters"]}
    epics = {m["name"]: m for m in mon["epic_monsters"]}
    _check(sum(m["count"] for m in monsters.values()) == 34, "34 monster tokens")
    _check(len(epics) == 9, "9 epic monsters")
    for m in [*monsters.values(), *epics.values()]:
        for eff in m["spawn_effects"]:
            if eff.get("op") == "move_this_monster":
                _check(eff["to"] in spaces, f"{m['name']} spawns onto unknown space {eff['to']}")
    mythos = {c["id"]: c for c in _read("mythos.json")["cards"]}
    _check(len(mythos) == 51, "51 mythos cards")
    by_colour = {c: sum(1 for m in mythos.values() if m["color"] == c) for c in COLOURS}
    _check(by_colour == {"green": 18, "yellow": 21, "blue": 12}, f"mythos colours {by_colour}")
    aos = {a["name"]: a for a in _read("ancient_ones.json")["ancient_ones"]}
    mysteries = {m["name"]: m for m in _read("mysteries.json")["mysteries"]}
    _check(len(mysteries) == 16, "16 core mysteries")
    for m in mysteries.values():
        _check(_mystery_ok(m, spaces), f"{m['name']}: unknown trigger, place or space in its data")
        _check(all(o["name"] in epics for o in m["enters"] if o["op"] == "spawn_epic_monster")
               and m["solve"].get("defeat_epic") in (None, *epics), f"{m['name']}: unknown epic monster")
    _check(len(aos) == 4, "four Ancient Ones")
    enc = {c["id"]: c for c in _read("encounters.json")["cards"]}
    _check(len(enc) == 122, "122 encounter cards")
    decks: dict[str, list[str]] = {}
    for c in enc.values():
        decks.setdefault(c["deck"], []).append(c["id"])
    for a in aos.values():
        _check(a["doom"] <= board["doom_max"], f"{a['name']}: doom above the track")
        for stage in ("stage1", "stage2", "stage3"):
            _check(len(a["mythos"][stage]) == len(COLOURS), f"{a['name']}: three colours per stage")
            _check(all(n >= 0 for n in a["mythos"][stage]), f"{a['name']}: negative mythos count")
        for colour_i, colour in enumerate(COLOURS):
            need = sum(a["mythos"][s][colour_i] for s in ("stage1", "stage2", "stage3"))
            for banned in (None, "easy", "hard"):  # every difficulty must be able to deal the deck
                have = sum(1 for m in mythos.values() if m["color"] == colour and m["difficulty"] != banned)
                _check(need <= have, f"{a['name']}: {need} {colour} mythos cards wanted, {have} without {banned}")
        _check(len(a["mysteries"]) == 4 and all(m in mysteries for m in a["mysteries"]), f"{a['name']}: 4 mysteries")
        _check(all(n in monsters for n in a["set_aside"]), f"{a['name']}: unknown set-aside monster")
        key = a["name"].lower().replace("-", "_")
        _check(f"research_{key}" in decks and len(decks[f"research_{key}"]) == 8, f"{a['name']}: 8 research cards")
        if a["special_deck"]:
            _check(any(enc[c].get("mystery") == a["special_deck"] for c in decks["special"]), "special deck exists")
    return Content(
        spaces=spaces, gate_tokens=gates, omen_track=tuple(board["omen_track"]), doom_max=board["doom_max"],
        reference=board["reference_card"], investigators=invs, ancient_ones=aos, monsters=monsters, epics=epics,
        mythos=mythos, encounters=enc, decks=decks, assets=assets, artifacts=artifacts, spells=spells,
        conditions=conditions, mysteries=mysteries, distances=distances,
    )

"""Map data files (data/maps/*.json), validated when loaded."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rules.cthulhu_wars_duel.factions import DARK_TOWERS

MAP_DIR = Path(__file__).parent / "data" / "maps"
MAP_IDS = ("extinction", "earth")


class MapError(ValueError):
    pass


@dataclass(frozen=True)
class GameMap:
    id: str
    areas: tuple[str, ...]
    adj: dict[str, tuple[str, ...]]
    names: dict[str, dict[str, str]]
    ocean: frozenset[str]
    sleeper_start: tuple[str, ...]
    windwalker_start: tuple[str, ...]
    tower_glyph: tuple[str, ...]
    dark_towers: bool
    reconstructed: bool


def validate(data: dict) -> GameMap:
    """Symmetric adjacency, no self loops, a connected graph, start and tower glyphs on real areas."""
    areas = [a["id"] for a in data["areas"]]
    if len(set(areas)) != len(areas):
        raise MapError("duplicate area id")
    ids = set(areas)
    adj = {a["id"]: tuple(a["adj"]) for a in data["areas"]}
    for a, ns in adj.items():
        for n in ns:
            if n not in ids:
                raise MapError(f"{a}: unknown neighbour {n}")
            if n == a:
                raise MapError(f"{a}: adjacent to itself")
            if a not in adj[n]:
                raise MapError(f"asymmetric edge {a}-{n}")
    seen = {areas[0]}
    todo = [areas[0]]
    while todo:
        for n in adj[todo.pop()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    if seen != ids:
        raise MapError("map is not connected")
    start = data["start"]
    if len(start.get("sleeper") or []) != 1:
        raise MapError("exactly one Sleeper start glyph needed")
    if len(start.get("windwalker") or []) != 2:
        raise MapError("exactly two Windwalker glyph areas needed")
    for a in list(start["sleeper"]) + list(start["windwalker"]) + list(data.get("tower_glyph", [])):
        if a not in ids:
            raise MapError(f"glyph on unknown area {a}")
    towers = bool(data.get("dark_towers"))
    if towers:
        _check_towers(set(data.get("tower_glyph") or []), set(start["sleeper"]) | set(start["windwalker"]), ids)
    return GameMap(
        id=data["id"],
        areas=tuple(areas),
        adj=adj,
        names={a["id"]: {"en": a["en"], "ru": a["ru"]} for a in data["areas"]},
        ocean=frozenset(a["id"] for a in data["areas"] if a["ocean"]),
        sleeper_start=tuple(start["sleeper"]),
        windwalker_start=tuple(start["windwalker"]),
        tower_glyph=tuple(data.get("tower_glyph", [])),
        dark_towers=towers,
        reconstructed=bool(data.get("reconstructed")),
    )


def _check_towers(glyphs: set[str], starts: set[str], ids: set[str]) -> None:
    """The box's 10 Tower tokens cover both start areas and then every glyph area, so they never run out
    mid-game; and some areas never get a Tower, as the rulebook promises (CWD-R95/R96)."""
    if not glyphs:
        raise MapError("Dark Tower rules need tower glyphs")
    if 2 + len(glyphs - starts) > DARK_TOWERS:
        raise MapError(f"{len(glyphs - starts)} tower glyphs need more than the {DARK_TOWERS} Tower tokens")
    if not ids - glyphs - starts:
        raise MapError("every area can get a Tower; the rulebook leaves some areas safe")


@cache
def load(map_id: str) -> GameMap:
    if map_id not in MAP_IDS:
        raise MapError(f"unknown map {map_id}")
    return validate(json.loads((MAP_DIR / f"{map_id}.json").read_text(encoding="utf-8")))

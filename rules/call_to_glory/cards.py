"""Card facts read from ``data/cards.json``: the same file the rules lookup shows, so both stay in step."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DATA_FILE = Path(__file__).parent / "data" / "cards.json"


@dataclass(frozen=True)
class Task:
    id: str
    deck: str
    bonus: int
    character: int


@dataclass(frozen=True)
class Catalog:
    characters: tuple[int, ...]  # character values, ascending; a value is also the number of copies
    three_dots: frozenset[int]  # values that need 3 cards with 3–4 players (CTG-R7)
    names: dict[int, dict[str, str]]
    tasks: dict[str, Task]
    decks: dict[str, tuple[str, ...]]  # deck letter -> task ids


@cache
def catalog() -> Catalog:
    doc = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    chars = [c for c in doc["cards"] if c["type"] == "character"]
    tasks = [c for c in doc["cards"] if c["type"] == "task"]
    for c in chars:
        if c["value"] != c["count"]:
            raise ValueError(f"{c['id']}: a character's value is its number of copies")
    decks: dict[str, list[str]] = {}
    for t in tasks:
        decks.setdefault(t["deck"], []).append(t["id"])
    return Catalog(
        characters=tuple(sorted(c["value"] for c in chars)),
        three_dots=frozenset(c["value"] for c in chars if c["three_dots"]),
        names={c["value"]: c["name"] for c in chars},
        tasks={t["id"]: Task(t["id"], t["deck"], t["bonus"], t["character"]) for t in tasks},
        decks={k: tuple(v) for k, v in sorted(decks.items())},
    )


def full_deck() -> list[int]:
    """All 110 character cards as values, in a fixed order before shuffling: a new list each call, for the
    caller to shuffle, copied from one built once (a tenth of the cost of building it card by card)."""
    return list(_deck())


@cache
def _deck() -> tuple[int, ...]:
    return tuple(v for v in catalog().characters for _ in range(v))

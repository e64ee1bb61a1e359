"""The 165 Core Set cards as typed definitions, read once from ``data/cards.json``.

The JSON file also feeds the ``/card`` lookup, so its shape is shared; this module turns its loose fields
(keyword strings such as ``"Toughness +2"``, struggle dictionaries) into what the rules engine asks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

ICONS: tuple[str, ...] = ("terror", "combat", "arcane", "investigation")
FACTIONS: dict[str, str] = {
    "The Agency": "agency",
    "Miskatonic University": "miskatonic",
    "The Syndicate": "syndicate",
    "Cthulhu": "cthulhu",
    "Hastur": "hastur",
    "Yog-Sothoth": "yog_sothoth",
    "Shub-Niggurath": "shub_niggurath",
}
FACTION_IDS: tuple[str, ...] = tuple(FACTIONS.values())
NEUTRAL = "neutral"
# CoC-R22: the two neutral packets of the quick start; F155 (the conspiracy) is in neither.
PACKETS: dict[str, tuple[int, ...]] = {"A": tuple(range(141, 148)), "B": tuple(range(148, 155))}
STORY_NUMBERS = tuple(range(156, 166))

_DATA = Path(__file__).parent / "data" / "cards.json"


@dataclass(frozen=True)
class CardDef:
    id: str
    number: int
    type: str  # character | support | event | conspiracy | story
    faction: str  # one of FACTION_IDS, "neutral", or "story"
    name_en: str
    name_ru: str
    unique: bool
    cost: int | None  # None for stories; X costs are ``x_cost``
    x_cost: bool
    skill: int  # Disciple of the Gate's X skill is 0 here and set by its script
    icons: tuple[int, int, int, int]
    subtypes: frozenset[str]
    keywords: frozenset[str]  # fast heroic villainous invulnerable loyal willpower
    toughness: int
    steadfast: int  # printed faction symbols beside the title (0 when none)
    transient: bool
    struggles: tuple[int, int, int, int]  # stories and conspiracies: struggle icons per kind
    boosters: tuple[int, int, int, int]  # attachments to stories: extra struggles per kind

    @property
    def attachment(self) -> bool:
        return "Attachment" in self.subtypes


_KEYWORDS = {
    "Fast": "fast",
    "Heroic": "heroic",
    "Villainous": "villainous",
    "Invulnerability": "invulnerable",
    "Loyal": "loyal",
    "Willpower": "willpower",
}


def _def(raw: dict) -> CardDef:
    kws: set[str] = set()
    tough = 0
    for k in raw.get("keywords") or []:
        if k.startswith("Toughness"):
            tough += int(k.split("+")[1])
        else:
            kws.add(_KEYWORDS[k])
    icons = raw.get("icons") or {}
    cost = raw.get("cost")
    skill = raw.get("skill")
    stype = raw["type"]
    faction = "story" if stype == "story" else FACTIONS.get(raw.get("faction") or "", NEUTRAL)
    struggles = raw.get("struggle_icons") if stype in ("story", "conspiracy") else None
    boosters = raw.get("struggle_icons_added")
    return CardDef(
        id=raw["id"],
        number=raw["number"],
        type=stype,
        faction=faction,
        name_en=raw["name"]["en"],
        name_ru=raw["name"]["ru"],
        unique=bool(raw.get("unique")),
        cost=None if cost is None or cost == "X" else int(cost),
        x_cost=cost == "X",
        skill=skill if isinstance(skill, int) else 0,
        icons=tuple(int(icons.get(i, 0)) for i in ICONS),  # type: ignore[arg-type]
        subtypes=frozenset(raw.get("subtypes") or ()),
        keywords=frozenset(kws),
        toughness=tough,
        steadfast=int(raw.get("steadfastness") or 0),
        transient=bool(raw.get("transient_resource")),
        struggles=tuple(int((struggles or {}).get(i, 0)) for i in ICONS),  # type: ignore[arg-type]
        boosters=tuple(int((boosters or {}).get(i, 0)) for i in ICONS),  # type: ignore[arg-type]
    )


@lru_cache(maxsize=1)
def catalog() -> dict[str, CardDef]:
    raw = json.loads(_DATA.read_text(encoding="utf-8"))
    return {c["id"]: _def(c) for c in raw["cards"]}


@lru_cache(maxsize=1)
def by_number() -> dict[int, CardDef]:
    return {c.number: c for c in catalog().values()}


def faction_cards(faction: str) -> list[str]:
    """Every deck card of one faction (Steve Clarney, F23, counts as Agency as printed)."""
    return [c.id for c in sorted(catalog().values(), key=lambda c: c.number) if c.faction == faction]


def packet_cards(packet: str) -> list[str]:
    return [by_number()[n].id for n in PACKETS[packet]]


def story_cards() -> list[str]:
    return [by_number()[n].id for n in STORY_NUMBERS]

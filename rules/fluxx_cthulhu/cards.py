"""Card facts read once from ``data/cards.json`` (the same file the rules lookup shows).

Every engine-relevant field is flattened into a :class:`Card`; effect code lives in ``effects.py`` and is
looked up by the card's effect id, so one function serves every card sharing an effect.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

DATA_FILE = Path(__file__).parent / "data" / "cards.json"

KEEPER, CREEPER, GOAL, UNGOAL, RULE, ACTION, SURPRISE = (
    "keeper", "creeper", "goal", "ungoal", "new_rule", "action", "surprise",
)
OFF_DECK = ("basic_rule", "meta_rule")


@dataclass(frozen=True)
class Card:
    id: str
    type: str
    house: bool
    name_en: str
    name_ru: str
    doom: int = 0
    blessing: int = 0
    investigator: bool = False
    attaches: bool = False
    # goals
    all_of: tuple[str, ...] = ()
    investigators_at_least: int = 0
    allowed_creepers: frozenset[str] = frozenset()
    any_creepers: bool = False
    doom_scope: str | None = None  # "self" / "table" for goals and ungoals
    doom_at_least: int | None = None
    # ungoals
    someone_has: tuple[str, ...] = ()
    # new rules
    category: str | None = None
    value: int | str | None = None
    # actions / surprises / keepers
    effect: str | None = None
    on_turn: str | None = None
    off_turn: str | None = None
    power: str | None = None
    params: dict = field(default_factory=dict, hash=False, compare=False)


@cache
def catalog() -> dict[str, Card]:
    doc = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    out: dict[str, Card] = {}
    for c in doc["cards"]:
        req = c.get("requires") or {}
        doom_cond = c.get("doom_condition") or {}
        lose = c.get("lose_condition") or {}
        attaches = bool(c.get("attaches"))
        card = Card(
            id=c["id"],
            type=c["type"],
            house=bool(c.get("house")),
            name_en=c["name"]["en"],
            name_ru=c["name"]["ru"],
            doom=int(c.get("doom") or 0),
            blessing=int(c.get("anti_doom") or 0),
            investigator=c.get("investigator") is True,
            attaches=attaches,
            all_of=tuple(req.get("all_of") or ()),
            investigators_at_least=int(req.get("investigators_at_least") or 0),
            allowed_creepers=frozenset(c.get("allowed_creepers") or ()),
            any_creepers=bool(c.get("any_creepers")),
            doom_scope=doom_cond.get("scope") if doom_cond.get("at_least") is not None else None,
            doom_at_least=doom_cond.get("at_least"),
            someone_has=tuple(lose.get("someone_has") or ()),
            category=c.get("category"),
            value=c.get("value"),
            effect=c.get("effect"),
            on_turn=c.get("on_turn_effect"),
            off_turn=c.get("off_turn_effect"),
            power=c.get("power"),
            params={k: c[k] for k in ("draw", "play") if k in c},
        )
        out[card.id] = card
    return out


@cache
def deck_ids(house: bool) -> tuple[str, ...]:
    """The shuffled-in cards (Basic Rules and the Meta Rule stay out), in data-file order."""
    return tuple(
        c.id for c in catalog().values() if c.type not in OFF_DECK and (house or not c.house)
    )


def card(cid: str) -> Card:
    return catalog()[cid]


def counts(house: bool) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in catalog().values():
        if house or not c.house:
            out[c.type] = out.get(c.type, 0) + 1
    return out

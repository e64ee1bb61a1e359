"""Lobby options: the Ancient One, the mythos difficulty and the investigators.

``chosen`` may arrive as typed text (``/game new … options: chosen=lily-chen+norman-withers``): the bot's option
reader splits its text at spaces and commas, so a typed list joins investigators with ``+`` and writes each one
without spaces (an id such as ``lily-chen``, or a name such as ``Lily_Chen``, ``lilychen`` or ``Лили_Чен``).
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from rules.eldritch_horror.data import DATA

PICKS = ("players", "random")
AncientOne = Literal["random", "Azathoth", "Cthulhu", "Shub-Niggurath", "Yog-Sothoth"]


def _norm(text: str) -> str:
    """Case, ``ё`` and separators do not matter: ``Lily_Chen``, ``lily-chen`` and ``LILYCHEN`` are one name."""
    return re.sub(r"[\s_\-.'’`]+", "", text.casefold().replace("ё", "е"))


@cache
def investigator_names() -> dict[str, str]:
    """Every accepted spelling (id, English and Russian name), normalised, to the English name the engine uses."""
    cards = json.loads((DATA / "cards.json").read_text(encoding="utf-8"))["cards"]
    out: dict[str, str] = {}
    for c in cards:
        if c.get("type") != "investigator":
            continue
        name = c["name"]["en"]
        for spelling in (c["id"], name, c["name"].get("ru", "")):
            if spelling:
                out[_norm(spelling)] = name
    return out


def read_investigators(value: Any) -> Any:
    """A ``+``- or comma-separated string (or a list) of ids or names in either language, as English names."""
    if isinstance(value, str):
        value = [p for p in re.split(r"[+,]", value) if p.strip()]
    if not isinstance(value, (list, tuple)):
        return value  # pydantic reports the wrong type
    known = investigator_names()
    names, unknown = [], []
    for raw in value:
        name = known.get(_norm(str(raw)))
        if name is None:
            unknown.append(str(raw).strip())
        else:
            names.append(name)
    if unknown:
        raise PydanticCustomError("eh_unknown_investigator", "unknown investigators: {names}",
                                  {"names": ", ".join(unknown)})
    if len(set(names)) != len(names):
        raise PydanticCustomError("eh_repeated_investigator", "an investigator is named twice")
    return tuple(names)


class EhOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    ancient_one: AncientOne = Field(default="Azathoth", description="the Ancient One, or random")
    difficulty: Literal["easy", "normal", "hard"] = Field(
        default="normal",
        description="mythos deck: easy leaves out hard cards, hard leaves out easy cards, normal uses all",
    )
    investigators: int = Field(
        default=0, ge=0, le=8, description="how many investigators; 0 = one per seat (seats share them out in turn)"
    )
    lead: Literal["first_seat", "random"] = Field(
        default="first_seat", description="who starts with the Lead Investigator token (setup step 3)"
    )
    pick: str = Field(
        default="players",
        description="setup step 3: players pick their investigators in turn from the lead, or all are drawn at random",
    )
    chosen: tuple[str, ...] = Field(
        default=(), description="investigators in seat order, joined by + (ids or names); the rest are picked or drawn"
    )

    @field_validator("pick")
    @classmethod
    def _read_pick(cls, value: str) -> str:
        """Typed only (``options: pick=random``): the lobby's menus are full, and each pick offers chance too."""
        if value not in PICKS:
            raise PydanticCustomError("eh_pick", "pick is players or random")
        return value

    @field_validator("chosen", mode="before")
    @classmethod
    def _read_chosen(cls, value: Any) -> Any:
        return read_investigators(value)

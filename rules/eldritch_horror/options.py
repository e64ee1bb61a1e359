"""Lobby options: the Ancient One, the mythos difficulty and the investigators."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

AncientOne = Literal["random", "Azathoth", "Cthulhu", "Shub-Niggurath", "Yog-Sothoth"]


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
    chosen: tuple[str, ...] = Field(
        default=(), description="investigator names in seat order; the rest are drawn at random"
    )

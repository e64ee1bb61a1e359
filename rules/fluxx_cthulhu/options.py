"""Game options chosen in the lobby; the defaults are the standard game with the full 100-card deck."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class FlxOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    house_cards: bool = Field(
        default=True,
        description="fill the slots no source identifies with the project's house cards (off: 57-card game)",
    )
    meta_rule: bool = Field(default=False, description="FLX-R16: Cult Clash in force all game")
    first_player: Literal["seat_order", "random"] = Field(
        default="seat_order", description="FLX-R4: the first seat starts, or a random one"
    )

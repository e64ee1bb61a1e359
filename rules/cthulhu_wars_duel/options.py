"""Lobby options: the map, who plays which faction, the Ritual track."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class CwdOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    map: Literal["extinction", "earth"] = Field(
        default="extinction", description="extinction (the box map, reconstructed) or earth (regular CW, 3-player side)"
    )
    sleeper: Literal["first_seat", "second_seat", "random"] = Field(
        default="first_seat", description="which seat plays the Sleeper; the other plays the Windwalker"
    )
    ritual_track: Literal["standard", "long"] = Field(
        default="standard", description="standard: 5,6,7,8,9,10,END; long: 5,6,7,7,8,8,9,10,END (digest A4)"
    )

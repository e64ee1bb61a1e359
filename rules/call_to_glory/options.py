"""Game options chosen in the lobby; the defaults are the standard four-round game."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError


class CtgOptions(BaseModel):
    """Imperial Tasks and Ninja Power combine freely (they touch different parts of the game); the
    one-round quick game cannot take Imperial Tasks, whose three cards per player are spent one per round."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    imperial_tasks: bool = Field(default=False, description="CTG-V1: secret tasks, 3 rounds")
    ninja_power: bool = Field(default=False, description="CTG-V2: Ninja figures")
    quick: bool = Field(default=False, description="one round instead of four")
    first_player: Literal["seat_order", "random"] = Field(
        default="seat_order", description="who starts round 1 (CTG-R3): the first seat or a random one"
    )

    @model_validator(mode="after")
    def _compatible(self) -> CtgOptions:
        if self.quick and self.imperial_tasks:
            raise PydanticCustomError(
                "ctg_quick_with_tasks",
                "the quick game cannot be combined with Imperial Tasks (tasks are dealt for three rounds)",
            )
        return self

    @property
    def rounds(self) -> int:
        if self.quick:
            return 1
        return 3 if self.imperial_tasks else 4

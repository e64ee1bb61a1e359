"""Actions: every decision in Eldritch Horror is the choice of one offered option.

The engine offers each decision as a list of option keys (``travel:Space 5>Arkham``, ``rest``,
``reroll:clue@2``, ``fight:12`` ...), and ``legal_actions`` returns one :class:`Choose` per key. One action
shape keeps buttons, AI seats and fuzzers uniform across the many small decisions a round asks for.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field


class Choose(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["choose"] = "choose"
    option: str = Field(min_length=1, max_length=200)


EhAction = Annotated[Choose, Field(discriminator="type")]

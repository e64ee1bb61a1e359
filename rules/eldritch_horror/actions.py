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


class Leave(BaseModel):
    """A player leaves the running game for good (bot ruling; the rules say nothing about it): the next
    player takes over their investigators, and the last player leaving loses the game. Never among the
    legal actions: the table offers it, not the decision buttons.

    ``place`` is the session's bookkeeping, not a rule: the leaver's index in the session's seat list,
    logged so that a game rebuilt from its log seats everyone as they sat. The engine ignores it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["leave"] = "leave"
    place: int | None = Field(default=None, ge=0)


EhAction = Annotated[Choose | Leave, Field(discriminator="type")]

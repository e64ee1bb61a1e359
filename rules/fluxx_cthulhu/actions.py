"""Cthulhu Fluxx moves as a tagged union; ``legal_actions`` enumerates them."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    type: str  # every action narrows this to its own literal tag, the union's discriminator


class Play(_Action):
    """Play a card: from hand on your turn, from the cards an action drew, a dream card, or a surprise
    into an open reaction window (FLX-R15)."""

    type: Literal["play"] = "play"
    card: str


class Pass(_Action):
    """Decline to react in an open reaction window."""

    type: Literal["pass"] = "pass"


class Discard(_Action):
    """Discard a named card when a limit or a card demands it (hand card, keeper or investigator)."""

    type: Literal["discard"] = "discard"
    card: str


class DiscardRandom(_Action):
    """Disorder of the Stars: let a random card of your hand be discarded instead of an action."""

    type: Literal["discard_random"] = "discard_random"


class Choose(_Action):
    """Answer an effect's question with one of the options its prompt lists."""

    type: Literal["choose"] = "choose"
    option: str


class Give(_Action):
    """Dreams and Omens: deal one of the drawn cards face down to a player."""

    type: Literal["give"] = "give"
    card: str
    to: str


class UsePower(_Action):
    """A free action (FLX-R27): a keeper's power, or a New Rule that grants one. ``target`` is a card,
    ``to`` a seat, where the power needs them."""

    type: Literal["use_power"] = "use_power"
    card: str
    target: str | None = None
    to: str | None = None


class EndTurn(_Action):
    """End the turn once every required play is made (offered only while free actions remain)."""

    type: Literal["end_turn"] = "end_turn"


class Join(_Action):
    """FLX-R23: a seat not yet in the game joins it (see ``FluxxEngine.apply``)."""

    type: Literal["join"] = "join"


class Leave(_Action):
    """A seated player leaves a running game (bot ruling beside FLX-R23, see ``FluxxEngine.apply``).
    Like ``join`` it is never listed by ``legal_actions``: the table offers it, not the move buttons.

    ``place`` is the session's bookkeeping, not a rule: the leaver's index in the session's seat list,
    logged so that a game rebuilt from its log can seat everyone as they first sat. The engine ignores it.
    """

    type: Literal["leave"] = "leave"
    place: int | None = Field(default=None, ge=0)


FlxAction = Annotated[
    Play | Pass | Discard | DiscardRandom | Choose | Give | UsePower | EndTurn | Join | Leave,
    Field(discriminator="type"),
]
ACTION_TYPES: tuple[type[_Action], ...] = (
    Play, Pass, Discard, DiscardRandom, Choose, Give, UsePower, EndTurn, Join, Leave,
)

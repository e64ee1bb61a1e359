"""Call of Cthulhu LCG moves as a tagged union; ``legal_actions`` enumerates them."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    type: str  # every action narrows this to its own literal tag, the union's discriminator


class SetupResource(_Action):
    """CoC-R26/R27: one of the 8 setup cards becomes a starting resource (three times each)."""

    type: Literal["setup_resource"] = "setup_resource"
    card: str


class Pass(_Action):
    """Close your part of a window, skip the resource attachment, decline a response."""

    type: Literal["pass"] = "pass"


class Play(_Action):
    """Play a card from hand, paying by draining ``domain`` (None: a 0 cost that drains nothing)."""

    type: Literal["play"] = "play"
    card: str
    domain: int | None = None


class Use(_Action):
    """Trigger ability number ``ability`` of a card (in play, or in your discard pile where it says so)."""

    type: Literal["use"] = "use"
    card: str
    ability: int = 0
    domain: int | None = None


class AttachResource(_Action):
    """CoC-R37: attach a card from hand to one of your domains in your Resource phase."""

    type: Literal["attach_resource"] = "attach_resource"
    card: str
    domain: int


class Commit(_Action):
    """Add one character to your commit plan (revealed all at once with ``commit_done``, CoC-R46)."""

    type: Literal["commit"] = "commit"
    card: str
    story: str


class Withdraw(_Action):
    """Take a character back out of your commit plan before you confirm it (nothing is public yet)."""

    type: Literal["withdraw"] = "withdraw"
    card: str


class CommitDone(_Action):
    type: Literal["commit_done"] = "commit_done"


class Choose(_Action):
    """Answer a question an effect or a rule asks with one of its options."""

    type: Literal["choose"] = "choose"
    option: str


class Concede(_Action):
    """Leave the game for good; the opponent wins at once. The rulebook has no concession (CoC-R139): this
    is the bot's way out for a player who leaves, is voted out or runs out of time, never a legal action."""

    type: Literal["concede"] = "concede"


CocAction = Annotated[
    SetupResource | Pass | Play | Use | AttachResource | Commit | Withdraw | CommitDone | Choose | Concede,
    Field(discriminator="type"),
]
ACTION_TYPES: tuple[type[_Action], ...] = (SetupResource, Pass, Play, Use, AttachResource, Commit, Withdraw, CommitDone,
                                           Choose, Concede)

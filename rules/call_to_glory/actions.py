"""The moves of Call to Glory as a tagged union; legal_actions enumerates them for buttons and bots."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

Character = Literal[6, 7, 8, 9, 12, 14, 16, 18, 20]
PileName = Literal["deck1", "deck2", "discard1", "discard2"]
DiscardPile = Literal[1, 2]


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    type: str  # every action narrows this to its own literal tag, the union's discriminator


class Draw(_Action):
    """Take the top card of one pile (CTG-R5); a turn holds two of these, from different piles."""

    type: Literal["draw"] = "draw"
    pile: PileName


class LayOut(_Action):
    """Lay ``count`` cards of one character (CTG-R6..R9). ``pile`` is where your own replaced set goes."""

    type: Literal["lay_out"] = "lay_out"
    character: Character
    count: int = Field(ge=1, le=20)
    pile: DiscardPile | None = None


class Discard(_Action):
    """Discard one card instead of laying out (CTG-R10) onto a discard pile (CTG-R11)."""

    type: Literal["discard"] = "discard"
    character: Character
    pile: DiscardPile | None = None


class PlaceBeatenSet(_Action):
    """The owner of a beaten set chooses the discard pile it goes to (CTG-R8, CTG-R11)."""

    type: Literal["place_beaten_set"] = "place_beaten_set"
    pile: DiscardPile


class UseNinja(_Action):
    """Return a Ninja figure: ``target``'s set of ``character`` loses one card (CTG-V2). The player who
    returns the figure picks the set; the book's example has A take a Samurai from B's Monks and Samurai."""

    type: Literal["use_ninja"] = "use_ninja"
    target: str
    character: Character


class GiveUpCard(_Action):
    """The Ninja's victim picks the discard pile for the card their set loses (CTG-V2, CTG-R11)."""

    type: Literal["give_up_card"] = "give_up_card"
    pile: DiscardPile


class EndTurn(_Action):
    """Close a turn in which Ninja figures could still be used after the lay-out or discard (CTG-V2)."""

    type: Literal["end_turn"] = "end_turn"


class RevealTask(_Action):
    """Reveal one of your Imperial Task cards at the end of a round (CTG-V1)."""

    type: Literal["reveal_task"] = "reveal_task"
    task: str


class Concede(_Action):
    """Leave the game for good (bot ruling, the rules say nothing): it ends at once on the standings so far,
    the leaver last. Never a legal action; the bot sends it for a player who leaves a two-player game."""

    type: Literal["concede"] = "concede"


CtgAction = Annotated[
    Draw | LayOut | Discard | PlaceBeatenSet | UseNinja | GiveUpCard | EndTurn | RevealTask | Concede,
    Field(discriminator="type"),
]
ACTION_TYPES: tuple[type[_Action], ...] = (
    Draw, LayOut, Discard, PlaceBeatenSet, UseNinja, GiveUpCard, EndTurn, RevealTask, Concede,
)

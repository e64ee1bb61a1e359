"""Lobby options: each seat's deck (a quick-start faction pair plus a neutral packet, or a custom list).

Deck choices are chosen in the open lobby, so a seat's deck list is public information; the engine relies
on that when it decides whom to ask in a reaction window (see ``timing.py``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class DeckChoice(BaseModel):
    """Either ``factions`` + ``packet`` (CoC-R22) or ``cards`` (a constructed deck, CoC-R16..R18)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    factions: tuple[str, str] | None = None
    packet: Literal["A", "B"] | None = None
    cards: tuple[str, ...] | None = None


class CocOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    deck1: DeckChoice = Field(
        default=DeckChoice(factions=("agency", "cthulhu"), packet="A"), description="the first seat's deck"
    )
    deck2: DeckChoice = Field(
        default=DeckChoice(factions=("miskatonic", "hastur"), packet="B"), description="the second seat's deck"
    )
    first_player: Literal["random", "seat_order"] = Field(
        default="random", description="CoC-R28: chosen at random, or the first seat"
    )
    deckout: Literal["empty", "draw_from_empty"] = Field(
        default="empty", description="CoC-A1: lose when the deck becomes empty, or only when drawing from it"
    )

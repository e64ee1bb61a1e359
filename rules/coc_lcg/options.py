"""Lobby options: each seat's deck (a quick-start faction pair plus a neutral packet, or a custom list).

Deck choices are chosen in the open lobby, so a seat's deck list is public information; the engine relies
on that when it decides whom to ask in a reaction window (see ``reactions.reaction_seats``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_serializer, model_validator


class DeckChoice(BaseModel):
    """Either ``factions`` + ``packet`` (CoC-R22) or ``cards`` (a constructed deck, CoC-R16..R18)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    factions: tuple[str, str] | None = None
    packet: Literal["A", "B"] | None = None
    cards: tuple[str, ...] | None = None

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, data: Any) -> Any:
        """A deck typed or pasted as text (``agency+cthulhu/A``, a card list): see ``decklist``."""
        if isinstance(data, str):
            from rules.coc_lcg.decklist import parse_choice

            return parse_choice(data)
        return data

    @model_serializer(mode="plain")
    def _to_text(self) -> str:
        """Stored as short text: the lobby shows option values as words, and a nested dict breaks that."""
        from rules.coc_lcg.decklist import to_text

        return to_text(self.factions, self.packet, self.cards)


class CocOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _deck_texts(cls, data: Any) -> Any:
        """Deck texts read with their seat's default neutral packet (seat 1: A, seat 2: B)."""
        if isinstance(data, dict) and any(isinstance(data.get(k), str) for k in ("deck1", "deck2")):
            from rules.coc_lcg.decklist import parse_choice

            data = {k: parse_choice(v, k) if k in ("deck1", "deck2") and isinstance(v, str) else v
                    for k, v in data.items()}
        return data

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

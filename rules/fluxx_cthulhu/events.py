"""What happened, typed, for the game log and the bot's messages.

Hidden cards appear only in a private twin (``audience`` = the seat that may see them)."""

from __future__ import annotations

from typing import Literal

from rules.core import Event


class TurnStarted(Event):
    type: Literal["turn_started"] = "turn_started"
    seat: str
    turn: int
    extra: bool = False


class PlayerJoined(Event):
    type: Literal["player_joined"] = "player_joined"
    seat: str
    before: str  # the seat the newcomer sits in front of (their turn comes right before it)


class PlayerLeft(Event):
    type: Literal["player_left"] = "player_left"
    seat: str
    cards: list[str]  # everything they had (hand included) now on the discard pile, face up


class CardsDrawn(Event):
    """``cards`` is None in the public copy."""

    type: Literal["cards_drawn"] = "cards_drawn"
    seat: str
    count: int
    zone: str = "hand"  # hand, limbo (drawn for an action)
    cards: list[str] | None = None


class Reshuffled(Event):
    type: Literal["reshuffled"] = "reshuffled"
    count: int


class CreeperPlaced(Event):
    type: Literal["creeper_placed"] = "creeper_placed"
    seat: str
    card: str
    attached_to: str | None = None


class CreeperAttached(Event):
    type: Literal["creeper_attached"] = "creeper_attached"
    seat: str
    card: str
    keeper: str


class CardPlayed(Event):
    type: Literal["card_played"] = "card_played"
    seat: str
    card: str
    source: str  # hand, limbo, dream, discard, forced
    counted: bool


class KeeperPlaced(Event):
    type: Literal["keeper_placed"] = "keeper_placed"
    seat: str
    card: str


class RulePlaced(Event):
    type: Literal["rule_placed"] = "rule_placed"
    seat: str
    card: str
    replaced: list[str]


class GoalPlaced(Event):
    type: Literal["goal_placed"] = "goal_placed"
    seat: str
    card: str
    replaced: list[str]


class CardsDiscarded(Event):
    type: Literal["cards_discarded"] = "cards_discarded"
    seat: str | None
    cards: list[str]
    reason: str


class CardMoved(Event):
    """A keeper or creeper changes owner (attachments travel with their keeper)."""

    type: Literal["card_moved"] = "card_moved"
    card: str
    from_seat: str
    to_seat: str
    reason: str


class CardReturned(Event):
    type: Literal["card_returned"] = "card_returned"
    seat: str
    card: str


class SurprisePlayed(Event):
    type: Literal["surprise_played"] = "surprise_played"
    seat: str
    card: str
    mode: str  # on (own turn), hijack, cancel, win


class Cancelled(Event):
    type: Literal["cancelled"] = "cancelled"
    card: str
    seat: str | None
    by_card: str
    by_seat: str


class CardGiven(Event):
    """Dreams and Omens: public without the card; the giver and the receiver get a twin with it."""

    type: Literal["card_given"] = "card_given"
    seat: str
    to: str
    card: str | None = None


class HandsSwapped(Event):
    type: Literal["hands_swapped"] = "hands_swapped"
    seats: list[str]
    kind: str  # trade, rotate


class PowerUsed(Event):
    type: Literal["power_used"] = "power_used"
    seat: str
    card: str
    target: str | None = None
    to: str | None = None


class CreeperHidden(Event):
    type: Literal["creeper_hidden"] = "creeper_hidden"
    seat: str
    card: str
    hidden: bool


class ExtraTurnGained(Event):
    type: Literal["extra_turn_gained"] = "extra_turn_gained"
    seat: str


class UngoalMet(Event):
    type: Literal["ungoal_met"] = "ungoal_met"
    cards: list[str]


class GameEnded(Event):
    type: Literal["game_ended"] = "game_ended"
    winner: str | None
    reason: str  # goal, secret_cultist, cultist, meta_rule, ungoal
    card: str | None = None

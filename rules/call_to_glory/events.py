"""What happened, typed, for the game log and the bot's messages."""

from __future__ import annotations

from typing import Literal

from rules.core import Event


class RoundStarted(Event):
    type: Literal["round_started"] = "round_started"
    round: int
    first_seat: str


class TurnStarted(Event):
    type: Literal["turn_started"] = "turn_started"
    seat: str


class CardDrawn(Event):
    """``card`` is None in the public copy of a draw from a face-down deck."""

    type: Literal["card_drawn"] = "card_drawn"
    seat: str
    pile: str
    card: int | None = None


class SetLaid(Event):
    type: Literal["set_laid"] = "set_laid"
    seat: str
    character: int
    count: int
    replaced: int = 0  # size of the player's own set that this one replaced (CTG-R9)
    beaten_seat: str | None = None  # whose set this one beat (CTG-R8)
    beaten_count: int = 0


class SetDiscarded(Event):
    type: Literal["set_discarded"] = "set_discarded"
    seat: str
    character: int
    count: int
    pile: int


class CardDiscarded(Event):
    type: Literal["card_discarded"] = "card_discarded"
    seat: str
    character: int
    pile: int


class NinjaTaken(Event):
    type: Literal["ninja_taken"] = "ninja_taken"
    seat: str
    supply: int


class NinjaUsed(Event):
    type: Literal["ninja_used"] = "ninja_used"
    seat: str
    target: str


class CardGivenUp(Event):
    type: Literal["card_given_up"] = "card_given_up"
    seat: str
    character: int
    pile: int
    remaining: int


class TaskRevealed(Event):
    type: Literal["task_revealed"] = "task_revealed"
    seat: str
    task: str
    character: int
    bonus: int
    gains: dict[str, int]


class RoundEnded(Event):
    type: Literal["round_ended"] = "round_ended"
    round: int
    reason: str
    set_points: dict[str, int]
    task_bonus: dict[str, int]
    totals: dict[str, int]


class GameEnded(Event):
    type: Literal["game_ended"] = "game_ended"
    ranking: list[list[str]]
    totals: dict[str, int]

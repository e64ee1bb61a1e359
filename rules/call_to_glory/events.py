"""What happened, typed, for the game log and the bot's messages."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict

from rules.core import Event
from rules.core.fastmodel import builder


class _CtgEvent(Event):
    """A record of something that happened: frozen, so one object may stand for every identical one."""

    model_config = ConfigDict(frozen=True)


class RoundStarted(_CtgEvent):
    type: Literal["round_started"] = "round_started"
    round: int
    first_seat: str


class TurnStarted(_CtgEvent):
    type: Literal["turn_started"] = "turn_started"
    seat: str


class CardDrawn(_CtgEvent):
    """``card`` is None in the public copy of a draw from a face-down deck."""

    type: Literal["card_drawn"] = "card_drawn"
    seat: str
    pile: str
    card: int | None = None


class SetLaid(_CtgEvent):
    type: Literal["set_laid"] = "set_laid"
    seat: str
    character: int
    count: int
    replaced: int = 0  # size of the player's own set that this one replaced (CTG-R9)
    beaten_seat: str | None = None  # whose set this one beat (CTG-R8)
    beaten_count: int = 0


class SetDiscarded(_CtgEvent):
    type: Literal["set_discarded"] = "set_discarded"
    seat: str
    character: int
    count: int
    pile: int


class CardDiscarded(_CtgEvent):
    type: Literal["card_discarded"] = "card_discarded"
    seat: str
    character: int
    pile: int


class NinjaTaken(_CtgEvent):
    type: Literal["ninja_taken"] = "ninja_taken"
    seat: str
    supply: int


class NinjaUsed(_CtgEvent):
    type: Literal["ninja_used"] = "ninja_used"
    seat: str
    target: str
    character: int  # the set the figure's owner chose to cut (CTG-V2)


class CardGivenUp(_CtgEvent):
    type: Literal["card_given_up"] = "card_given_up"
    seat: str
    character: int
    pile: int
    remaining: int


class TaskRevealed(_CtgEvent):
    type: Literal["task_revealed"] = "task_revealed"
    seat: str
    task: str
    character: int
    bonus: int
    gains: dict[str, int]


class RoundEnded(_CtgEvent):
    type: Literal["round_ended"] = "round_ended"
    round: int
    reason: str
    set_points: dict[str, int]
    task_bonus: dict[str, int]
    totals: dict[str, int]
    # For "characters_per_player": whose sets ended the round and how many CTG-R12 asks, so the table can
    # say who did it rather than "a player".
    seat: str | None = None
    characters: int = 0


class GameEnded(_CtgEvent):
    type: Literal["game_ended"] = "game_ended"
    ranking: list[list[str]]
    totals: dict[str, int]


class Conceded(_CtgEvent):
    """A player left and the game ended on the standings so far; ``winners`` are its first place."""

    type: Literal["conceded"] = "conceded"
    seat: str
    winners: list[str]


# The events of nearly every action. Each is built once, without validation (see rules.core.fastmodel),
# and the same frozen object then stands for every identical event: a game has only a few hundred of
# them (seat × pile × character), and building one cost as much as the rest of an action's bookkeeping.
_card_drawn = builder(CardDrawn)
_card_discarded = builder(CardDiscarded)
_turn_started = builder(TurnStarted)
# Shared events by key; the engine reads a discard's here before calling ``card_discarded``.
SHARED: dict[tuple[object, ...], _CtgEvent] = {}
SHARED_MAX = 4096  # seats are user ids: the table is emptied rather than left to grow without bound


def card_drawn(seat: str, pile: str, card: int | None, audience: str | None = None) -> CardDrawn:
    """The draw as seen by ``audience``; a hidden card (None) is the public copy of a deck draw."""
    key = ("card_drawn", seat, pile, card, audience)
    event = SHARED.get(key)
    if event is None:
        event = _share(
            key,
            _card_drawn(
                {"type": "card_drawn", "audience": audience, "seat": seat, "pile": pile, "card": card}
            ),
        )
    return event  # type: ignore[return-value]


# What ``draw_events`` has built, by (seat, pile, card): the engine looks here before calling it.
DRAW_EVENTS: dict[tuple[str, str, int], tuple[CardDrawn, ...]] = {}


def draw_events(seat: str, pile: str, card: int, face_down: bool) -> tuple[CardDrawn, ...]:
    """Everything one draw tells: from a face-down deck the table learns only the pile and the drawer
    the card; from a discard pile everyone sees the card. One tuple per (seat, pile, card)."""
    key = (seat, pile, card)
    events = DRAW_EVENTS.get(key)
    if events is None:
        if len(DRAW_EVENTS) >= SHARED_MAX:
            DRAW_EVENTS.clear()
        if face_down:
            events = (card_drawn(seat, pile, None), card_drawn(seat, pile, card, seat))
        else:
            events = (card_drawn(seat, pile, card),)
        DRAW_EVENTS[key] = events
    return events


def card_discarded(seat: str, character: int, pile: int) -> CardDiscarded:
    key = ("card_discarded", seat, character, pile)
    event = SHARED.get(key)
    if event is None:
        event = _share(
            key,
            _card_discarded(
                {"type": "card_discarded", "audience": None, "seat": seat, "character": character,
                 "pile": pile}
            ),
        )
    return event  # type: ignore[return-value]


def turn_started(seat: str) -> TurnStarted:
    key = ("turn_started", seat)
    event = SHARED.get(key)
    if event is None:
        event = _share(key, _turn_started({"type": "turn_started", "audience": None, "seat": seat}))
    return event  # type: ignore[return-value]


def _share(key: tuple[object, ...], event: _CtgEvent) -> _CtgEvent:
    if len(SHARED) >= SHARED_MAX:
        SHARED.clear()
    SHARED[key] = event
    return event

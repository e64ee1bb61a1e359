"""Rule violations as data: a stable code plus parameters, so the bot can localize the message."""

from __future__ import annotations

from typing import Any


class RuleError(Exception):
    """Raised by an engine when an action breaks a rule; the state given to ``apply`` is left untouched.

    The ``code`` is part of the contract with the bot's message catalogs: never rename one, add new ones.
    Codes shared by every game are plain (``not_your_turn``); game-specific ones carry the game's prefix
    (``ctg.set_too_small``).
    """

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        detail = ", ".join(f"{k}={v!r}" for k, v in sorted(params.items()))
        super().__init__(f"{code}({detail})" if detail else code)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RuleError) and (self.code, self.params) == (other.code, other.params)

    def __hash__(self) -> int:
        return hash(self.code)


# Codes every engine may raise; the bot's catalogs must translate all of them.
UNKNOWN_SEAT = "unknown_seat"
NOT_YOUR_TURN = "not_your_turn"
BAD_ACTION = "bad_action"
GAME_OVER = "game_over"
SEAT_COUNT = "seat_count"
DUPLICATE_SEAT = "duplicate_seat"
BAD_SEAT = "bad_seat"


def checked_seats(seats: object, lo: int, hi: int) -> list[str]:
    """The seating a new game is dealt to, checked alike for every game: how many (``seat_count``), each a
    non-empty text (``bad_seat``), nobody twice (``duplicate_seat``)."""
    out = list(seats)  # type: ignore[call-overload]
    if not lo <= len(out) <= hi:
        raise RuleError(SEAT_COUNT, count=len(out), min=lo, max=hi)
    for seat in out:
        if not isinstance(seat, str) or not seat:
            raise RuleError(BAD_SEAT, seat=repr(seat))
    if len(set(out)) != len(out):
        raise RuleError(DUPLICATE_SEAT)
    return out

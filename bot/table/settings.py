"""A table's own settings, typed: its turn clock, the seats an AI plays, the ballots to vote a seat out,
the lobby's table switches (hints, rated, hands shown in the replay), the seats that asked for a hint and
the open take-back request.

They are stored as one JSON object per session (the shape earlier versions wrote: the clock's fields at
the top level beside ``ai`` and ``votes``), so tables that were running before keep their settings. Only
the session service writes them, under the session's lock, so no change to one part undoes another.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bot.server_settings import TableClock
from bot.table.outcome import Departure

CLOCK_FIELDS = frozenset(TableClock.model_fields)
SWITCHES = ("hints", "rated", "replay_hands")
"""The lobby's on/off table settings (not rules of the game), by field name."""


class TakebackRequest(BaseModel):
    """An open request to take a move back: made at ``version`` (a move by anyone since makes it stale),
    undoing the last ``undo`` steps of ``seat``, with the seats that accepted so far; ``message_id`` is the
    channel post asking the others, so its buttons can be closed when the request is settled or lapses."""

    model_config = ConfigDict(frozen=True)

    seat: str
    version: int
    undo: int
    accepted: tuple[str, ...] = ()
    message_id: int | None = None


class TableSettings(BaseModel):
    """``clock`` None: the table never chose one, so the server's default applies."""

    model_config = ConfigDict(frozen=True)

    clock: TableClock | None = None
    ai: dict[str, str] = Field(default_factory=dict)
    """Seats an AI plays, with its level: AI seats of the lobby (negative ids) and seats handed over."""
    votes: dict[str, list[int]] = Field(default_factory=dict)
    """The players who voted a waiting seat out, per seat; cleared when the seat stops waiting."""
    departed: dict[str, Departure] = Field(default_factory=dict)
    """Seats whose player left the game, and how: never counted a winner, whoever finished the seat."""
    hints: bool = True
    """Whether players may ask the AI for a hint; chosen in the lobby."""
    rated: bool = True
    """Whether the game counts toward ratings (it still does not when an AI or a hint took part)."""
    replay_hands: bool = False
    """Whether the replay of the finished game may show every hand."""
    hinted: tuple[str, ...] = ()
    """Seats that asked for a hint this game: the table marks them and the game goes unrated."""
    takeback: TakebackRequest | None = None
    """The table's open take-back request, if any (one at a time)."""

    @classmethod
    def from_stored(cls, raw: dict[str, Any]) -> TableSettings:
        clock = {k: v for k, v in raw.items() if k in CLOCK_FIELDS}
        return cls(clock=TableClock.model_validate(clock) if clock else None, ai=dict(raw.get("ai") or {}),
                   votes={k: list(v) for k, v in (raw.get("votes") or {}).items()},
                   departed=dict(raw.get("departed") or {}),
                   **{k: bool(raw[k]) for k in SWITCHES if k in raw},
                   hinted=tuple(raw.get("hinted") or ()),
                   takeback=TakebackRequest.model_validate(raw["takeback"]) if raw.get("takeback") else None)

    def stored(self) -> dict[str, Any]:
        """The stored shape; fields a clock was read without stay absent, so a round trip changes nothing."""
        out: dict[str, Any] = self.clock.model_dump(exclude_unset=True) if self.clock is not None else {}
        if self.ai:
            out["ai"] = dict(self.ai)
        if self.votes:
            out["votes"] = {k: list(v) for k, v in self.votes.items()}
        if self.departed:
            out["departed"] = dict(self.departed)
        for name in SWITCHES:  # written only when changed from the default, so old rows stay as they were
            if getattr(self, name) != type(self).model_fields[name].default:
                out[name] = getattr(self, name)
        if self.hinted:
            out["hinted"] = list(self.hinted)
        if self.takeback is not None:
            out["takeback"] = self.takeback.model_dump(mode="json")
        return out

"""Typed events returned by ``apply``: the material for game logs and messages."""

from __future__ import annotations

from pydantic import BaseModel


class Event(BaseModel):
    """Base of every game's events.

    ``audience`` is ``None`` for what the whole table may see; a seat id when only that player may (the
    card they drew face down). Engines emit a public event and a private twin rather than one event that
    the caller would have to redact.
    """

    type: str
    audience: str | None = None


def visible_to(events: list[Event], seat: str | None) -> list[Event]:
    """Events a viewer may read: every public one plus, for a seat, its own private ones."""
    return [e for e in events if e.audience is None or (seat is not None and e.audience == seat)]

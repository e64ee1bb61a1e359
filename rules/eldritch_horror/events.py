"""The one event shape of this game: a type plus public parameters (everything in EH is public)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from rules.core import Event


class EhEvent(Event):
    data: dict[str, Any] = Field(default_factory=dict)

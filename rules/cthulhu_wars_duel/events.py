"""The one event shape of this game: a type, an audience and its public parameters."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from rules.core import Event


class CwdEvent(Event):
    data: dict[str, Any] = Field(default_factory=dict)

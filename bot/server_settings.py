"""Per-server settings (``/settings``): what a server's games default to, stored in the database."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from bot.storage import Store

REMINDER_CHOICES: tuple[float, ...] = (0, 1, 4, 12, 24, 48)
"""Hours after which a waiting player is reminded, as ``/settings`` offers them (0: no reminder)."""
DeadlineAction = Literal["ai", "forfeit"]
CLOCK_CHOICES: tuple[tuple[float, float, DeadlineAction], ...] = (
    (0, 0, "ai"), (1, 0, "ai"), (4, 0, "ai"), (12, 0, "ai"), (24, 0, "ai"), (48, 0, "ai"),
    (1, 4, "ai"), (1, 4, "forfeit"), (12, 48, "ai"), (12, 48, "forfeit"), (24, 72, "ai"), (24, 72, "forfeit"),
)
"""The lobby's turn clocks: (reminder after, deadline after, what the deadline does) in hours, 0 meaning
never. A deadline always comes with a reminder before it; it hands the seat to an AI player or forfeits
it (what forfeiting means is each game's rule)."""


class ServerSettings(BaseModel):
    model_config = ConfigDict(extra="ignore")

    locale: Literal["auto", "en", "ru"] = "auto"
    """Language of channel texts; ``auto`` follows the server's Discord locale."""
    thread: bool = False
    """Whether ``/game new`` opens a thread for the game unless told otherwise."""
    remind_hours: float = Field(default=12, ge=0, le=168)
    """Default turn clock: remind a waiting player after this many hours (0: never). Slow, asynchronous
    play is the norm on Discord, hence half a day."""
    deadline_hours: float = Field(default=0, ge=0, le=720)
    """Default turn clock: after this many hours without a move the deadline strikes (0: never)."""
    deadline_action: DeadlineAction = "ai"
    """What the default deadline does: an AI player takes the seat, or the seat is forfeited."""
    idle_days: int = Field(default=30, ge=1, le=365)
    """A game with no move for this many days is ended as abandoned (its log stays)."""
    abandon: Literal["host", "manage"] = "host"
    """Who may end a game: its host or anyone with Manage Server (``host``), or only the latter."""
    takeback_host: bool = False
    """Whether a game's host may accept a player's take-back alone, for the whole table (off: every other
    player must)."""
    takeback_minutes: int = Field(default=10, ge=1, le=1440)
    """A take-back request nobody settled lapses after this many minutes: long enough for the others to
    notice the post, short enough that the game does not stall on it."""
    away_days: int = Field(default=14, ge=0, le=90)
    """The longest time away (``/game away``) a member may take here; 0: none. Two weeks covers a holiday
    without letting a table wait on someone for a season."""

    @model_validator(mode="after")
    def _reminded_before_the_deadline(self) -> ServerSettings:
        """A deadline comes with a reminder before it, as in every clock the lobby offers: nobody loses a
        seat without having been told they are awaited."""
        if self.deadline_hours > 0 and not 0 < self.remind_hours < self.deadline_hours:
            raise PydanticCustomError("deadline_reminder", "a deadline needs an earlier reminder")
        return self

    @property
    def clock(self) -> TableClock:
        """The turn clock a table gets unless its lobby chooses another."""
        return TableClock(remind_hours=self.remind_hours, deadline_hours=self.deadline_hours,
                          deadline_action=self.deadline_action)


class TableClock(BaseModel):
    """One game's turn clock, set in its lobby (the server's default to start with)."""

    model_config = ConfigDict(extra="ignore")

    remind_hours: float = Field(default=12, ge=0, le=168)
    deadline_hours: float = Field(default=0, ge=0, le=720)
    """After this long without a move the deadline's consequence strikes (0: never)."""
    deadline_action: DeadlineAction = "ai"
    """At the deadline an AI player takes the seat, or the seat is forfeited (the game's leaving rule)."""

    @property
    def key(self) -> str:
        base = f"{self.remind_hours:g}:{self.deadline_hours:g}"
        return f"{base}:forfeit" if self.deadline_hours > 0 and self.deadline_action == "forfeit" else base


class ServerSettingsCache:
    """Reads go through a small cache: every ``/game new`` and every move's clock consult the settings."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._cache: dict[int, ServerSettings] = {}

    async def get(self, guild_id: int | None) -> ServerSettings:
        if guild_id is None:
            return ServerSettings()
        known = self._cache.get(guild_id)
        if known is None:
            known = self._cache[guild_id] = ServerSettings.model_validate(await self.store.guild_settings(guild_id))
        return known

    async def update(self, guild_id: int, changes: dict[str, Any]) -> ServerSettings:
        """Validate and store; raises pydantic's ``ValidationError`` for a value out of range."""
        current = await self.get(guild_id)
        new = ServerSettings.model_validate({**current.model_dump(), **changes})
        await self.store.set_guild_settings(guild_id, new.model_dump())
        self._cache[guild_id] = new
        return new

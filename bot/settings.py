"""Bot configuration from the environment and an optional ``.env`` file (environment wins).

Everything is validated when ``Settings()`` is built, so a typo in ``LOG_LEVEL`` or ``DATABASE_URL``
stops the bot at startup with pydantic's message naming the variable, instead of surfacing later.
Empty values (``DEV_GUILD_ID=`` in a copied ``.env.example``) count as unset.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, PositiveInt, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.storage import database_backend, sqlite_file_path

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
Locale = Literal["en", "ru"]


class Settings(BaseSettings):
    """The bot's settings; field names match the environment variables case-insensitively."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        env_ignore_empty=True,
        extra="ignore",  # a shared .env may carry other tools' variables
    )

    discord_token: SecretStr | None = None
    """Optional so tests and offline tools can load settings; the bot's entry point insists on it."""
    database_url: str = "sqlite:///./data/bot.sqlite3"
    dev_guild_id: PositiveInt | None = None
    """When set, slash commands sync to this guild only, which is instant (global sync can take an hour)."""
    log_level: LogLevel = "INFO"
    default_locale: Locale = "en"
    table_edit_interval: float = Field(default=1.0, ge=0.0, le=10.0)
    """Seconds between two edits of one table message. Discord limits edits per channel, and moves made
    meanwhile are shown together in the next edit; tests set 0."""
    rate_limit_per_second: float = Field(default=2.0, ge=0.0, le=100.0)
    """Commands and clicks one user may make per second once their burst is spent; 0 turns the limit off."""
    rate_limit_burst: int = Field(default=10, ge=1, le=1000)
    """Commands and clicks one user may make at once (a player clicking through a few quick choices)."""

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_log_level(cls, value: object) -> object:
        """Accept ``debug`` as well as ``DEBUG``: the logging module's names are upper-case only."""
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("default_locale", mode="before")
    @classmethod
    def _lower_locale(cls, value: object) -> object:
        """Locale codes are lower-case everywhere else; tolerate ``RU`` from a hand-edited ``.env``."""
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("database_url")
    @classmethod
    def _known_database(cls, value: str) -> str:
        """Reject unknown schemes and malformed SQLite URLs now rather than when the store opens."""
        if database_backend(value) == "sqlite":
            sqlite_file_path(value)
        return value.strip()

    def sqlite_path(self) -> Path:
        """The absolute SQLite file, with its parent directory created so the first connect succeeds.

        Raises ``ValueError`` when ``DATABASE_URL`` selects another backend.
        """
        path = sqlite_file_path(self.database_url)
        path.parent.mkdir(parents=True, exist_ok=True)
        return path

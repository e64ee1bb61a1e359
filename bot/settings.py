"""Bot configuration from the environment and optional ``.env`` files (environment wins).

Everything is validated when ``Settings()`` is built, so a typo in ``LOG_LEVEL`` or ``DATABASE_URL``
stops the bot at startup with pydantic's message naming the variable, instead of surfacing later.
Empty values (``DEV_GUILD_ID=`` in a copied ``.env.example``) count as unset.

Where things are read from, so a service manager need not set the working directory:
- the bot's home is ``$BOT_HOME`` when set, else the working directory;
- ``.env`` is read from the project folder (the checkout holding ``bot/``) and then from the home, the
  home's file winning; real environment variables win over both;
- a relative SQLite path (the default ``./data/bot.sqlite3`` included) is relative to the home.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, PositiveInt, SecretStr, field_validator, model_validator
from pydantic_settings import (
    BaseSettings,
    DotEnvSettingsSource,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from bot.storage import database_backend, sqlite_file_path

PROJECT_DIR = Path(__file__).resolve().parents[1]
"""The folder holding the ``bot`` package: the checkout, for a clone installed with ``pip install -e .``."""


def bot_home() -> Path:
    """``$BOT_HOME`` (made absolute) when set and not empty, else the working directory."""
    home = os.environ.get("BOT_HOME", "").strip()
    return Path(home).expanduser().resolve() if home else Path.cwd()


def env_files() -> tuple[Path, ...]:
    """The ``.env`` files read, lowest priority first: the project folder's, then the home's."""
    project, home = PROJECT_DIR / ".env", bot_home() / ".env"
    return (project,) if project == home else (project, home)


def parse_shard_ids(value: str) -> list[int]:
    """``"0,1"``, ``"0-3"`` or ``"0-1, 4"`` → the shard ids, in order, each once."""
    ids: list[int] = []
    for part in (p.strip() for p in value.split(",")):
        if not part:
            continue
        match = re.fullmatch(r"(\d+)\s*-\s*(\d+)|(\d+)", part)
        if match is None:
            raise ValueError(f"{part!r} is not a shard id or a range like 0-3")
        if match.group(3) is not None:
            ids.append(int(match.group(3)))
        else:
            first, last = int(match.group(1)), int(match.group(2))
            if last < first:
                raise ValueError(f"shard range {part!r} runs backwards")
            ids.extend(range(first, last + 1))
    if len(set(ids)) != len(ids):
        raise ValueError("a shard id is listed twice")
    return ids

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
Locale = Literal["en", "ru"]


class Settings(BaseSettings):
    """The bot's settings; field names match the environment variables case-insensitively."""

    model_config = SettingsConfigDict(
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
    picture_processes: int = Field(default=1, ge=0, le=16)
    """Processes that draw table pictures after moves (0: a thread, as the tests use)."""
    ai_processes: int = Field(default=1, ge=0, le=16)
    """Worker processes for AI seats' searches (0: a thread, as the tests use); one leaves the other core
    of a small machine to the bot."""
    ai_move_delay: float = Field(default=1.5, ge=0.0, le=30.0)
    """Seconds an AI waits before its move is applied, so that people can follow it on the table."""
    rate_limit_per_second: float = Field(default=2.0, ge=0.0, le=100.0)
    """Commands and clicks one user may make per second once their burst is spent; 0 turns the limit off."""
    rate_limit_burst: int = Field(default=10, ge=1, le=1000)
    """Commands and clicks one user may make at once (a player clicking through a few quick choices)."""
    hints_per_minute: float = Field(default=4.0, ge=0.0, le=600.0)
    """💡 hints one user may ask for per minute once their burst is spent; 0 turns this limit off. A hint is
    a whole AI search in the AI seats' worker, so it is limited far below ordinary clicks."""
    hint_burst: int = Field(default=3, ge=1, le=100)
    """💡 hints one user may ask for at once."""
    shutdown_grace: float = Field(default=8.0, ge=0.0, le=300.0)
    """Seconds a stopping bot (SIGTERM, SIGINT) waits for interactions in flight before it closes the
    database; Docker kills a container 10 s after SIGTERM unless told otherwise."""
    metrics_port: int | None = Field(default=None, ge=0, le=65535)
    """Port of the health (``/healthz``) and Prometheus (``/metrics``) endpoints; unset: none is served.
    0 picks a free port (tests)."""
    metrics_host: str = "127.0.0.1"
    """Address the endpoints listen on: this machine only by default; ``0.0.0.0`` for a scraper in
    another container."""
    shard_count: PositiveInt | None = None
    """Total shards across every process (discord.py's sharded client). Unset: one process, one shard."""
    shard_ids: Annotated[list[int] | None, NoDecode] = None
    """The shards this process runs (``SHARD_IDS=0,1`` or ``0-3``); requires ``SHARD_COUNT``. Unset with a
    count: this process runs them all. Processes with disjoint ranges share one PostgreSQL database."""

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Read the ``.env`` files of ``env_files()`` as they are when the settings are built (``BOT_HOME``
        may be set by then), instead of one ``.env`` fixed when the class was defined."""
        dotenv = DotEnvSettingsSource(settings_cls, env_file=env_files(), env_file_encoding="utf-8")
        return init_settings, env_settings, dotenv, file_secret_settings

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _parse_shard_ids(cls, value: object) -> object:
        """A comma list with ranges from the environment; a list as it is from code."""
        return parse_shard_ids(value) if isinstance(value, str) else value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        """Shard ids need a count and must lie below it: a typo would leave guilds with no process."""
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError("shard_ids needs shard_count (the total number of shards)")
            if not self.shard_ids:
                raise ValueError("shard_ids is empty")
            outside = [i for i in self.shard_ids if i >= self.shard_count]
            if outside:
                raise ValueError(f"shard_ids {outside} are not below shard_count {self.shard_count}")
        return self

    def owns_shard_zero(self) -> bool:
        """Whether this process runs shard 0, the one Discord sends DMs to; it alone syncs commands."""
        return self.shard_ids is None or 0 in self.shard_ids

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
        """The absolute SQLite file (a relative one is under the home), with its parent directory created
        so the first connect succeeds. Raises ``ValueError`` when ``DATABASE_URL`` selects another backend.
        """
        path = sqlite_file_path(self.database_url, base=bot_home())
        path.parent.mkdir(parents=True, exist_ok=True)
        return path

    def store_url(self) -> str:
        """``DATABASE_URL`` as the store should open it: a SQLite path made absolute against the home."""
        if database_backend(self.database_url) == "sqlite":
            return f"sqlite:///{self.sqlite_path()}"
        return self.database_url

"""Storage for game sessions: pick a backend from ``DATABASE_URL`` and talk to it through ``Store``.

URL forms understood here (and validated by ``bot.settings``):
- ``sqlite:///relative/path.sqlite3`` and ``sqlite:////absolute/path.sqlite3`` (the SQLAlchemy spelling);
- a bare file path, relative or absolute;
- ``postgresql://…`` / ``postgres://…``: the asyncpg backend (``PostgresStore``), for several shard
  processes sharing one database. Any URL asyncpg accepts works, e.g.
  ``postgresql://bot:secret@db:5432/bot`` or ``postgresql://bot@/bot?host=/run/postgresql`` (a Unix socket).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from bot.storage.base import Store, StoreCounts
from bot.storage.locks import SessionLocks
from bot.storage.models import (
    ACTIVE_STATUSES,
    DATA_TABLES,
    STATE_FORMAT,
    Away,
    ChannelBusy,
    DataDamaged,
    Delivery,
    Extras,
    InvalidTransition,
    LogEntry,
    NewerStateFormat,
    RatingRow,
    SessionNotFound,
    SessionRecord,
    SessionStatus,
    Settled,
    Step,
    StorageError,
    Timer,
    UnreadableSession,
    VersionConflict,
)
from bot.storage.sqlite import SqliteStore, check_file

__all__ = [
    "ACTIVE_STATUSES",
    "DATA_TABLES",
    "STATE_FORMAT",
    "Away",
    "Backend",
    "ChannelBusy",
    "DataDamaged",
    "Delivery",
    "Extras",
    "InvalidTransition",
    "LogEntry",
    "NewerStateFormat",
    "RatingRow",
    "SessionLocks",
    "SessionNotFound",
    "SessionRecord",
    "SessionStatus",
    "Settled",
    "SqliteStore",
    "Step",
    "StorageError",
    "Store",
    "StoreCounts",
    "Timer",
    "UnreadableSession",
    "VersionConflict",
    "check_file",
    "database_backend",
    "open_store",
    "sqlite_file_path",
]

Backend = Literal["sqlite", "postgresql"]

_SQLITE_PREFIX = "sqlite:///"
_POSTGRES_SCHEMES = ("postgresql", "postgres")


def database_backend(database_url: str) -> Backend:
    """Which backend a URL selects; ``ValueError`` for anything else, so typos fail at startup."""
    url = database_url.strip()
    if not url:
        raise ValueError("DATABASE_URL is empty")
    scheme, sep, _ = url.partition("://")
    if not sep:
        return "sqlite"  # a bare path
    if scheme.lower() == "sqlite":
        return "sqlite"
    if scheme.lower() in _POSTGRES_SCHEMES:
        return "postgresql"
    raise ValueError(f"unsupported DATABASE_URL scheme {scheme!r}; use sqlite:///path, a file path or postgresql://")


def sqlite_file_path(database_url: str, base: Path | None = None) -> Path:
    """The absolute database file a SQLite URL or bare path names (a relative one is relative to ``base``,
    by default the working directory).

    Raises ``ValueError`` for a non-SQLite URL, an empty path, query parameters, or ``:memory:``
    (sessions must survive a restart, so an in-memory database is always a mistake here).
    """
    url = database_url.strip()
    if database_backend(url) != "sqlite":
        raise ValueError(f"DATABASE_URL {url!r} is not a SQLite URL")
    if "://" in url:
        if not url.lower().startswith(_SQLITE_PREFIX):
            raise ValueError(f"malformed SQLite URL {url!r}; use sqlite:///relative/path or sqlite:////absolute/path")
        raw = url[len(_SQLITE_PREFIX) :]
    else:
        raw = url
    if not raw:
        raise ValueError(f"SQLite URL {url!r} names no file")
    if "?" in raw:
        raise ValueError(f"SQLite URL {url!r}: query parameters are not supported")
    if raw == ":memory:":
        raise ValueError("an in-memory SQLite database would lose every game on restart; name a file")
    path = Path(raw).expanduser()
    return (path if base is None else base / path).resolve()


async def open_store(database_url: str) -> Store:
    """An opened store for ``database_url`` (schema migrated); the caller closes it."""
    try:
        backend = database_backend(database_url)
    except ValueError as exc:
        raise StorageError(str(exc)) from exc
    if backend == "postgresql":
        from bot.storage.postgres import (
            PostgresStore,  # asyncpg is loaded only by those who use it
        )

        pg = PostgresStore(database_url.strip())
        await pg.open()
        return pg
    try:
        path = sqlite_file_path(database_url)
    except ValueError as exc:
        raise StorageError(str(exc)) from exc
    store = SqliteStore(path)
    await store.open()
    return store

"""The default backend: one SQLite file through aiosqlite, nothing to install.

Concurrency model:
- One aiosqlite connection per store. SQLite transactions belong to the connection, so two coroutines
  sharing it must not interleave; every use of the connection, reads included (a read in the middle of
  someone's write transaction would see uncommitted rows), holds ``self._lock``.
- Writes run in ``BEGIN IMMEDIATE`` transactions, which take SQLite's write lock up front. Another process
  on the same file therefore waits (``busy_timeout``) instead of failing half-way, and the
  ``UPDATE … WHERE version = ?`` compare-and-swap stays correct across processes.
- WAL lets readers in other processes proceed while one writer commits; ``synchronous=NORMAL`` is the
  usual WAL pairing (durable against crashes of the process, fast enough for every click).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

import aiosqlite

from bot.storage.base import Store
from bot.storage.migrations import apply_migrations
from bot.storage.models import (
    ACTIVE_STATUSES,
    ChannelBusy,
    InvalidTransition,
    LogEntry,
    SessionNotFound,
    SessionRecord,
    SessionStatus,
    StorageError,
    VersionConflict,
)

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS: Final = 5000

_COLUMNS: Final = (
    "id, guild_id, channel_id, game_id, status, host_id, seats_json, options_json, seed, locale,"
    " state_json, version, table_message_id, created_at, updated_at, names_json"
)
_ACTIVE_SQL: Final = "(" + ", ".join(f"'{s}'" for s in ACTIVE_STATUSES) + ")"
_TERMINAL: Final[frozenset[SessionStatus]] = frozenset({"finished", "abandoned"})


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _record(row: sqlite3.Row) -> SessionRecord:
    return SessionRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game_id=row["game_id"],
        status=row["status"],
        host_id=row["host_id"],
        seats=json.loads(row["seats_json"]),
        options=json.loads(row["options_json"]),
        seed=int(row["seed"]),
        locale=row["locale"],
        state_json=row["state_json"],
        version=row["version"],
        table_message_id=row["table_message_id"],
        created_at=datetime.fromisoformat(row["created_at"]),
        updated_at=datetime.fromisoformat(row["updated_at"]),
        names=json.loads(row["names_json"]),
    )


class SqliteStore(Store):
    """``Store`` over one SQLite file; the parent directory is created on ``open``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    async def open(self) -> None:
        async with self._lock:
            if self._conn is not None:
                return
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                conn = await aiosqlite.connect(self.path, isolation_level=None)
            except (OSError, sqlite3.Error) as exc:
                raise StorageError(f"cannot open SQLite database {self.path}: {exc}") from exc
            try:
                conn.row_factory = sqlite3.Row
                await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
                rows = await conn.execute_fetchall("PRAGMA journal_mode = WAL")
                mode = next(iter(rows))[0]
                if mode != "wal":
                    log.warning(
                        "SQLite refused WAL for %s (journal_mode=%s); reads will wait on writes", self.path, mode
                    )
                await conn.execute("PRAGMA synchronous = NORMAL")
                await conn.execute("PRAGMA foreign_keys = ON")
                version = await apply_migrations(conn)
            except BaseException as exc:
                await conn.close()
                if isinstance(exc, sqlite3.Error):
                    raise StorageError(f"cannot prepare SQLite database {self.path}: {exc}") from exc
                raise
            self._conn = conn
            log.info("SQLite store %s open at schema version %d", self.path, version)

    async def close(self) -> None:
        async with self._lock:
            if self._conn is None:
                return
            conn, self._conn = self._conn, None
            await conn.close()

    @asynccontextmanager
    async def _exclusive(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection, exclusively, outside any explicit transaction (reads, and single-statement writes
        that are atomic on their own); driver errors become ``StorageError``."""
        async with self._lock:
            conn = self._connection()
            try:
                yield conn
            except sqlite3.Error as exc:
                raise StorageError(f"SQLite error on {self.path}: {exc}") from exc

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection inside ``BEGIN IMMEDIATE``: committed if the block succeeds, rolled back if it
        raises anything (including cancellation), so a failed CAS or a crash mid-step leaves no trace.

        The ROLLBACK is sent unconditionally rather than after checking ``in_transaction``: a cancelled
        ``BEGIN`` may still be queued in aiosqlite's thread, and the FIFO queue runs the ROLLBACK after it.
        "No transaction is active" is then the harmless answer when there was nothing to undo.
        """
        async with self._lock:
            conn = self._connection()
            try:
                await conn.execute("BEGIN IMMEDIATE")
                yield conn
                await conn.execute("COMMIT")
            except BaseException as exc:
                with contextlib.suppress(sqlite3.OperationalError):
                    await conn.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    raise StorageError(f"SQLite error on {self.path}: {exc}") from exc
                raise

    def _connection(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise StorageError(f"SQLite store {self.path} is not open")
        return self._conn

    @staticmethod
    async def _fetch(conn: aiosqlite.Connection, session_id: int) -> SessionRecord | None:
        rows = list(await conn.execute_fetchall(f"SELECT {_COLUMNS} FROM sessions WHERE id = ?", (session_id,)))
        return _record(rows[0]) if rows else None

    async def _swap(
        self,
        conn: aiosqlite.Connection,
        session_id: int,
        expected_version: int,
        allowed_from: Iterable[SessionStatus],
        requested: str,
        assignments: str,
        params: tuple[Any, ...],
        action: tuple[str, str] | None = None,
    ) -> SessionRecord:
        """Compare-and-swap: apply ``SET assignments`` and bump the version only if the row is at
        ``expected_version`` in one of ``allowed_from``. On a miss, say precisely why.

        ``action`` (seat, action JSON) makes the ``sessions_log_action`` trigger append the log entry
        within this same statement; without it nothing is logged."""
        allowed = tuple(allowed_from)
        placeholders = ", ".join("?" for _ in allowed)
        seat, action_json = action if action is not None else (None, None)
        rows = list(
            await conn.execute_fetchall(
                f"UPDATE sessions SET {assignments}, version = version + 1, updated_at = ?,"
                f" last_seat = ?, last_action_json = ?"
                f" WHERE id = ? AND version = ? AND status IN ({placeholders})"
                f" RETURNING {_COLUMNS}",
                (*params, _now(), seat, action_json, session_id, expected_version, *allowed),
            )
        )
        if rows:
            return _record(rows[0])
        current = await self._fetch(conn, session_id)
        if current is None:
            raise SessionNotFound(session_id)
        if current.version != expected_version:
            raise VersionConflict(session_id, expected_version, current.version)
        raise InvalidTransition(session_id, current.status, requested)

    async def create_session(
        self,
        guild_id: int | None,
        channel_id: int,
        game_id: str,
        host_id: int,
        options: dict[str, Any],
        seed: int,
        locale: str,
        names: dict[str, str] | None = None,
    ) -> SessionRecord:
        now = _now()
        async with self._writing() as conn:
            try:
                rows = list(
                    await conn.execute_fetchall(
                        "INSERT INTO sessions (guild_id, channel_id, game_id, status, host_id, seats_json,"
                        " options_json, seed, locale, state_json, version, table_message_id, created_at, updated_at,"
                        " names_json)"
                        " VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, NULL, 0, NULL, ?, ?, ?)"
                        f" RETURNING {_COLUMNS}",
                        (
                            guild_id,
                            channel_id,
                            game_id,
                            host_id,
                            _dump([host_id]),
                            _dump(options),
                            str(seed),
                            locale,
                            now,
                            now,
                            _dump(names or {}),
                        ),
                    )
                )
            except sqlite3.IntegrityError as exc:
                existing = await self._active(conn, channel_id)
                if existing is None:
                    raise
                raise ChannelBusy(existing) from exc
            return _record(rows[0])

    async def get(self, session_id: int) -> SessionRecord:
        async with self._exclusive() as conn:
            record = await self._fetch(conn, session_id)
        if record is None:
            raise SessionNotFound(session_id)
        return record

    @staticmethod
    async def _active(conn: aiosqlite.Connection, channel_id: int) -> SessionRecord | None:
        rows = list(
            await conn.execute_fetchall(
                f"SELECT {_COLUMNS} FROM sessions WHERE channel_id = ? AND status IN {_ACTIVE_SQL}", (channel_id,)
            )
        )
        return _record(rows[0]) if rows else None

    async def active_in_channel(self, channel_id: int) -> SessionRecord | None:
        async with self._exclusive() as conn:
            return await self._active(conn, channel_id)

    async def update_lobby(
        self,
        session_id: int,
        expected_version: int,
        *,
        seats: list[int] | None = None,
        options: dict[str, Any] | None = None,
        host_id: int | None = None,
        names: dict[str, str] | None = None,
    ) -> SessionRecord:
        async with self._writing() as conn:
            return await self._swap(
                conn,
                session_id,
                expected_version,
                ("lobby",),
                "update the lobby",
                "seats_json = COALESCE(?, seats_json), options_json = COALESCE(?, options_json),"
                " host_id = COALESCE(?, host_id), names_json = COALESCE(?, names_json)",
                (
                    None if seats is None else _dump(seats),
                    None if options is None else _dump(options),
                    host_id,
                    None if names is None else _dump(names),
                ),
            )

    async def start(self, session_id: int, expected_version: int, state_json: str, seats: list[int]) -> SessionRecord:
        async with self._writing() as conn:
            return await self._swap(
                conn,
                session_id,
                expected_version,
                ("lobby",),
                "start",
                "status = 'running', state_json = ?, seats_json = ?",
                (state_json, _dump(seats)),
            )

    async def commit_action(
        self,
        session_id: int,
        expected_version: int,
        *,
        seat: str,
        action_json: str,
        state_json: str,
        status: SessionStatus = "running",
        seats: list[int] | None = None,
        names: dict[str, str] | None = None,
    ) -> SessionRecord:
        if status == "lobby":
            raise ValueError("an action cannot return a session to the lobby")
        # One statement in autocommit mode is its own transaction: the state, the version and (through
        # the trigger) the log entry are stored together or not at all.
        async with self._exclusive() as conn:
            return await self._swap(
                conn,
                session_id,
                expected_version,
                ("running",),
                "apply an action",
                "state_json = ?, status = ?, seats_json = COALESCE(?, seats_json),"
                " names_json = COALESCE(?, names_json)",
                (
                    state_json,
                    status,
                    None if seats is None else _dump(seats),
                    None if names is None else _dump(names),
                ),
                action=(seat, action_json),
            )

    async def set_status(self, session_id: int, expected_version: int, status: SessionStatus) -> SessionRecord:
        if status not in _TERMINAL:
            raise ValueError(f"set_status only ends sessions ({sorted(_TERMINAL)}); use start() to run one")
        async with self._writing() as conn:
            return await self._swap(
                conn, session_id, expected_version, ACTIVE_STATUSES, f"become {status}", "status = ?", (status,)
            )

    async def set_table_message(self, session_id: int, message_id: int | None) -> SessionRecord:
        async with self._writing() as conn:
            rows = list(
                await conn.execute_fetchall(
                    f"UPDATE sessions SET table_message_id = ?, updated_at = ? WHERE id = ? RETURNING {_COLUMNS}",
                    (message_id, _now(), session_id),
                )
            )
            if not rows:
                raise SessionNotFound(session_id)
            return _record(rows[0])

    async def actions(self, session_id: int) -> list[LogEntry]:
        async with self._exclusive() as conn:
            if await self._fetch(conn, session_id) is None:
                raise SessionNotFound(session_id)
            rows = await conn.execute_fetchall(
                "SELECT session_id, seq, seat, action_json, created_at FROM action_log"
                " WHERE session_id = ? ORDER BY seq",
                (session_id,),
            )
        return [
            LogEntry(
                session_id=row["session_id"],
                seq=row["seq"],
                seat=row["seat"],
                action_json=row["action_json"],
                created_at=datetime.fromisoformat(row["created_at"]),
            )
            for row in rows
        ]

    async def sessions_with_status(self, *statuses: SessionStatus) -> list[SessionRecord]:
        if not statuses:
            raise ValueError("name at least one status")
        placeholders = ", ".join("?" for _ in statuses)
        async with self._exclusive() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_COLUMNS} FROM sessions WHERE status IN ({placeholders}) ORDER BY id", statuses
            )
        return [_record(row) for row in rows]

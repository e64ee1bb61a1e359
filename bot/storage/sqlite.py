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
- Actions are the hot path and take a shortcut (``commit_action``): they are committed on a second, plain
  ``sqlite3`` connection used from the event loop itself. In WAL mode such a commit is an append to the log
  with no fsync, tens of microseconds, less than the trip to aiosqlite's thread and back (which costs most
  when the process was idle and its threads asleep). That connection never waits: it has no busy timeout,
  so when another process holds the write lock the batch goes to aiosqlite's thread, which waits for it
  there; and it never checkpoints, the thread does that every ``CHECKPOINT_EVERY`` actions, so neither a
  lock nor an fsync stalls the loop. The reads and single-statement writes that follow moves (a session
  row, table and player settings, delivery records, timers) use that connection too (``_select``,
  ``_statement``): a move would otherwise wait for a thread switch there and back for each.
- Writes on that connection are committed in batches (``_at_once``): the first write of a pass of the event
  loop at once (and what the same task writes right after it), the other tasks' writes of that pass
  together, in one transaction early in the next pass.
  A busy moment (many tables clicking, each click followed by delivery records and clock changes) then
  costs a few commits instead of one per write, and each caller is still answered only once its write is
  committed.
- A version check (``version``: is a cached copy still the newest?) reads nothing while no other connection
  has written to the file since this one looked, once a pass of the event loop (``KnownVersions``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

import aiosqlite

from bot.storage.base import Store, StoreCounts
from bot.storage.migrations import (
    LATEST_VERSION,
    apply_migrations,
    backup_before_upgrade,
    stored_version,
)
from bot.storage.models import (
    ACTIVE_STATUSES,
    DATA_TABLES,
    RATING_COLUMNS,
    STATE_FORMAT,
    Away,
    ChannelBusy,
    DataDamaged,
    Delivery,
    Extras,
    InvalidTransition,
    LogEntry,
    RatingRow,
    SessionNotFound,
    SessionRecord,
    SessionStatus,
    Settled,
    Step,
    StorageError,
    Timer,
    VersionConflict,
    epoch_ms,
    from_epoch_ms,
    rating_changes,
    readable_records,
)
from bot.storage.sqlite_versions import KnownVersions

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS: Final = 5000
CHECKPOINT_EVERY: Final = 256  # actions committed on the event loop between two WAL checkpoints in the thread

_COLUMNS: Final = (
    "id, guild_id, channel_id, game_id, status, host_id, seats_json, options_json, seed, locale,"
    " state_json, version, table_message_id, created_at, updated_at, names_json, locales_json, players_json,"
    " state_format"
)
_COMMITTED: Final = _COLUMNS.replace(" state_json,", "")
"""What a move's commit reads back: all but the snapshot it has just written (tens of kilobytes a move)."""
_TIMER_COLUMNS: Final = "session_id, kind, seat, due_at, ready_at, version"
_ACTIVE_SQL: Final = "(" + ", ".join(f"'{s}'" for s in ACTIVE_STATUSES) + ")"
_TERMINAL: Final[frozenset[SessionStatus]] = frozenset({"finished", "abandoned"})


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _record(row: sqlite3.Row, state_json: str | None = None) -> SessionRecord:
    return SessionRecord.from_row(row, json_suffix="_json", timestamp=datetime.fromisoformat, state_json=state_json)


_DAMAGE_CODES: Final = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})


def storage_error(path: Path, exc: sqlite3.Error, session_id: int | None = None) -> StorageError:
    """The ``StorageError`` for a driver error: ``DataDamaged`` when SQLite found the file damaged (its
    primary code, the low byte, is CORRUPT or NOTADB), which no retry can mend."""
    code = getattr(exc, "sqlite_errorcode", None)
    err: StorageError
    if code is not None and code & 0xFF in _DAMAGE_CODES:
        err = DataDamaged(f"the SQLite file {path} is damaged: {exc}", session_id)
    else:
        err = StorageError(f"SQLite error on {path}: {exc}")
    err.__cause__ = exc
    return err


def check_file(path: Path) -> str | None:
    """What is wrong with an existing database file, or None when it is sound (or does not exist yet: the
    first start creates it). Run before the bot connects anywhere: an empty file where a database was
    expected means the games were lost (a failed copy, a full disk), and SQLite would quietly start a new
    database in it; damage found now is for a person to repair from a backup, not for every move to hit."""
    if not path.exists():
        return None
    if path.is_dir():
        return f"{path} is a directory, not a database file"
    if path.stat().st_size == 0:
        return (f"{path} exists but is empty (0 bytes): its games are gone. Restore it from a backup, or delete "
                "it to start with no games")
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = conn.execute("PRAGMA quick_check").fetchall()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        if isinstance(storage_error(path, exc), DataDamaged):
            return f"{path} is damaged (SQLite: {exc}); restore it from a backup"
        return f"{path} cannot be read as a SQLite database ({exc}); restore it from a backup"
    findings = [" ".join(str(r[0]).split()) for r in rows]
    if findings != ["ok"]:
        shown = "; ".join(findings[:3]) + (f" (and {len(findings) - 3} more)" if len(findings) > 3 else "")
        shown = shown if len(shown) <= 300 else shown[:299] + "…"
        return f"{path} is damaged (SQLite quick_check: {shown}); restore it from a backup"
    return None


# One action: the new state, the version bump and (through the ``sessions_log_action`` trigger) the log
# entry, in one statement that only matches the row at the expected version of a running session.
_ACTION_SQL: Final = (
    "UPDATE sessions SET state_json = ?, status = ?, seats_json = COALESCE(?, seats_json),"
    " names_json = COALESCE(?, names_json), locales_json = COALESCE(?, locales_json), version = version + 1,"
    f" state_format = {STATE_FORMAT}, updated_at = ?, last_seat = ?, last_auto = ?,"
    " last_action_json = ? WHERE id = ? AND version = ? AND status = 'running'"
    f" RETURNING {_COMMITTED}"
)


# Several actions at once (``commit_steps``): the version goes up by their number with the trigger kept
# quiet (no last action), and their log rows are written after it, in the same transaction.
_STEPS_SQL: Final = (
    "UPDATE sessions SET state_json = ?, status = ?, version = version + ?, updated_at = ?,"
    f" state_format = {STATE_FORMAT}, last_action_json = NULL WHERE id = ? AND version = ? AND status = 'running'"
    f" RETURNING {_COMMITTED}"
)
_LOG_SQL: Final = (
    "INSERT INTO action_log (session_id, seq, seat, action_json, created_at, auto) VALUES (?, ?, ?, ?, ?, ?)"
)


@dataclass
class _PendingAction:
    """An action (or, with ``log``, several: ``_STEPS_SQL`` then these log rows) waiting for the next batch
    commit, and the future its caller awaits."""

    session_id: int
    expected_version: int
    params: tuple[Any, ...]
    future: asyncio.Future[SessionRecord]
    state_json: str
    """The snapshot the statement writes, which the record read back carries (``_COMMITTED`` leaves it out)."""
    log: list[tuple[Any, ...]] | None = None


@dataclass
class _PendingStatement:
    """A write that is one statement, atomic alone (a delivery record, a timer, a setting), waiting for the
    next batch commit, and the future its caller awaits: the statement's rows, or the driver's error."""

    sql: str
    params: tuple[Any, ...]
    future: asyncio.Future[list[Any]]


_Pending = _PendingAction | _PendingStatement

# What one write of a batch came to: a statement's rows (a list); an action's new row, (version, status) of a
# row it did not match, or None when the session does not exist; or the driver error that refused it.
_Result = list[Any] | sqlite3.Row | tuple[int, str] | None | sqlite3.Error


def _apply(db: sqlite3.Connection, pending: _Pending) -> _Result:
    """One pending write's statements; several steps (``log``) need the caller's transaction."""
    if isinstance(pending, _PendingStatement):
        return db.execute(pending.sql, pending.params).fetchall()  # fetchall: the statement must finish
    sql = _ACTION_SQL if pending.log is None else _STEPS_SQL
    rows = db.execute(sql, pending.params).fetchall()
    if rows:
        if pending.log is not None:
            db.executemany(_LOG_SQL, pending.log)
        return rows[0]
    current = db.execute("SELECT version, status FROM sessions WHERE id = ?", (pending.session_id,)).fetchone()
    return None if current is None else (current[0], current[1])


def _one_statement(pending: _Pending) -> bool:
    return isinstance(pending, _PendingStatement) or pending.log is None


def _rollback(db: sqlite3.Connection) -> None:
    with contextlib.suppress(sqlite3.Error):
        db.execute("ROLLBACK")


def _commit_batch(db: sqlite3.Connection, batch: list[_Pending]) -> list[_Result]:
    """Every queued write in one transaction, so a burst of clicks on many tables (their actions, delivery
    records and timers) costs one commit.

    Each action is still its own compare-and-swap; one that misses leaves the others alone. If a statement
    fails (say, the log already holds that seq), the transaction is rolled back and the batch is written
    again with each write behind a savepoint of its own, so only the failing one fails and nothing is
    half-stored. Raises, having stored nothing, when the write lock cannot be had (``SQLITE_BUSY`` while
    another connection holds it) or when the statement of a lone write fails.
    """
    if len(batch) == 1 and _one_statement(batch[0]):
        return [_apply(db, batch[0])]  # one statement in autocommit mode is its own transaction
    db.execute("BEGIN IMMEDIATE")
    try:
        results = [_apply(db, p) for p in batch]
        db.execute("COMMIT")
        return results
    except sqlite3.Error:
        _rollback(db)
    except BaseException:
        _rollback(db)
        raise
    return _commit_one_by_one(db, batch)


def _commit_one_by_one(db: sqlite3.Connection, batch: list[_Pending]) -> list[_Result]:
    """``batch`` in one transaction again, each write behind a savepoint: a failing one is undone alone and
    its error is its result. Raises, having stored nothing, when the transaction itself fails."""
    db.execute("BEGIN IMMEDIATE")
    try:
        results: list[_Result] = []
        for pending in batch:
            db.execute("SAVEPOINT one")
            try:
                results.append(_apply(db, pending))
            except sqlite3.Error as exc:
                if not db.in_transaction:
                    raise  # SQLite gave up the whole transaction (a full disk, say): nothing is stored
                db.execute("ROLLBACK TO one")
                results.append(exc)
            db.execute("RELEASE one")
        db.execute("COMMIT")
        return results
    except BaseException:
        _rollback(db)
        raise


def _settle(batch: list[_Pending], path: Path, results: list[_Result] | None,
            failure: BaseException | None = None) -> None:
    """Hand each caller of a batch its answer or its error (callers that gave up are skipped). A statement's
    caller gets the driver's own error, to name it (``_statement``)."""
    for i, pending in enumerate(batch):
        if pending.future.done():
            continue
        result = None if results is None else results[i]
        error = result if isinstance(result, sqlite3.Error) else failure
        if isinstance(error, sqlite3.Error):
            pending.future.set_exception(
                error if isinstance(pending, _PendingStatement) else storage_error(path, error, pending.session_id))
        elif error is not None:
            err = StorageError(f"SQLite error on {path}: {error}")
            err.__cause__ = error
            pending.future.set_exception(err)
        elif isinstance(pending, _PendingStatement):
            assert isinstance(result, list)
            pending.future.set_result(result)
        else:
            _settle_action(pending, result)


def _settle_action(pending: _PendingAction, result: _Result) -> None:
    if isinstance(result, sqlite3.Row):
        try:
            pending.future.set_result(_record(result, state_json=pending.state_json))
        except Exception as exc:  # noqa: BLE001 - a row that cannot be read is its caller's error, not the batch's
            pending.future.set_exception(exc)
    elif not isinstance(result, tuple):
        pending.future.set_exception(SessionNotFound(pending.session_id))
    elif result[0] != pending.expected_version:
        pending.future.set_exception(VersionConflict(pending.session_id, pending.expected_version, result[0]))
    else:
        pending.future.set_exception(InvalidTransition(pending.session_id, result[1], "apply an action"))  # type: ignore[arg-type]


def _settle_job(batch: list[_Pending], path: Path, job: asyncio.Future[list[_Result]]) -> None:
    """``_settle`` for a batch committed in aiosqlite's thread."""
    if job.cancelled():
        _settle(batch, path, None, StorageError("the commit was cancelled"))
    elif job.exception() is not None:
        _settle(batch, path, None, job.exception())
    else:
        _settle(batch, path, job.result())


async def _journal_wal(conn: aiosqlite.Connection) -> list[sqlite3.Row]:
    """``PRAGMA journal_mode = WAL``. Switching a new file to WAL needs it alone for a moment, and when another
    connection is doing the same (several processes opening one new file at once) SQLite may answer "database
    is locked" at once instead of waiting out the busy timeout: so it is tried again, up to that timeout."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            return list(await conn.execute_fetchall("PRAGMA journal_mode = WAL"))
        except sqlite3.OperationalError as exc:
            if (exc.sqlite_errorcode & 0xFF) != sqlite3.SQLITE_BUSY or loop.time() >= deadline:
                raise
            await asyncio.sleep(0.01)


class SqliteStore(Store):
    """``Store`` over one SQLite file; the parent directory is created on ``open``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        self._queue: list[_Pending] = []  # writes waiting for the next batch commit
        self._wrote_for: asyncio.Task[Any] | None = None  # the task whose write began this pass (``_at_once``)
        self._pass_end: asyncio.Handle | None = None  # early in the next pass: the batch commit, and looks expire
        self._known = KnownVersions()
        self._in_thread: set[asyncio.Task[None]] = set()  # batches waiting for (or in) aiosqlite's thread
        self._writer: sqlite3.Connection | None = None  # the event loop's own connection, for writes
        self._uncheckpointed = 0  # actions the writer committed since the last checkpoint
        self._checkpoint: asyncio.Task[None] | None = None

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
                rows = await _journal_wal(conn)
                mode = next(iter(rows))[0]
                if mode != "wal":
                    log.warning(
                        "SQLite refused WAL for %s (journal_mode=%s); reads will wait on writes", self.path, mode
                    )
                await conn.execute("PRAGMA synchronous = NORMAL")
                await conn.execute("PRAGMA foreign_keys = ON")
                current = await stored_version(conn)
                if 0 < current < LATEST_VERSION:
                    await self._backup(current)
                version = await apply_migrations(conn)
            except BaseException as exc:
                await conn.close()
                if isinstance(exc, sqlite3.Error):
                    err = storage_error(self.path, exc)
                    if isinstance(err, DataDamaged):
                        raise err from exc
                    raise StorageError(f"cannot prepare SQLite database {self.path}: {exc}") from exc
                raise
            self._conn = conn
            if mode == "wal":  # without WAL a commit syncs the file: that belongs in the thread
                self._writer = self._open_writer()
            log.info("SQLite store %s open at schema version %d", self.path, version)

    async def _backup(self, version: int) -> None:
        """``backup_before_upgrade``, in a thread (a large file takes a while); without a copy no upgrade."""
        try:
            await asyncio.to_thread(backup_before_upgrade, self.path, version)
        except (OSError, sqlite3.Error) as exc:
            raise StorageError(f"cannot back up {self.path} before upgrading its schema from version {version} "
                               f"(free some disk space?): {exc}") from exc

    def _open_writer(self) -> sqlite3.Connection | None:
        try:
            writer = sqlite3.connect(self.path, isolation_level=None)
            writer.row_factory = sqlite3.Row
            for pragma in ("busy_timeout = 0", "synchronous = NORMAL", "foreign_keys = ON", "wal_autocheckpoint = 0"):
                writer.execute(f"PRAGMA {pragma}")
        except sqlite3.Error as exc:
            log.warning("SQLite store %s: no event-loop connection (%s); actions commit in the thread", self.path, exc)
            return None
        return writer

    async def close(self) -> None:
        if self._pass_end is not None:  # what is queued is committed before the connections go
            self._pass_end.cancel()
            self._end_pass()
        for batch in list(self._in_thread):
            with contextlib.suppress(Exception):
                await batch
        if self._checkpoint is not None:
            with contextlib.suppress(Exception):
                await self._checkpoint
        async with self._lock:
            if self._conn is None:
                return
            conn, self._conn = self._conn, None
            writer, self._writer = self._writer, None
            if writer is not None:
                writer.close()
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
                raise storage_error(self.path, exc) from exc

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
                    raise storage_error(self.path, exc) from exc
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
    ) -> SessionRecord:
        """Compare-and-swap: apply ``SET assignments`` and bump the version only if the row is at
        ``expected_version`` in one of ``allowed_from``. On a miss, say precisely why.

        These are the version bumps that are not actions (``commit_action`` has its own statement), so the
        ``sessions_log_action`` trigger is told to log nothing."""
        allowed = tuple(allowed_from)
        placeholders = ", ".join("?" for _ in allowed)
        rows = list(
            await conn.execute_fetchall(
                f"UPDATE sessions SET {assignments}, version = version + 1, updated_at = ?,"
                f" last_seat = NULL, last_action_json = NULL"
                f" WHERE id = ? AND version = ? AND status IN ({placeholders})"
                f" RETURNING {_COLUMNS}",
                (*params, _now(), session_id, expected_version, *allowed),
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
        locales: dict[str, str] | None = None,
    ) -> SessionRecord:
        now = _now()
        async with self._writing() as conn:
            try:
                rows = list(
                    await conn.execute_fetchall(
                        "INSERT INTO sessions (guild_id, channel_id, game_id, status, host_id, seats_json,"
                        " options_json, seed, locale, state_json, version, table_message_id, created_at, updated_at,"
                        " names_json, locales_json)"
                        " VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, NULL, 0, NULL, ?, ?, ?, ?)"
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
                            _dump(locales or {}),
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
        try:
            rows = await self._session_rows(f"SELECT {_COLUMNS} FROM sessions WHERE id = ?", session_id)
        except DataDamaged as exc:
            exc.session_id = session_id
            raise
        if not rows:
            raise SessionNotFound(session_id)
        return _record(rows[0])

    async def version(self, session_id: int) -> int:
        if self._writer is not None:  # see ``KnownVersions``
            self._mark_pass()
            known = self._known.version(self._writer, session_id)
            if known is not None:
                return known
        rows = await self._session_rows("SELECT version FROM sessions WHERE id = ?", session_id)
        if not rows:
            raise SessionNotFound(session_id)
        return int(rows[0][0])

    async def _session_rows(self, sql: str, session_id: int) -> list[Any]:
        """``_select`` of a session's row (with its version), which the versions known are told of when it
        was read on the event loop's connection, at once."""
        rows = self._select_on_loop(sql, (session_id,))
        if rows is None:
            return await self._select(sql, (session_id,))
        if rows:
            self._known.saw(session_id, rows[0]["version"])
        return rows

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
        locales: dict[str, str] | None = None,
    ) -> SessionRecord:
        async with self._writing() as conn:
            return await self._swap(
                conn,
                session_id,
                expected_version,
                ("lobby",),
                "update the lobby",
                "seats_json = COALESCE(?, seats_json), options_json = COALESCE(?, options_json),"
                " host_id = COALESCE(?, host_id), names_json = COALESCE(?, names_json),"
                " locales_json = COALESCE(?, locales_json)",
                (
                    None if seats is None else _dump(seats),
                    None if options is None else _dump(options),
                    host_id,
                    None if names is None else _dump(names),
                    None if locales is None else _dump(locales),
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
                f"status = 'running', state_json = ?, seats_json = ?, state_format = {STATE_FORMAT}",
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
        locales: dict[str, str] | None = None,
        auto: bool = False,
    ) -> SessionRecord:
        if status == "lobby":
            raise ValueError("an action cannot return a session to the lobby")
        params = (
            state_json,
            status,
            None if seats is None else _dump(seats),
            None if names is None else _dump(names),
            None if locales is None else _dump(locales),
            _now(),
            seat,
            int(auto),
            action_json,
            session_id,
            expected_version,
        )
        return await self._committed(
            _PendingAction(session_id, expected_version, params, asyncio.get_running_loop().create_future(),
                           state_json))

    async def _commit_several(self, session_id: int, expected_version: int, steps: list[Step], state_json: str,
                              status: SessionStatus) -> SessionRecord:
        now = _now()
        params = (state_json, status, len(steps), now, session_id, expected_version)
        log_rows = [(session_id, expected_version + i, s.seat, s.action_json, now, int(s.auto))
                    for i, s in enumerate(steps, start=1)]
        return await self._committed(_PendingAction(session_id, expected_version, params,
                                                     asyncio.get_running_loop().create_future(), state_json, log_rows))

    async def _committed(self, pending: _PendingAction) -> SessionRecord:
        """Commit ``pending`` (see ``_submit``) and wait for its record (or its error)."""
        self._submit(pending)
        return await pending.future

    def _submit(self, pending: _Pending) -> None:
        """Commit a write at once (see ``_at_once``), else queue it for the batch commit."""
        if not (self._at_once() and self._commit_on_loop([pending])):
            self._queue.append(pending)

    def _at_once(self) -> bool:
        """Whether a write is committed at once, rather than queued for the batch commit.

        The first write of a pass of the event loop is committed at once, and so are the ones the same task
        makes after it while nothing is queued: a lone click waits for nothing. A write of any other task in
        the same pass (the other clicks, deliveries and clocks of a busy moment) is queued, like every write
        after it in the pass, and the queue is committed early in the next pass, one transaction for them
        all, before any write made then: writes are committed in the order they were made. A caller
        cancelled before then is left out (its future is cancelled with it)."""
        task = asyncio.current_task()
        if self._wrote_for is None:
            self._wrote_for = task
            self._mark_pass()
        elif self._wrote_for is not task or self._queue:
            return False
        return not self._in_thread  # else after the batch waiting for the thread

    def _mark_pass(self) -> None:
        """Have ``_end_pass`` run early in the next pass of the event loop."""
        if self._pass_end is None:
            self._pass_end = asyncio.get_running_loop().call_soon(self._end_pass)

    def _end_pass(self) -> None:
        """A pass of the event loop that wrote or looked is over: the writes queued in it are committed (on
        the event loop's connection, or in aiosqlite's thread when that one cannot write without waiting),
        and the next version check looks at the file again."""
        self._pass_end = None
        self._wrote_for = None
        self._known.pass_over()
        batch = [p for p in self._queue if not p.future.done()]
        self._queue = []
        if batch and (self._in_thread or not self._commit_on_loop(batch)):  # the thread keeps them in order
            task = asyncio.create_task(self._commit_in_thread(batch))
            self._in_thread.add(task)
            task.add_done_callback(self._in_thread.discard)

    def _commit_on_loop(self, batch: list[_Pending]) -> bool:
        """Commit ``batch`` on the event loop's connection; False (nothing stored) when it cannot without
        waiting: another connection holds the write lock, or there is no such connection."""
        if self._writer is None:
            return False
        try:
            results = _commit_batch(self._writer, batch)
        except sqlite3.Error as exc:
            if exc.sqlite_errorcode == sqlite3.SQLITE_BUSY:
                return False
            _settle(batch, self.path, None, exc)
            return True
        _settle(batch, self.path, results)
        self._known.committed()
        for pending, result in zip(batch, results, strict=True):  # each action's row, or the one it missed
            if isinstance(pending, _PendingAction) and isinstance(result, sqlite3.Row | tuple):
                self._known.saw(pending.session_id, result[0] if isinstance(result, tuple) else result["version"])
        self._uncheckpointed += sum(isinstance(p, _PendingAction) for p in batch)
        if self._uncheckpointed >= CHECKPOINT_EVERY and (self._checkpoint is None or self._checkpoint.done()):
            self._uncheckpointed = 0
            self._checkpoint = asyncio.create_task(self._run_checkpoint())
        return True

    async def _commit_in_thread(self, batch: list[_Pending]) -> None:
        """Commit ``batch`` in aiosqlite's thread, where waiting for the write lock (``busy_timeout``) stalls
        nothing else. The batch is one job on that thread's FIFO queue, so nothing else runs on the connection
        in the middle of it; callers cancelled while it waited for the connection are left out."""
        job: asyncio.Future[list[_Result]] | None = None
        try:
            async with self._lock:
                batch = [p for p in batch if not p.future.done()]
                if not batch:
                    return
                conn = self._connection()
                # aiosqlite's job queue (its private ``_execute``) carries no annotations: the ignore is for that.
                job = asyncio.ensure_future(conn._execute(_commit_batch, conn._conn, batch))  # type: ignore[no-untyped-call]
                job.add_done_callback(functools.partial(_settle_job, batch, self.path))
                with contextlib.suppress(Exception):  # each caller's own outcome is in its future
                    await asyncio.shield(job)
        except BaseException as exc:
            if job is None:  # not open, or cancelled (the loop closing) before the job was handed over
                _settle(batch, self.path, None, exc)
            raise

    async def _run_checkpoint(self) -> None:
        """Copy the WAL back into the database file in aiosqlite's thread (the event loop's connection never
        checkpoints, see the module docstring). PASSIVE: it waits for no one and stops no writer."""
        async with self._lock:
            if self._conn is None:
                return  # closed meanwhile; the next open starts from whatever the WAL holds
            try:
                # Its row is read to the end: a statement left open on it would hold back the COMMIT of a
                # batch run in the thread next (aiosqlite's thread keeps the last job's cursor alive).
                await self._conn.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
            except sqlite3.Error as exc:
                log.warning("WAL checkpoint of %s failed: %s", self.path, exc)

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

    async def set_players(self, session_id: int, expected_version: int, players: dict[str, int],
                          names: dict[str, str], locales: dict[str, str]) -> SessionRecord:
        async with self._writing() as conn:
            rows = list(
                await conn.execute_fetchall(
                    "UPDATE sessions SET players_json = ?, names_json = ?, locales_json = ?, updated_at = ?"
                    f" WHERE id = ? AND version = ? AND status = 'running' RETURNING {_COLUMNS}",
                    (_dump(players), _dump(names), _dump(locales), _now(), session_id, expected_version),
                )
            )
            if not rows:
                current = await self._fetch(conn, session_id)
                if current is None:
                    raise SessionNotFound(session_id)
                if current.status != "running":
                    raise InvalidTransition(session_id, current.status, "running")
                raise VersionConflict(session_id, expected_version, current.version)
            return _record(rows[0])

    async def actions(self, session_id: int) -> list[LogEntry]:
        async with self._exclusive() as conn:
            if await self._fetch(conn, session_id) is None:
                raise SessionNotFound(session_id)
            rows = await conn.execute_fetchall(
                "SELECT session_id, seq, seat, action_json, created_at, auto FROM action_log"
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
                auto=bool(row["auto"]),
            )
            for row in rows
        ]

    async def sessions_with_status(self, *statuses: SessionStatus) -> list[SessionRecord]:
        if not statuses:
            raise ValueError("name at least one status")
        placeholders = ", ".join("?" for _ in statuses)
        async with self._exclusive() as conn:
            try:
                rows = await conn.execute_fetchall(
                    f"SELECT {_COLUMNS} FROM sessions WHERE status IN ({placeholders}) ORDER BY id", statuses
                )
            except sqlite3.DatabaseError as exc:
                if not isinstance(storage_error(self.path, exc), DataDamaged):
                    raise
                rows = await self._rows_one_by_one(conn, placeholders, statuses)
        return readable_records(rows, _record)

    async def _rows_one_by_one(self, conn: aiosqlite.Connection, placeholders: str,
                               statuses: tuple[SessionStatus, ...]) -> list[sqlite3.Row]:
        """The sessions in ``statuses`` read one row at a time, when reading them together hit a damaged
        page: the ids come from the status index alone, and a row that cannot be read is left out (and
        logged), so the games stored elsewhere in the file are still served."""
        ids = await conn.execute_fetchall(
            f"SELECT id FROM sessions INDEXED BY sessions_by_status WHERE status IN ({placeholders}) ORDER BY id",
            statuses,
        )
        rows: list[sqlite3.Row] = []
        for (session_id,) in ids:
            try:
                rows.extend(await conn.execute_fetchall(f"SELECT {_COLUMNS} FROM sessions WHERE id = ?",
                                                        (session_id,)))
            except sqlite3.DatabaseError as exc:
                log.error("session %s left out: %s", session_id, storage_error(self.path, exc))
        return rows

    async def deliveries(self, session_id: int) -> dict[int, Delivery]:
        rows = await self._select(
            "SELECT session_id, user_id, channel_id, message_id, ping_id, dm_closed, owed, version"
            " FROM deliveries WHERE session_id = ?",
            (session_id,),
        )
        return {row["user_id"]: Delivery(**dict(zip(row.keys(), row, strict=True))) for row in rows}

    async def save_delivery(self, delivery: Delivery) -> None:
        d = delivery
        # Follows every move for every player: written on the event loop's connection like an action.
        await self._write(
            "INSERT OR REPLACE INTO deliveries"
            " (session_id, user_id, channel_id, message_id, ping_id, dm_closed, owed, version)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (d.session_id, d.user_id, d.channel_id, d.message_id, d.ping_id, int(d.dm_closed), int(d.owed),
             d.version),
        )

    async def _write(self, sql: str, params: tuple[Any, ...]) -> None:
        """``_statement`` whose driver errors are all ``StorageError``s."""
        try:
            await self._statement(sql, params)
        except sqlite3.IntegrityError as exc:
            raise storage_error(self.path, exc) from exc

    async def _select(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        """The rows of one read that follows moves (a session, its settings, a player's preference) on the
        event loop's connection. In WAL mode a read takes no lock and waits for no writer, and this
        connection is never inside a transaction between two awaits (its batches run start to commit
        in one synchronous call), so each read sees what was committed before it. A transaction still
        open in the thread (a lobby change between its BEGIN and COMMIT) is not seen yet, as by a reader
        in another process; the writes that matter to a reader are made under the session's lock,
        which that reader holds too. This saves the two thread switches of a read in aiosqlite's thread,
        which cost most when the process is busy. In the thread when there is no such connection."""
        rows = self._select_on_loop(sql, params)
        if rows is not None:
            return rows
        async with self._exclusive() as conn:
            return list(await conn.execute_fetchall(sql, params))

    def _select_on_loop(self, sql: str, params: tuple[Any, ...]) -> list[Any] | None:
        """``_select`` on the event loop's connection; None when it cannot be read there."""
        try:
            return self._fetch_on_loop(sql, params)
        except sqlite3.Error as exc:
            raise storage_error(self.path, exc) from exc

    async def autopass(self, user_id: int) -> bool:
        rows = await self._select("SELECT autopass FROM player_prefs WHERE user_id = ?", (user_id,))
        return bool(rows[0][0]) if rows else True

    async def set_autopass(self, user_id: int, enabled: bool) -> None:
        await self._write("INSERT OR REPLACE INTO player_prefs (user_id, autopass) VALUES (?, ?)",
                          (user_id, int(enabled)))

    async def _json_setting(self, table: str, key: str, value: int) -> dict[str, Any]:
        """One settings row (``table`` is one of ours, never user input), or {} when there is none."""
        rows = await self._select(f"SELECT settings_json FROM {table} WHERE {key} = ?", (value,))
        return json.loads(rows[0][0]) if rows else {}

    async def _put_json_setting(self, table: str, key: str, value: int, settings: dict[str, Any]) -> None:
        await self._write(f"INSERT OR REPLACE INTO {table} ({key}, settings_json) VALUES (?, ?)",
                          (value, _dump(settings)))

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        return await self._json_setting("guild_settings", "guild_id", guild_id)

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        await self._put_json_setting("guild_settings", "guild_id", guild_id, settings)

    async def table_settings(self, session_id: int) -> dict[str, Any]:
        return await self._json_setting("table_settings", "session_id", session_id)

    async def set_table_settings(self, session_id: int, settings: dict[str, Any]) -> None:
        await self._put_json_setting("table_settings", "session_id", session_id, settings)

    async def sessions_in_guild(self, guild_id: int, *statuses: SessionStatus) -> list[SessionRecord]:
        if not statuses:
            raise ValueError("name at least one status")
        placeholders = ", ".join("?" for _ in statuses)
        async with self._exclusive() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_COLUMNS} FROM sessions WHERE guild_id = ? AND status IN ({placeholders}) ORDER BY id",
                (guild_id, *statuses),
            )
        return readable_records(rows, _record)

    async def get_meta(self, key: str) -> str | None:
        async with self._exclusive() as conn:
            rows = list(await conn.execute_fetchall("SELECT value FROM bot_meta WHERE key = ?", (key,)))
        return rows[0][0] if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        async with self._writing() as conn:
            await conn.execute(
                "INSERT INTO bot_meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    async def import_session(self, record: SessionRecord, log: list[LogEntry]) -> None:
        async with self._writing() as conn:
            try:
                await conn.execute(
                    f"INSERT INTO sessions ({_COLUMNS}) VALUES ({', '.join('?' for _ in range(19))})",
                    (
                        record.id, record.guild_id, record.channel_id, record.game_id, record.status,
                        record.host_id, _dump(record.seats), _dump(record.options), str(record.seed), record.locale,
                        record.state_json, record.version, record.table_message_id,
                        record.created_at.isoformat(), record.updated_at.isoformat(),
                        _dump(record.names), _dump(record.locales), _dump(record.players), record.state_format,
                    ),
                )
            except sqlite3.IntegrityError as exc:
                raise StorageError(f"cannot import session {record.id}: {exc}") from exc
            await conn.executemany(
                "INSERT INTO action_log (session_id, seq, seat, action_json, created_at, auto)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(record.id, e.seq, e.seat, e.action_json, e.created_at.isoformat(), int(e.auto)) for e in log],
            )

    async def row_counts(self) -> dict[str, int]:
        async with self._exclusive() as conn:
            return {table: next(iter(await conn.execute_fetchall(f"SELECT COUNT(*) FROM {table}")))[0]
                    for table in DATA_TABLES}

    async def export_extras(self) -> Extras:
        async with self._exclusive() as conn:
            guilds = await conn.execute_fetchall("SELECT guild_id, settings_json FROM guild_settings ORDER BY guild_id")
            prefs = await conn.execute_fetchall("SELECT user_id, autopass FROM player_prefs ORDER BY user_id")
            tables = await conn.execute_fetchall(
                "SELECT session_id, settings_json FROM table_settings ORDER BY session_id")
            timers = await conn.execute_fetchall(
                f"SELECT {_TIMER_COLUMNS} FROM timers ORDER BY session_id, kind, seat")
            deliveries = await conn.execute_fetchall(
                "SELECT session_id, user_id, channel_id, message_id, ping_id, dm_closed, owed, version"
                " FROM deliveries ORDER BY session_id, user_id")
            meta = await conn.execute_fetchall("SELECT key, value FROM bot_meta ORDER BY key")
            ratings = await conn.execute_fetchall(
                f"SELECT {RATING_COLUMNS} FROM ratings ORDER BY guild_id, game_id, user_id")
            settled = await conn.execute_fetchall(
                "SELECT session_id, unrated, changes FROM rated_games ORDER BY session_id")
            away = await conn.execute_fetchall(
                "SELECT guild_id, user_id, until_ms FROM time_away ORDER BY guild_id, user_id")
        return Extras(
            ratings=[RatingRow(**dict(zip(RatingRow.model_fields, r, strict=True))) for r in ratings],
            rated_games={r[0]: Settled.from_row(r[1], r[2]) for r in settled},
            away=[Away(guild_id=r[0], user_id=r[1], until=from_epoch_ms(r[2])) for r in away],
            guild_settings={g: json.loads(v) for g, v in guilds},
            player_prefs={u: bool(a) for u, a in prefs},
            table_settings={sid: json.loads(v) for sid, v in tables},
            timers=[Timer.from_row(*r) for r in timers],
            deliveries=[Delivery(**dict(zip(r.keys(), r, strict=True))) for r in deliveries],
            meta={row[0]: row[1] for row in meta},
        )

    async def import_extras(self, extras: Extras) -> None:
        async with self._writing() as conn:
            await conn.executemany("INSERT INTO guild_settings (guild_id, settings_json) VALUES (?, ?)",
                                   [(g, _dump(v)) for g, v in extras.guild_settings.items()])
            await conn.executemany("INSERT INTO player_prefs (user_id, autopass) VALUES (?, ?)",
                                   [(u, int(a)) for u, a in extras.player_prefs.items()])
            await conn.executemany("INSERT INTO table_settings (session_id, settings_json) VALUES (?, ?)",
                                   [(sid, _dump(v)) for sid, v in extras.table_settings.items()])
            await conn.executemany(
                f"INSERT INTO timers ({_TIMER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                [(t.session_id, t.kind, t.seat or "", epoch_ms(t.due_at), epoch_ms(t.claimed_until or t.due_at),
                  t.version) for t in extras.timers])
            await conn.executemany(
                "INSERT INTO deliveries (session_id, user_id, channel_id, message_id, ping_id, dm_closed, owed,"
                " version) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(d.session_id, d.user_id, d.channel_id, d.message_id, d.ping_id, int(d.dm_closed), int(d.owed),
                  d.version) for d in extras.deliveries])
            await conn.executemany("INSERT INTO bot_meta (key, value) VALUES (?, ?)", list(extras.meta.items()))
            await conn.executemany(f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                                   [r.values() for r in extras.ratings])
            await conn.executemany("INSERT INTO rated_games (session_id, unrated, changes) VALUES (?, ?, ?)",
                                   [(sid, s.unrated, s.stored()) for sid, s in extras.rated_games.items()])
            await conn.executemany("INSERT INTO time_away (guild_id, user_id, until_ms) VALUES (?, ?, ?)",
                                   [(a.guild_id, a.user_id, epoch_ms(a.until)) for a in extras.away])

    # --- ratings and time away -----------------------------------------------------------------------------

    async def settle_ratings(self, session_id: int, guild_id: int, game_id: str, players: list[int], unrated: str,
                             rate: Callable[[dict[int, RatingRow]], list[RatingRow]]) -> bool:
        async with self._writing() as conn:
            try:
                cursor = await conn.execute(
                    "INSERT INTO rated_games (session_id, unrated) VALUES (?, ?) ON CONFLICT (session_id) DO NOTHING",
                    (session_id, unrated))
            except sqlite3.IntegrityError as exc:  # the foreign key: no such session
                raise SessionNotFound(session_id) from exc
            if cursor.rowcount == 0:
                return False
            if unrated or not players:
                return True
            marks = ", ".join("?" for _ in players)
            rows = await conn.execute_fetchall(
                f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game_id = ? AND user_id IN ({marks})",
                (guild_id, game_id, *players))
            current = {r.user_id: r for r in (RatingRow(**dict(zip(RatingRow.model_fields, row, strict=True)))
                                              for row in rows)}
            new = rate(current)
            await conn.executemany(
                f"INSERT OR REPLACE INTO ratings ({RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [r.values() for r in new])
            await conn.execute("UPDATE rated_games SET changes = ? WHERE session_id = ?",
                               (rating_changes(current, new).stored(), session_id))
            return True

    async def ratings(self, guild_id: int, game_id: str | None = None,
                      user_id: int | None = None) -> list[RatingRow]:
        rows = await self._select(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND (? IS NULL OR game_id = ?)"
            " AND (? IS NULL OR user_id = ?) ORDER BY game_id, user_id",
            (guild_id, game_id, game_id, user_id, user_id))
        return [RatingRow(**dict(zip(RatingRow.model_fields, r, strict=True))) for r in rows]

    async def settled(self, session_ids: list[int]) -> dict[int, Settled]:
        if not session_ids:
            return {}
        marks = ", ".join("?" for _ in session_ids)
        rows = await self._select(
            f"SELECT session_id, unrated, changes FROM rated_games WHERE session_id IN ({marks})", tuple(session_ids))
        return {r[0]: Settled.from_row(r[1], r[2]) for r in rows}

    async def set_away(self, guild_id: int, user_id: int, until: datetime | None) -> None:
        if until is None:
            await self._write("DELETE FROM time_away WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        else:
            await self._write("INSERT OR REPLACE INTO time_away (guild_id, user_id, until_ms) VALUES (?, ?, ?)",
                              (guild_id, user_id, epoch_ms(until)))

    async def away(self, guild_id: int) -> list[Away]:
        rows = await self._select("SELECT user_id, until_ms FROM time_away WHERE guild_id = ? ORDER BY user_id",
                                  (guild_id,))
        return [Away(guild_id=guild_id, user_id=r[0], until=from_epoch_ms(r[1])) for r in rows]

    # --- durable timers ---------------------------------------------------------------------------------

    async def set_timer(self, session_id: int, kind: str, seat: str | None, due_at: datetime,
                        version: int) -> Timer:
        due = epoch_ms(due_at)
        sql = ("INSERT INTO timers (session_id, kind, seat, due_at, ready_at, version) VALUES (?, ?, ?, ?, ?, ?)"
               " ON CONFLICT (session_id, kind, seat) DO UPDATE SET due_at = excluded.due_at,"
               " ready_at = excluded.ready_at, version = excluded.version RETURNING " + _TIMER_COLUMNS)
        params = (session_id, kind, seat or "", due, due, version)
        # A turn clock moves timers as the turn passes: one statement on the event loop's connection, like an
        # action, instead of a transaction in aiosqlite's thread that clicks would queue behind.
        try:
            rows = await self._statement(sql, params)
        except sqlite3.IntegrityError as exc:  # the foreign key: no such session
            raise SessionNotFound(session_id) from exc
        return Timer.from_row(*rows[0])

    async def cancel_timer(self, session_id: int, kind: str, seat: str | None) -> bool:
        sql = "DELETE FROM timers WHERE session_id = ? AND kind = ? AND seat = ? RETURNING session_id"
        params = (session_id, kind, seat or "")
        return bool(await self._statement(sql, params))

    async def _statement(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        """The rows of one write that is atomic alone, committed with the writes queued beside it (the batch
        commit). A constraint failure stays ``sqlite3.IntegrityError`` for the caller to name; any other
        driver error is a ``StorageError``."""
        try:
            if self._at_once() and (rows := self._fetch_on_loop(sql, params)) is not None:
                self._known.committed()
                return rows  # at once, in autocommit mode, with no future to wait for
            pending = _PendingStatement(sql, params, asyncio.get_running_loop().create_future())
            self._queue.append(pending)
            return await pending.future
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as exc:
            raise storage_error(self.path, exc) from exc

    def _fetch_on_loop(self, sql: str, params: tuple[Any, ...]) -> list[Any] | None:
        """One autocommit statement with its rows on the event loop's connection; None (nothing done)
        when that cannot be done without waiting (no such connection, or the write lock held elsewhere)."""
        if self._writer is None:
            return None
        try:
            return self._writer.execute(sql, params).fetchall()
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode == sqlite3.SQLITE_BUSY:
                return None
            raise

    async def timers(self, session_id: int) -> list[Timer]:
        rows = await self._select(
            f"SELECT {_TIMER_COLUMNS} FROM timers WHERE session_id = ? ORDER BY due_at, kind, seat", (session_id,))
        return [Timer.from_row(*r) for r in rows]

    async def next_timer_at(self) -> datetime | None:
        async with self._exclusive() as conn:
            rows = list(await conn.execute_fetchall("SELECT MIN(ready_at) FROM timers"))
        ready = rows[0][0]
        return None if ready is None else from_epoch_ms(ready)

    async def claim_due_timers(self, now: datetime, *, limit: int = 100, lease: float = 60.0) -> list[Timer]:
        at = epoch_ms(now)
        # One statement inside BEGIN IMMEDIATE: the write lock makes it exclusive across processes.
        async with self._writing() as conn:
            rows = await conn.execute_fetchall(
                "UPDATE timers SET ready_at = ? WHERE (session_id, kind, seat) IN ("
                " SELECT session_id, kind, seat FROM timers WHERE ready_at <= ? ORDER BY ready_at LIMIT ?)"
                f" RETURNING {_TIMER_COLUMNS}",
                (at + max(1, int(lease * 1000)), at, limit),
            )
        return sorted((Timer.from_row(*r) for r in rows), key=lambda t: (t.due_at, t.session_id, t.kind))

    async def retry_timer(self, timer: Timer, ready_at: datetime) -> bool:
        async with self._writing() as conn:
            cursor = await conn.execute(
                "UPDATE timers SET ready_at = ? WHERE session_id = ? AND kind = ? AND seat = ? AND due_at = ?"
                " AND version = ?",
                (epoch_ms(ready_at), timer.session_id, timer.kind, timer.seat or "", epoch_ms(timer.due_at),
                 timer.version),
            )
            return cursor.rowcount > 0

    async def complete_timer(self, timer: Timer) -> bool:
        async with self._writing() as conn:
            cursor = await conn.execute(
                "DELETE FROM timers WHERE session_id = ? AND kind = ? AND seat = ? AND due_at = ? AND version = ?",
                (timer.session_id, timer.kind, timer.seat or "", epoch_ms(timer.due_at), timer.version),
            )
            return cursor.rowcount > 0

    async def counts(self, now: datetime) -> StoreCounts:
        async with self._exclusive() as conn:
            games = await conn.execute_fetchall(
                "SELECT game_id, status, COUNT(*) FROM sessions WHERE status IN ('lobby', 'running')"
                " GROUP BY game_id, status")
            due = list(await conn.execute_fetchall("SELECT COUNT(*) FROM timers WHERE ready_at <= ?",
                                                   (epoch_ms(now),)))
        return StoreCounts({(game, status): n for game, status, n in games}, due[0][0])

"""The PostgreSQL backend (asyncpg), for a community that runs several shard processes on one database.

Same guarantees as ``SqliteStore``, kept by the database rather than by one process:
- every version bump is ``UPDATE … WHERE id = $ AND version = $`` under READ COMMITTED: a second writer of
  the same row waits for the first to commit, re-checks the condition against the new row, matches nothing,
  and is told ``VersionConflict``. No process can overwrite another's move;
- an action's new state, its version bump and its log row are one statement (a data-modifying CTE), so
  they are committed together or not at all, in one round trip;
- one active session per channel is a partial unique index, whichever process opens the lobby.

A pool of connections serves the event loop; each statement borrows one, so unrelated tables never wait
for each other, and PostgreSQL's group commit shares fsyncs between concurrent actions. The small requests
every move brings (is a cached copy current, a delivery row, a timer) are gathered per pass of the event
loop and sent together (``pass_batch``, ``pg_writes``): a wave of moves costs a few statements for all of
them, not one round trip each.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any, Final

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.storage.base import Store, StoreCounts
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
from bot.storage.pass_batch import PassBatch
from bot.storage.pg_migrations import apply_pg_migrations
from bot.storage.pg_writes import CancelTimer, SaveDelivery, SetTimer, Write, Written, write_one, write_together

log = logging.getLogger(__name__)

POOL_MAX_SIZE: Final = 10
CONNECT_TIMEOUT_S: Final = 10.0

_COLUMNS: Final = (
    "id, guild_id, channel_id, game_id, status, host_id, seats::text AS seats, options::text AS options,"
    " seed::text AS seed, locale, state_json, version, table_message_id, created_at, updated_at,"
    " names::text AS names, locales::text AS locales, players::text AS players, state_format"
)
_COMMITTED: Final = _COLUMNS.replace(" state_json,", "")
"""What a move's commit reads back: all but the snapshot it has just written (tens of kilobytes a move)."""
_TIMER_COLUMNS: Final = "session_id, kind, seat, due_at, ready_at, version"
_TERMINAL: Final[frozenset[SessionStatus]] = frozenset({"finished", "abandoned"})

# One action: state, version bump and log row in one statement; the INSERT sees only a row the UPDATE matched.
_ACTION_SQL: Final = (
    "WITH moved AS ("
    " UPDATE sessions SET state_json = $1, status = $2, seats = COALESCE($3::json, seats),"
    " names = COALESCE($4::json, names), locales = COALESCE($5::json, locales), version = version + 1,"
    f" state_format = {STATE_FORMAT}, updated_at = $6 WHERE id = $9 AND version = $10 AND status = 'running'"
    f" RETURNING {_COMMITTED}),"
    " logged AS (INSERT INTO action_log (session_id, seq, seat, action_json, created_at, auto)"
    " SELECT id, version, $7, $8, updated_at, $11 FROM moved)"
    " SELECT * FROM moved"
)

# Several actions at once: the version goes up by their number and each gets its log row, its seq counted
# from the expected version, all in the one statement.
_STEPS_SQL: Final = (
    "WITH moved AS ("
    " UPDATE sessions SET state_json = $1, status = $2, version = version + cardinality($4::text[]),"
    f" state_format = {STATE_FORMAT}, updated_at = $3 WHERE id = $7 AND version = $8 AND status = 'running'"
    f" RETURNING {_COMMITTED}),"
    " logged AS (INSERT INTO action_log (session_id, seq, seat, action_json, created_at, auto)"
    " SELECT moved.id, $8 + step.n, step.seat, step.action_json, moved.updated_at, step.auto"
    " FROM moved, unnest($4::text[], $5::text[], $6::boolean[]) WITH ORDINALITY AS step (seat, action_json, auto, n))"
    " SELECT * FROM moved"
)


def _now() -> datetime:
    # PostgreSQL keeps microseconds, as Python does, so the record read back equals the one returned.
    return datetime.now(UTC)


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _record(row: asyncpg.Record, state_json: str | None = None) -> SessionRecord:
    return SessionRecord.from_row(row, state_json=state_json)


def _redacted(dsn: str) -> str:
    """The URL without its password, for messages and logs."""
    scheme, sep, rest = dsn.partition("://")
    userinfo, at, hostpart = rest.rpartition("@")
    if not at or ":" not in userinfo:
        return dsn
    return f"{scheme}{sep}{userinfo.split(':', 1)[0]}:***@{hostpart}"


async def _keep_session(conn: asyncpg.Connection) -> None:
    """Hand a pooled connection back as it is. The store never changes session state (no ``SET``,
    ``LISTEN``, cursors or session-level advisory locks; migrations lock per transaction), and asyncpg rolls
    back an open transaction before this runs anyway. The default reset sends four statements on every
    release, which cost the server about as much as a move's own writes."""


class PostgresStore(Store):
    """``Store`` over a PostgreSQL database reached at ``dsn`` (any URL asyncpg accepts)."""

    def __init__(self, dsn: str, *, max_connections: int = POOL_MAX_SIZE) -> None:
        self.dsn = dsn
        self.max_connections = max_connections
        self._pool: asyncpg.Pool | None = None
        self._writes: PassBatch[Write, Written] = PassBatch(self._write_batch)
        self._versions: PassBatch[int, int] = PassBatch(self._read_versions)

    def __repr__(self) -> str:
        return f"PostgresStore({_redacted(self.dsn)!r})"

    async def open(self) -> None:
        if self._pool is not None:
            return
        try:
            pool = await asyncpg.create_pool(
                self.dsn, min_size=1, max_size=self.max_connections, timeout=CONNECT_TIMEOUT_S,
                # statements are few and fixed: prepared once per connection and reused
                statement_cache_size=256,
                reset=_keep_session,
            )
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError, ValueError) as exc:
            raise StorageError(f"cannot connect to PostgreSQL at {_redacted(self.dsn)}: {exc}") from exc
        try:
            async with pool.acquire() as conn:
                version = await apply_pg_migrations(conn)
        except BaseException as exc:
            await pool.close()
            if isinstance(exc, asyncpg.PostgresError):
                raise StorageError(f"cannot prepare PostgreSQL database {_redacted(self.dsn)}: {exc}") from exc
            raise
        self._pool = pool
        log.info("PostgreSQL store %s open at schema version %d", _redacted(self.dsn), version)

    async def close(self) -> None:
        if self._pool is not None:
            await self._writes.drain()
            await self._versions.drain()
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    def _connected(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StorageError(f"PostgreSQL store {_redacted(self.dsn)} is not open")
        return self._pool

    @asynccontextmanager
    async def _conn(self) -> AsyncIterator[PoolConnectionProxy]:
        """A pooled connection; driver and network errors become ``StorageError``."""
        pool = self._connected()
        try:
            async with pool.acquire() as conn:
                yield conn
        except (asyncpg.DataCorruptedError, asyncpg.IndexCorruptedError) as exc:
            raise DataDamaged(f"PostgreSQL reports damaged data at {_redacted(self.dsn)}: {exc}") from exc
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
            raise StorageError(f"PostgreSQL error on {_redacted(self.dsn)}: {exc}") from exc

    @staticmethod
    async def _fetch(conn: PoolConnectionProxy, session_id: int) -> SessionRecord | None:
        row = await conn.fetchrow(f"SELECT {_COLUMNS} FROM sessions WHERE id = $1", session_id)
        return None if row is None else _record(row)

    async def _miss(self, conn: PoolConnectionProxy, session_id: int, expected_version: int,
                    requested: str) -> StorageError:
        """Why a compare-and-swap matched no row: no session, another version, or the wrong status."""
        current = await self._fetch(conn, session_id)
        if current is None:
            return SessionNotFound(session_id)
        if current.version != expected_version:
            return VersionConflict(session_id, expected_version, current.version)
        return InvalidTransition(session_id, current.status, requested)

    async def _swap(self, session_id: int, expected_version: int, allowed_from: Iterable[SessionStatus],
                    requested: str, assignments: str, params: tuple[Any, ...]) -> SessionRecord:
        """Apply ``SET assignments`` (placeholders from $4 on) and bump the version, only at
        ``expected_version`` in one of ``allowed_from``."""
        allowed = list(allowed_from)
        async with self._conn() as conn:
            row = await conn.fetchrow(
                f"UPDATE sessions SET {assignments}, version = version + 1, updated_at = $3"
                f" WHERE id = $1 AND version = $2 AND status = ANY(${len(params) + 4}::text[])"
                f" RETURNING {_COLUMNS}",
                session_id, expected_version, _now(), *params, allowed,
            )
            if row is not None:
                return _record(row)
            raise await self._miss(conn, session_id, expected_version, requested)

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
        async with self._conn() as conn:
            try:
                row = await conn.fetchrow(
                    "INSERT INTO sessions (guild_id, channel_id, game_id, status, host_id, seats, options, seed,"
                    " locale, state_json, version, table_message_id, created_at, updated_at, names, locales)"
                    " VALUES ($1, $2, $3, 'lobby', $4, $5::json, $6::json, $7::numeric, $8, NULL, 0, NULL,"
                    f" $9, $9, $10::json, $11::json) RETURNING {_COLUMNS}",
                    guild_id, channel_id, game_id, host_id, _dump([host_id]), _dump(options), str(seed), locale,
                    now, _dump(names or {}), _dump(locales or {}),
                )
            except asyncpg.UniqueViolationError as exc:
                existing = await self._active(conn, channel_id)
                if existing is None:  # the other session ended in between: the channel is free again
                    raise StorageError(f"channel {channel_id} was busy a moment ago; try again") from exc
                raise ChannelBusy(existing) from exc
        assert row is not None  # INSERT ... RETURNING returns the row it inserted
        return _record(row)

    async def get(self, session_id: int) -> SessionRecord:
        async with self._conn() as conn:
            record = await self._fetch(conn, session_id)
        if record is None:
            raise SessionNotFound(session_id)
        return record

    async def version(self, session_id: int) -> int:
        return await self._versions.submit(session_id)

    async def _read_versions(self, session_ids: list[int]) -> list[int | Exception]:
        """The versions a pass asked for, in one read."""
        async with self._conn() as conn:
            rows = await conn.fetch("SELECT id, version FROM sessions WHERE id = ANY($1::bigint[])",
                                    list(set(session_ids)))
        found = {r[0]: int(r[1]) for r in rows}
        return [found[i] if i in found else SessionNotFound(i) for i in session_ids]

    async def _write_batch(self, writes: list[Write]) -> list[Written | Exception]:
        """A pass's delivery rows and timer changes: together in one transaction, or, when the database
        refuses the lot (a game deleted meanwhile, a deadlock), each on its own so each caller gets its
        own answer."""
        if len(writes) > 1:
            try:
                async with self._conn() as conn, conn.transaction():
                    return list(await write_together(conn, writes))
            except StorageError as exc:
                log.info("a batch of %d writes was refused as a whole (%s); writing them one by one", len(writes),
                         exc)
        answers: list[Written | Exception] = []
        for write in writes:
            try:
                async with self._conn() as conn:
                    answers.append(await write_one(conn, write))
            except StorageError as exc:
                answers.append(exc)
        return answers

    @staticmethod
    async def _active(conn: PoolConnectionProxy, channel_id: int) -> SessionRecord | None:
        row = await conn.fetchrow(
            f"SELECT {_COLUMNS} FROM sessions WHERE channel_id = $1 AND status = ANY($2::text[])",
            channel_id, list(ACTIVE_STATUSES),
        )
        return None if row is None else _record(row)

    async def active_in_channel(self, channel_id: int) -> SessionRecord | None:
        async with self._conn() as conn:
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
        return await self._swap(
            session_id, expected_version, ("lobby",), "update the lobby",
            "seats = COALESCE($4::json, seats), options = COALESCE($5::json, options),"
            " host_id = COALESCE($6::bigint, host_id), names = COALESCE($7::json, names),"
            " locales = COALESCE($8::json, locales)",
            (
                None if seats is None else _dump(seats),
                None if options is None else _dump(options),
                host_id,
                None if names is None else _dump(names),
                None if locales is None else _dump(locales),
            ),
        )

    async def start(self, session_id: int, expected_version: int, state_json: str, seats: list[int]) -> SessionRecord:
        return await self._swap(
            session_id, expected_version, ("lobby",), "start",
            f"status = 'running', state_json = $4, seats = $5::json, state_format = {STATE_FORMAT}",
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
        async with self._conn() as conn:
            row = await conn.fetchrow(
                _ACTION_SQL,
                state_json, status,
                None if seats is None else _dump(seats),
                None if names is None else _dump(names),
                None if locales is None else _dump(locales),
                _now(), seat, action_json, session_id, expected_version, auto,
            )
            if row is not None:
                return _record(row, state_json)
            raise await self._miss(conn, session_id, expected_version, "apply an action")

    async def _commit_several(self, session_id: int, expected_version: int, steps: list[Step], state_json: str,
                              status: SessionStatus) -> SessionRecord:
        async with self._conn() as conn:
            row = await conn.fetchrow(
                _STEPS_SQL, state_json, status, _now(), [s.seat for s in steps], [s.action_json for s in steps],
                [s.auto for s in steps], session_id, expected_version,
            )
            if row is not None:
                return _record(row, state_json)
            raise await self._miss(conn, session_id, expected_version, "apply an action")

    async def set_status(self, session_id: int, expected_version: int, status: SessionStatus) -> SessionRecord:
        if status not in _TERMINAL:
            raise ValueError(f"set_status only ends sessions ({sorted(_TERMINAL)}); use start() to run one")
        return await self._swap(session_id, expected_version, ACTIVE_STATUSES, f"become {status}",
                                "status = $4", (status,))

    async def set_table_message(self, session_id: int, message_id: int | None) -> SessionRecord:
        async with self._conn() as conn:
            row = await conn.fetchrow(
                f"UPDATE sessions SET table_message_id = $1, updated_at = $2 WHERE id = $3 RETURNING {_COLUMNS}",
                message_id, _now(), session_id,
            )
        if row is None:
            raise SessionNotFound(session_id)
        return _record(row)

    async def set_players(self, session_id: int, expected_version: int, players: dict[str, int],
                          names: dict[str, str], locales: dict[str, str]) -> SessionRecord:
        async with self._conn() as conn, conn.transaction():
            row = await conn.fetchrow(
                "UPDATE sessions SET players = $1::json, names = $2::json, locales = $3::json, updated_at = $4"
                f" WHERE id = $5 AND version = $6 AND status = 'running' RETURNING {_COLUMNS}",
                _dump(players), _dump(names), _dump(locales), _now(), session_id, expected_version,
            )
            if row is not None:
                return _record(row)
            current = await conn.fetchrow("SELECT status, version FROM sessions WHERE id = $1", session_id)
        if current is None:
            raise SessionNotFound(session_id)
        if current["status"] != "running":
            raise InvalidTransition(session_id, current["status"], "running")
        raise VersionConflict(session_id, expected_version, current["version"])

    async def actions(self, session_id: int) -> list[LogEntry]:
        # One snapshot for the existence check and the log (REPEATABLE READ), like SQLite's one read.
        async with self._conn() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            if await conn.fetchval("SELECT 1 FROM sessions WHERE id = $1", session_id) is None:
                raise SessionNotFound(session_id)
            rows = await conn.fetch(
                "SELECT session_id, seq, seat, action_json, created_at, auto FROM action_log"
                " WHERE session_id = $1 ORDER BY seq",
                session_id,
            )
        return [
            LogEntry(session_id=r["session_id"], seq=r["seq"], seat=r["seat"], action_json=r["action_json"],
                     created_at=r["created_at"], auto=r["auto"])
            for r in rows
        ]

    async def sessions_with_status(self, *statuses: SessionStatus) -> list[SessionRecord]:
        if not statuses:
            raise ValueError("name at least one status")
        async with self._conn() as conn:
            rows = await conn.fetch(
                f"SELECT {_COLUMNS} FROM sessions WHERE status = ANY($1::text[]) ORDER BY id", list(statuses)
            )
        return readable_records(rows, _record)

    async def get_meta(self, key: str) -> str | None:
        async with self._conn() as conn:
            value: str | None = await conn.fetchval("SELECT value FROM bot_meta WHERE key = $1", key)
        return value

    async def set_meta(self, key: str, value: str) -> None:
        async with self._conn() as conn:
            await conn.execute(
                "INSERT INTO bot_meta (key, value) VALUES ($1, $2)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                key, value,
            )

    async def import_session(self, record: SessionRecord, log: list[LogEntry]) -> None:
        async with self._conn() as conn, conn.transaction():
            try:
                await conn.execute(
                    "INSERT INTO sessions (id, guild_id, channel_id, game_id, status, host_id, seats, options, seed,"
                    " locale, state_json, version, table_message_id, created_at, updated_at, names, locales,"
                    " players, state_format) OVERRIDING SYSTEM VALUE"
                    " VALUES ($1, $2, $3, $4, $5, $6, $7::json, $8::json, $9::numeric, $10, $11, $12, $13, $14, $15,"
                    " $16::json, $17::json, $18::json, $19)",
                    record.id, record.guild_id, record.channel_id, record.game_id, record.status, record.host_id,
                    _dump(record.seats), _dump(record.options), str(record.seed), record.locale, record.state_json,
                    record.version, record.table_message_id, record.created_at, record.updated_at,
                    _dump(record.names), _dump(record.locales), _dump(record.players), record.state_format,
                )
            except asyncpg.UniqueViolationError as exc:
                raise StorageError(f"cannot import session {record.id}: {exc}") from exc
            await conn.copy_records_to_table(
                "action_log", columns=["session_id", "seq", "seat", "action_json", "created_at", "auto"],
                records=[(record.id, e.seq, e.seat, e.action_json, e.created_at, e.auto) for e in log],
            )
            # New lobbies continue above the imported ids.
            await conn.execute(
                "SELECT setval(pg_get_serial_sequence('sessions', 'id'), GREATEST((SELECT MAX(id) FROM sessions), 1))"
            )

    async def row_counts(self) -> dict[str, int]:
        async with self._conn() as conn:
            counts = await conn.fetchrow(
                "SELECT " + ", ".join(f"(SELECT COUNT(*) FROM {t}) AS {t}" for t in DATA_TABLES))
        assert counts is not None  # a SELECT without FROM returns its one row
        return {table: counts[table] for table in DATA_TABLES}

    async def export_extras(self) -> Extras:
        async with self._conn() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            guilds = await conn.fetch("SELECT guild_id, settings::text FROM guild_settings ORDER BY guild_id")
            prefs = await conn.fetch("SELECT user_id, autopass FROM player_prefs ORDER BY user_id")
            tables = await conn.fetch("SELECT session_id, settings::text FROM table_settings ORDER BY session_id")
            timers = await conn.fetch(f"SELECT {_TIMER_COLUMNS} FROM timers ORDER BY session_id, kind, seat")
            deliveries = await conn.fetch(
                "SELECT session_id, user_id, channel_id, message_id, ping_id, dm_closed, owed, version"
                " FROM deliveries ORDER BY session_id, user_id")
            meta = await conn.fetch("SELECT key, value FROM bot_meta ORDER BY key")
            ratings = await conn.fetch(f"SELECT {RATING_COLUMNS} FROM ratings ORDER BY guild_id, game_id, user_id")
            settled = await conn.fetch("SELECT session_id, unrated, changes FROM rated_games ORDER BY session_id")
            away = await conn.fetch("SELECT guild_id, user_id, until_ms FROM time_away ORDER BY guild_id, user_id")
        return Extras(
            ratings=[RatingRow(**dict(r)) for r in ratings],
            rated_games={r[0]: Settled.from_row(r[1], r[2]) for r in settled},
            away=[Away(guild_id=r[0], user_id=r[1], until=from_epoch_ms(r[2])) for r in away],
            guild_settings={r[0]: json.loads(r[1]) for r in guilds},
            player_prefs={r[0]: r[1] for r in prefs},
            table_settings={r[0]: json.loads(r[1]) for r in tables},
            timers=[Timer.from_row(*r) for r in timers],
            deliveries=[Delivery(**dict(r)) for r in deliveries],
            meta={r[0]: r[1] for r in meta},
        )

    async def import_extras(self, extras: Extras) -> None:
        async with self._conn() as conn, conn.transaction():
            await conn.executemany("INSERT INTO guild_settings (guild_id, settings) VALUES ($1, $2::json)",
                                   [(g, _dump(v)) for g, v in extras.guild_settings.items()])
            await conn.executemany("INSERT INTO player_prefs (user_id, autopass) VALUES ($1, $2)",
                                   list(extras.player_prefs.items()))
            await conn.executemany("INSERT INTO table_settings (session_id, settings) VALUES ($1, $2::json)",
                                   [(sid, _dump(v)) for sid, v in extras.table_settings.items()])
            await conn.executemany(
                f"INSERT INTO timers ({_TIMER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)",
                [(t.session_id, t.kind, t.seat or "", epoch_ms(t.due_at), epoch_ms(t.claimed_until or t.due_at),
                  t.version) for t in extras.timers])
            await conn.executemany(
                "INSERT INTO deliveries (session_id, user_id, channel_id, message_id, ping_id, dm_closed, owed,"
                " version) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                [(d.session_id, d.user_id, d.channel_id, d.message_id, d.ping_id, d.dm_closed, d.owed, d.version)
                 for d in extras.deliveries])
            await conn.executemany("INSERT INTO bot_meta (key, value) VALUES ($1, $2)", list(extras.meta.items()))
            await conn.executemany(f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                                   [r.values() for r in extras.ratings])
            await conn.executemany("INSERT INTO rated_games (session_id, unrated, changes) VALUES ($1, $2, $3)",
                                   [(sid, s.unrated, s.stored()) for sid, s in extras.rated_games.items()])
            await conn.executemany("INSERT INTO time_away (guild_id, user_id, until_ms) VALUES ($1, $2, $3)",
                                   [(a.guild_id, a.user_id, epoch_ms(a.until)) for a in extras.away])

    # --- deliveries, preferences, settings ---------------------------------------------------------------

    async def deliveries(self, session_id: int) -> dict[int, Delivery]:
        async with self._conn() as conn:
            rows = await conn.fetch(
                "SELECT session_id, user_id, channel_id, message_id, ping_id, dm_closed, owed, version"
                " FROM deliveries WHERE session_id = $1", session_id)
        return {r["user_id"]: Delivery(**dict(r)) for r in rows}

    async def save_delivery(self, delivery: Delivery) -> None:
        await self._writes.submit(SaveDelivery(delivery))

    async def autopass(self, user_id: int) -> bool:
        async with self._conn() as conn:
            value = await conn.fetchval("SELECT autopass FROM player_prefs WHERE user_id = $1", user_id)
        return True if value is None else bool(value)

    async def set_autopass(self, user_id: int, enabled: bool) -> None:
        async with self._conn() as conn:
            await conn.execute(
                "INSERT INTO player_prefs (user_id, autopass) VALUES ($1, $2)"
                " ON CONFLICT (user_id) DO UPDATE SET autopass = excluded.autopass", user_id, enabled)

    async def _json_setting(self, table: str, key: str, value: int) -> dict[str, Any]:
        """One settings row (``table`` is one of ours, never user input), or {} when there is none."""
        async with self._conn() as conn:
            text = await conn.fetchval(f"SELECT settings::text FROM {table} WHERE {key} = $1", value)
        return json.loads(text) if text else {}

    async def _put_json_setting(self, table: str, key: str, value: int, settings: dict[str, Any]) -> None:
        async with self._conn() as conn:
            await conn.execute(f"INSERT INTO {table} ({key}, settings) VALUES ($1, $2::json)"
                               f" ON CONFLICT ({key}) DO UPDATE SET settings = excluded.settings",
                               value, _dump(settings))

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
        async with self._conn() as conn:
            rows = await conn.fetch(
                f"SELECT {_COLUMNS} FROM sessions WHERE guild_id = $1 AND status = ANY($2::text[]) ORDER BY id",
                guild_id, list(statuses))
        return readable_records(rows, _record)

    # --- ratings and time away -----------------------------------------------------------------------------

    async def settle_ratings(self, session_id: int, guild_id: int, game_id: str, players: list[int], unrated: str,
                             rate: Callable[[dict[int, RatingRow]], list[RatingRow]]) -> bool:
        async with self._conn() as conn, conn.transaction():
            try:
                status = await conn.execute(
                    "INSERT INTO rated_games (session_id, unrated) VALUES ($1, $2) ON CONFLICT (session_id) DO NOTHING",
                    session_id, unrated)
            except asyncpg.ForeignKeyViolationError as exc:
                raise SessionNotFound(session_id) from exc
            if status == "INSERT 0 0":
                return False
            if unrated or not players:
                return True
            # FOR UPDATE: two games with a player in common finishing at once in two processes take turns,
            # so neither rates from the other's old figures.
            rows = await conn.fetch(
                f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = $1 AND game_id = $2"
                " AND user_id = ANY($3::bigint[]) ORDER BY user_id FOR UPDATE", guild_id, game_id, players)
            current = {r["user_id"]: RatingRow(**dict(r)) for r in rows}
            new = rate(current)
            await conn.execute("UPDATE rated_games SET changes = $2 WHERE session_id = $1", session_id,
                               rating_changes(current, new).stored())
            await conn.executemany(
                f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
                " ON CONFLICT (guild_id, game_id, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
                " games = excluded.games, wins = excluded.wins, name = excluded.name",
                [r.values() for r in new])
            return True

    async def ratings(self, guild_id: int, game_id: str | None = None,
                      user_id: int | None = None) -> list[RatingRow]:
        async with self._conn() as conn:
            rows = await conn.fetch(
                f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = $1 AND ($2::text IS NULL OR game_id = $2)"
                " AND ($3::bigint IS NULL OR user_id = $3) ORDER BY game_id, user_id", guild_id, game_id, user_id)
        return [RatingRow(**dict(r)) for r in rows]

    async def settled(self, session_ids: list[int]) -> dict[int, Settled]:
        if not session_ids:
            return {}
        async with self._conn() as conn:
            rows = await conn.fetch("SELECT session_id, unrated, changes FROM rated_games"
                                    " WHERE session_id = ANY($1::bigint[])", session_ids)
        return {r[0]: Settled.from_row(r[1], r[2]) for r in rows}

    async def set_away(self, guild_id: int, user_id: int, until: datetime | None) -> None:
        async with self._conn() as conn:
            if until is None:
                await conn.execute("DELETE FROM time_away WHERE guild_id = $1 AND user_id = $2", guild_id, user_id)
            else:
                await conn.execute(
                    "INSERT INTO time_away (guild_id, user_id, until_ms) VALUES ($1, $2, $3)"
                    " ON CONFLICT (guild_id, user_id) DO UPDATE SET until_ms = excluded.until_ms",
                    guild_id, user_id, epoch_ms(until))

    async def away(self, guild_id: int) -> list[Away]:
        async with self._conn() as conn:
            rows = await conn.fetch("SELECT user_id, until_ms FROM time_away WHERE guild_id = $1 ORDER BY user_id",
                                    guild_id)
        return [Away(guild_id=guild_id, user_id=r[0], until=from_epoch_ms(r[1])) for r in rows]

    # --- durable timers ---------------------------------------------------------------------------------

    async def set_timer(self, session_id: int, kind: str, seat: str | None, due_at: datetime,
                        version: int) -> Timer:
        timer = await self._writes.submit(SetTimer(session_id, kind, seat or "", epoch_ms(due_at), version))
        assert isinstance(timer, Timer)  # a SetTimer is answered with the timer it set
        return timer

    async def cancel_timer(self, session_id: int, kind: str, seat: str | None) -> bool:
        return await self._writes.submit(CancelTimer(session_id, kind, seat or "")) is True

    async def timers(self, session_id: int) -> list[Timer]:
        async with self._conn() as conn:
            rows = await conn.fetch(
                f"SELECT {_TIMER_COLUMNS} FROM timers WHERE session_id = $1 ORDER BY due_at, kind, seat", session_id)
        return [Timer.from_row(*r) for r in rows]

    async def next_timer_at(self) -> datetime | None:
        async with self._conn() as conn:
            ready = await conn.fetchval("SELECT MIN(ready_at) FROM timers")
        return None if ready is None else from_epoch_ms(ready)

    async def claim_due_timers(self, now: datetime, *, limit: int = 100, lease: float = 60.0) -> list[Timer]:
        at = epoch_ms(now)
        # SKIP LOCKED: rows another process is claiming this instant are passed over, not waited for, so
        # concurrent claimers split the due timers between them and none is handed out twice.
        async with self._conn() as conn:
            rows = await conn.fetch(
                "WITH due AS (SELECT session_id, kind, seat FROM timers WHERE ready_at <= $1"
                " ORDER BY ready_at LIMIT $2 FOR UPDATE SKIP LOCKED)"
                " UPDATE timers t SET ready_at = $3 FROM due"
                " WHERE t.session_id = due.session_id AND t.kind = due.kind AND t.seat = due.seat"
                " RETURNING t.session_id, t.kind, t.seat, t.due_at, t.ready_at, t.version",
                at, limit, at + max(1, int(lease * 1000)),
            )
        return sorted((Timer.from_row(*r) for r in rows), key=lambda t: (t.due_at, t.session_id, t.kind))

    async def retry_timer(self, timer: Timer, ready_at: datetime) -> bool:
        async with self._conn() as conn:
            status = await conn.execute(
                "UPDATE timers SET ready_at = $6 WHERE session_id = $1 AND kind = $2 AND seat = $3 AND due_at = $4"
                " AND version = $5",
                timer.session_id, timer.kind, timer.seat or "", epoch_ms(timer.due_at), timer.version,
                epoch_ms(ready_at),
            )
        return status != "UPDATE 0"

    async def complete_timer(self, timer: Timer) -> bool:
        async with self._conn() as conn:
            status = await conn.execute(
                "DELETE FROM timers WHERE session_id = $1 AND kind = $2 AND seat = $3 AND due_at = $4"
                " AND version = $5",
                timer.session_id, timer.kind, timer.seat or "", epoch_ms(timer.due_at), timer.version,
            )
        return status != "DELETE 0"

    async def counts(self, now: datetime) -> StoreCounts:
        async with self._conn() as conn:
            games = await conn.fetch("SELECT game_id, status, COUNT(*) AS n FROM sessions"
                                     " WHERE status IN ('lobby', 'running') GROUP BY game_id, status")
            due = await conn.fetchval("SELECT COUNT(*) FROM timers WHERE ready_at <= $1", epoch_ms(now))
        return StoreCounts({(r["game_id"], r["status"]): r["n"] for r in games}, int(due))

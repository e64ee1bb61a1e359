"""Versioned PostgreSQL schema, applied in order at ``PostgresStore.open``.

The PostgreSQL backend starts its own history: version 1 is the whole schema the SQLite file reached
through its first four migrations. Like SQLite's, applied versions are recorded in ``schema_version``, a
database written by a newer build is refused, and released migrations are never edited, only appended.

Concurrent openers (several shard processes starting together) take turns on a transaction-scoped
advisory lock, so the second one re-reads the version after the first committed and finds nothing to do.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Final

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.storage.migrations import Migration
from bot.storage.models import StorageError

MIGRATION_LOCK_KEY: Final = 0x67616D656E69  # "gameni": any constant shared by every process of this bot

PG_MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "sessions and action log",
        (
            # seed: engines take 64-bit unsigned seeds, beyond BIGINT. The json type (not jsonb) keeps
            # seats/options/names/locales as written, key order included, as SQLite does; state and actions
            # are the exact text the engine wrote, so a replay reads back byte for byte what was stored.
            """
            CREATE TABLE sessions (
                id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                guild_id         BIGINT,
                channel_id       BIGINT      NOT NULL,
                game_id          TEXT        NOT NULL,
                status           TEXT        NOT NULL
                                 CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
                host_id          BIGINT      NOT NULL,
                seats            JSON        NOT NULL,
                options          JSON        NOT NULL,
                seed             NUMERIC(20) NOT NULL CHECK (seed >= 0),
                locale           TEXT        NOT NULL,
                state_json       TEXT,
                version          INTEGER     NOT NULL DEFAULT 0,
                table_message_id BIGINT,
                created_at       TIMESTAMPTZ NOT NULL,
                updated_at       TIMESTAMPTZ NOT NULL,
                names            JSON        NOT NULL DEFAULT '{}',
                locales          JSON        NOT NULL DEFAULT '{}'
            )
            """,
            # One active session per channel is the database's guarantee, across every process.
            """
            CREATE UNIQUE INDEX sessions_one_active_per_channel
                ON sessions (channel_id) WHERE status IN ('lobby', 'running')
            """,
            "CREATE INDEX sessions_by_status ON sessions (status)",
            """
            CREATE TABLE action_log (
                session_id  BIGINT      NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
                seq         INTEGER     NOT NULL,
                seat        TEXT        NOT NULL,
                action_json TEXT        NOT NULL,
                created_at  TIMESTAMPTZ NOT NULL,
                PRIMARY KEY (session_id, seq)
            )
            """,
        ),
    ),
    Migration(
        2,
        "small values the bot keeps between runs",
        ("CREATE TABLE bot_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",),
    ),
    Migration(
        3,
        "durable timers",
        # As in SQLite: integer milliseconds, ready_at = due_at or the end of a claim's lease, indexed.
        (
            """
            CREATE TABLE timers (
                session_id BIGINT  NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
                due_at     BIGINT  NOT NULL,
                ready_at   BIGINT  NOT NULL,
                version    INTEGER NOT NULL,
                kind       TEXT    NOT NULL,
                seat       TEXT    NOT NULL DEFAULT '',
                PRIMARY KEY (session_id, kind, seat)
            )
            """,
            "CREATE INDEX timers_ready ON timers (ready_at)",
        ),
    ),
    Migration(
        4,
        "automatic actions, live private messages, players' preferences",
        # As SQLite's migration 7: the automatic mark in the log, each player's live DM and what they were
        # last told, and the auto-pass choice.
        (
            "ALTER TABLE action_log ADD COLUMN auto BOOLEAN NOT NULL DEFAULT FALSE",
            """
            CREATE TABLE deliveries (
                session_id BIGINT  NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
                user_id    BIGINT  NOT NULL,
                channel_id BIGINT,
                message_id BIGINT,
                ping_id    BIGINT,
                dm_closed  BOOLEAN NOT NULL DEFAULT FALSE,
                owed       BOOLEAN NOT NULL DEFAULT FALSE,
                version    INTEGER NOT NULL DEFAULT -1,
                PRIMARY KEY (session_id, user_id)
            )
            """,
            "CREATE TABLE player_prefs (user_id BIGINT PRIMARY KEY, autopass BOOLEAN NOT NULL DEFAULT TRUE)",
        ),
    ),
    Migration(
        5,
        "server settings, each table's clock",
        (
            "CREATE TABLE guild_settings (guild_id BIGINT PRIMARY KEY, settings JSON NOT NULL)",
            ("CREATE TABLE table_settings (session_id BIGINT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,"
             " settings JSON NOT NULL)"),
            "CREATE INDEX sessions_by_guild ON sessions (guild_id, status)",
        ),
    ),
    Migration(
        6,
        "who plays a seat after /game replace",
        ("ALTER TABLE sessions ADD COLUMN players JSON NOT NULL DEFAULT '{}'",),
    ),
    Migration(
        7,
        "the format of each stored game state",
        # As SQLite's migration 10: every state so far was written in format 1 (models.STATE_FORMAT).
        ("ALTER TABLE sessions ADD COLUMN state_format INTEGER NOT NULL DEFAULT 1",),
    ),
    Migration(
        8,
        "ratings, the games they counted, time away",
        # As SQLite's migration 11.
        (
            """
            CREATE TABLE ratings (
                guild_id BIGINT           NOT NULL,
                game_id  TEXT             NOT NULL,
                user_id  BIGINT           NOT NULL,
                mu       DOUBLE PRECISION NOT NULL,
                sigma    DOUBLE PRECISION NOT NULL,
                games    INTEGER          NOT NULL,
                wins     INTEGER          NOT NULL,
                name     TEXT             NOT NULL DEFAULT '',
                PRIMARY KEY (guild_id, game_id, user_id)
            )
            """,
            """
            CREATE TABLE rated_games (
                session_id BIGINT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
                unrated    TEXT   NOT NULL DEFAULT '',
                changes    TEXT   NOT NULL DEFAULT '{}'
            )
            """,
            """
            CREATE TABLE time_away (
                guild_id BIGINT NOT NULL,
                user_id  BIGINT NOT NULL,
                until_ms BIGINT NOT NULL,
                PRIMARY KEY (guild_id, user_id)
            )
            """,
        ),
    ),
)

PG_LATEST_VERSION: int = PG_MIGRATIONS[-1].version


async def apply_pg_migrations(conn: asyncpg.Connection | PoolConnectionProxy) -> int:
    """Bring the schema to ``PG_LATEST_VERSION`` in one transaction; return the version.

    A failing migration rolls back completely (PostgreSQL's DDL is transactional), leaving the database at
    its previous version.
    """
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK_KEY)
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL)"
        )
        current: int = await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")
        if current > PG_LATEST_VERSION:
            raise StorageError(
                f"database schema is at version {current}, newer than this build's {PG_LATEST_VERSION}; "
                "upgrade the bot instead of running an older one against this database"
            )
        for migration in PG_MIGRATIONS:
            if migration.version <= current:
                continue
            for statement in migration.statements:
                await conn.execute(statement)
            await conn.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)",
                migration.version,
                migration.name,
                datetime.now(UTC),
            )
    return PG_LATEST_VERSION

"""Versioned SQLite schema, applied in order at ``SqliteStore.open``.

Each migration is a list of single statements rather than a script: ``sqlite3.executescript`` commits
first, which would break the one-transaction guarantee. Applied versions are recorded in
``schema_version``, so reopening a file applies nothing, and a file written by a newer build is refused
instead of being misread. Append new migrations; never edit a released one.
"""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import aiosqlite

from bot.storage.models import StorageError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    statements: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "sessions and action log",
        (
            # seed is TEXT: engines take 64-bit unsigned seeds, which overflow SQLite's signed INTEGER.
            """
            CREATE TABLE sessions (
                id               INTEGER PRIMARY KEY AUTOINCREMENT,
                guild_id         INTEGER,
                channel_id       INTEGER NOT NULL,
                game_id          TEXT    NOT NULL,
                status           TEXT    NOT NULL
                                 CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
                host_id          INTEGER NOT NULL,
                seats_json       TEXT    NOT NULL,
                options_json     TEXT    NOT NULL,
                seed             TEXT    NOT NULL,
                locale           TEXT    NOT NULL,
                state_json       TEXT,
                version          INTEGER NOT NULL DEFAULT 0,
                table_message_id INTEGER,
                created_at       TEXT    NOT NULL,
                updated_at       TEXT    NOT NULL
            )
            """,
            # The database itself, not application code, guarantees one active session per channel,
            # so two processes racing to open a lobby cannot both succeed.
            """
            CREATE UNIQUE INDEX sessions_one_active_per_channel
                ON sessions (channel_id) WHERE status IN ('lobby', 'running')
            """,
            "CREATE INDEX sessions_by_status ON sessions (status)",
            """
            CREATE TABLE action_log (
                session_id  INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
                seq         INTEGER NOT NULL,
                seat        TEXT    NOT NULL,
                action_json TEXT    NOT NULL,
                created_at  TEXT    NOT NULL,
                PRIMARY KEY (session_id, seq)
            ) WITHOUT ROWID
            """,
        ),
    ),
    Migration(
        2,
        "display names of seated players",
        # Names are what images and texts show for a seat; they are taken from the interaction that
        # seated the player, so the bot needs no member intent to know them.
        ("ALTER TABLE sessions ADD COLUMN names_json TEXT NOT NULL DEFAULT '{}'",),
    ),
    Migration(
        3,
        "log an action in the same statement as its state",
        # An action's UPDATE carries the action itself; the trigger appends it to the log inside that one
        # statement, so recording a move is one atomic statement (one trip to SQLite's thread instead of
        # BEGIN, UPDATE, INSERT, COMMIT). Other version bumps leave last_action_json NULL and log nothing.
        (
            "ALTER TABLE sessions ADD COLUMN last_seat TEXT",
            "ALTER TABLE sessions ADD COLUMN last_action_json TEXT",
            """
            CREATE TRIGGER sessions_log_action AFTER UPDATE OF version ON sessions
            WHEN NEW.last_action_json IS NOT NULL
            BEGIN
                INSERT INTO action_log (session_id, seq, seat, action_json, created_at)
                VALUES (NEW.id, NEW.version, NEW.last_seat, NEW.last_action_json, NEW.updated_at);
            END
            """,
        ),
    ),
    Migration(
        4,
        "each seated player's language",
        # A player's private messages speak the language of the client they sat down with, not the
        # server's; like names, it comes from the interaction that seated them.
        ("ALTER TABLE sessions ADD COLUMN locales_json TEXT NOT NULL DEFAULT '{}'",),
    ),
    Migration(
        5,
        "small values the bot keeps between runs",
        # e.g. the hash of the command tree last synced, so a restart syncs only when commands changed.
        ("CREATE TABLE bot_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",),
    ),
    Migration(
        6,
        "durable timers",
        # Times are integer milliseconds since the epoch (8 bytes, no text to parse). ready_at is when the
        # timer can next be claimed: due_at while unclaimed, the end of the lease while claimed; one index
        # on it answers both "what is due now" and "when is the next one". seat '' is the whole table.
        (
            """
            CREATE TABLE timers (
                session_id INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
                kind       TEXT    NOT NULL,
                seat       TEXT    NOT NULL DEFAULT '',
                due_at     INTEGER NOT NULL,
                ready_at   INTEGER NOT NULL,
                version    INTEGER NOT NULL,
                PRIMARY KEY (session_id, kind, seat)
            ) WITHOUT ROWID
            """,
            "CREATE INDEX timers_ready ON timers (ready_at)",
        ),
    ),
    Migration(
        7,
        "automatic actions, live private messages, players' preferences",
        # An action the bot took for a seat (a forced step, an auto-pass) is logged like a click but
        # marked, so the log tells it apart. Deliveries remember each player's one live DM, their last
        # channel ping and whether a decision they owe was delivered: that is what lets a restarted bot
        # edit the same message and tell a player once, not twice.
        (
            "ALTER TABLE sessions ADD COLUMN last_auto INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE action_log ADD COLUMN auto INTEGER NOT NULL DEFAULT 0",
            "DROP TRIGGER sessions_log_action",
            """
            CREATE TRIGGER sessions_log_action AFTER UPDATE OF version ON sessions
            WHEN NEW.last_action_json IS NOT NULL
            BEGIN
                INSERT INTO action_log (session_id, seq, seat, action_json, created_at, auto)
                VALUES (NEW.id, NEW.version, NEW.last_seat, NEW.last_action_json, NEW.updated_at, NEW.last_auto);
            END
            """,
            """
            CREATE TABLE deliveries (
                session_id INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
                user_id    INTEGER NOT NULL,
                channel_id INTEGER,
                message_id INTEGER,
                ping_id    INTEGER,
                dm_closed  INTEGER NOT NULL DEFAULT 0,
                owed       INTEGER NOT NULL DEFAULT 0,
                version    INTEGER NOT NULL DEFAULT -1,
                PRIMARY KEY (session_id, user_id)
            ) WITHOUT ROWID
            """,
            "CREATE TABLE player_prefs (user_id INTEGER PRIMARY KEY, autopass INTEGER NOT NULL DEFAULT 1)",
        ),
    ),
    Migration(
        8,
        "server settings, each table's clock",
        (
            "CREATE TABLE guild_settings (guild_id INTEGER PRIMARY KEY, settings_json TEXT NOT NULL)",
            ("CREATE TABLE table_settings (session_id INTEGER PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,"
             " settings_json TEXT NOT NULL)"),
            "CREATE INDEX sessions_by_guild ON sessions (guild_id, status)",
        ),
    ),
    Migration(
        9,
        "who plays a seat after /game replace",
        ("ALTER TABLE sessions ADD COLUMN players_json TEXT NOT NULL DEFAULT '{}'",),
    ),
    Migration(
        10,
        "the format of each stored game state",
        # Every state so far was written in format 1; see models.STATE_FORMAT.
        ("ALTER TABLE sessions ADD COLUMN state_format INTEGER NOT NULL DEFAULT 1",),
    ),
    Migration(
        11,
        "ratings, the games they counted, time away",
        (
            """
            CREATE TABLE ratings (
                guild_id INTEGER NOT NULL,
                game_id  TEXT    NOT NULL,
                user_id  INTEGER NOT NULL,
                mu       REAL    NOT NULL,
                sigma    REAL    NOT NULL,
                games    INTEGER NOT NULL,
                wins     INTEGER NOT NULL,
                name     TEXT    NOT NULL DEFAULT '',
                PRIMARY KEY (guild_id, game_id, user_id)
            ) WITHOUT ROWID
            """,
            # One row per finished game once its ratings were settled (``unrated``: why it changed none, ''
            # when it counted): the key that makes a second settling of the same game do nothing.
            """
            CREATE TABLE rated_games (
                session_id INTEGER PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
                unrated    TEXT    NOT NULL DEFAULT '',
                changes    TEXT    NOT NULL DEFAULT '{}'
            )
            """,
            """
            CREATE TABLE time_away (
                guild_id INTEGER NOT NULL,
                user_id  INTEGER NOT NULL,
                until_ms INTEGER NOT NULL,
                PRIMARY KEY (guild_id, user_id)
            ) WITHOUT ROWID
            """,
        ),
    ),
)

LATEST_VERSION: int = MIGRATIONS[-1].version


async def stored_version(conn: aiosqlite.Connection) -> int:
    """The schema version the file is at (0: a new file, or one no build of this bot has prepared)."""
    rows = await conn.execute_fetchall("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")
    if not list(rows):
        return 0
    rows = await conn.execute_fetchall("SELECT COALESCE(MAX(version), 0) FROM schema_version")
    version: int = next(iter(rows))[0]
    return version


def backup_before_upgrade(path: Path, version: int) -> Path:
    """Copy the database at ``path`` (schema ``version``) beside it before migrations change it, so an upgrade
    that goes wrong, or a build that must be rolled back, has the file as it was. SQLite's online backup
    copies a consistent snapshot, the WAL's committed pages included. Returns the copy's path."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.schema-v{version}-{stamp}.bak")
    source = sqlite3.connect(path)
    try:
        copy = sqlite3.connect(target)
        try:
            source.backup(copy)
        finally:
            copy.close()
    finally:
        source.close()
    log.warning("backed up %s (schema version %d) to %s before upgrading it to version %d",
                path, version, target, LATEST_VERSION)
    return target


async def apply_migrations(conn: aiosqlite.Connection) -> int:
    """Bring the schema to ``LATEST_VERSION`` in one ``BEGIN IMMEDIATE`` transaction; return the version.

    The immediate lock makes concurrent openers (two bot processes starting together) take turns, and
    the second one re-reads the version inside its transaction and finds nothing left to do. A failing
    migration rolls back completely, leaving the file at its previous version.
    """
    await conn.execute("BEGIN IMMEDIATE")
    try:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
        rows = await conn.execute_fetchall("SELECT COALESCE(MAX(version), 0) FROM schema_version")
        current: int = next(iter(rows))[0]
        if current > LATEST_VERSION:
            raise StorageError(
                f"database schema is at version {current}, newer than this build's {LATEST_VERSION}; "
                "upgrade the bot instead of running an older one against this file"
            )
        for migration in MIGRATIONS:
            if migration.version <= current:
                continue
            for statement in migration.statements:
                await conn.execute(statement)
            await conn.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, datetime.now(UTC).isoformat()),
            )
        await conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            await conn.execute("ROLLBACK")
        raise
    return LATEST_VERSION

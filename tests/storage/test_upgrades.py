"""Upgrading a deployment (issue 25): the SQLite file is copied before a schema migration changes it, and
every stored game state carries the format it was written in, so an older build refuses a newer state
instead of misreading it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import bot.storage.sqlite
from bot.storage import STATE_FORMAT, NewerStateFormat, SqliteStore, StorageError, Store
from bot.storage.migrations import LATEST_VERSION, MIGRATIONS

from .conftest import Backend
from .helpers import CHANNEL, running


def file_at_version(path: Path, version: int) -> None:
    """A database as a build at schema ``version`` left it, holding one lobby."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                     " applied_at TEXT NOT NULL)")
        for migration in MIGRATIONS[:version]:
            for statement in migration.statements:
                conn.execute(statement)
            conn.execute("INSERT INTO schema_version VALUES (?, ?, '2026-01-01')", (migration.version, migration.name))
        conn.execute("INSERT INTO sessions (guild_id, channel_id, game_id, status, host_id, seats_json, options_json,"
                     " seed, locale, created_at, updated_at) VALUES (1, 2, 'call_to_glory', 'lobby', 3, '[3]', '{}',"
                     " '42', 'en', '2026-01-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00')")
        conn.commit()
    finally:
        conn.close()


def schema_of(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        version: int = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
    return version


async def test_an_upgrade_backs_the_file_up_first(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    older = LATEST_VERSION - 1
    file_at_version(path, older)
    async with SqliteStore(path) as store:
        (lobby,) = await store.sessions_with_status("lobby")
        assert lobby.state_format == 1, "states stored before formats were recorded are format 1"
    backups = list(tmp_path.glob(f"bot.sqlite3.schema-v{older}-*.bak"))
    assert len(backups) == 1
    assert schema_of(backups[0]) == older and schema_of(path) == LATEST_VERSION
    with sqlite3.connect(backups[0]) as conn:
        assert conn.execute("SELECT game_id FROM sessions").fetchall() == [("call_to_glory",)]
    async with SqliteStore(path):
        pass
    assert len(list(tmp_path.glob("*.bak"))) == 1, "no migration to run, no copy"


async def test_a_new_file_is_not_backed_up(tmp_path: Path) -> None:
    async with SqliteStore(tmp_path / "bot.sqlite3"):
        pass
    assert list(tmp_path.glob("*.bak")) == []


async def test_no_backup_no_upgrade(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "bot.sqlite3"
    file_at_version(path, LATEST_VERSION - 1)

    def disk_full(_path: Path, _version: int) -> Path:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(bot.storage.sqlite, "backup_before_upgrade", disk_full)
    with pytest.raises(StorageError, match="cannot back up .* No space left on device"):
        await SqliteStore(path).open()
    assert schema_of(path) == LATEST_VERSION - 1, "the file is left at its version"


async def test_every_state_written_carries_this_builds_format(store: Store) -> None:
    game = await running(store)
    assert game.state_format == STATE_FORMAT
    moved = await store.commit_action(game.id, game.version, seat="444", action_json="{}", state_json='{"turn":1}')
    assert moved.state_format == (await store.get(game.id)).state_format == STATE_FORMAT


async def test_a_state_from_a_newer_build_is_refused_alone(store: Store, backend: Backend) -> None:
    newer, other = await running(store), await running(store, CHANNEL + 1)
    await backend.execute("UPDATE sessions SET state_format = ? WHERE id = ?", (STATE_FORMAT + 1, newer.id))
    with pytest.raises(NewerStateFormat, match=f"format {STATE_FORMAT + 1}, newer than this build's") as raised:
        await store.get(newer.id)
    assert raised.value.session_id == newer.id and raised.value.code == "storage_newer_format"
    assert [r.id for r in await store.sessions_with_status("running")] == [other.id]

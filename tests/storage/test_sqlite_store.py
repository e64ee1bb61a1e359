"""What only the SQLite store does, against real files in tmp_path: its migrations from older files, pragmas,
the batched commits on the event loop, WAL checkpoints. The behaviour every backend shares is in
``test_contract.py``."""

from __future__ import annotations

import asyncio
import gc
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import aiosqlite
import pytest

from bot.storage import migrations as M
from bot.storage import (
    Delivery,
    SessionLocks,
    SessionRecord,
    SqliteStore,
    StorageError,
    VersionConflict,
    open_store,
)
from bot.storage.migrations import LATEST_VERSION, MIGRATIONS, apply_migrations

from .helpers import CHANNEL, HOST, new_lobby, running


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "bot.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[SqliteStore]:
    async with SqliteStore(db_path) as s:
        yield s


def raw(db_path: Path) -> sqlite3.Connection:
    """A second, plain connection: what another process would see."""
    return sqlite3.connect(db_path)


# --- schema ------------------------------------------------------------------------------------------


def test_migrations_are_numbered_one_to_n() -> None:
    assert [m.version for m in MIGRATIONS] == list(range(1, len(MIGRATIONS) + 1))


async def test_migrations_idempotent_on_reopen(db_path: Path) -> None:
    for _ in range(3):
        async with SqliteStore(db_path):
            pass
    with raw(db_path) as conn:
        versions = [v for (v,) in conn.execute("SELECT version FROM schema_version ORDER BY version")]
    assert versions == list(range(1, LATEST_VERSION + 1))


async def test_a_file_from_before_seat_languages_upgrades_in_place(db_path: Path) -> None:
    """A database written before migration 4 keeps its games: the new column starts empty, so those seats
    fall back to the channel's language, and new seats record theirs."""
    db_path.parent.mkdir(parents=True)
    older = tuple(m for m in MIGRATIONS if m.version < 4)
    async with aiosqlite.connect(db_path) as conn:
        saved = M.MIGRATIONS, M.LATEST_VERSION
        M.MIGRATIONS, M.LATEST_VERSION = older, older[-1].version
        try:
            await apply_migrations(conn)
        finally:
            M.MIGRATIONS, M.LATEST_VERSION = saved
        await conn.execute(
            "INSERT INTO sessions (guild_id, channel_id, game_id, status, host_id, seats_json, options_json, seed,"
            " locale, version, created_at, updated_at) VALUES (1, ?, 'fluxx_cthulhu', 'lobby', ?, ?, '{}', '7', 'ru',"
            " 0, '2026-01-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00')", (CHANNEL, HOST, f"[{HOST}]"))
        await conn.commit()
    async with SqliteStore(db_path) as store:
        rec = await store.active_in_channel(CHANNEL)
        assert rec is not None and rec.locales == {} and rec.locale == "ru"
        rec = await store.update_lobby(rec.id, rec.version, seats=[HOST, 444], locales={"444": "en"})
        assert (await store.get(rec.id)).locales == {"444": "en"}


async def test_connection_pragmas(store: SqliteStore, db_path: Path) -> None:
    with raw(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)  # persistent, seen by others
    assert db_path.with_name(db_path.name + "-wal").exists()
    live = store._connection()  # these pragmas are per connection, so ask the store's own
    for pragma, expected in (("busy_timeout", 5000), ("foreign_keys", 1), ("synchronous", 1)):  # 1 = NORMAL
        rows = list(await live.execute_fetchall(f"PRAGMA {pragma}"))
        assert rows[0][0] == expected, pragma


# --- actions -----------------------------------------------------------------------------------------


# --- actions committed together ------------------------------------------------------------------------


async def test_a_held_write_lock_is_waited_for_without_stalling_the_loop(store: SqliteStore, db_path: Path) -> None:
    """Another process holding the write lock: the action waits in aiosqlite's thread, and the event loop
    keeps serving everything else meanwhile."""
    game = await running(store)
    other = sqlite3.connect(db_path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    async def release_later() -> None:
        await asyncio.sleep(0.3)
        other.execute("COMMIT")

    tick_task = asyncio.create_task(ticker())
    release = asyncio.create_task(release_later())
    try:
        record = await store.commit_action(game.id, game.version, seat="0", action_json="{}", state_json='{"w":1}')
    finally:
        tick_task.cancel()
        await release
        other.close()
    assert record.version == game.version + 1
    assert ticks >= 10  # the loop ran on while the action waited for the lock


async def test_writes_of_one_pass_of_the_loop_share_one_transaction(store: SqliteStore) -> None:
    """The first write of a pass of the event loop is committed at once (a lone click waits for nothing);
    the writes after it in the same pass are committed together early in the next one."""
    a, b = await running(store), await running(store, CHANNEL + 1)
    due = datetime(2026, 11, 24, 20, 0, tzinfo=UTC)
    statements: list[str] = []
    assert store._writer is not None
    store._writer.set_trace_callback(statements.append)
    moved_a, moved_b, _saved, timer = await asyncio.gather(
        store.commit_action(a.id, a.version, seat="0", action_json='"a"', state_json="{}"),
        store.commit_action(b.id, b.version, seat="0", action_json='"b"', state_json="{}"),
        store.save_delivery(Delivery(session_id=a.id, user_id=7, version=a.version + 1)),
        store.set_timer(b.id, "turn", "1", due, b.version + 1),
    )
    store._writer.set_trace_callback(None)
    heads = [" ".join(s.split()[:3]) for s in statements]
    run = [h for i, h in enumerate(heads) if i == 0 or h != heads[i - 1]]  # an action's triggers trace it again
    assert run == ["UPDATE sessions SET", "BEGIN IMMEDIATE", "UPDATE sessions SET", "INSERT OR REPLACE",
                   "INSERT INTO timers", "COMMIT"]
    assert (moved_a.version, moved_b.version, timer.version) == (a.version + 1, b.version + 1, b.version + 1)


async def test_writes_are_committed_in_the_order_they_were_made(store: SqliteStore) -> None:
    """The write committed at once is the first of its pass, and the queue keeps its order: the last of
    several writes to one row is the one that stays."""
    game = await running(store)
    await asyncio.gather(*(store.save_delivery(Delivery(session_id=game.id, user_id=7, version=v))
                           for v in range(1, 5)))
    assert (await store.deliveries(game.id))[7].version == 4


async def test_a_write_made_while_a_batch_waits_for_the_thread_is_committed_after_it(store: SqliteStore,
                                                                                       db_path: Path) -> None:
    """Once the lock is free the loop's connection could write at once, while the thread still sleeps in its
    busy wait: the later write must not overtake the earlier one."""
    game = await running(store)
    other = sqlite3.connect(db_path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    first = asyncio.create_task(store.save_delivery(Delivery(session_id=game.id, user_id=7, version=1)))
    await asyncio.sleep(0.05)
    assert store._in_thread, "the first write waits in the thread"
    other.execute("COMMIT")
    other.close()
    await store.save_delivery(Delivery(session_id=game.id, user_id=7, version=2))
    await first
    assert (await store.deliveries(game.id))[7].version == 2


async def test_a_committed_row_that_cannot_be_read_fails_its_caller_alone(store: SqliteStore,
                                                                          db_path: Path) -> None:
    a, b = await running(store), await running(store, CHANNEL + 1)
    with raw(db_path) as other:  # damage a's names: its commit's row cannot be read back
        other.execute("UPDATE sessions SET names_json = '{' WHERE id = ?", (a.id,))
    moved_b, broken, saved = await asyncio.wait_for(asyncio.gather(
        store.commit_action(b.id, b.version, seat="0", action_json="{}", state_json="{}"),
        store.commit_action(a.id, a.version, seat="0", action_json="{}", state_json="{}"),
        store.save_delivery(Delivery(session_id=b.id, user_id=7, version=b.version + 1)),
        return_exceptions=True), timeout=5)
    assert isinstance(moved_b, SessionRecord) and isinstance(broken, ValueError) and saved is None
    assert (await store.deliveries(b.id))[7].version == b.version + 1


async def test_a_write_cancelled_before_the_batch_commit_is_not_stored(store: SqliteStore) -> None:
    game = await running(store)
    first = asyncio.create_task(store.save_delivery(Delivery(session_id=game.id, user_id=7)))
    queued = asyncio.create_task(
        store.commit_action(game.id, game.version, seat="0", action_json="{}", state_json='{"c":1}'))
    await asyncio.sleep(0)  # both ran up to their writes: the first is committed, the second waits its batch
    queued.cancel()
    with pytest.raises(asyncio.CancelledError):
        await queued
    await first
    assert store._queue == []
    assert (await store.get(game.id)).version == game.version
    assert await store.actions(game.id) == []


async def test_a_write_cancelled_while_waiting_for_the_thread_is_not_stored(store: SqliteStore,
                                                                          db_path: Path) -> None:
    """Another process holds the write lock, so the write goes to aiosqlite's thread, whose connection is
    busy too: cancelled meanwhile, it never runs."""
    game = await running(store)
    other = sqlite3.connect(db_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        async with store._lock:
            waiting = asyncio.create_task(
                store.commit_action(game.id, game.version, seat="0", action_json="{}", state_json='{"c":1}'))
            await asyncio.sleep(0.01)
            assert store._in_thread, "the write waits for the thread"
            waiting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiting
    finally:
        other.execute("COMMIT")
        other.close()
    await asyncio.gather(*store._in_thread)
    assert (await store.get(game.id)).version == game.version
    assert await store.actions(game.id) == []


async def test_a_batch_committed_in_the_thread_right_after_a_checkpoint(store: SqliteStore, db_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """aiosqlite's thread keeps its last job's cursor alive until the next job: the checkpoint's row must be
    read to the end, else its statement is still running and the batch's COMMIT is refused."""
    monkeypatch.setattr("bot.storage.sqlite.CHECKPOINT_EVERY", 1)
    game = await running(store)
    game = await store.commit_action(game.id, game.version, seat="0", action_json="{}", state_json="{}")
    assert store._checkpoint is not None
    await store._checkpoint
    other = sqlite3.connect(db_path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # the loop's connection cannot write: the batch goes to the thread
    asyncio.get_running_loop().call_later(0.05, other.execute, "COMMIT")
    try:
        moved, _saved = await asyncio.gather(
            store.commit_action(game.id, game.version, seat="1", action_json="{}", state_json="{}"),
            store.save_delivery(Delivery(session_id=game.id, user_id=7, version=game.version + 1)))
    finally:
        other.close()
    assert moved.version == game.version + 1
    assert (await store.deliveries(game.id))[7].version == game.version + 1


async def test_a_version_check_reads_no_row_while_no_other_connection_wrote(store: SqliteStore,
                                                                           db_path: Path) -> None:
    """``PRAGMA data_version`` says whether another connection committed since the store's connection last
    looked, once a pass of the event loop; until one does, the versions it committed or read are current."""
    game = await running(store)  # started in aiosqlite's thread: another connection, to the loop's
    statements: list[str] = []
    assert store._writer is not None
    store._writer.set_trace_callback(statements.append)
    assert await store.version(game.id) == game.version  # looks, then reads
    assert await store.version(game.id) == game.version  # the same pass: the look holds
    moved = await store.commit_action(game.id, game.version, seat="0", action_json="{}", state_json="{}")
    await asyncio.sleep(0)  # the next pass looks again
    assert await store.version(game.id) == moved.version  # its own commit: known
    with raw(db_path) as other:  # another process moves the game
        other.execute("UPDATE sessions SET version = version + 1, last_action_json = NULL WHERE id = ?", (game.id,))
    await asyncio.sleep(0)
    assert await store.version(game.id) == moved.version + 1  # looks, then reads
    store._writer.set_trace_callback(None)
    heads = [" ".join(s.split()[:2]) for s in statements]
    assert [h for i, h in enumerate(heads) if i == 0 or h != heads[i - 1]] == [
        "PRAGMA data_version", "SELECT version", "UPDATE sessions", "PRAGMA data_version", "SELECT version"]
    ended = await store.set_status(game.id, moved.version + 1, "abandoned")  # in the thread
    assert await store.version(game.id) == ended.version


async def test_a_commit_refused_as_stale_tells_the_version_check_what_it_found(store: SqliteStore,
                                                                               db_path: Path) -> None:
    game = await running(store)
    await asyncio.sleep(0)
    assert await store.version(game.id) == game.version  # this pass's look
    this_pass = store._pass_end
    with raw(db_path) as other:  # another process moves the game, after the look
        other.execute("UPDATE sessions SET version = version + 1, last_action_json = NULL WHERE id = ?", (game.id,))
    with pytest.raises(VersionConflict):
        await store.commit_action(game.id, game.version, seat="0", action_json="{}", state_json="{}")
    assert await store.version(game.id) == game.version + 1
    assert store._pass_end is this_pass, "no pass of the loop went by"


async def test_a_version_check_sees_another_stores_commit_in_the_same_pass(db_path: Path) -> None:
    """Two stores of one process (two bots, or a test's two processes): a commit on one's event-loop
    connection can fall in the other's pass of the loop, after its look; the other looks again."""
    async with SqliteStore(db_path) as a, SqliteStore(db_path) as b:
        game = await running(a)
        assert await b.version(game.id) == game.version
        this_pass = b._pass_end
        moved = await a.commit_action(game.id, game.version, seat="0", action_json="{}", state_json="{}")
        assert await b.version(game.id) == moved.version
        assert b._pass_end is this_pass, "no pass of the loop went by"


async def test_the_wal_is_checkpointed_off_the_event_loop(store: SqliteStore, db_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.storage.sqlite.CHECKPOINT_EVERY", 3)
    game = await running(store)
    for _ in range(3):
        game = await store.commit_action(game.id, game.version, seat="0", action_json="{}", state_json="{}")
    assert store._checkpoint is not None
    await store._checkpoint
    with raw(db_path) as conn:
        busy, frames, copied = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    assert busy == 0 and frames == copied


# --- open_store ------------------------------------------------------------------------------------------


async def test_open_store_sqlite_url(db_path: Path) -> None:
    store = await open_store(f"sqlite:///{db_path}")
    try:
        assert isinstance(store, SqliteStore) and store.path == db_path.resolve()
        await new_lobby(store)
    finally:
        await store.close()
    assert db_path.exists()


@pytest.mark.parametrize("url", ["mysql://x/y", "sqlite://", "sqlite:///:memory:", ""])
async def test_open_store_rejects_bad_urls(url: str) -> None:
    with pytest.raises(StorageError):
        await open_store(url)


# --- per-session locks ---------------------------------------------------------------------------------


async def test_session_locks_shared_then_dropped() -> None:
    locks = SessionLocks()
    order: list[str] = []

    async def step(name: str) -> None:
        async with locks.lock_for(7):
            order.append(f"{name} in")
            await asyncio.sleep(0)
            order.append(f"{name} out")

    await asyncio.gather(step("a"), step("b"))
    assert order == ["a in", "a out", "b in", "b out"]
    assert locks.lock_for(7) is not locks.lock_for(8)
    gc.collect()
    assert len(locks) == 0


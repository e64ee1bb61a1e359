"""The SQLite store against real files in tmp_path: schema, channel exclusivity, CAS, log, restart."""

from __future__ import annotations

import asyncio
import gc
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import pytest

from bot.storage import migrations as M
from bot.storage import (
    ChannelBusy,
    InvalidTransition,
    SessionLocks,
    SessionNotFound,
    SessionRecord,
    SqliteStore,
    StorageError,
    Store,
    VersionConflict,
    open_store,
)
from bot.storage.migrations import LATEST_VERSION, MIGRATIONS, apply_migrations

GUILD, CHANNEL, HOST = 111, 222, 333


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "bot.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[SqliteStore]:
    async with SqliteStore(db_path) as s:
        yield s


async def new_lobby(store: Store, channel_id: int = CHANNEL, seed: int = 42) -> SessionRecord:
    return await store.create_session(GUILD, channel_id, "fluxx_cthulhu", HOST, {"variant": "base"}, seed, "en")


async def running(store: Store, channel_id: int = CHANNEL) -> SessionRecord:
    lobby = await new_lobby(store, channel_id)
    return await store.start(lobby.id, lobby.version, '{"turn":0}', [HOST, 444])


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


async def test_two_stores_migrating_a_fresh_file_at_once(db_path: Path) -> None:
    a, b = SqliteStore(db_path), SqliteStore(db_path)
    await asyncio.gather(a.open(), b.open())
    try:
        await new_lobby(a)
        assert (await b.active_in_channel(CHANNEL)) is not None
    finally:
        await asyncio.gather(a.close(), b.close())
    with raw(db_path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM schema_version").fetchone() == (LATEST_VERSION,)


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


async def test_newer_schema_is_refused(db_path: Path) -> None:
    async with SqliteStore(db_path):
        pass
    with raw(db_path) as conn:
        conn.execute("INSERT INTO schema_version VALUES (?, 'from the future', 'x')", (LATEST_VERSION + 1,))
    with pytest.raises(StorageError, match="newer than this build"):
        await SqliteStore(db_path).open()


async def test_connection_pragmas(store: SqliteStore, db_path: Path) -> None:
    with raw(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)  # persistent, seen by others
    assert db_path.with_name(db_path.name + "-wal").exists()
    live = store._connection()  # these pragmas are per connection, so ask the store's own
    for pragma, expected in (("busy_timeout", 5000), ("foreign_keys", 1), ("synchronous", 1)):  # 1 = NORMAL
        rows = list(await live.execute_fetchall(f"PRAGMA {pragma}"))
        assert rows[0][0] == expected, pragma


async def test_use_before_open_is_a_storage_error(db_path: Path) -> None:
    with pytest.raises(StorageError, match="not open"):
        await SqliteStore(db_path).get(1)


# --- create / get / channel exclusivity --------------------------------------------------------------


async def test_create_get_active(store: Store) -> None:
    assert await store.active_in_channel(CHANNEL) is None
    created = await new_lobby(store)
    assert (created.status, created.seats, created.version, created.host_id) == ("lobby", [HOST], 0, HOST)
    assert (created.guild_id, created.channel_id, created.game_id) == (GUILD, CHANNEL, "fluxx_cthulhu")
    assert (created.options, created.seed, created.locale) == ({"variant": "base"}, 42, "en")
    assert created.state_json is None and created.table_message_id is None
    assert created.created_at.tzinfo is not None and created.created_at == created.updated_at
    assert await store.get(created.id) == created
    assert await store.active_in_channel(CHANNEL) == created
    assert await store.active_in_channel(CHANNEL + 1) is None


async def test_unsigned_64_bit_seed_round_trips(store: Store) -> None:
    created = await new_lobby(store, seed=2**64 - 1)
    assert (await store.get(created.id)).seed == 2**64 - 1


async def test_missing_session(store: Store) -> None:
    with pytest.raises(SessionNotFound):
        await store.get(999)
    with pytest.raises(SessionNotFound):
        await store.actions(999)
    with pytest.raises(SessionNotFound):
        await store.set_table_message(999, 1)
    with pytest.raises(SessionNotFound):
        await store.commit_action(999, 0, seat="a", action_json="{}", state_json="{}")


async def test_second_active_session_in_channel_is_busy(store: Store) -> None:
    first = await new_lobby(store)
    with pytest.raises(ChannelBusy) as info:
        await new_lobby(store)
    assert info.value.existing == first
    started = await store.start(first.id, first.version, "{}", [HOST])
    with pytest.raises(ChannelBusy):
        await new_lobby(store)
    assert await new_lobby(store, CHANNEL + 1)  # other channels are unaffected
    assert await store.active_in_channel(CHANNEL) == started


@pytest.mark.parametrize("end", ["finished", "abandoned"])
async def test_channel_free_again_after_session_ends(store: Store, end: str) -> None:
    first = await running(store)
    await store.set_status(first.id, first.version, end)  # type: ignore[arg-type]
    assert await store.active_in_channel(CHANNEL) is None
    second = await new_lobby(store)
    assert second.id != first.id
    assert [s.id for s in await store.sessions_with_status(end)] == [first.id]  # type: ignore[arg-type]


async def test_busy_across_processes(db_path: Path) -> None:
    """Two stores (as two bot processes would have) racing to open a lobby: the unique index decides."""
    async with SqliteStore(db_path) as a, SqliteStore(db_path) as b:
        results = await asyncio.gather(new_lobby(a), new_lobby(b), return_exceptions=True)
    assert sorted(type(r).__name__ for r in results) == ["ChannelBusy", "SessionRecord"]


# --- lobby, start, status ----------------------------------------------------------------------------


async def test_update_lobby_is_cas_and_partial(store: Store) -> None:
    lobby = await new_lobby(store)
    joined = await store.update_lobby(lobby.id, 0, seats=[HOST, 444])
    assert (joined.seats, joined.options, joined.host_id, joined.version) == ([HOST, 444], {"variant": "base"}, HOST, 1)
    moved = await store.update_lobby(lobby.id, 1, host_id=444, options={"variant": "expert"})
    assert (moved.seats, moved.options, moved.host_id, moved.version) == ([HOST, 444], {"variant": "expert"}, 444, 2)
    with pytest.raises(VersionConflict) as info:
        await store.update_lobby(lobby.id, 1, seats=[HOST])
    assert (info.value.session_id, info.value.expected, info.value.actual) == (lobby.id, 1, 2)


async def test_start_then_lobby_edits_are_refused(store: Store) -> None:
    lobby = await new_lobby(store)
    started = await store.start(lobby.id, 0, '{"turn":0}', [444, HOST])
    assert (started.status, started.state_json, started.seats) == ("running", '{"turn":0}', [444, HOST])
    assert started.version == 1
    with pytest.raises(InvalidTransition):
        await store.update_lobby(lobby.id, 1, seats=[HOST])
    with pytest.raises(InvalidTransition):
        await store.start(lobby.id, 1, "{}", [HOST])
    assert (await store.get(lobby.id)).version == 1  # refused changes leave the row alone


async def test_status_rules(store: Store) -> None:
    lobby = await new_lobby(store)
    with pytest.raises(InvalidTransition):  # actions need a running game
        await store.commit_action(lobby.id, 0, seat="a", action_json="{}", state_json="{}")
    with pytest.raises(ValueError):
        await store.set_status(lobby.id, 0, "running")
    with pytest.raises(ValueError):
        await store.commit_action(lobby.id, 0, seat="a", action_json="{}", state_json="{}", status="lobby")
    ended = await store.set_status(lobby.id, 0, "abandoned")
    assert (ended.status, ended.version) == ("abandoned", 1)
    with pytest.raises(InvalidTransition):  # terminal
        await store.set_status(lobby.id, 1, "finished")


async def test_table_message_does_not_bump_version(store: Store) -> None:
    game = await running(store)
    updated = await store.set_table_message(game.id, 987654321)
    assert (updated.table_message_id, updated.version) == (987654321, game.version)
    # an action computed against the version before the message was posted still commits
    await store.commit_action(game.id, game.version, seat="a", action_json="{}", state_json="{}")
    assert (await store.set_table_message(game.id, None)).table_message_id is None


async def test_sessions_with_status(store: Store) -> None:
    a = await running(store, 1)
    b = await new_lobby(store, 2)
    c = await running(store, 3)
    await store.set_status(c.id, c.version, "finished")
    assert [s.id for s in await store.sessions_with_status("running")] == [a.id]
    assert [s.id for s in await store.sessions_with_status("lobby", "running")] == [a.id, b.id]
    with pytest.raises(ValueError):
        await store.sessions_with_status()


# --- actions -----------------------------------------------------------------------------------------


async def test_action_log_order_and_content(store: Store) -> None:
    game = await running(store)
    version = game.version
    moves = [("0", '{"type":"draw"}'), ("1", '{"type":"play","card":"Ктулху"}'), ("0", '{"type":"pass"}')]
    for i, (seat, action) in enumerate(moves):
        last = i == len(moves) - 1
        record = await store.commit_action(
            game.id,
            version,
            seat=seat,
            action_json=action,
            state_json=f'{{"turn":{i + 1}}}',
            status="finished" if last else "running",
        )
        assert record.version == version + 1
        version = record.version
    assert (record.status, record.state_json) == ("finished", '{"turn":3}')
    log = await store.actions(game.id)
    assert [(e.seat, e.action_json) for e in log] == moves
    assert [e.seq for e in log] == [game.version + 1, game.version + 2, game.version + 3]
    assert all(e.session_id == game.id for e in log)
    assert log[-1].created_at == record.updated_at
    assert await store.active_in_channel(CHANNEL) is None  # finishing via the last action frees the channel


@pytest.mark.parametrize("two_processes", [False, True])
async def test_racing_commits_exactly_one_wins(db_path: Path, two_processes: bool) -> None:
    async with SqliteStore(db_path) as a, SqliteStore(db_path) as b:
        game = await running(a)
        other = b if two_processes else a
        results = await asyncio.gather(
            a.commit_action(game.id, game.version, seat="0", action_json='"first"', state_json="{}"),
            other.commit_action(game.id, game.version, seat="1", action_json='"second"', state_json="{}"),
            return_exceptions=True,
        )
        wins = [r for r in results if isinstance(r, SessionRecord)]
        losses = [r for r in results if isinstance(r, VersionConflict)]
        assert len(wins) == 1 and len(losses) == 1
        assert (losses[0].expected, losses[0].actual) == (game.version, game.version + 1)
        log = await a.actions(game.id)
        assert len(log) == 1 and log[0].seq == wins[0].version
        assert (await b.get(game.id)).version == game.version + 1


async def test_commit_is_one_transaction(store: Store, db_path: Path) -> None:
    """If the log append fails, the state and version change must not survive either."""
    game = await running(store)
    with raw(db_path) as conn:  # squat on the seq the next action will need
        conn.execute(
            "INSERT INTO action_log (session_id, seq, seat, action_json, created_at) VALUES (?, ?, 'x', '{}', '2020-01-01T00:00:00+00:00')", (game.id, game.version + 1)
        )
    with pytest.raises(StorageError):
        await store.commit_action(game.id, game.version, seat="0", action_json="{}", state_json='{"new":1}')
    after = await store.get(game.id)
    assert (after.version, after.state_json) == (game.version, game.state_json)


# --- actions committed together ------------------------------------------------------------------------


async def test_concurrent_actions_on_many_sessions_are_each_stored_once(store: SqliteStore) -> None:
    """Clicks on many tables arriving together share one transaction, yet each is its own CAS and log entry."""
    games = [await running(store, CHANNEL + i) for i in range(30)]
    results = await asyncio.gather(*(
        store.commit_action(g.id, g.version, seat="0", action_json=f'{{"n":{g.id}}}', state_json=f'{{"s":{g.id}}}')
        for g in games
    ))
    for game, record in zip(games, results):
        assert (record.id, record.version, record.state_json) == (game.id, game.version + 1, f'{{"s":{game.id}}}')
        log = await store.actions(game.id)
        assert [(e.seq, e.action_json) for e in log] == [(game.version + 1, f'{{"n":{game.id}}}')]


async def test_a_failing_action_does_not_sink_the_others_in_its_batch(store: SqliteStore, db_path: Path) -> None:
    games = [await running(store, CHANNEL + i) for i in range(3)]
    bad = games[1]
    with raw(db_path) as conn:  # squat on the seq the middle game's next action needs
        conn.execute("INSERT INTO action_log (session_id, seq, seat, action_json, created_at) VALUES (?, ?, 'x', '{}', '2020-01-01T00:00:00+00:00')",
                     (bad.id, bad.version + 1))
    results = await asyncio.gather(*(
        store.commit_action(g.id, g.version, seat="0", action_json="{}", state_json='{"new":1}') for g in games
    ), return_exceptions=True)
    assert isinstance(results[1], StorageError)
    assert [r.version for r in (results[0], results[2])] == [games[0].version + 1, games[2].version + 1]
    after = await store.get(bad.id)
    assert (after.version, after.state_json) == (bad.version, bad.state_json)


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


async def test_an_action_cancelled_before_its_turn_is_not_stored(store: SqliteStore) -> None:
    game = await running(store)
    async with store._lock:  # the connection is busy: the action queues
        waiting = asyncio.create_task(
            store.commit_action(game.id, game.version, seat="0", action_json="{}", state_json='{"c":1}'))
        await asyncio.sleep(0.01)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
    assert store._queue == []
    assert (await store.get(game.id)).version == game.version
    assert await store.actions(game.id) == []


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


# --- restart -----------------------------------------------------------------------------------------


async def test_rows_survive_a_new_store_object(db_path: Path) -> None:
    async with SqliteStore(db_path) as first:
        game = await running(first)
        game = await first.commit_action(game.id, game.version, seat="0", action_json='{"a":1}', state_json='{"s":1}')
        game = await first.set_table_message(game.id, 555)
        log = await first.actions(game.id)
    async with SqliteStore(db_path) as second:
        assert await second.get(game.id) == game
        assert await second.actions(game.id) == log
        assert [s.id for s in await second.sessions_with_status("running")] == [game.id]
        with pytest.raises(ChannelBusy):
            await new_lobby(second)


# --- open_store ------------------------------------------------------------------------------------------


async def test_open_store_sqlite_url(db_path: Path) -> None:
    store = await open_store(f"sqlite:///{db_path}")
    try:
        assert isinstance(store, SqliteStore) and store.path == db_path.resolve()
        await new_lobby(store)
    finally:
        await store.close()
    assert db_path.exists()


async def test_open_store_postgres_is_not_in_this_build() -> None:
    with pytest.raises(StorageError, match=r"PostgreSQL backend \(asyncpg\) is not available in this build"):
        await open_store("postgresql://bot@localhost/bot")


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


async def test_names_are_stored_with_the_lobby_and_updated(tmp_path) -> None:
    from bot.storage import open_store

    store = await open_store(f"sqlite:///{tmp_path / 'n.sqlite3'}")
    try:
        rec = await store.create_session(
            guild_id=1, channel_id=2, game_id="call_to_glory", host_id=10, options={}, seed=1, locale="ru",
            names={"10": "Аня"},
        )
        assert rec.names == {"10": "Аня"}
        rec = await store.update_lobby(rec.id, rec.version, seats=[10, 11], names={"10": "Аня", "11": "Bob"})
        assert (await store.get(rec.id)).names == {"10": "Аня", "11": "Bob"}
    finally:
        await store.close()

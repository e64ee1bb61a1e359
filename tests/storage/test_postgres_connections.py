"""The PostgreSQL store's own connections (``postgres._Connections``): never more than its limit, a statement
cancelled half-way or a connection the server dropped leaves the store working, closing refuses the rest.
PostgreSQL only (SQLite has one connection of its own); test ids carry ``postgres``."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import StorageError

from .helpers import CHANNEL, running


APP = "store_under_test"


def store_url(pg_url: str) -> str:
    """The test schema's URL, naming the store's connections (``application_name``) so they can be told
    from the fixtures' own."""
    return f"{pg_url}&application_name={APP}"


@pytest.fixture
async def pg_store(pg_url: str):  # type: ignore[no-untyped-def]
    from bot.storage.postgres import PostgresStore

    async with PostgresStore(store_url(pg_url), max_connections=3) as store:
        yield store


async def backends(pg_url: str, sql: str = "COUNT(*)") -> int:
    """The store's connections to the server (or ``sql`` run over them)."""
    import asyncpg

    conn = await asyncpg.connect(pg_url)
    try:
        return await conn.fetchval(f"SELECT {sql} FROM pg_stat_activity WHERE application_name = $1", APP)
    finally:
        await conn.close()


async def test_postgres_many_concurrent_moves_share_the_limit_of_connections(pg_store, pg_url: str) -> None:  # type: ignore[no-untyped-def]
    games = [await running(pg_store, CHANNEL + i) for i in range(20)]
    records = await asyncio.gather(*(
        pg_store.commit_action(g.id, g.version, seat="0", action_json="{}", state_json=f'{{"g":{g.id}}}')
        for g in games
    ))
    assert [r.version for r in records] == [g.version + 1 for g in games]
    assert await backends(pg_url) <= 3
    for g in games:
        assert [e.seq for e in await pg_store.actions(g.id)] == [g.version + 1]


async def test_postgres_a_statement_cancelled_half_way_leaves_the_store_working(pg_store, pg_url: str) -> None:  # type: ignore[no-untyped-def]
    game = await running(pg_store)
    for delay in (0, 0.0005, 0.002):
        tasks = [asyncio.create_task(pg_store.get(game.id)) for _ in range(6)]
        await asyncio.sleep(delay)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    rec = await pg_store.commit_action(game.id, game.version, seat="0", action_json="{}", state_json='{"a":1}')
    assert (await pg_store.get(game.id)).version == rec.version == game.version + 1
    assert await backends(pg_url) <= 3


async def test_postgres_a_connection_the_server_dropped_is_replaced(pg_store, pg_url: str) -> None:  # type: ignore[no-untyped-def]
    game = await running(pg_store)
    assert await backends(pg_url, "bool_and(pg_terminate_backend(pid))")
    for _ in range(3):  # a dropped connection may fail the statement that finds it so, not the next
        try:
            rec = await pg_store.get(game.id)
            break
        except StorageError:
            continue
    else:
        pytest.fail("the store did not recover from dropped connections")
    assert rec.version == game.version
    moved = await pg_store.commit_action(game.id, game.version, seat="0", action_json="{}", state_json='{"b":1}')
    assert moved.version == game.version + 1


async def test_postgres_closing_refuses_waiters_and_closes_connections(pg_url: str) -> None:
    from bot.storage.postgres import PostgresStore

    store = PostgresStore(store_url(pg_url), max_connections=1)
    await store.open()
    game = await running(store)
    tasks = [asyncio.create_task(store.get(game.id)) for _ in range(5)]
    await asyncio.sleep(0)
    await store.close()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    assert all(r.id == game.id if not isinstance(r, BaseException) else isinstance(r, StorageError) for r in results)
    with pytest.raises(StorageError):
        await store.get(game.id)
    for _ in range(50):  # the server notices closed connections a moment later
        if await backends(pg_url) == 0:
            break
        await asyncio.sleep(0.01)
    assert await backends(pg_url) == 0

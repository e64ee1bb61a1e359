"""Deliveries, players' preferences and the automatic-action mark: what the quiet inbox needs to survive a
restart (a player's live DM, whether the decision they owe was delivered, their auto-pass choice)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Delivery, SqliteStore

from tests.storage.test_sqlite_store import running


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    s = SqliteStore(tmp_path / "d.sqlite3")
    await s.open()
    yield s
    await s.close()


async def test_a_delivery_is_saved_replaced_and_read_back(store: SqliteStore) -> None:
    game = await running(store)
    assert await store.deliveries(game.id) == {}
    first = Delivery(session_id=game.id, user_id=7, channel_id=70, message_id=700, owed=True, version=3)
    await store.save_delivery(first)
    moved = first.model_copy(update={"message_id": 701, "ping_id": 9, "dm_closed": True, "owed": False})
    await store.save_delivery(moved)
    await store.save_delivery(Delivery(session_id=game.id, user_id=8))
    assert await store.deliveries(game.id) == {7: moved, 8: Delivery(session_id=game.id, user_id=8)}


async def test_deliveries_survive_reopening_the_file(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite3"
    async with SqliteStore(path) as s:
        game = await running(s)
        d = Delivery(session_id=game.id, user_id=1, channel_id=2, message_id=3, owed=True, version=4)
        await s.save_delivery(d)
    async with SqliteStore(path) as s:
        assert (await s.deliveries(game.id))[1] == d


async def test_autopass_is_on_until_a_player_turns_it_off(store: SqliteStore) -> None:
    assert await store.autopass(5) is True
    await store.set_autopass(5, False)
    assert await store.autopass(5) is False
    assert await store.autopass(6) is True
    await store.set_autopass(5, True)
    assert await store.autopass(5) is True


async def test_an_automatic_action_is_marked_in_the_log(store: SqliteStore) -> None:
    game = await running(store)
    rec = await store.commit_action(game.id, game.version, seat="0", action_json='{"a":1}', state_json="{}")
    await store.commit_action(game.id, rec.version, seat="1", action_json='{"a":2}', state_json="{}", auto=True)
    log = await store.actions(game.id)
    assert [(e.seat, e.auto) for e in log] == [("0", False), ("1", True)]

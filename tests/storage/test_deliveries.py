"""Deliveries, players' preferences and the automatic-action mark: what the quiet inbox needs to survive a
restart (a player's live DM, whether the decision they owe was delivered, their auto-pass choice)."""

from __future__ import annotations

from bot.storage import Delivery, Store

from tests.storage.helpers import running


async def test_a_delivery_is_saved_replaced_and_read_back(store: Store) -> None:
    game = await running(store)
    assert await store.deliveries(game.id) == {}
    first = Delivery(session_id=game.id, user_id=7, channel_id=70, message_id=700, owed=True, version=3)
    await store.save_delivery(first)
    moved = first.model_copy(update={"message_id": 701, "ping_id": 9, "dm_closed": True, "owed": False})
    await store.save_delivery(moved)
    await store.save_delivery(Delivery(session_id=game.id, user_id=8))
    assert await store.deliveries(game.id) == {7: moved, 8: Delivery(session_id=game.id, user_id=8)}


async def test_deliveries_survive_reopening_the_database(backend) -> None:
    async with backend.new_store() as s:
        game = await running(s)
        d = Delivery(session_id=game.id, user_id=1, channel_id=2, message_id=3, owed=True, version=4)
        await s.save_delivery(d)
    async with backend.new_store() as s:
        assert (await s.deliveries(game.id))[1] == d


async def test_autopass_is_on_until_a_player_turns_it_off(store: Store) -> None:
    assert await store.autopass(5) is True
    await store.set_autopass(5, False)
    assert await store.autopass(5) is False
    assert await store.autopass(6) is True
    await store.set_autopass(5, True)
    assert await store.autopass(5) is True


async def test_an_automatic_action_is_marked_in_the_log(store: Store) -> None:
    game = await running(store)
    rec = await store.commit_action(game.id, game.version, seat="0", action_json='{"a":1}', state_json="{}")
    await store.commit_action(game.id, rec.version, seat="1", action_json='{"a":2}', state_json="{}", auto=True)
    log = await store.actions(game.id)
    assert [(e.seat, e.auto) for e in log] == [("0", False), ("1", True)]


async def test_server_and_table_settings_are_stored_and_replaced(store: Store) -> None:
    game = await running(store)
    assert await store.guild_settings(5) == {} and await store.table_settings(game.id) == {}
    await store.set_guild_settings(5, {"thread": True, "idle_days": 3})
    await store.set_guild_settings(5, {"thread": False})
    await store.set_table_settings(game.id, {"remind_hours": 4})
    assert await store.guild_settings(5) == {"thread": False}
    assert await store.table_settings(game.id) == {"remind_hours": 4}


async def test_sessions_of_one_server_by_status(store: Store) -> None:
    game = await running(store)
    assert [r.id for r in await store.sessions_in_guild(game.guild_id or 0, "running")] == [game.id]
    assert await store.sessions_in_guild(game.guild_id or 0, "finished") == []
    assert await store.sessions_in_guild(-1, "running") == []

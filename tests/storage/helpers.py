"""Small builders shared by the storage tests: a lobby and a running game in a given channel."""

from __future__ import annotations

from bot.storage import SessionRecord, Store

GUILD, CHANNEL, HOST = 111, 222, 333


async def new_lobby(store: Store, channel_id: int = CHANNEL, seed: int = 42) -> SessionRecord:
    return await store.create_session(GUILD, channel_id, "fluxx_cthulhu", HOST, {"variant": "base"}, seed, "en")


async def running(store: Store, channel_id: int = CHANNEL) -> SessionRecord:
    lobby = await new_lobby(store, channel_id)
    return await store.start(lobby.id, lobby.version, '{"turn":0}', [HOST, 444])

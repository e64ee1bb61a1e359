"""A game's history from its stored log: /game log (paged, downloadable, both languages), the table's
"Last moves" after a restart, /game replay of a finished game, /game stats, and the Rematch button."""

from __future__ import annotations

import random

from .harness import Harness
from .tables import Table, custom_ids


async def finished_quick_game(h: Harness) -> Table:
    alice, bob = h.user("alice"), h.user("bob", locale="ru")
    table = Table(h, [alice, bob])
    await table.open(alice, "quick")
    await table.seat_all()
    rnd = random.Random(5)
    while await table.step(rnd):
        pass
    rec, _spec, _state = await table.load()
    assert rec.status == "finished"
    return table


def last_moves(h: Harness, table: Table) -> str:
    embed = h.fake.message(table.table_id)["embeds"][0]
    return next((f["value"] for f in embed["fields"] if f["name"] in ("Last moves", "Последние ходы")), "")


async def test_the_log_reads_the_whole_game_in_the_readers_language_with_a_download(h: Harness) -> None:
    table = await finished_quick_game(h)
    alice, bob = table.users.values()
    r = await h.slash(alice, h.channel, "game log", session=table.sid)
    assert r.ephemeral and r.message["attachments"] and r.message["attachments"][0]["filename"].endswith(".txt")
    embed = r.message["embeds"][0]
    assert "the whole game" in embed["title"] and embed["description"]
    back = [c for c in custom_ids(r.message) if c.startswith(f"gk:{table.sid}:")]
    if back:  # more than a page: the last page shows first, the back button turns to the previous one
        turned = await h.click(alice, r.message_id, back[0])
        assert turned.message["embeds"][0]["description"] != embed["description"]
    ru = await h.slash(bob, h.channel, "game log", session=table.sid)
    assert "вся партия" in ru.message["embeds"][0]["title"]
    stranger_guild = await h.slash(alice, h.channel, "game log", session=table.sid + 100)
    assert "no longer exists" in stranger_guild.content


async def test_replay_steps_through_a_finished_game(h: Harness) -> None:
    table = await finished_quick_game(h)
    alice = next(iter(table.users.values()))
    r = await h.slash(alice, h.channel, "game replay", session=table.sid)
    message = r.followups[0]
    assert "action 0 of" in message["embeds"][0]["footer"]["text"]
    forward = next(c for c in custom_ids(message) if c.endswith(":fwd"))
    step = await h.click(alice, message["id"], forward)
    assert "action 1 of" in h.fake.message(message["id"])["embeds"][0]["footer"]["text"]
    last = next(c for c in custom_ids(h.fake.message(message["id"])) if c.endswith(":last"))
    await h.click(alice, message["id"], last)
    total = len(await h.bot.store.actions(table.sid))
    assert f"action {total} of {total}" in h.fake.message(message["id"])["embeds"][0]["footer"]["text"]
    assert step.acknowledged


async def test_a_running_game_cannot_be_replayed(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    r = await h.slash(alice, h.channel, "game replay", session=table.sid)
    assert r.ephemeral and "Only a finished game" in r.content


async def test_stats_count_games_played_and_won(h: Harness) -> None:
    table = await finished_quick_game(h)
    rec, spec, state = await table.load()
    winners = spec.engine.result(state).winners or spec.engine.result(state).ranking[0]
    alice = next(iter(table.users.values()))
    r = await h.slash(alice, h.channel, "game stats")
    value = r.message["embeds"][0]["fields"][0]["value"]
    for uid in rec.seats:
        assert f"<@{uid}>: played 1, won {int(str(uid) in winners)}" in value
    none = await h.slash(alice, h.channel, "game stats", game="coc_lcg")
    assert "No finished games" in none.message["embeds"][0]["description"]


async def test_rematch_opens_a_lobby_with_the_same_options_and_invites_the_players(h: Harness) -> None:
    table = await finished_quick_game(h)
    alice, bob = table.users.values()
    stranger = h.user("zed")
    r = await h.click(stranger, table.table_id, f"gm:{table.sid}")
    assert r.ephemeral and "not seated" in r.content
    r = await h.click(bob, table.table_id, f"gm:{table.sid}")
    assert not r.ephemeral and f"<@{alice.id}>" in r.content
    lobby = await h.bot.store.active_in_channel(h.channel.id)
    old = await h.bot.store.get(table.sid)
    assert lobby is not None and lobby.options == old.options and lobby.host_id == bob.id
    again = await h.click(alice, table.table_id, f"gm:{table.sid}")
    assert again.ephemeral and "already has a game" in again.content


async def test_last_moves_are_rebuilt_from_the_log_after_a_restart(h: Harness, make_bot) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    rnd = random.Random(2)
    for _ in range(8):
        await table.step(rnd)
    before = last_moves(h, table).splitlines()
    await h.restart(make_bot)
    await table.step(rnd)
    after = last_moves(h, table).splitlines()
    assert len(after) >= min(len(before), 7) and set(before[-5:]) & set(after), "older moves are still listed"

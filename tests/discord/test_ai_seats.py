"""AI seats at the table: added and removed in the lobby by the host, playing through the session service
(logged, marked automatic, never sent a DM), thinking again after a restart, and taking the seat of a
player who leaves a running game."""

from __future__ import annotations

import random

from .harness import Harness
from .tables import Table, custom_ids


async def lobby_with_ai(h: Harness, level: str = "easy") -> tuple[Table, object]:
    alice = h.user("alice")
    table = Table(h, [alice])
    await table.open(alice, "quick")
    r = await h.slash(alice, h.channel, "game ai", level=level)
    assert r.ephemeral and "AI player took a seat" in r.content
    return table, alice


async def play_human_moves(h: Harness, table: Table, rnd: random.Random, limit: int = 400) -> None:
    """The human clicks whenever the game waits for them; the AI's moves happen in between."""
    for _ in range(limit):
        await h.drain()
        rec, spec, state = await table.load()
        if rec.status != "running":
            return
        waiting = [p.seat for p in spec.engine.pending(state)]
        if not any(s in table.users for s in waiting):
            continue
        await table.step(rnd)


async def test_the_host_adds_and_removes_ai_seats_and_others_cannot(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice)
    r = await h.click(bob, table.table_id, f"gl:{table.sid}:join")
    r = await h.click(bob, table.table_id, f"gl:{table.sid}:ai_add")
    assert r.ephemeral and "Only the host" in r.content
    await h.click(alice, table.table_id, f"gl:{table.sid}:ai_add")
    rec = await h.bot.store.get(table.sid)
    assert len(rec.seats) == 3 and rec.seats[-1] < 0 and "🤖 AI 1 (normal)" in rec.names[str(rec.seats[-1])]
    seats_field = h.fake.message(table.table_id)["embeds"][0]["fields"][0]["value"]
    assert "🤖 AI 1 (normal)" in seats_field and "<@-" not in seats_field
    await h.click(alice, table.table_id, f"gl:{table.sid}:ai_remove")
    assert len((await h.bot.store.get(table.sid)).seats) == 2
    from .tables import components

    remove = next(c for c in components(h.fake.message(table.table_id)) if c.get("custom_id", "").endswith("ai_remove"))
    assert remove.get("disabled"), "nothing to remove: the button is greyed out"


async def test_a_duel_against_the_ai_is_played_to_the_end(h: Harness) -> None:
    table, alice = await lobby_with_ai(h)
    await h.click(alice, table.table_id, f"gl:{table.sid}:start")
    await play_human_moves(h, table, random.Random(4))
    rec, spec, state = await table.load()
    assert rec.status == "finished" and spec.engine.result(state) is not None
    ai_seat = str(next(s for s in rec.seats if s < 0))
    log = await h.bot.store.actions(table.sid)
    ai_moves = [e for e in log if e.seat == ai_seat]
    assert ai_moves and all(e.auto for e in ai_moves), "the AI's moves are logged, marked automatic"
    opened = [r.json for r in h.fake.requests_to("POST", "/users/@me/channels")]
    assert all(int(body["recipient_id"]) > 0 for body in opened), "no DM is ever opened for an AI seat"
    table_text = h.fake.message(table.table_id)
    assert "<@-" not in str(table_text), "an AI seat is named, never mentioned"


async def test_an_ai_that_was_thinking_when_the_bot_stopped_thinks_again_once(h: Harness, make_bot) -> None:
    table, alice = await lobby_with_ai(h)
    h.bot.ai_players.close()  # the worker "dies": the AI's first move is never applied
    h.bot.ai_players.poke = lambda sid: None  # type: ignore[method-assign]
    await h.click(alice, table.table_id, f"gl:{table.sid}:start")
    rnd = random.Random(2)
    for _ in range(40):
        rec, spec, state = await table.load()
        waiting = [p.seat for p in spec.engine.pending(state)]
        if any(s.startswith("-") for s in waiting):
            break
        await table.step(rnd)
    rec, spec, state = await table.load()
    assert any(p.seat.startswith("-") for p in spec.engine.pending(state)), "the AI owes a move"
    before = rec.version
    await h.restart(make_bot)
    await h.drain()
    rec, spec, state = await table.load()
    log = await h.bot.store.actions(table.sid)
    ai_entries = [e for e in log if e.seq > before and e.seat.startswith("-")]
    assert ai_entries, "the AI moved after the restart"
    assert len({e.seq for e in ai_entries}) == len(ai_entries)


async def test_a_player_who_leaves_is_replaced_by_the_ai(h: Harness) -> None:
    """Call to Glory with three: the others play on, an AI takes the leaver's seat (its 'leaving' ruling)."""
    alice, bob, cat = h.user("alice"), h.user("bob"), h.user("cat")
    table = Table(h, [alice, bob, cat])
    await table.open(alice, "quick")
    await table.seat_all()
    left_at = (await h.bot.store.get(table.sid)).version
    r = await h.slash(bob, h.channel, "game leave")
    assert r.ephemeral and "AI player" in r.content
    await h.click(bob, r.message_id, custom_ids(r.message)[0])
    posts = [m["content"] for m in h.fake.messages_in(h.channel.id, include_ephemeral=False)]
    assert any(f"<@{bob.id}> left the game" in p for p in posts)
    kept = [h.fake.message(m["id"]) for m in h.fake.dms_to(bob.id) if not h.fake.is_deleted(m["id"])]
    assert not [m for m in kept if custom_ids(m)], "no buttons left with bob"
    assert [m["content"] for m in kept if "AI player now plays your seat" in m["content"]
            and "/game join" in m["content"]], "bob hears who plays his seat and how to take it back"
    del table.users[str(bob.id)]
    await play_human_moves(h, table, random.Random(5))
    rec, _spec, _state = await table.load()
    assert rec.status == "finished"
    after = [e for e in await h.bot.store.actions(table.sid) if e.seat == str(bob.id) and e.seq > left_at]
    assert after and all(e.auto for e in after), "from the leave on, the AI made every move of bob's seat"
    again = await h.slash(alice, h.channel, "game leave")
    assert again.ephemeral  # the game is over: nothing to leave


async def test_the_last_human_cannot_leave_to_the_ai(h: Harness) -> None:
    """Nobody would watch the AI play alone: leaving the seat to it is refused (leaving concedes instead)."""
    table, alice = await lobby_with_ai(h)
    await h.click(alice, table.table_id, f"gl:{table.sid}:start")
    r = await h.slash(alice, h.channel, "game leave", ai=True)
    assert r.ephemeral and "last player" in r.content
    assert (await h.bot.store.get(table.sid)).status == "running"


async def test_a_player_who_left_takes_the_seat_back_with_join(h: Harness) -> None:
    alice, bob, cat = h.user("alice"), h.user("bob"), h.user("cat")
    table = Table(h, [alice, bob, cat])
    await table.open(alice, "quick")
    await table.seat_all()
    r = await h.slash(bob, h.channel, "game leave")
    await h.click(bob, r.message_id, custom_ids(r.message)[0])
    assert str(bob.id) in await h.bot.sessions.ai_seats(table.sid)
    r = await h.slash(bob, h.channel, "game join")
    assert r.ephemeral and "yours again" in r.content
    await h.drain()
    assert str(bob.id) not in await h.bot.sessions.ai_seats(table.sid)
    assert [m for m in h.fake.dms_to(bob.id) if not h.fake.is_deleted(m["id"])], "his view comes back by DM"
    r = await h.slash(cat, h.channel, "game join")
    assert r.ephemeral and "already" in r.content

"""The turn clock and server settings: reminders and idle expiry from durable timers, driven by an
injected clock (no test sleeps), surviving a restart, firing once, and doing nothing once stale."""

from __future__ import annotations

import asyncio
import random

import pytest

from .harness import Harness
from .tables import Table, custom_ids

HOUR = 3600.0


class FakeTime:
    def __init__(self) -> None:
        self.now = 1_900_000_000.0

    def __call__(self) -> float:
        return self.now


async def stopped_clock(h: Harness, clock: FakeTime) -> None:
    """Timers fire only when the test says so: the background task is stopped, time is the fake's."""
    await h.bot.timers.stop()
    h.bot.timers.clock = clock


async def started(h: Harness, clock: FakeTime, game: str = "call_to_glory") -> Table:
    await stopped_clock(h, clock)
    users = [h.user("alice"), h.user("bob")]
    table = Table(h, users, game=game)
    await table.open(users[0])
    await table.seat_all()
    return table


def pings(h: Harness, text: str) -> list[str]:
    return [m["content"] for m in h.fake.messages_in(h.channel.id, include_ephemeral=False) if text in m["content"]]


async def test_a_waiting_player_is_reminded_once_after_the_default_twelve_hours(h: Harness) -> None:
    clock = FakeTime()
    table = await started(h, clock)
    rec, spec, state = await table.load()
    waiting = spec.engine.pending(state)[0].seat
    clock.now += 11 * HOUR
    assert await h.bot.timers.run_due() == 0
    clock.now += 2 * HOUR
    assert await h.bot.timers.run_due() == 1
    await h.drain()
    assert len(pings(h, f"<@{waiting}>, Call to Glory has been waiting for you for 13 hours")) == 1
    dms = [m for m in h.fake.dms_to(int(waiting)) if not h.fake.is_deleted(m["id"])]
    assert len(dms) == 1 and dms[0]["content"].startswith("⏰")
    clock.now += 24 * HOUR
    assert await h.bot.timers.run_due() == 0, "one reminder per decision"


async def test_acting_cancels_the_reminder_and_a_stale_one_does_nothing(h: Harness) -> None:
    clock = FakeTime()
    table = await started(h, clock)
    rec, spec, state = await table.load()
    first = spec.engine.pending(state)[0].seat
    stale = [tm for tm in await h.bot.store.timers(rec.id) if tm.kind == "remind"]
    assert [tm.seat for tm in stale] == [first]
    rnd = random.Random(3)
    while True:  # play until the turn passes
        await table.step(rnd)
        rec, spec, state = await table.load()
        if spec.engine.pending(state)[0].seat != first:
            break
    assert first not in {tm.seat for tm in await h.bot.store.timers(rec.id) if tm.kind == "remind"}
    # A claim that raced the move: the old timer fires after the seat acted, and says nothing.
    await h.bot.turn_clock.fire(stale[0])
    await h.drain()
    assert not pings(h, "has been waiting")


async def test_a_seat_that_moved_but_still_owes_is_reminded(h: Harness) -> None:
    """The clock is about a seat still owing a decision, not the version its timer was set at: a player
    who makes one move of their turn and stops is reminded all the same (issue 24)."""
    clock = FakeTime()
    table = await started(h, clock)
    rec, spec, state = await table.load()
    first = spec.engine.pending(state)[0].seat
    await table.step(random.Random(1))
    rec, spec, state = await table.load()
    assert [p.seat for p in spec.engine.pending(state)][:1] == [first], "the turn is still theirs"
    assert any(e.seat == first and not e.auto for e in await h.bot.store.actions(rec.id))
    clock.now += 13 * HOUR
    assert await h.bot.timers.run_due() == 1
    await h.drain()
    assert len(pings(h, f"<@{first}>, Call to Glory has been waiting for you")) == 1


async def test_reminders_survive_a_restart_and_fire_exactly_once_across_two_claimers(h: Harness, make_bot) -> None:
    clock = FakeTime()
    table = await started(h, clock)
    await h.restart(make_bot)
    await stopped_clock(h, clock)
    clock.now += 13 * HOUR
    first = await h.bot.store.claim_due_timers(h.bot.timers.now(), lease=60)
    second = await h.bot.store.claim_due_timers(h.bot.timers.now(), lease=60)
    assert len(first) == 1 and second == [], "a claimed timer is not handed to a second process"
    for tm in first:
        await h.bot.turn_clock.fire(tm)
        await h.bot.store.complete_timer(tm)
    await h.drain()
    assert len(pings(h, "has been waiting for you")) == 1
    assert await h.bot.timers.run_due() == 0


async def test_the_lobby_sets_the_clock_and_off_means_no_reminder(h: Harness) -> None:
    clock = FakeTime()
    await stopped_clock(h, clock)
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice)
    lobby = h.fake.message(table.table_id)
    assert any(f["name"] == "Turn clock" and "12 hours" in f["value"] for f in lobby["embeds"][0]["fields"])
    r = await h.select(bob, table.table_id, f"go:{table.sid}:_clock", ["0:0"])
    assert r.ephemeral and "Only the host" in r.content
    await h.select(alice, table.table_id, f"go:{table.sid}:_clock", ["0:0"])
    assert any(f["value"] == "No reminders" for f in h.fake.message(table.table_id)["embeds"][0]["fields"])
    await table.seat_all()
    clock.now += 100 * HOUR
    await h.bot.timers.run_due()
    await h.drain()
    assert not pings(h, "has been waiting")


async def test_an_idle_game_expires_after_the_servers_days_and_keeps_its_log(h: Harness) -> None:
    import discord

    clock = FakeTime()
    await stopped_clock(h, clock)
    admin = h.user("admin", permissions=discord.Permissions(manage_guild=True))
    r = await h.slash(admin, h.channel, "settings", idle_days=3)
    assert "Saved" in r.content
    users = [h.user("alice"), h.user("bob")]
    table = Table(h, users)
    await table.open(users[0])
    await table.seat_all()
    clock.now += 2 * 86400
    await table.step(random.Random(1))  # a move two days in: the idle timer is moved with it
    clock.now += 2 * 86400
    await h.bot.timers.run_due()
    assert (await h.bot.store.get(table.sid)).status == "running", "only two days since the last move"
    clock.now += 1.5 * 86400
    await h.bot.timers.run_due()
    await h.drain()
    rec = await h.bot.store.get(table.sid)
    assert rec.status == "abandoned" and await h.bot.store.actions(rec.id)
    assert pings(h, "had no move for 3 days")
    assert await h.bot.store.timers(rec.id) == []


async def test_moves_close_together_write_no_timer_and_expiry_looks_again_after_the_slack(h: Harness) -> None:
    clock = FakeTime()
    table = await started(h, clock)
    before = await h.bot.store.timers(table.sid)
    clock.now += 1800
    await table.step(random.Random(1))  # half an hour later: the idle timer is not rewritten
    assert [tm.due_at for tm in await h.bot.store.timers(table.sid) if tm.kind == "idle"] == \
        [tm.due_at for tm in before if tm.kind == "idle"]
    clock.now += 30 * 86400 - 1800 + 1
    await h.bot.timers.run_due()
    assert (await h.bot.store.get(table.sid)).status == "running", "moved since the timer was set"
    clock.now += 3600
    await h.bot.timers.run_due()
    assert (await h.bot.store.get(table.sid)).status == "abandoned", "30 days and a half hour without a move"


@pytest.mark.parametrize("locale", ["en-US", "ru"])
async def test_settings_need_manage_server_and_refuse_values_out_of_range(h: Harness, locale: str) -> None:
    import discord

    user = h.user("user", locale=locale)
    r = await h.slash(user, h.channel, "settings", thread=True)
    assert r.ephemeral and ("Manage Server" in r.content or "Управлять сервером" in r.content)
    admin = h.user("admin", locale=locale, permissions=discord.Permissions(manage_guild=True))
    r = await h.slash(admin, h.channel, "settings", thread=True, abandon="manage", remind_hours=4)
    assert r.ephemeral and r.message["embeds"]
    settings = await h.bot.server_settings.get(h.guild.id)
    assert settings.thread and settings.abandon == "manage" and settings.remind_hours == 4
    # The defaults now apply: a new game gets its own thread, and the host alone cannot end it.
    r = await h.slash(user, h.channel, "game new", game="call_to_glory")
    rec = (await h.bot.store.sessions_with_status("lobby"))[-1]
    assert rec.channel_id != h.channel.id
    r = await h.slash(user, h.channel_by_id(rec.channel_id), "game abandon")
    assert r.ephemeral and ("Manage Server" in r.content or "Управлять сервером" in r.content)


async def test_the_table_shows_how_long_the_decision_has_waited(h: Harness) -> None:
    table = await started(h, FakeTime())
    assert "⏳ waiting since <t:" in h.fake.message(table.table_id)["content"]


async def test_a_deadline_hands_the_waiting_seat_to_an_ai(h: Harness) -> None:
    clock = FakeTime()
    await stopped_clock(h, clock)
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice, "quick")
    await h.select(alice, table.table_id, f"go:{table.sid}:_clock", ["1:4"])
    lobby = h.fake.message(table.table_id)
    assert any("an AI takes the seat after 4 hours" in f["value"] for f in lobby["embeds"][0]["fields"])
    await table.seat_all()
    rec, spec, state = await table.load()
    waiting = spec.engine.pending(state)[0].seat
    clock.now += 2 * HOUR
    await h.bot.timers.run_due()  # the reminder
    assert await h.bot.sessions.ai_seats(table.sid) == {}
    clock.now += 3 * HOUR
    await h.bot.timers.run_due()  # the deadline
    await h.drain()
    assert await h.bot.sessions.ai_seats(table.sid) == {waiting: "normal"}
    assert pings(h, f"<@{waiting}> did not move for 4 hours")
    log = await h.bot.store.actions(table.sid)
    assert [e for e in log if e.seat == waiting and e.auto], "the AI moved for the seat"


async def reminded_table(h: Harness) -> tuple[Table, str, list, dict]:
    """Three players at a quick Call to Glory table, the first seat silent for 13 hours: (table, the
    waiting seat, the other two players, the reminder that carries the vote button)."""
    clock = FakeTime()
    await stopped_clock(h, clock)
    users = [h.user(n) for n in ("ann", "ben", "cat")]
    table = Table(h, users, game="call_to_glory")
    await table.open(users[0], "quick")
    await table.seat_all()
    rec, spec, state = await table.load()
    waiting = spec.engine.pending(state)[0].seat
    others = [u for u in users if str(u.id) != waiting]
    clock.now += 13 * HOUR
    await h.bot.timers.run_due()
    await h.drain()
    reminder = next(m for m in h.fake.messages_in(h.channel.id, include_ephemeral=False)
                    if "has been waiting" in m["content"])
    return table, waiting, others, reminder


async def test_the_other_players_vote_a_silent_seat_over_to_the_ai(h: Harness) -> None:
    table, waiting, others, reminder = await reminded_table(h)
    button = f"gv:{table.sid}:{waiting}"
    assert button in custom_ids(reminder)
    r = await h.click(table.users[waiting], reminder["id"], button)
    assert r.ephemeral and "your own seat" in r.content
    r = await h.click(others[0], reminder["id"], button)
    assert r.ephemeral and "1 of 2" in r.content
    r = await h.click(others[0], reminder["id"], button)
    assert "1 of 2" in r.content, "a second vote by the same player does not count twice"
    await h.click(others[1], reminder["id"], button)
    await h.drain()
    assert waiting in await h.bot.sessions.ai_seats(table.sid)
    assert pings(h, "The table voted")


async def test_a_ballot_cast_as_the_seat_moves_never_outlives_the_wait(h: Harness) -> None:
    """A vote that has checked the seat still waits but not yet written its ballot holds the session like a
    move does: the seat's move lands after it, and the move's follow-up drops the ballot. Before, the move
    could land in between and the ballot was written after the clearing, to count in a later vote."""
    table, waiting, others, reminder = await reminded_table(h)
    voter = others[0]
    store = h.bot.store
    write_settings = store.set_table_settings
    reached, release = asyncio.Event(), asyncio.Event()

    async def held_once(session_id: int, settings: dict) -> None:
        if not reached.is_set():  # the vote's write of its ballot, checked already: stop until the test says
            reached.set()
            await release.wait()
        await write_settings(session_id, settings)

    store.set_table_settings = held_once  # type: ignore[method-assign]
    vote = asyncio.create_task(h.click(voter, reminder["id"], f"gv:{table.sid}:{waiting}"))
    await reached.wait()

    rnd = random.Random(5)

    async def the_seat_plays_its_turn() -> None:
        while True:
            await table.step(rnd)
            _rec, spec, state = await table.load()
            if waiting not in {p.seat for p in spec.engine.pending(state)}:
                return

    move = asyncio.create_task(the_seat_plays_its_turn())
    lock = h.bot.sessions.locks.lock_for(table.sid)
    deadline = asyncio.get_running_loop().time() + 20
    # Until the move either landed (the old race) or queued behind the vote on the session's lock.
    while not move.done() and not getattr(lock, "_waiters", None):
        assert asyncio.get_running_loop().time() < deadline, "the move neither landed nor queued"
        await asyncio.sleep(0)
    release.set()
    assert "1 of 2" in (await vote).content
    await move
    await h.drain()
    store.set_table_settings = write_settings  # type: ignore[method-assign]
    assert waiting not in (await store.table_settings(table.sid)).get("votes", {}), "no ballot outlives the wait"


async def test_a_rematch_takes_the_clock_but_not_the_old_games_ai_seats(h: Harness) -> None:
    """The lobby opened by a rematch starts with the old table's clock; the old game's AI seats and
    ballots named seats of that game, and carried over they made a returning player's seat the AI's."""
    alice = h.user("alice")
    table = Table(h, [alice], game="call_to_glory")
    await table.open(alice, "quick")
    await h.slash(alice, h.channel, "game ai", level="easy")
    old_settings = await h.bot.store.table_settings(table.sid)
    await h.bot.store.set_table_settings(table.sid, {**old_settings, "remind_hours": 24, "deadline_hours": 0})
    await h.click(alice, table.table_id, f"gl:{table.sid}:start")
    rnd = random.Random(4)
    for _ in range(400):
        await h.drain()
        rec, spec, state = await table.load()
        if rec.status != "running":
            break
        if str(alice.id) in {p.seat for p in spec.engine.pending(state)}:
            await table.step(rnd)
    assert rec.status == "finished"
    await h.click(alice, table.table_id, f"gm:{table.sid}")
    lobby = await h.bot.store.active_in_channel(h.channel.id)
    assert lobby is not None and lobby.id != table.sid
    assert await h.bot.store.table_settings(lobby.id) == {"remind_hours": 24, "deadline_hours": 0}
    assert await h.bot.sessions.ai_seats(lobby.id) == {}

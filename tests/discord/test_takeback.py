"""Taking a move back by agreement (issue #28, part 1), through the real discord.py stack on both storage
backends, in every game of the registry: a request refused, one that lapses on its timer (an injected
clock, nothing sleeps), one accepted (the game goes back under a new version, the log keeps the take-back
so a replay from it gives the live state, and a button from before answers "outdated"), and one refused
because the seat's last step drew or showed something. Which steps are such barriers is each engine's own
mark (``Engine.reveals``, checked against sampling in tests/rules/test_takeback.py); the positions here are
found by playing seeded random moves until the mover has a step of each kind.
"""

from __future__ import annotations

import os
import random
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot import history
from bot import takeback as takebacks
from bot.client import GameBot
from bot.settings import Settings
from rules import registry

from . import payloads as P
from .harness import Harness
from .tables import Table, custom_ids

pytestmark = pytest.mark.asyncio

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "").strip()
GAMES = [spec.id for spec in registry.all()]
MAX_STEPS = 400
"""Moves played at most to reach a position; every game reaches both kinds well before (seeded)."""


class FakeTime:
    def __init__(self) -> None:
        self.now = 1_900_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=["sqlite", "postgres"])
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """The bot's database: a SQLite file, or a fresh schema on the PostgreSQL server of
    ``TEST_DATABASE_URL`` (``scripts/pg_test_cluster.sh`` starts one; without it that half skips)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'bot.sqlite3'}"
        return
    if not TEST_DATABASE_URL:
        pytest.skip("TEST_DATABASE_URL is not set (scripts/pg_test_cluster.sh starts a server)")
    import asyncpg

    schema = f"t_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(TEST_DATABASE_URL)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        yield f"{TEST_DATABASE_URL}{'&' if '?' in TEST_DATABASE_URL else '?'}search_path={schema}"
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await admin.close()


@pytest.fixture
def make_bot(database_url: str) -> Callable[[], GameBot]:
    return lambda: GameBot(Settings(database_url=database_url, discord_token=None, dev_guild_id=None,
                                    table_edit_interval=0, rate_limit_per_second=0, ai_processes=0,
                                    ai_move_delay=0, picture_processes=0))


async def started(h: Harness, game: str) -> tuple[Table, FakeTime]:
    clock = FakeTime()
    await h.bot.timers.stop()  # timers fire only when the test says so, at the fake's time
    h.bot.timers.clock = clock
    users = [h.user("alice"), h.user("bob")]
    table = Table(h, users, game=game)
    await table.open(users[0])
    await table.seat_all()
    return table, clock


async def mover_and_find(table: Table) -> tuple[str, takebacks.Point | takebacks.Barrier] | None:
    """The seat whose decision was logged last, and what a take-back of it would meet."""
    rec, _spec, _state = await table.load()
    entries = await table.h.bot.store.actions(table.sid)
    decided = [e for e in history.line(entries) if not e.auto]
    if not decided:
        return None
    seat = decided[-1].seat
    return seat, takebacks.find(rec, entries, seat)


async def play_until(table: Table, rnd: random.Random, want: str) -> tuple[str, Any]:
    """Seeded random moves until the last mover may take back (``point``) or is barred by its own step
    that drew or showed something (``revealed``)."""
    for _ in range(MAX_STEPS):
        assert await table.step(rnd), "the game ended before the position was reached"
        found = await mover_and_find(table)
        if found is None:
            continue
        seat, what = found
        if want == "point" and isinstance(what, takebacks.Point):
            return seat, what
        if want == "revealed" and isinstance(what, takebacks.Barrier) and what.reason == "revealed":
            return seat, what
    raise AssertionError(f"no {want} position in {MAX_STEPS} moves")


def request_posts(h: Harness) -> list[dict[str, Any]]:
    return [m for m in h.fake.messages_in(h.channel.id, include_ephemeral=False)
            if any(c.startswith("gky:") for c in custom_ids(m))]


def live_dm(h: Harness, user: P.User) -> dict[str, Any]:
    """The player's live private message (the newest of their DMs)."""
    return max(h.fake.dms_to(user.id), key=lambda m: int(m["id"]))


async def ask(table: Table, user: P.User, where: int | None = None) -> tuple[dict[str, Any], int]:
    """``user`` clicks ↩ (on the table, or on the message ``where``); the post asking the other player, and
    the request's version."""
    h = table.h
    before = {m["id"] for m in request_posts(h)}
    r = await h.click(user, where or table.table_id, f"gk:{table.sid}")
    assert r.ephemeral and "Asked" in (r.content or "")
    fresh = [m for m in request_posts(h) if m["id"] not in before]
    assert len(fresh) == 1
    rec, _spec, _state = await table.load()
    assert f"gky:{table.sid}:{rec.version}" in custom_ids(fresh[0])
    return fresh[0], rec.version


async def stale_click(h: Harness, user: P.User, copy: dict[str, Any], custom_id: str,
                      channel: P.Channel | None = None) -> Any:
    """A click on a button of ``copy``, a message as it was before an edit took the button away (a stale
    client still shows it)."""
    select = custom_id.startswith("gs:")  # a move offered in a menu: its first choice
    data = P.select_data(custom_id, ["0"]) if select else P.button_click_data(custom_id)
    return await h.dispatch(P.interaction_payload(
        snowflakes=h.snowflakes, application_id=h.fake.application_id, type=P.MESSAGE_COMPONENT,
        ctx=h._context(user, channel or h.channel), data=data, message=copy))


async def snapshot(table: Table) -> tuple[int, str, int]:
    rec, _spec, state = await table.load()
    return rec.version, state.model_dump_json(), len(await table.h.bot.store.actions(table.sid))


@pytest.mark.parametrize("game", GAMES)
async def test_a_take_back_refused_lapsed_accepted_and_barred(h: Harness, game: str) -> None:
    table, clock = await started(h, game)
    rnd = random.Random(20261128)
    seat, point = await play_until(table, rnd, "point")
    user = table.users[seat]
    other = next(u for s, u in table.users.items() if s != seat)
    unchanged = await snapshot(table)
    dm = live_dm(h, user)
    assert f"gk:{table.sid}" in custom_ids(dm), "the mover's fresh view offers ↩ for a move that showed nothing"

    # Refused: one other player's "no" ends the request; nothing in the game changes.
    post, version = await ask(table, user, dm["id"])
    r = await h.click(user, post["id"], f"gky:{table.sid}:{version}")
    assert r.ephemeral and "your own request" in (r.content or ""), "the requester cannot answer for the table"
    r = await h.click(other, post["id"], f"gkn:{table.sid}:{version}")
    assert "refused" in h.fake.message(post["id"])["content"] and not custom_ids(h.fake.message(post["id"]))
    told = h.fake.messages_in(h.channel.id, include_ephemeral=False)[-1]["content"]
    assert told == f"<@{user.id}>, {other.username.title()} refused your take-back: the game goes on as it was."
    assert await snapshot(table) == unchanged
    assert (await h.bot.sessions.settings(table.sid)).takeback is None

    # Lapsed: nobody answers within the server's ten minutes; the requester is told, the game is as it was.
    post, version = await ask(table, user)
    clock.now += 9 * 60
    assert await h.bot.timers.run_due() == 0
    clock.now += 2 * 60
    assert await h.bot.timers.run_due() == 1
    await h.drain()
    told = [m["content"] for m in h.fake.messages_in(h.channel.id, include_ephemeral=False)
            if "your take-back request lapsed" in m["content"]]
    assert told == [(f"<@{user.id}>, your take-back request lapsed: not every player answered in time. "
                     "The game goes on as it was.")]
    assert not custom_ids(h.fake.message(post["id"]))
    assert await snapshot(table) == unchanged
    r = await stale_click(h, other, post, f"gky:{table.sid}:{version}")
    assert r.ephemeral and "no longer open" in (r.content or ""), "a lapsed request's buttons settle nothing"
    assert await snapshot(table) == unchanged

    # Accepted: the game goes back to the state before the seat's decision, under a new version.
    rec, spec, live = await table.load()
    waiting = spec.engine.pending(live)[0].seat
    stale_dm = table.private_message(table.users[waiting], rec.version)
    assert stale_dm is not None
    stale_copy = dict(stale_dm)
    post, version = await ask(table, user)
    await h.click(other, post["id"], f"gky:{table.sid}:{version}")
    await h.drain()
    assert "accepted" in h.fake.message(post["id"])["content"]
    assert any(m["content"] == f"<@{user.id}>, your take-back was accepted: the game is back before your last move."
               for m in h.fake.messages_in(h.channel.id, include_ephemeral=False))
    back, _spec, state = await table.load()
    assert back.version == version + 1, "the version moves forward, never back to an old one"
    assert state == point.state
    entries = await h.bot.store.actions(table.sid)
    assert history.takeback_of(entries[-1]) == history.Takeback(undo=point.undo)
    assert entries[-1].seq == back.version and entries[-1].seat == seat
    assert history.rebuild(back, entries) == state, "a replay of the log reproduces the take-back"
    assert table.private_message(user, back.version) is not None, "the requester decides again from a fresh DM"
    shown = h.fake.message(table.table_id)
    assert f"action {back.version}" in shown["embeds"][0]["footer"]["text"]
    assert any("took back their last move" in f["value"] for f in shown["embeds"][0].get("fields", []))
    r = await stale_click(h, table.users[waiting], stale_copy, custom_ids(stale_copy)[0], h.dm(table.users[waiting]))
    assert r.ephemeral and "outdated" in (r.content or ""), "a button from before the take-back is stale"
    assert (await table.load())[0].version == back.version

    # Barred: once the mover's own step drew or showed something, the request is refused and says why.
    seat, _barrier = await play_until(table, rnd, "revealed")
    before = await snapshot(table)
    assert f"gk:{table.sid}" not in custom_ids(live_dm(h, table.users[seat])), "no ↩ is offered past a barrier"
    r = await h.click(table.users[seat], table.table_id, f"gk:{table.sid}")
    assert r.ephemeral and "can no longer be taken back" in (r.content or "")
    assert "showed something hidden or drew on chance" in (r.content or "")
    assert await snapshot(table) == before


async def point_with_the_move_still_mine(table: Table, rnd: random.Random) -> str:
    """A seat that may take back its last decision and is still the one to move."""
    while True:
        seat, _point = await play_until(table, rnd, "point")
        _rec, spec, state = await table.load()
        if spec.engine.pending(state)[0].seat == seat:
            return seat


async def test_a_move_after_the_request_makes_it_stale_and_a_new_request_closes_its_post(h: Harness) -> None:
    """CTG-R4: a turn is several decisions (draws, then a lay-out or a discard), so the requester may move
    on while the others have not answered; the request then no longer stands and an accept changes nothing."""
    table, _clock = await started(h, "call_to_glory")
    rnd = random.Random(7)
    seat = await point_with_the_move_still_mine(table, rnd)
    user = table.users[seat]
    other = next(u for s, u in table.users.items() if s != seat)
    post, version = await ask(table, user)
    assert await table.step(rnd)  # the requester moves on
    moved = await snapshot(table)
    r = await h.click(other, post["id"], f"gky:{table.sid}:{version}")
    assert any("moved on since" in m["content"] for m in r.followups)
    assert h.fake.message(post["id"])["content"].startswith("↩ This take-back request no longer stands")
    assert not custom_ids(h.fake.message(post["id"])) and await snapshot(table) == moved

    # A request left stale without an answer has its post closed when the next request is made.
    seat = await point_with_the_move_still_mine(table, rnd)
    first, _version = await ask(table, table.users[seat])
    seat, _point = await play_until(table, rnd, "point")  # at least one move: the first request is stale
    await ask(table, table.users[seat])
    assert h.fake.message(first["id"])["content"].startswith("↩ This take-back request no longer stands")
    assert not custom_ids(h.fake.message(first["id"])), "the stale request's buttons are gone"


async def test_against_ai_seats_alone_a_take_back_is_done_at_once(h: Harness) -> None:
    """AI seats always agree, so with no other person at the table nobody is asked: a decision after the
    draw (CTG-R4) is taken back at the click, and the DM comes back at the new version."""
    alice = h.user("alice")
    table = Table(h, [alice])
    await table.open(alice)
    await h.slash(alice, h.channel, "game ai", level="easy")
    await h.click(alice, table.table_id, f"gl:{table.sid}:start")
    rnd = random.Random(3)
    for _ in range(MAX_STEPS):
        await h.drain()
        rec, spec, state = await table.load()
        if str(alice.id) not in {p.seat for p in spec.engine.pending(state)}:
            continue
        await table.step(rnd)
        found = await mover_and_find(table)
        if found is not None and found[0] == str(alice.id) and isinstance(found[1], takebacks.Point):
            break
    else:
        raise AssertionError("no lay-out to take back")
    point = found[1]
    rec, _spec, _state = await table.load()
    r = await h.click(alice, table.table_id, f"gk:{table.sid}")
    assert r.ephemeral and (r.content or "").startswith("Taken back")
    await h.drain()
    back, _spec, state = await table.load()
    assert back.version == rec.version + 1 and state == point.state
    assert not request_posts(h), "nobody had to be asked"
    assert table.private_message(alice, back.version) is not None


async def test_a_request_survives_a_restart_and_is_accepted_after_it(h: Harness,
                                                                     make_bot: Callable[[], GameBot]) -> None:
    """The request is stored with the table's settings and its buttons are templates, so the answer after a
    restart settles it like before one; its timer is gone once it is settled."""
    table, _clock = await started(h, "call_to_glory")
    seat, point = await play_until(table, random.Random(20261128), "point")
    other = next(u for s, u in table.users.items() if s != seat)
    post, version = await ask(table, table.users[seat])
    await h.restart(make_bot)
    await h.click(other, post["id"], f"gky:{table.sid}:{version}")
    await h.drain()
    back, _spec, state = await table.load()
    assert back.version == version + 1 and state == point.state
    assert not [tm for tm in await h.bot.store.timers(table.sid) if tm.kind == "takeback"]


async def test_a_failed_message_after_the_accept_still_brings_every_view_to_the_new_version(h: Harness) -> None:
    """The accept is stored before any message goes out; Discord refusing the requester's ping changes
    nothing of that: the requester's DM still comes back at the new version, and nobody is told of a failure."""
    table, _clock = await started(h, "cthulhu_wars_duel")
    seat, point = await play_until(table, random.Random(20261128), "point")
    user = table.users[seat]
    other = next(u for s, u in table.users.items() if s != seat)
    post, version = await ask(table, user)
    h.fake.fail("POST", "/channels/{channel_id}/messages", status=500, code=0, message="Internal Server Error",
                when=lambda request: b"take-back was accepted" in (request.json_frozen or b""))
    r = await h.click(other, post["id"], f"gky:{table.sid}:{version}")
    await h.drain()
    assert "accepted" in h.fake.message(post["id"])["content"] and not r.followups
    assert not [m for m in h.fake.messages_in(h.channel.id) if "take-back was accepted" in m["content"]], \
        "the ping was refused"
    back, _spec, state = await table.load()
    assert back.version == version + 1 and state == point.state
    assert table.private_message(user, back.version) is not None


async def test_a_request_whose_post_fails_is_dropped_so_the_player_may_ask_again(h: Harness) -> None:
    table, _clock = await started(h, "fluxx_cthulhu")
    seat, _point = await play_until(table, random.Random(20261128), "point")
    h.raise_logged_errors = False
    h.fake.fail("POST", "/channels/{channel_id}/messages", status=500, code=0, message="Internal Server Error",
                when=lambda request: b"asks to take back" in (request.json_frozen or b""))
    r = await h.click(table.users[seat], table.table_id, f"gk:{table.sid}")
    assert r.ephemeral and "Something went wrong" in (r.content or "")
    assert [rec.getMessage() for rec in h.take_logged_errors()], "the failure is logged"
    assert (await h.bot.sessions.settings(table.sid)).takeback is None
    assert not [tm for tm in await h.bot.store.timers(table.sid) if tm.kind == "takeback"]
    await ask(table, table.users[seat])  # asked again, and this time posted


async def test_where_the_server_allows_it_the_host_accepts_for_the_whole_table(h: Harness) -> None:
    """Three at the table (CTG-R1 seats two to four): with ``/settings takeback_host:True`` the host's
    accept settles the request alone (otherwise it is one answer among the others', see
    tests/test_takeback_service.py), and ``takeback_minutes`` sets when it would lapse."""
    import discord

    admin = h.user("admin", permissions=discord.Permissions(manage_guild=True))
    r = await h.slash(admin, h.channel, "settings", takeback_host=True, takeback_minutes=5)
    assert "Saved" in (r.content or "")
    await h.bot.timers.stop()
    users = [h.user("alice"), h.user("bob"), h.user("carol")]
    table = Table(h, users)
    await table.open(users[0])
    await table.seat_all()
    rnd = random.Random(6)
    seat, point = await play_until(table, rnd, "point")
    while seat == str(users[0].id):  # the host is one of those asked
        seat, point = await play_until(table, rnd, "point")
    post, version = await ask(table, table.users[seat])
    assert "lapses after 5 min" in post["content"]
    await h.click(users[0], post["id"], f"gky:{table.sid}:{version}")
    await h.drain()
    back, _spec, state = await table.load()
    assert back.version == version + 1 and state == point.state

"""A server's and a member's record through Discord, on SQLite and on PostgreSQL: ratings after a few games
(a forfeit counts as a loss, a game with an AI seat counts for nobody), /game mine and /game history
across channels, and a time away that spans a deadline which then does not fire (issue 28, parts 2-5)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.client import GameBot
from bot.settings import Settings
from tests.storage.conftest import needs_postgres, pg_url  # noqa: F401 - pg_url is a fixture used by make_bot

from . import payloads as P
from .harness import Harness
from .tables import Table, custom_ids
from .test_ai_seats import play_human_moves
from .test_time import HOUR, FakeTime, reminded_table, stopped_clock

DAY = 24 * HOUR


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=needs_postgres)])
def make_bot(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], GameBot]:
    """The bot over a fresh SQLite file or a fresh PostgreSQL schema (test ids end in the backend's name);
    called again, the same bot restarted over the same database."""
    url = f"sqlite:///{tmp_path / 'bot.sqlite3'}" if request.param == "sqlite" else request.getfixturevalue("pg_url")
    return lambda: GameBot(Settings(database_url=url, discord_token=None, dev_guild_id=None, table_edit_interval=0,
                                     rate_limit_per_second=0, ai_processes=0, ai_move_delay=0,
                                     picture_processes=0))


class ChannelTable(Table):
    """A table opened in a channel of its own, so one member can play in several at once."""

    def __init__(self, h: Harness, users: list[P.User], channel: P.Channel, game: str = "call_to_glory") -> None:
        super().__init__(h, users, game)
        self.channel = channel

    async def open(self, host: P.User, options: str | None = None) -> None:
        opts = {"game": self.game, **({"options": options} if options else {})}
        r = await self.h.slash(host, self.channel, "game new", options=opts)
        self.table_id = int(r.message_id)
        rec = await self.h.bot.store.active_in_channel(self.channel.id)
        assert rec is not None
        self.sid = rec.id

    async def play_out(self, seed: int) -> None:
        rnd = random.Random(seed)
        while await self.step(rnd):
            pass
        rec, _spec, _state = await self.load()
        assert rec.status == "finished"


async def quick_game(h: Harness, users: list[P.User], name: str) -> ChannelTable:
    table = ChannelTable(h, users, h.text_channel(name))
    await table.open(users[0], "quick")
    await table.seat_all()
    return table


async def leave(h: Harness, user: P.User, channel: P.Channel) -> None:
    r = await h.slash(user, channel, "game leave")
    await h.click(user, r.message_id, custom_ids(r.message)[0])
    await h.drain()


def description(r: Any) -> str:
    message = r.message if r.message and r.message.get("embeds") else r.followups[-1]
    embed = message["embeds"][0]
    return "\n".join([embed.get("title", ""), embed.get("description", ""),
                      *(f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])),
                      embed.get("footer", {}).get("text", "")])


async def test_ratings_count_a_forfeit_as_a_loss_and_leave_out_a_game_with_an_ai(h: Harness, make_bot) -> None:
    alice, bob = h.user("alice"), h.user("bob", locale="ru")
    first = await quick_game(h, [alice, bob], "first")
    await first.play_out(5)
    _rec, spec, state = await first.load()
    winners = set(spec.engine.result(state).winners)
    # The second game: bob concedes it by leaving (a two-player Call to Glory cannot go on without him).
    second = await quick_game(h, [alice, bob], "second")
    await leave(h, bob, second.channel)
    assert (await h.bot.store.get(second.sid)).status == "finished"
    # The third: alice against an AI seat, played to the end; it changes no rating.
    third = ChannelTable(h, [alice], h.text_channel("third"))
    await third.open(alice, "quick")
    await h.slash(alice, third.channel, "game ai", level="easy")
    await h.click(alice, third.table_id, f"gl:{third.sid}:start")
    await play_human_moves(h, third, random.Random(2))
    assert (await h.bot.store.get(third.sid)).status == "finished"

    rows = {r.user_id: r for r in await h.bot.store.ratings(h.guild.id, "call_to_glory")}
    assert set(rows) == {alice.id, bob.id}, "the AI keeps no rating"
    assert rows[alice.id].games == rows[bob.id].games == 2, "the game with an AI seat counted for nobody"
    assert rows[alice.id].wins == 1 + (str(alice.id) in winners) and rows[bob.id].wins == int(str(bob.id) in winners)
    settled = await h.bot.store.settled([first.sid, second.sid, third.sid])
    assert {sid: how.unrated for sid, how in settled.items()} == {first.sid: "", second.sid: "", third.sid: "ai_seat"}

    # Settling again (two paths ending one game, or a restart's catch-up) counts nothing twice.
    assert not await h.bot.sessions.settle_ratings(await h.bot.store.get(second.sid))
    await h.restart(make_bot)
    assert {r.user_id: r for r in await h.bot.store.ratings(h.guild.id, "call_to_glory")} == rows

    board = await h.slash(alice, h.channel, "game rating", game="call_to_glory")
    text = description(board)
    assert board.ephemeral and "Call to Glory: leaderboard" in text
    leader = max(rows.values(), key=lambda r: r.mu - 3 * r.sigma)
    assert f"**1.** {leader.name} — " in text and "<@" not in text, "members by display name"
    stats = await h.slash(bob, h.channel, "game stats", member=alice)  # bob reads Russian
    assert "Рейтинг: Alice" in description(stats) and "Call to Glory" not in description(stats)

    history = await h.slash(alice, h.channel, "game history", game="call_to_glory")
    past = description(history)
    assert "unrated: an AI played" in past and past.count("📈") == 2
    assert re.search(r"Bob 1000 → \d+ \([+-]\d+\)", past), "the first game: both from a newcomer's 1000"
    assert "Bob" in past.split("📈")[1].split("\n")[0] and "(-" in past.split("📈")[1].split("\n")[0], \
        "the newest rated game (bob's concession) cost him rating"
    assert "Bob: left" in past, "how each player ended"
    # The AI seat is named in each reader's language (issue 26), not by the name stored in the lobby's.
    assert "AI 1 (easy)" in past
    russian = description(await h.slash(bob, h.channel, "game history", game="call_to_glory"))
    assert "ИИ 1" in russian and "AI 1" not in russian


async def test_my_games_and_past_games_across_channels(h: Harness) -> None:
    alice, bob, cat = h.user("alice"), h.user("bob"), h.user("cat")
    done = await quick_game(h, [alice, bob], "done")
    await done.play_out(5)
    elsewhere = await quick_game(h, [bob, cat], "elsewhere")  # alice is not at this one
    await elsewhere.play_out(6)
    running = await quick_game(h, [bob, alice], "running")
    _rec, spec, state = await running.load()
    waiting = spec.engine.pending(state)[0].seat

    mine = await h.slash(alice, h.channel, "game mine")
    text = description(mine)
    assert mine.ephemeral
    running_part, finished_part = text.split("Last finished")
    assert f"<#{running.channel.id}>" in running_part and f"/{running.table_id})" in running_part, "a jump link"
    assert ("your move" if waiting == str(alice.id) else "waiting for Bob") in running_part
    assert "since <t:" in running_part
    assert f"<#{done.channel.id}>" in finished_part and f"<#{elsewhere.channel.id}>" not in text

    past = await h.slash(alice, h.channel, "game history", member=bob)
    message = past.followups[-1]
    listed = description(past)
    assert f"#{done.sid}" in listed and f"#{elsewhere.sid}" in listed and f"#{running.sid}" not in listed
    replay = f"gpr:{elsewhere.sid}"
    assert replay in custom_ids(message)
    opened = await h.click(alice, message["id"], replay)
    shown = opened.followups[-1]
    assert "replay: action 0 of" in shown["embeds"][0]["footer"]["text"]
    assert not any(c.endswith(":hands") or ":hands:" in c for c in custom_ids(shown)), \
        "the lobby did not allow the hands: the replay offers none"


async def test_the_replay_shows_every_hand_when_the_lobby_allowed_it(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = ChannelTable(h, [alice, bob], h.text_channel("open-hands"))
    await table.open(alice, "quick")
    await h.bot.sessions.set_switches(table.sid, alice.id, {"rated", "replay_hands"})
    await table.seat_all()
    r = await h.slash(bob, table.channel, "game replay", session=table.sid)
    assert "Only a finished game" in r.content, "never while the game runs"
    await table.play_out(7)
    r = await h.slash(bob, table.channel, "game replay", session=table.sid)
    message = r.followups[0]
    show = next(c for c in custom_ids(message) if ":hands" in c)
    await h.click(bob, message["id"], show)
    fields = [f["name"] for f in h.fake.message(message["id"])["embeds"][0].get("fields", [])]
    assert "Alice's hand" in fields and "Bob's hand" in fields


async def test_time_away_spans_a_deadline_that_then_does_not_fire(h: Harness) -> None:
    clock = FakeTime()
    await stopped_clock(h, clock)
    alice, bob = h.user("alice"), h.user("bob")
    table = ChannelTable(h, [alice, bob], h.text_channel("slow"))
    await table.open(alice, "quick")
    await h.select(alice, table.table_id, f"go:{table.sid}:_clock", ["1:4"])  # reminder 1 h, AI after 4 h
    await table.seat_all()
    _rec, spec, state = await table.load()
    waiting = table.users[spec.engine.pending(state)[0].seat]

    too_long = await h.slash(waiting, h.channel, "game away", days=15)
    assert too_long.ephemeral and "14 days at most" in too_long.content
    assert await h.bot.store.away(h.guild.id) == []
    r = await h.slash(waiting, h.channel, "game away", days=2)
    assert r.ephemeral and "You are away until <t:" in r.content
    await h.drain()
    assert "🏖 away until <t:" in h.fake.message(table.table_id)["content"]
    status = await h.slash(alice, table.channel, "game status")
    assert "🏖 away until <t:" in status.followups[-1]["content"]

    clock.now += DAY  # far past the four hours of the deadline
    await h.bot.timers.run_due()
    await h.drain()
    assert await h.bot.sessions.ai_seats(table.sid) == {}, "the deadline waits for the player's return"
    assert not [e for e in await h.bot.store.actions(table.sid) if e.auto and e.seat == str(waiting.id)]
    clock.now += DAY + 3 * HOUR  # back for three hours: the clock restarted at the return
    await h.bot.timers.run_due()
    await h.drain()
    assert await h.bot.sessions.ai_seats(table.sid) == {}
    clock.now += 2 * HOUR  # five hours after the return: now the deadline strikes
    await h.bot.timers.run_due()
    await h.drain()
    assert await h.bot.sessions.ai_seats(table.sid) == {str(waiting.id): "normal"}


async def test_coming_back_early_restarts_the_clock_from_then(h: Harness) -> None:
    clock = FakeTime()
    await stopped_clock(h, clock)
    alice, bob = h.user("alice"), h.user("bob", locale="ru")
    table = ChannelTable(h, [alice, bob], h.text_channel("early"))
    await table.open(alice, "quick")
    await h.select(alice, table.table_id, f"go:{table.sid}:_clock", ["1:4"])
    await table.seat_all()
    _rec, spec, state = await table.load()
    waiting = table.users[spec.engine.pending(state)[0].seat]
    await h.slash(waiting, h.channel, "game away", days=3)
    clock.now += 10 * HOUR
    back = await h.slash(waiting, h.channel, "game away", days=0)
    assert back.ephemeral and ("Welcome back" in back.content or "С возвращением" in back.content)
    await h.drain()
    assert "🏖" not in h.fake.message(table.table_id)["content"]
    deadline = next(tm for tm in await h.bot.store.timers(table.sid) if tm.kind == "deadline")
    assert deadline.due_at.timestamp() == clock.now + 4 * HOUR


async def test_a_server_can_cap_or_turn_off_time_away(h: Harness) -> None:
    admin = h.user("admin", permissions=discord.Permissions(manage_guild=True))
    r = await h.slash(admin, h.channel, "settings", away_days=0)
    assert "Longest time away" in description(r)
    refused = await h.slash(h.user("ru", locale="ru"), h.channel, "game away", days=1)
    assert "отъезды отключены" in refused.content


async def test_a_player_away_cannot_be_voted_out(h: Harness) -> None:
    """The vote that follows a reminder waits for an announced absence, as the clock does."""
    table, waiting, others, reminder = await reminded_table(h)
    await h.slash(table.users[waiting], h.channel, "game away", days=1)
    r = await h.click(others[0], reminder["id"], f"gv:{table.sid}:{waiting}")
    assert r.ephemeral and "That player is away and back <t:" in r.content
    assert (await h.bot.sessions.settings(table.sid)).votes == {}

"""Every way a game ends, in every game, told the same on every surface (issue 24): each person who sat at
the table gets exactly one end notification, in their own language, their live DM turned into the final
view with no buttons; the words of that notice, the table's settings, ``/game stats`` and the engine's
result agree; nobody who left, timed out or was voted out is named or counted a winner, and a player whose
seat the AI finished records a loss; no AI seat or player shows as a raw id; ``/game log`` finds the game
after its end. Games come from ``rules.registry``; time comes from the injected clock."""

from __future__ import annotations

import json
import random
from typing import Any

import discord
import pytest

import cogs.games.ai_seats
from bot.i18n import t
from rules import registry

from . import payloads as P
from .harness import Harness
from .tables import Table, custom_ids
from .test_leaving import leave
from .test_time import HOUR, FakeTime, stopped_clock

SHORT = {"call_to_glory": "quick", "eldritch_horror": "pick=random"}
"""Lobby options that make a game quick to open here (the others open quickly as they are)."""
PATHS = ("natural", "leave", "deadline", "vote", "abandon", "idle", "ai")
DAY = 24 * HOUR
MOVES = 5000
"""More moves than any random game here takes to end (Call of Cthulhu, the longest, about a thousand)."""


async def abandon(h: Harness, user: P.User) -> None:
    r = await h.slash(user, h.channel, "game abandon")
    assert r.ephemeral and r.message["components"], r.content
    await h.click(user, r.message_id, custom_ids(r.message)[0])
    await h.drain()


def end_dms(h: Harness, user: P.User) -> list[dict]:
    return [h.fake.message(m["id"]) for m in h.fake.dms_to(user.id)
            if not h.fake.is_deleted(m["id"]) and (m.get("content") or "").startswith("🏁")]


async def choose_clock(h: Harness, table: Table, host: P.User, key: str) -> None:
    """The host picks the turn clock on the lobby's table page, then turns back to the seats."""
    paged = f"glp:{table.sid}:1" in custom_ids(h.fake.message(table.table_id))
    if paged:
        await h.click(host, table.table_id, f"glp:{table.sid}:1")
    await h.select(host, table.table_id, f"go:{table.sid}:_clock", [key])
    if paged:
        await h.click(host, table.table_id, f"glp:{table.sid}:0")


def random_length(spec: Any, state: Any, rnd: random.Random) -> int:
    """How many moves a random game from ``state`` takes to end, played on the engine alone."""
    for n in range(MOVES):
        prompts = spec.engine.pending(state)
        if spec.engine.result(state) is not None or not prompts:
            return n
        legal = spec.engine.legal_actions(state, prompts[0].seat)
        state, _events = spec.engine.apply(state, prompts[0].seat, legal[rnd.randrange(len(legal))])
    return MOVES


def forced_end(spec: Any, state: Any) -> bool:
    """Whether the game is over once the moves nobody can choose otherwise (a seat with one legal move,
    which the bot takes for it) are made."""
    for _ in range(MOVES):
        if spec.engine.result(state) is not None:
            return True
        prompts = spec.engine.pending(state)
        legal = spec.engine.legal_actions(state, prompts[0].seat) if prompts else []
        if len(legal) != 1:
            return False
        state, _events = spec.engine.apply(state, prompts[0].seat, legal[0])
    return False


async def play_out(h: Harness, table: Table, rnd: random.Random, moves: int = MOVES) -> None:
    """Random moves until the game ends, or ``moves`` of them short of its end. The moves go to the session
    service directly, for speed, except the one that ends the game, which is clicked in the mover's live
    DM like a player would (the ending under test follows it); a game an automatic step ends gets the
    follow-up a click would have."""
    for _ in range(moves):
        await h.drain()
        rec, spec, state = await table.load()
        if rec.status != "running":
            return
        ai = await h.bot.sessions.ai_seats(table.sid)
        prompts = [p for p in spec.engine.pending(state) if p.seat not in ai]
        if not prompts:
            h.bot.ai_players.poke(table.sid)
            continue
        seat = prompts[0].seat
        legal = spec.engine.legal_actions(state, seat)
        index = rnd.randrange(len(legal))
        after, _events = spec.engine.apply(state, seat, legal[index])
        if moves < MOVES and forced_end(spec, after):
            return
        if spec.engine.result(after) is not None:
            # The players' DMs are brought up to date first, so the mover ends the game from their live DM.
            await h.bot.tables.deliveries.deliver(table.sid)
            user = table.users[seat]
            message = table.private_message(user, rec.version)
            if message is None:
                await h.click(user, table.table_id, f"gh:{table.sid}")
                message = table.private_message(user, rec.version)
            assert message is not None
            await table.press(user, message, index, rec.version)
            continue
        outcome = await h.bot.sessions.act(table.sid, rec.player(seat), rec.version, legal[index])
        if outcome.record.status != "running":
            await h.bot.tables.after_action(outcome, None)
        elif ai:
            h.bot.ai_players.poke(table.sid)
    assert moves < MOVES, f"no end after {MOVES} moves"


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("game", [spec.id for spec in registry.all()])
async def test_every_ending_is_told_once_to_everyone_and_agrees(h: Harness, game: str, path: str,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeTime()
    await stopped_clock(h, clock)
    rnd = random.Random(f"{game}:{path}")
    ai_rnd = random.Random(7)

    def quick_ai(game_id: str, state_json: str, seat: str, seed: int, level: str) -> str:
        """The AI seats' move here: any legal one, from a seeded generator. The search is rules/ai's to
        test; what matters here is how a game it finishes ends, and searching would take minutes."""
        spec = registry.get(game_id)
        legal = spec.engine.legal_actions(spec.state_model.model_validate_json(state_json), seat)
        return spec.dump_action(legal[ai_rnd.randrange(len(legal))])

    monkeypatch.setattr(cogs.games.ai_seats, "compute_move", quick_ai)
    alice, bob = h.user("alice"), h.user("bob", locale="ru")
    table = Table(h, [alice, bob], game=game)
    await table.open(alice, SHORT.get(game))
    if path == "deadline":
        await choose_clock(h, table, alice, "1:4:forfeit")
    await table.seat_all()
    await h.drain()
    rec, spec, state = await table.load()
    waiting = spec.engine.pending(state)[0].seat
    gone: P.User | None = {"leave": bob, "ai": bob, "deadline": table.users[waiting],
                           "vote": table.users[waiting]}.get(path)
    stayed = alice if gone is bob else bob
    if path == "ai":  # the AI takes bob's seat halfway through a game, and finishes it
        await play_out(h, table, rnd, random_length(spec, state, random.Random(1)) // 2)
    if path in ("leave", "ai"):
        await leave(h, bob, ai=path == "ai")
    elif path == "deadline":
        clock.now += 5 * HOUR
        await h.bot.timers.run_due()
        await h.drain()
    elif path == "vote":
        clock.now += 13 * HOUR
        await h.bot.timers.run_due()
        await h.drain()
        reminder = next(m for m in h.fake.messages_in(h.channel.id, include_ephemeral=False)
                        if "has been waiting" in m["content"])
        r = await h.click(stayed, reminder["id"], f"gv:{table.sid}:{waiting}")
        if f"gv:{table.sid}:{waiting}:y" in custom_ids(r.message or {}):  # a vote that ends the game asks first
            await h.click(stayed, r.message_id, f"gv:{table.sid}:{waiting}:y")
        await h.drain()
    elif path == "idle":
        for wait in (31 * DAY, DAY):  # the second look: the idle timer was set in the lobby, before the start
            clock.now += wait
            await h.bot.timers.run_due()
            await h.drain()
        assert (await h.bot.store.get(table.sid)).status == "abandoned"
    if path in ("natural", "ai"):
        await play_out(h, table, rnd)
    rec, spec, state = await table.load()
    if rec.status == "running":  # the game goes on without the one who left (or the path is abandon)
        # The host may be the one who left: a moderator ends it then.
        mod = h.user("mod", permissions=discord.Permissions(manage_guild=True))
        await abandon(h, alice if path == "abandon" else mod)
    rec, spec, state = await table.load()
    assert rec.status in ("finished", "abandoned")
    if path in ("natural", "ai"):
        assert rec.status == "finished"
    endings = await h.bot.sessions.endings(rec, state)

    for user in (alice, bob):
        told = end_dms(h, user)
        assert len(told) == 1, f"{user.username}: {len(told)} end notifications"
        assert not [c for c in custom_ids(told[0]) if c.startswith("g")], "the final DM has no buttons"
        live = [m for m in h.fake.dms_to(user.id) if not h.fake.is_deleted(m["id"])
                and any(c.startswith(f"gb:{table.sid}:") for c in custom_ids(h.fake.message(m["id"])))]
        assert not live, f"{user.username} keeps a DM with live buttons"
        lang = "ru" if user is bob else "en"
        ending = endings.get(str(user.id), "abandoned")
        assert told[0]["content"] == t(lang, f"dm.end.{ending}", game=spec.name(lang)), (user.username, ending)
    if gone is not None and rec.status == "finished":
        assert endings[str(gone.id)] != "won", "a player who left is never a winner"
    if path == "ai":
        assert endings[str(bob.id)] == "ai_finished", "the seat the AI finished is its player's loss"
    if rec.status == "finished":
        result = spec.engine.result(state)
        departed = (await h.bot.sessions.settings(table.sid)).departed
        assert {s for s, e in endings.items() if e == "won"} == set(result.winners) - set(departed)
        stats = await h.slash(alice, h.channel, "game stats")
        value = stats.message["embeds"][0]["fields"][0]["value"]
        for user in (alice, bob):
            won = int(endings[str(user.id)] == "won")
            assert f"<@{user.id}>: played 1, won {won}" in value, value
    shown = h.fake.message(table.table_id)  # the table says how it ended and offers only a rematch
    assert shown["content"] == t("en", f"table.{rec.status}")
    assert custom_ids(shown) == ([f"gm:{table.sid}"] if rec.status == "finished" else [])
    everything = json.dumps([h.fake.message(m["id"]) for m in h.fake.messages_in(h.channel.id)]
                            + [h.fake.message(m["id"]) for u in (alice, bob) for m in h.fake.dms_to(u.id)
                               if not h.fake.is_deleted(m["id"])], ensure_ascii=False)
    assert "<@-" not in everything
    r = await h.slash(alice, h.channel, "game log")
    assert r.ephemeral and "no game" not in r.content.lower()
    assert not h.fake.take_problems()

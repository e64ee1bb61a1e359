"""Every way a game ends, in every game, told the same on every surface (issue 24): each person who sat at
the table gets exactly one end notification, their live DM turned into the final view with no buttons;
nobody who left is named a winner; no AI seat or player shows as a raw id; ``/game log`` finds the game
after its end. Games come from ``rules.registry``; each case is a short game (its first decision)."""

from __future__ import annotations

import json

import discord
import pytest

from rules import registry

from . import payloads as P
from .harness import Harness
from .tables import Table, custom_ids
from .test_leaving import leave
from .test_time import HOUR, FakeTime, stopped_clock

SHORT = {"call_to_glory": "quick", "eldritch_horror": "pick=random"}
"""Lobby options that make a game quick to open here (the others open quickly as they are)."""
PATHS = ("leave", "vote", "abandon")


async def abandon(h: Harness, user: P.User) -> None:
    r = await h.slash(user, h.channel, "game abandon")
    assert r.ephemeral and r.message["components"], r.content
    await h.click(user, r.message_id, custom_ids(r.message)[0])
    await h.drain()


def end_dms(h: Harness, user: P.User) -> list[dict]:
    return [h.fake.message(m["id"]) for m in h.fake.dms_to(user.id)
            if not h.fake.is_deleted(m["id"]) and (m.get("content") or "").startswith("🏁")]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("game", [spec.id for spec in registry.all()])
async def test_every_ending_is_told_once_to_everyone_and_agrees(h: Harness, game: str, path: str) -> None:
    clock = FakeTime()
    await stopped_clock(h, clock)
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob], game=game)
    await table.open(alice, SHORT.get(game))
    await table.seat_all()
    await h.drain()
    rec, spec, state = await table.load()
    waiting = spec.engine.pending(state)[0].seat
    gone = bob if path == "leave" else table.users[waiting]
    stayed = alice if gone is bob else bob
    if path == "leave":
        await leave(h, bob)
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
    rec, spec, state = await table.load()
    if rec.status == "running":  # the game goes on without the one who left (or the path is abandon)
        # The host may be the one who left: a moderator ends it then.
        await abandon(h, alice if path == "abandon" else h.user("mod", permissions=discord.Permissions(manage_guild=True)))
    rec, spec, state = await table.load()
    assert rec.status in ("finished", "abandoned")

    for user in (alice, bob):
        told = end_dms(h, user)
        assert len(told) == 1, f"{user.username}: {len(told)} end notifications"
        assert not [c for c in custom_ids(told[0]) if c.startswith("g")], "the final DM has no buttons"
        live = [m for m in h.fake.dms_to(user.id) if not h.fake.is_deleted(m["id"])
                and any(c.startswith(f"gb:{table.sid}:") for c in custom_ids(h.fake.message(m["id"])))]
        assert not live, f"{user.username} keeps a DM with live buttons"
    if path != "abandon":
        assert "you won" not in end_dms(h, gone)[0]["content"]
    everything = json.dumps([h.fake.message(m["id"]) for m in h.fake.messages_in(h.channel.id)]
                            + [h.fake.message(m["id"]) for u in (alice, bob) for m in h.fake.dms_to(u.id)
                               if not h.fake.is_deleted(m["id"])], ensure_ascii=False)
    assert "<@-" not in everything
    r = await h.slash(alice, h.channel, "game log")
    assert r.ephemeral and "no game" not in r.content.lower()
    if rec.status == "finished":
        stats = await h.slash(alice, h.channel, "game stats")
        value = stats.message["embeds"][0]["fields"][0]["value"]
        assert f"<@{gone.id}>: played 1, won 0" in value, value
    assert not h.fake.take_problems()

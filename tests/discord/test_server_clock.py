"""``/settings`` sets the server's whole default turn clock (issue 24): the reminder, the deadline and what
the deadline does; a new lobby starts from it, and a deadline without an earlier reminder is refused."""

from __future__ import annotations

import discord
import pytest

from bot.server_settings import TableClock

from .harness import Harness
from .tables import Table


@pytest.mark.parametrize(("locale", "refusal"), [("en-US", "needs a reminder before it"),
                                                 ("ru", "должно быть напоминание")])
async def test_settings_set_the_default_clock_with_its_deadline(h: Harness, locale: str, refusal: str) -> None:
    admin = h.user("admin", locale=locale, permissions=discord.Permissions(manage_guild=True))
    r = await h.slash(admin, h.channel, "settings", remind_hours=12, deadline_hours=48, deadline_action="forfeit")
    assert r.ephemeral and r.message["embeds"]
    shown = str(r.message["embeds"][0]["fields"])
    assert "48" in shown and "12" in shown
    settings = await h.bot.server_settings.get(h.guild.id)
    assert settings.clock == TableClock(remind_hours=12, deadline_hours=48, deadline_action="forfeit")

    # A deadline that would strike before (or without) a reminder is refused and changes nothing.
    for bad in ({"deadline_hours": 6}, {"remind_hours": 0}):
        r = await h.slash(admin, h.channel, "settings", **bad)
        assert r.ephemeral and refusal in r.content, r.content
    assert (await h.bot.server_settings.get(h.guild.id)) == settings

    # A new lobby starts from the server's clock, and the host may still choose another.
    alice = h.user("alice")
    table = Table(h, [alice], game="call_to_glory")
    await table.open(alice)
    rec = await h.bot.store.get(table.sid)
    assert await h.bot.turn_clock.table_clock(rec) == settings.clock
    fields = {f["name"]: f["value"] for f in h.fake.message(table.table_id)["embeds"][0]["fields"]}
    assert fields["Turn clock"] == "Remind after 12 hours, the seat is forfeited after 48 hours"
    await h.select(alice, table.table_id, f"go:{table.sid}:_clock", ["1:4"])
    assert (await h.bot.turn_clock.table_clock(rec)).key == "1:4"
    assert not h.fake.take_problems()

"""The lobby's pages (issue 24): the game's own menus, then the table's (turn clock and table switches);
every game reaches its clock and switches, only the host changes them, and a page number a custom id was
forged with is refused. One page when everything fits Discord's five rows."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bot.server_settings import TableClock
from rules import registry

from . import payloads as P
from .harness import Harness
from .tables import Table, components, custom_ids

ROWS = 5


def rows(message: dict[str, Any]) -> list[list[str]]:
    return [[c.get("custom_id", "") for c in row["components"]] for row in message["components"]]


async def forge(h: Harness, user: P.User, table: Table, custom_id: str) -> Any:
    """A click on a button the lobby never showed: a crafted interaction whose message carries it."""
    message = copy.deepcopy(h.fake.message(table.table_id))
    message["components"][0]["components"][0]["custom_id"] = custom_id
    payload = P.interaction_payload(
        snowflakes=h.snowflakes, application_id=h.fake.application_id, type=P.MESSAGE_COMPONENT,
        ctx=h._context(user, h.channel), data=P.button_click_data(custom_id), message=message)
    return await h.dispatch(payload)


async def table_page(h: Harness, user: P.User, table: Table) -> dict[str, Any]:
    """The lobby message showing the table's menus, turning the page if the lobby has two."""
    lobby = h.fake.message(table.table_id)
    turn = [c for c in custom_ids(lobby) if c.startswith("glp:")]
    if turn:
        assert turn == [f"glp:{table.sid}:1"], turn
        await h.click(user, table.table_id, turn[0])
        lobby = h.fake.message(table.table_id)
    return lobby


@pytest.mark.parametrize("game", [spec.id for spec in registry.all()])
async def test_every_lobby_reaches_the_clock_and_the_switches_and_only_the_host_sets_them(h: Harness,
                                                                                         game: str) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob], game=game)
    await table.open(alice)
    await h.click(bob, table.table_id, f"gl:{table.sid}:join")
    first = h.fake.message(table.table_id)
    assert len(first["components"]) <= ROWS and all(len(r) <= 5 for r in rows(first))
    paged = any(c.startswith("glp:") for c in custom_ids(first))
    assert paged == (f"go:{table.sid}:_clock" not in custom_ids(first)), "a page button only where rows run out"
    lobby = await table_page(h, bob, table)  # anyone may look at the other page
    clock_id, switches_id = f"go:{table.sid}:_clock", f"go:{table.sid}:_switches"
    assert {clock_id, switches_id} <= set(custom_ids(lobby))
    assert len(lobby["components"]) <= ROWS
    switches = next(c for c in components(lobby) if c.get("custom_id") == switches_id)
    assert {o["value"] for o in switches["options"]} == {"hints", "rated", "replay_hands"}
    assert {o["value"] for o in switches["options"] if o.get("default")} == {"hints", "rated"}

    # A non-host is refused and nothing changes.
    before = await h.bot.sessions.settings(table.sid)
    for custom_id, values in ((clock_id, ["24:72:forfeit"]), (switches_id, ["replay_hands"])):
        r = await h.select(bob, table.table_id, custom_id, values)
        assert r.ephemeral and "Only the host" in r.content, r.content
    assert await h.bot.sessions.settings(table.sid) == before

    # The host sets both; the lobby stays on the table's page and lists them.
    await h.select(alice, table.table_id, clock_id, ["24:72:forfeit"])
    await h.select(alice, table.table_id, switches_id, ["rated", "replay_hands"])
    settings = await h.bot.sessions.settings(table.sid)
    assert settings.clock == TableClock(remind_hours=24, deadline_hours=72, deadline_action="forfeit")
    assert (settings.hints, settings.rated, settings.replay_hands) == (False, True, True)
    lobby = h.fake.message(table.table_id)
    assert switches_id in custom_ids(lobby)
    fields = {f["name"]: f["value"] for f in lobby["embeds"][0]["fields"]}
    assert "forfeited after 72 hours" in fields["Turn clock"]
    assert "💡 Hints allowed: **off**" in fields["Table"] and "every hand: **on**" in fields["Table"]

    # Forged page numbers are refused; nobody is seated or unseated by them.
    for forged in (f"glp:{table.sid}:7", f"gl:{table.sid}:leave:p9", f"glp:{table.sid}:{1 if not paged else 2}"):
        r = await forge(h, bob, table, forged)
        assert r.ephemeral and "not available" in r.content, (forged, r.content)
    assert len((await h.bot.store.get(table.sid)).seats) == 2
    assert not h.fake.take_problems()


async def test_the_pages_and_switches_read_in_russian(h: Harness) -> None:
    h.guild.preferred_locale = "ru"
    alice = h.user("alice", locale="ru")
    table = Table(h, [alice], game="eldritch_horror")
    await table.open(alice)
    first = h.fake.message(table.table_id)
    turn = next(c for c in components(first) if c.get("custom_id", "").startswith("glp:"))
    assert turn["label"] == "Настройки стола ▶"
    lobby = await table_page(h, alice, table)
    switches = next(c for c in components(lobby) if c.get("custom_id", "").endswith(":_switches"))
    assert "💡 Подсказки разрешены" in [o["label"] for o in switches["options"]]
    fields = {f["name"]: f["value"] for f in lobby["embeds"][0]["fields"]}
    assert "Подсказки разрешены" in fields["Стол"]
    back = next(c for c in components(lobby) if c.get("custom_id", "").startswith("glp:"))
    assert back["label"] == "◀ Варианты игры" and back["custom_id"] == f"glp:{table.sid}:0"
    await h.click(alice, table.table_id, f"gl:{table.sid}:ai_add:p1")
    lobby = h.fake.message(table.table_id)
    assert any(c.endswith(":_switches") for c in custom_ids(lobby)), "the lobby stays on the page clicked"
    assert "🤖 ИИ 1 (обычный)" in lobby["embeds"][0]["fields"][0]["value"]
    assert not h.fake.take_problems()

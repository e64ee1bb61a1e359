"""AI seats as each reader reads them (issues 24 and 26): named at render time from their number and level
in the reader's language, never by the name stored in the lobby's language; a seat handed to the AI
mid-game is marked 🤖 and notes its former player, and nobody is called to move for the AI."""

from __future__ import annotations

import json

from .harness import Harness
from .tables import Table
from .test_leaving import leave


async def test_an_ai_seat_of_an_english_lobby_reads_in_russian_for_a_russian_reader(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob", locale="ru")
    table = Table(h, [alice, bob], game="fluxx_cthulhu")
    await table.open(alice)
    await h.click(alice, table.table_id, f"gl:{table.sid}:ai_add")
    await h.click(bob, table.table_id, f"gl:{table.sid}:join")
    lobby = await h.slash(bob, h.channel, "game status")
    assert "🤖 ИИ 1 (обычный)" in json.dumps(lobby.message["embeds"], ensure_ascii=False)
    await h.click(alice, table.table_id, f"gl:{table.sid}:start")
    await h.drain()
    english = json.dumps(h.fake.message(table.table_id), ensure_ascii=False)
    assert "🤖 AI 1 (normal)" in english and "ИИ" not in english
    russian = json.dumps((await h.slash(bob, h.channel, "game status")).message, ensure_ascii=False)
    assert "🤖 ИИ 1 (обычный)" in russian and "AI 1" not in russian
    assert "<@-" not in english + russian
    assert not h.fake.take_problems()


async def test_a_seat_handed_to_the_ai_is_marked_with_its_former_player_for_every_reader(h: Harness) -> None:
    """Call to Glory with three: the leaver's seat goes to the AI (the game's leaving ruling)."""
    alice, bob, cat = h.user("alice"), h.user("bob"), h.user("cat", locale="ru")
    table = Table(h, [alice, bob, cat])
    await table.open(alice, "quick")
    await table.seat_all()
    await leave(h, bob)
    assert str(bob.id) in await h.bot.sessions.ai_seats(table.sid)
    _rec, spec, state = await table.load()
    english = json.dumps(h.fake.message(table.table_id), ensure_ascii=False)
    assert "🤖 AI (normal), for Bob" in english
    russian = json.dumps((await h.slash(cat, h.channel, "game status")).message, ensure_ascii=False)
    assert "🤖 ИИ (обычный), место игрока Bob" in russian and "AI (normal)" not in russian
    if str(bob.id) in {p.seat for p in spec.engine.pending(state)}:
        assert f"<@{bob.id}>" not in h.fake.message(table.table_id)["content"], "nobody is called for the AI"
    await h.slash(bob, h.channel, "game join")  # bob takes his seat back: the mark goes at once
    await h.drain()
    assert "for Bob" not in json.dumps(h.fake.message(table.table_id), ensure_ascii=False)
    assert not h.fake.take_problems()


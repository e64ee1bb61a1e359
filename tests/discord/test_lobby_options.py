"""Lobby option menus built from a game's options model: bounded numbers get a menu of their own."""

from __future__ import annotations

import re

from cogs.games import playable

from .harness import Harness
from .tables import Table, components, custom_ids


async def test_a_bounded_number_option_gets_a_menu_and_is_stored_as_a_number(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob], game="eldritch_horror")
    await table.open(alice)
    lobby = h.fake.message(table.table_id)
    select_id = f"go:{table.sid}:investigators"
    assert select_id in custom_ids(lobby)
    menu = next(c for c in components(lobby) if c.get("custom_id") == select_id)
    assert [o["value"] for o in menu["options"]] == [str(n) for n in range(9)]  # the model's 0..8
    await h.select(alice, table.table_id, select_id, ["3"])
    rec = await h.bot.store.get(table.sid)
    assert rec.options["investigators"] == 3
    options = next(f for f in h.fake.message(table.table_id)["embeds"][0]["fields"] if f["name"] == "Options")
    assert "**3**" in options["value"]
    # Only the host changes options; a value outside the menu is refused by the harness like Discord would.
    r = await h.select(bob, table.table_id, select_id, ["5"])
    assert r.ephemeral
    rec = await h.bot.store.get(table.sid)
    assert rec.options["investigators"] == 3
    await table.seat_all()
    _rec, _spec, state = await table.load()
    assert len(state.investigators) == 3
    assert not h.fake.take_problems()


async def test_every_lobby_option_reads_as_words_in_both_languages(h: Harness) -> None:
    """No raw catalog key (``opt.…``, ``common.…``) shows among any game's lobby options."""
    for k, spec in enumerate(playable()):
        for lang in ("en-US", "ru"):
            channel = h.text_channel(f"lobby-{spec.id}-{lang}")
            h.guild.preferred_locale = lang
            host = h.user(f"host{k}{lang}", locale=lang)
            await h.slash(host, channel, "game new", game=spec.id)
            rec = await h.bot.store.active_in_channel(channel.id)
            assert rec is not None
            fields = h.fake.message(rec.table_message_id)["embeds"][0]["fields"]
            text = "\n".join(f["value"] for f in fields)
            assert not re.search(r"\b(opt|common)\.[a-z_]+", text), (spec.id, lang, text)

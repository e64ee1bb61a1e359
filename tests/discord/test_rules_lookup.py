"""/rules and /card through the real discord.py stack."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from collections.abc import Callable

import pytest

from bot.client import GameBot
from bot.settings import Settings
from cogs.rules_lookup import pages

from .harness import Harness


@pytest.fixture
def make_bot(tmp_path: Path) -> Callable[[], GameBot]:
    url = f"sqlite:///{tmp_path / 'bot.sqlite3'}"
    return lambda: GameBot(Settings(database_url=url, discord_token=None, table_edit_interval=0))


@pytest.fixture
async def h(harness: Any, make_bot: Callable[[], GameBot]) -> Harness:
    return await harness(make_bot)


def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for row in message.get("components", []) for c in row["components"] if c["type"] == 2]


async def test_rules_answers_the_question_with_see_also(h: Harness) -> None:
    alice = h.user("alice")
    r = await h.slash(alice, h.channel, "rules", game="call_to_glory",
                      query="can I take both cards from the same pile?")
    assert r.ephemeral
    embed = r.message["embeds"][0]
    assert "CTG-R5" in embed["footer"]["text"]
    see_also = [b for b in buttons(r.message) if b["custom_id"].startswith("rs:")]
    assert 1 <= len(see_also) <= 4
    # Clicking a "see also" answer opens that section privately.
    click = await h.click(alice, r.message_id, see_also[0]["custom_id"])
    assert click.ephemeral and click.message["embeds"][0]["title"] == see_also[0]["label"]


async def test_rules_in_russian_and_public(h: Harness) -> None:
    anna = h.user("anna", locale="ru")
    r = await h.slash(anna, h.channel, "rules", game="call_to_glory",
                      query="сколько карт нужно, чтобы выложить самураев втроём?", public=True)
    assert not r.ephemeral
    embed = r.message["embeds"][0]
    assert "CTG-R7" in embed["footer"]["text"] and "Правила" in embed["footer"]["text"]
    assert any("а" <= ch <= "я" for ch in embed["title"].lower())


async def test_rules_without_a_match_suggests_closest_topics(h: Harness) -> None:
    alice = h.user("alice")
    r = await h.slash(alice, h.channel, "rules", game="call_to_glory", query="qqq zzz xyzzy")
    assert r.ephemeral and r.message["embeds"], "never an empty message"
    suggestions = buttons(r.message)
    assert suggestions
    click = await h.click(alice, r.message_id, suggestions[0]["custom_id"])
    assert click.message["embeds"][0]["description"]


async def test_rules_for_games_without_an_engine_yet(h: Harness) -> None:
    alice = h.user("alice")
    r = await h.slash(alice, h.channel, "rules", game="eldritch_horror", query="how many clues to reroll a die")
    assert r.message["embeds"][0]["footer"]["text"].startswith("Rules: EH-")


async def test_card_lookup_and_fuzzy_names(h: Harness) -> None:
    alice, anna = h.user("alice"), h.user("anna", locale="ru")
    r = await h.slash(alice, h.channel, "card", game="call_to_glory", name="farmer")
    embed = r.message["embeds"][0]
    assert embed["title"] == "Farmer" and any(f["value"] == "20" for f in embed["fields"])
    assert "Фермер" in embed["footer"]["text"]
    r = await h.slash(anna, h.channel, "card", game="call_to_glory", name="самурай")
    assert r.message["embeds"][0]["title"] == "Самурай"
    r = await h.slash(alice, h.channel, "card", game="call_to_glory", name="qzx")
    assert r.ephemeral and "No card called" in r.content


async def test_autocomplete_game_topic_and_card(h: Harness) -> None:
    alice = h.user("alice")
    games = await h.autocomplete(alice, h.channel, "rules", "game", "")
    assert 1 <= len(games) <= 25 and any(g["value"] == "call_to_glory" for g in games)
    topics = await h.autocomplete(alice, h.channel, "rules", "query", "dis", options={"game": "call_to_glory"})
    assert 1 <= len(topics) <= 25 and all(len(c["name"]) <= 100 for c in topics)
    cards = await h.autocomplete(alice, h.channel, "card", "name", "em", options={"game": "call_to_glory"})
    assert any("Emperor" in c["name"] for c in cards) and len(cards) <= 25
    none = await h.autocomplete(alice, h.channel, "card", "name", "em", options={"game": "nonsense"})
    assert none == []


async def test_lookup_buttons_survive_a_restart(h: Harness, make_bot: Callable[[], GameBot]) -> None:
    alice = h.user("alice")
    r = await h.slash(alice, h.channel, "rules", game="call_to_glory", query="ninja figure")
    see_also = [b for b in buttons(r.message) if b["custom_id"].startswith("rs:")]
    await h.restart(make_bot)
    click = await h.click(alice, r.message_id, see_also[0]["custom_id"])
    assert click.ephemeral and click.message["embeds"]


def test_pages_split_long_text_without_cutting_paragraphs() -> None:
    paragraphs = [f"Paragraph {i}: " + "word " * 60 for i in range(20)]
    text = "\n\n".join(paragraphs)
    parts = pages(text, limit=700)
    assert len(parts) > 1 and all(len(p) <= 700 for p in parts)
    assert "".join(p.replace("\n", "") for p in parts).replace(" ", "") == text.replace("\n", "").replace(" ", "")

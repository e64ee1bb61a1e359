"""/rules and /card through the real discord.py stack."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from collections.abc import Callable

import pytest

from bot.client import GameBot
from bot.lookup.search import LookupIndex
from bot.settings import Settings
from cogs.rules_lookup import pages, related_sections, shared_index

from .harness import Harness, HarnessError


@pytest.fixture
def make_bot(tmp_path: Path) -> Callable[[], GameBot]:
    url = f"sqlite:///{tmp_path / 'bot.sqlite3'}"
    return lambda: GameBot(Settings(database_url=url, discord_token=None, table_edit_interval=0, rate_limit_per_second=0))


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


async def test_card_without_a_close_name_suggests_the_closest_names(h: Harness) -> None:
    alice, anna = h.user("alice"), h.user("anna", locale="ru")
    r = await h.slash(alice, h.channel, "card", game="call_to_glory", name="qzx")
    assert r.ephemeral and "—" not in r.content
    assert "Call to Glory" in r.content and "nearest" in r.content
    suggested = [line[2:] for line in r.content.splitlines() if line.startswith("• ")]
    cards = [b for b in buttons(r.message) if b["custom_id"].startswith("rc:call_to_glory:")]
    assert 1 <= len(suggested) <= 5 and [b["label"] for b in cards] == suggested
    # A suggestion opens that card privately.
    click = await h.click(alice, r.message_id, cards[0]["custom_id"])
    assert click.ephemeral and click.message["embeds"][0]["title"] == suggested[0].rsplit(" (", 1)[0]
    # In Russian, with Russian names.
    r = await h.slash(anna, h.channel, "card", game="call_to_glory", name="щщщ")
    assert "Зов Славы" in r.content and "Ближе всего" in r.content
    names = [line[2:] for line in r.content.splitlines() if line.startswith("• ")]
    assert names and all(any("а" <= ch <= "я" for ch in n.lower()) for n in names)
    click = await h.click(anna, r.message_id, buttons(r.message)[0]["custom_id"])
    assert click.message["embeds"][0]["title"] == names[0].rsplit(" (", 1)[0]


@pytest.mark.parametrize("game,query,title,game_name", [
    ("call_to_glory", "самурай", "Самурай", "Зов Славы"),
    ("coc_lcg", "местный шериф", "Местный шериф", "Зов Ктулху"),
    ("cthulhu_wars_duel", "змеелюд", "Змеелюд", "Войны Ктулху"),
    ("eldritch_horror", "чарли кейн", "Чарли Кейн", "Древний ужас"),
    ("fluxx_cthulhu", "некрономикон", "Некрономикон", "Fluxx Ктулху"),
])
async def test_card_in_russian_for_every_game(h: Harness, game: str, query: str, title: str, game_name: str) -> None:
    anna = h.user("anna", locale="ru")
    r = await h.slash(anna, h.channel, "card", game=game, name=query)
    assert r.ephemeral
    embed = r.message["embeds"][0]
    assert embed["title"] == title and embed["author"]["name"].startswith(game_name)
    index: LookupIndex = h.bot.lookup  # type: ignore[attr-defined]
    cards = index.corpus.games[game].cards
    assert cards is not None
    card = next(c for c in cards.cards if c.name.ru == title)
    assert embed["description"] == card.text.ru[:4000]
    assert embed["author"]["name"].endswith(cards.types[card.type].ru)
    assert [f["name"] for f in embed.get("fields", [])] == [cards.stat_labels[k].ru for k in list(card.stats)[:24]]
    if card.name.en != title:
        assert embed["footer"]["text"] == f"Другое название: {card.name.en}"


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


async def test_autocomplete_in_russian(h: Harness) -> None:
    anna = h.user("anna", locale="ru")
    games = await h.autocomplete(anna, h.channel, "rules", "game", "")
    assert {"name": "Зов Славы", "value": "call_to_glory"} in games
    games = await h.autocomplete(anna, h.channel, "card", "game", "древн")
    assert {"name": "Древний ужас", "value": "eldritch_horror"} in games
    topics = await h.autocomplete(anna, h.channel, "rules", "query", "сбр", options={"game": "call_to_glory"})
    assert topics and all(any("а" <= ch <= "я" for ch in c["name"].lower()) for c in topics[:3])
    # The chosen value is a section id; sent as the query it opens that section, in Russian.
    r = await h.slash(anna, h.channel, "rules", game="call_to_glory", query=topics[0]["value"])
    assert r.message["embeds"][0]["title"] == topics[0]["name"]
    cards = await h.autocomplete(anna, h.channel, "card", "name", "сам", options={"game": "call_to_glory"})
    assert cards[0] == {"name": "Самурай", "value": "samurai"} and len(cards) <= 25
    epic = await h.autocomplete(anna, h.channel, "card", "name", "ктул", options={"game": "eldritch_horror"})
    assert {"name": "Ктулху (Эпический монстр)", "value": "cthulhu-epic"} in epic
    # A Latin prefix from a Russian client gets the English names.
    latin = await h.autocomplete(anna, h.channel, "card", "name", "sam", options={"game": "call_to_glory"})
    assert latin[0]["name"] == "Samurai"
    r = await h.slash(anna, h.channel, "card", game="eldritch_horror", name=epic[0]["value"])
    assert r.message["embeds"][0]["title"] == "Ктулху"


async def test_lookup_buttons_survive_a_restart(h: Harness, make_bot: Callable[[], GameBot]) -> None:
    alice = h.user("alice")
    r = await h.slash(alice, h.channel, "rules", game="call_to_glory", query="ninja figure")
    see_also = [b for b in buttons(r.message) if b["custom_id"].startswith("rs:")]
    await h.restart(make_bot)
    click = await h.click(alice, r.message_id, see_also[0]["custom_id"])
    assert click.ephemeral and click.message["embeds"]


def long_answer(index: LookupIndex) -> tuple[str, str, str]:
    """(game, section id, question): a question whose best answer is a section split over pages, and
    whose "see also" topics differ from those the section's title alone would give."""
    for game in index.games():
        for section in index.sections(game):
            if len(pages(section.en.text)) < 2:
                continue
            for question in section.en.keywords:
                hits = index.answer_rules(game, question, "en", limit=5).hits
                if len(hits) < 2 or hits[0].section_id != section.id or hits[0].lang != "en":
                    continue
                asked = [(hit.section_id, hit.title) for hit in hits[1:]]
                if asked != related_sections(index, game, section.en.title, "en", section.id):
                    return game, section.id, question
    raise AssertionError("no long section with a question of its own in the corpus")


def page_buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in buttons(message) if b["custom_id"].startswith("rp:")]


def see_also(message: dict[str, Any]) -> list[tuple[str, str]]:
    return [(b["custom_id"], b["label"]) for b in buttons(message) if b["custom_id"].startswith("rs:")]


async def test_long_answers_turn_pages_and_keep_their_see_also(h: Harness, make_bot: Callable[[], GameBot]) -> None:
    game, section_id, question = long_answer(shared_index())
    parts = pages(shared_index().section(game, section_id).en.text)  # type: ignore[union-attr]
    alice = h.user("alice")
    r = await h.slash(alice, h.channel, "rules", game=game, query=question)
    first = r.message
    assert first["embeds"][0]["description"] == parts[0]
    assert first["embeds"][0]["footer"]["text"].endswith(f"page 1/{len(parts)}")
    back, forward = page_buttons(first)
    assert back["disabled"] and not forward.get("disabled")
    assert forward["custom_id"] == f"rp:{game}:{section_id}:en:1"
    related = see_also(first)
    assert related, "the question has other sections to offer"
    with pytest.raises(HarnessError, match="disabled"):
        await h.click(alice, r.message_id, back["custom_id"])

    click = await h.click(alice, r.message_id, forward["custom_id"])
    assert click.message_id == r.message_id  # the same message, edited
    second = h.fake.message(r.message_id)
    assert second["embeds"][0]["description"] == parts[1]
    assert second["embeds"][0]["footer"]["text"].endswith(f"page 2/{len(parts)}")
    assert second["embeds"][0]["title"] == first["embeds"][0]["title"]
    back, forward = page_buttons(second)
    assert not back.get("disabled") and forward.get("disabled", False) == (len(parts) == 2)
    assert see_also(second) == related, "see also must not change with the page"

    await h.restart(make_bot)  # the buttons still work, and still keep their see also
    await h.click(alice, r.message_id, back["custom_id"])
    again = h.fake.message(r.message_id)
    assert again["embeds"][0]["description"] == parts[0]
    assert again["embeds"][0]["footer"] == first["embeds"][0]["footer"]
    assert see_also(again) == related
    assert all(len(b["custom_id"]) <= 100 for b in buttons(again))


def test_pages_split_long_text_without_cutting_paragraphs() -> None:
    paragraphs = [f"Paragraph {i}: " + "word " * 60 for i in range(20)]
    text = "\n\n".join(paragraphs)
    parts = pages(text, limit=700)
    assert len(parts) > 1 and all(len(p) <= 700 for p in parts)
    assert "".join(p.replace("\n", "") for p in parts).replace(" ", "") == text.replace("\n", "").replace(" ", "")


@pytest.mark.parametrize(("command", "options"), [("rules", {"query": "dice"}), ("card", {"name": "x" * 100})])
async def test_a_very_long_game_name_is_answered_clipped(h: Harness, command: str, options: dict[str, str]) -> None:
    """Discord takes up to 6,000 characters in an option; the answer quotes only the start of it, so it
    still fits in a message (the fake refuses one over 2,000 characters, as Discord would)."""
    alice = h.user("alice")
    r = await h.slash(alice, h.channel, command, game="g" * 6000, **options)
    assert r.ephemeral and "g" * 99 + "…" in r.content and len(r.content) < 300

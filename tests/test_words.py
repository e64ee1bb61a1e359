"""Every text the bot can send, in both languages, read the way a player reads it (issue 26).

Walks the bot's and each game's catalogs, the rules reference, the card texts and what /help shows of
each game, and checks that a command is named only through a placeholder (so the reader gets a mention
or the name their own client shows), that each game's glossary is kept (no avoided synonym anywhere),
that nothing tells a player what is "unknown", and that no raw game id shows.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.i18n import catalog
from bot.i18n.catalog import COMMAND, LANGUAGES, OPTION
from bot.lookup.corpus import Corpus, load_corpus
from rules import registry

ROOT = Path(__file__).resolve().parents[1]
GAMES = [spec.id for spec in registry.all()]
TOP_COMMANDS = ("game", "rules", "card", "help", "settings", "coc")
# A command typed by hand: "/game new", "`/rules`", "/правила" (a slash after a space, quote or bracket,
# so "+2/card" in a formula is not one).
HAND_COMMAND = re.compile(r"(?:^|(?<=[\s`(«“*]))/(" + "|".join(TOP_COMMANDS) + r"|игра|правила|карта|помощь|настройки|кок)\b")
UNKNOWN = re.compile(r"\bunknown\b|\bnot known\b|не\s*известн", re.IGNORECASE)
# Real titles that happen to contain the word: the card Fear of the Unknown.
TITLES = re.compile(r"Fear of the Unknown|Страх\w* неизвестного|Dabbler in the Unknown", re.IGNORECASE)


def _flat(node: Any, prefix: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _flat(value, f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(node, str):
        yield prefix, node


def catalog_texts(path: Path) -> Iterator[tuple[str, str]]:
    yield from _flat(yaml.safe_load(path.read_text(encoding="utf-8")) or {})


@cache
def corpus() -> Corpus:
    return load_corpus()


def game_texts(game: str, lang: str) -> Iterator[tuple[str, str]]:
    """(where, text) for everything a player of ``game`` reads in ``lang``."""
    path = ROOT / "rules" / game / "i18n" / f"{lang}.yaml"
    if path.exists():
        for key, text in catalog_texts(path):
            yield f"{path.relative_to(ROOT)}:{key}", text
    found = corpus().games.get(game)
    if found and found.sections:
        for sec in found.sections.sections:
            body = sec.lang(lang)
            yield f"reference {sec.id}", body.title
            yield f"reference {sec.id}", body.text
    if found and found.cards:
        for card in found.cards.cards:
            yield f"card {card.id}", card.name.get(lang)
            yield f"card {card.id}", card.text.get(lang)
            local = card.extra.get(f"stats_{lang}") or {}
            for key, value in card.stats.items():  # what /card shows under the text
                yield f"card {card.id} {key}", str(local.get(key, value))
        for key, label in found.cards.stat_labels.items():
            yield f"card stat {key}", label.get(lang)
        for kind, label in found.cards.types.items():
            yield f"card type {kind}", label.get(lang)
    spec = registry.get(game)
    yield f"{game} name", spec.name(lang)
    yield f"{game} about (/help)", spec.about.get(lang, "")


def bot_texts(lang: str) -> Iterator[tuple[str, str]]:
    path = ROOT / "bot" / "i18n" / f"{lang}.yaml"
    for key, text in catalog_texts(path):
        yield f"bot/i18n/{lang}.yaml:{key}", text


def every_text(lang: str) -> Iterator[tuple[str, str]]:
    yield from bot_texts(lang)
    for game in GAMES:
        yield from game_texts(game, lang)


def glossary(game: str) -> dict[str, Any]:
    return yaml.safe_load((ROOT / "rules" / game / "glossary.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_commands_are_named_only_by_placeholder(lang: str) -> None:
    bad = [f"{where}: {m.group(0)!r}" for where, text in every_text(lang)
           for m in [HAND_COMMAND.search(text)] if m and not where.split(":")[-1].startswith("cmd.")]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_placeholder_names_a_real_command_or_option(lang: str) -> None:
    """A placeholder with a typo would print a command that does not exist (the Russian names come from
    the same ``cmd.*`` keys as discord.py's translator)."""
    ru = catalog().messages["ru"]
    bad = []
    for where, text in every_text(lang):
        for m in COMMAND.finditer(text):
            if "cmd." + m.group(1).replace(" ", ".") not in ru:
                bad.append(f"{where}: {m.group(0)}")
        for m in OPTION.finditer(text):
            if f"cmd.{m.group(1)}.name" not in ru:
                bad.append(f"{where}: {m.group(0)}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_the_glossary_is_kept_everywhere(game: str, lang: str) -> None:
    terms = glossary(game)["terms"]
    avoid = [(name, re.compile(rf"\b(?:{p})\b", re.IGNORECASE))
             for name, term in terms.items() for p in (term.get("avoid") or {}).get(lang, [])]
    bad = [f"{where}: {pat.search(text).group(0)!r} instead of {terms[name][lang]!r}"  # type: ignore[union-attr]
           for where, text in game_texts(game, lang) for name, pat in avoid if pat.search(text)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("game", GAMES)
def test_each_glossary_term_is_the_one_the_texts_use(game: str) -> None:
    """A glossary naming a word the game's texts never use would keep nothing."""
    data = glossary(game)
    assert data["game"] == game
    for lang in LANGUAGES:
        texts = " ".join(text for _, text in game_texts(game, lang)).lower()
        for name, term in data["terms"].items():
            stem = term[lang].lower()[: max(4, len(term[lang]) - 2)]
            assert stem in texts, f"{game} {name}: {term[lang]!r} is used nowhere in {lang}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_unknown_in_front_of_players(lang: str) -> None:
    bad = [f"{where}: {text[:120]!r}" for where, text in every_text(lang) if UNKNOWN.search(TITLES.sub("", text))]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_raw_game_id(lang: str) -> None:
    ids = re.compile(r"\b(" + "|".join(GAMES) + r")\b")
    bad = [f"{where}: {text[:120]!r}" for where, text in every_text(lang) if ids.search(text)]
    assert not bad, "\n".join(bad)


def test_cards_whose_title_is_not_known_carry_a_house_name() -> None:
    """The data keeps its confidence notes; the name a player sees is the project's own, marked house."""
    data = json.loads((ROOT / "rules" / "fluxx_cthulhu" / "data" / "cards.json").read_text(encoding="utf-8"))
    for card in data["cards"]:
        source = card.get("name_en_source") or ""
        assert not source.startswith("descriptive"), card["id"]
        assert card.get("house_name", False) is source.startswith("house"), card["id"]


def test_a_game_id_given_as_a_parameter_reads_as_the_game_name() -> None:
    """The busy-channel refusal used to show "(fluxx_cthulhu)"."""
    from bot.i18n import t

    text = t("ru", "err.channel_busy", game="fluxx_cthulhu", channel=1)
    assert "Fluxx Ктулху" in text and "fluxx_cthulhu" not in text
    assert "Cthulhu Fluxx" in t("en", "err.channel_busy", game="fluxx_cthulhu", channel=1)
    assert "chess" in t("en", "err.unknown_game", game="chess")  # what the user typed stays as typed

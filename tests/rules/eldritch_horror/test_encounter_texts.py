"""Encounter texts shown at the table: every section speaks both languages, in the project's own words.

The Discord table reads ``section["text"][lang]``, so a missing language would leave players with a blank
encounter. The texts were rewritten from the shared reference data, whose sentences must not come back
(DESIGN.md: names, numbers and stats carry over, sentences do not).
"""
from __future__ import annotations

import json
import pathlib
import re
from collections.abc import Iterator
from typing import Any

import pytest

from rules.eldritch_horror.data import DATA

#: The shared reference data sits beside the project (``<project>/../shared``); CI checks it out there.
SHARED_ENCOUNTERS = (
    pathlib.Path(__file__).resolve().parents[3].parent / "shared" / "games" / "eldritch_horror" / "encounters.json"
)
#: Shorter strings are stock phrases ("gain 1 Clue") that any faithful wording must share.
MIN_COPY_LEN = 40
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
LATIN_WORD = re.compile("[a-z]{4,}", re.IGNORECASE)


def _sections() -> list[tuple[str, dict[str, Any]]]:
    cards = json.loads((DATA / "encounters.json").read_text(encoding="utf-8"))["cards"]
    return [(f"{card['id']}/{section['section']}", section) for card in cards for section in card["sections"]]


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from _strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value)


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def _sentences(text: str) -> list[str]:
    """Whole string plus its sentences, so a copied sentence is caught even inside a longer paraphrase."""
    parts = [text, *re.split(r"(?<=[.!?;])\s+", text)]
    return [_norm(p) for p in parts if len(p.strip()) > MIN_COPY_LEN]


SECTIONS = _sections()


def test_every_section_has_english_and_russian_text() -> None:
    assert len(SECTIONS) == 258
    for where, section in SECTIONS:
        text = section.get("text")
        assert isinstance(text, dict) and set(text) == {"en", "ru"}, where
        assert text["en"].strip() and text["ru"].strip(), where
        assert CYRILLIC.search(text["ru"]), f"{where}: Russian text has no Cyrillic"
        assert not CYRILLIC.search(text["en"]), f"{where}: English text has Cyrillic"


def test_no_section_keeps_the_copied_fields() -> None:
    for where, section in SECTIONS:
        assert "paraphrase" not in section, where
        assert "notes" not in section, where
        assert isinstance(section.get("note", ""), str), where


def test_russian_texts_use_the_project_skill_names() -> None:
    """Skill names as in cards.json stat_labels (внимание, общение, знания), not literal translations."""
    for where, section in SECTIONS:
        ru = section["text"]["ru"].lower()
        assert "наблюдательн" not in ru and "влияни" not in ru, where
        leftovers = [w for w in LATIN_WORD.findall(ru) if w.lower() not in {"xviii"}]
        assert not leftovers, f"{where}: English words in the Russian text: {leftovers}"


@pytest.mark.skipif(not SHARED_ENCOUNTERS.exists(), reason="shared reference data (../shared) not checked out")
def test_no_text_reuses_a_sentence_of_the_shared_data() -> None:
    shared = json.loads(SHARED_ENCOUNTERS.read_text(encoding="utf-8"))
    shared_strings = [_norm(s) for s in _strings(shared)]
    shared_sentences = {s for raw in _strings(shared) for s in _sentences(raw)}
    assert shared_sentences, "the shared file should hold the old paraphrases"
    for where, section in SECTIONS:
        for lang, text in section["text"].items():
            ours = _norm(text)
            copied = [s for s in shared_sentences if s in ours]
            assert not copied, f"{where} [{lang}] repeats shared text: {copied[0]!r}"
            for sentence in _sentences(text):
                assert not any(sentence in s for s in shared_strings), (
                    f"{where} [{lang}] sentence found in the shared data: {sentence!r}"
                )

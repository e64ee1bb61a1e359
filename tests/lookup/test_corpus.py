"""The reference corpus: every sections.yaml / cards.json validates and covers its game's digest.

Games whose corpus is not written yet are skipped with the reason, so the suite stays green while the
corpus grows; once a file exists it must be valid.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.lookup.corpus import PROJECT_ROOT, corpus_files, load_cards, load_sections

GAMES = ("call_to_glory", "fluxx_cthulhu", "cthulhu_wars_duel", "coc_lcg", "eldritch_horror")
DIGESTS = PROJECT_ROOT.parent / "shared" / "games"
RULE_ID = re.compile(r"\b(?:CTG|FLX|CWD|CoC|EH)-[A-Z]?\d+[a-z]?\b")
_FILES = corpus_files()


def _sections_path(game: str) -> Path:
    path = _FILES.get(game, {}).get("sections")
    if path is None:
        pytest.skip(f"{game}: rules/{game}/reference/sections.yaml is not written yet")
    return path


def _digest_ids(game: str) -> set[str]:
    digest = DIGESTS / game / "digest.md"
    if not digest.exists():
        pytest.skip(f"{game}: no digest at {digest}")
    return set(RULE_ID.findall(digest.read_text(encoding="utf-8")))


def _covered(rule: str, listed: set[str]) -> bool:
    """Exact id, or a sub-rule whose base is listed (CWD-R60a by CWD-R60), or a base rule one of
    whose sub-rules is listed (CWD-R60 by CWD-R60a)."""
    if rule in listed:
        return True
    base = rule[:-1] if rule[-1].isalpha() and rule[-2].isdigit() else None
    if base and base in listed:
        return True
    return any(x[:-1] == rule and x[-1].isalpha() for x in listed)


def test_corpus_discovered_from_package_location(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # the loader must not depend on the working directory
    assert corpus_files() == _FILES
    if not _FILES:
        pytest.skip("no corpus file written yet")


@pytest.mark.parametrize("game", GAMES)
def test_sections_validate(game):
    model = load_sections(_sections_path(game), game)
    ids = [s.id for s in model.sections]
    assert len(ids) == len(set(ids)), "section ids must be unique"
    for sec in model.sections:
        for lang in ("en", "ru"):
            st = sec.lang(lang)
            assert st.title.strip() and st.text.strip(), f"{sec.id}.{lang} needs a title and text"


@pytest.mark.parametrize("game", GAMES)
def test_cards_validate(game):
    path = _FILES.get(game, {}).get("cards")
    if path is None:
        pytest.skip(f"{game}: no rules/{game}/data/cards.json (not every game has one)")
    model = load_cards(path, game)  # unique ids, required fields, type in types, stats in labels
    assert model.cards


@pytest.mark.parametrize("game", GAMES)
def test_every_digest_rule_id_is_covered(game):
    model = load_sections(_sections_path(game), game)
    wanted = _digest_ids(game)
    listed = {r for s in model.sections for r in s.rules}
    missing = sorted(r for r in wanted if not _covered(r, listed))
    assert not missing, f"{game}: digest rule ids no section lists: {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_listed_rule_ids_exist_in_digest(game):
    """Catches typos in `rules:` lists (an id the digest never mentions)."""
    model = load_sections(_sections_path(game), game)
    known = _digest_ids(game)
    unknown = sorted(
        {r for s in model.sections for r in s.rules if not _covered(r, known)}
    )
    assert not unknown, f"{game}: sections list rule ids the digest does not have: {unknown}"


def test_whole_corpus_loads_strictly():
    from bot.lookup.corpus import load_corpus

    if not _FILES:
        pytest.skip("no corpus file written yet")
    corpus = load_corpus(strict=True)
    assert set(corpus.games) == set(_FILES)
    assert not corpus.errors

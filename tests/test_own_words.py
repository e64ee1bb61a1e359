"""Own words (DESIGN.md): the project's data and code for a game copy no sentence from the shared reference
data in ``../shared/games/<game>/*.json``, and no file of the project repeats a run of eight words from the
rulebooks in ``../shared/seeds``; names, numbers and stats carry over, sentences do not.

A "sentence" is a string of the shared data longer than 40 characters that contains whitespace. Longer
identifiers without spaces (effect op names such as ``investigator_on_space_encounters_this_monster``) are
names the engine shares with the reference data on purpose, not prose, so they are allowed.

Skipped when ``../shared`` is not checked out next to the project.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SHARED_GAMES = ROOT.parent / "shared" / "games"
SEEDS = ROOT.parent / "shared" / "seeds"
RUN = 8  # words in a row that make a copied sentence (the shared checker's measure)
WORD = re.compile(r"[\w'-]+")
GAMES = ("call_to_glory", "coc_lcg", "cthulhu_wars_duel", "eldritch_horror", "fluxx_cthulhu")
MIN_LEN = 40
SUFFIXES = (".json", ".yaml", ".yml", ".py")


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from _strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value)


def _sentences(game_dir: Path) -> set[str]:
    found: set[str] = set()
    for path in sorted(game_dir.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        found.update(s for s in _strings(data) if len(s) > MIN_LEN and any(c.isspace() for c in s))
    return found


def _haystack(path: Path) -> str:
    """The raw file plus, for data files, its decoded strings (a quote escaped in JSON still matches)."""
    raw = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        return raw + "\n" + "\n".join(_strings(json.loads(raw)))
    if path.suffix in (".yaml", ".yml"):
        return raw + "\n" + "\n".join(_strings(yaml.safe_load(raw)))
    return raw


def _project_files(game: str) -> list[Path]:
    return sorted(
        p for p in (ROOT / "rules" / game).rglob("*")
        if p.suffix in SUFFIXES and p.is_file()
    )


@pytest.mark.parametrize("game", GAMES)
def test_no_sentence_copied_from_shared_data(game: str) -> None:
    """DESIGN.md, own words: no shared sentence appears verbatim in rules/<game>/ (json, yaml, py)."""
    shared = SHARED_GAMES / game
    if not shared.is_dir():
        pytest.skip(f"{shared} is not checked out")
    sentences = _sentences(shared)
    if not sentences:
        pytest.skip(f"{game}: the shared data has no JSON prose to compare")
    copied: dict[str, list[str]] = {}
    for path in _project_files(game):
        text = _haystack(path)
        hits = sorted(s for s in sentences if s in text)
        if hits:
            copied[str(path.relative_to(ROOT))] = hits
    report = "; ".join(f"{f}: {len(h)} copied, e.g. {h[0]!r}" for f, h in copied.items())
    assert not copied, f"rewrite in own words: {report}"



def _words(text: str) -> list[str]:
    return [w.lower().replace("ё", "е") for w in WORD.findall(text)]


def test_no_run_of_eight_words_from_a_rulebook() -> None:
    """Every text file of the project (code, data, catalogs, README) is checked against every rulebook:
    eight words in a row shared with a rulebook are a copied sentence."""
    books = sorted(SEEDS.glob("*.txt"))
    if not books:
        pytest.skip(f"{SEEDS} is not checked out")
    runs: set[tuple[str, ...]] = set()
    for book in books:
        w = _words(book.read_text(encoding="utf-8", errors="ignore"))
        runs.update(tuple(w[i:i + RUN]) for i in range(len(w) - RUN + 1))
    files = [p for d in ("bot", "cogs", "rules", "benchmarks") for p in (ROOT / d).rglob("*")
             if p.is_file() and p.suffix in (*SUFFIXES, ".md", ".txt")] + [ROOT / "README.md"]
    copied = []
    for path in files:
        w = _words(path.read_text(encoding="utf-8"))
        hit = next((i for i in range(len(w) - RUN + 1) if tuple(w[i:i + RUN]) in runs), None)
        if hit is not None:
            copied.append(f"{path.relative_to(ROOT)}: {' '.join(w[hit:hit + RUN])}")
    assert not copied, "rewrite in own words: " + "; ".join(copied[:10])

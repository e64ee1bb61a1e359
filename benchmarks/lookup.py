"""Rules/card lookup: index build time and query latency over the whole corpus (plain script, prints JSON).

    python benchmarks/lookup.py [--rounds N]

Ranking quality: the share of questions whose expected section comes first (top-1) or among the first
three (top-3), per language, for the tuning set (tests/lookup/questions/*.yaml) and apart from it for the
held-out sets (tests/lookup/questions/heldout/*.yaml, written before the search was tuned, and
tests/lookup/questions/heldout2/*.yaml, written before the second tuning round, and heldout3/*.yaml,
written after it for the next round; none is used to tune).

Queries: every question of tests/lookup/questions/*.yaml (``search_rules``), plus per game with cards:
every card name in both languages, its first 4 letters, and a misspelt name (``search_cards``), and
autocomplete calls (topics and cards) on 1–3 letter prefixes. One process, one core. Target: p99 < 20 ms.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from bot.lookup import LookupIndex, load_corpus  # noqa: E402


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def _summary(ms: list[float]) -> dict:
    return {
        "n": len(ms),
        "p50_ms": round(_pct(ms, 0.50), 3),
        "p99_ms": round(_pct(ms, 0.99), 3),
        "max_ms": round(max(ms), 3) if ms else 0.0,
        "mean_ms": round(statistics.fmean(ms), 3) if ms else 0.0,
    }


def _typo(word: str, rnd: random.Random) -> str:
    if len(word) < 5:
        return word
    k = rnd.randrange(1, len(word) - 2)
    return word[:k] + word[k + 1] + word[k] + word[k + 2:]


def _questions(folder: Path) -> list[tuple[str, dict]]:
    out = []
    for path in sorted(folder.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        out += [(data["game"], q) for q in data["questions"]]
    return out


def _quality(index: LookupIndex, questions: list[tuple[str, dict]]) -> dict:
    """Top-1 and top-3 shares per language (and overall), plus the misses' count."""
    rows: dict[str, list[int]] = {}
    for game, q in questions:
        ids = [h.section_id for h in index.search_rules(game, q["q"], q["lang"], limit=3)]
        for key in (q["lang"], "all"):
            row = rows.setdefault(key, [0, 0, 0])
            row[0] += 1
            row[1] += ids[:1] == [q["expect"]]
            row[2] += q["expect"] in ids
    return {key: {"n": n, "top1": round(t1 / n, 4), "top3": round(t3 / n, 4)} for key, (n, t1, t3) in rows.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3, help="times every query is repeated")
    args = ap.parse_args()

    t0 = time.perf_counter()
    corpus = load_corpus(strict=False)
    load_s = time.perf_counter() - t0
    builds = []
    index = None
    for _ in range(3):
        t = time.perf_counter()
        index = LookupIndex.build(corpus)
        builds.append(time.perf_counter() - t)
    assert index is not None

    rnd = random.Random(0)
    rule_q: list[tuple[str, str, str]] = []
    for path in sorted((ROOT / "tests" / "lookup" / "questions").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if index.has_sections(data["game"]):
            rule_q += [(data["game"], q["q"], q["lang"]) for q in data["questions"]]
    card_q: list[tuple[str, str, str]] = []
    auto_q: list[tuple[str, str, str, str]] = []
    for game in index.games():
        gc = index.corpus.games[game]
        if gc.cards is not None:
            for card in gc.cards.cards:
                for lang in ("en", "ru"):
                    name = card.name.get(lang)
                    card_q += [(game, name, lang), (game, name[:4], lang), (game, _typo(name, rnd), lang)]
        for lang in ("en", "ru"):
            for prefix in ("", "a", "ca", "dra", "с", "ка", "сбр", "ход"):
                auto_q.append(("topics", game, prefix, lang))
                auto_q.append(("cards", game, prefix, lang))
        for prefix in ("", "c", "el", "к", "ужас"):
            auto_q.append(("games", game, prefix, "en"))

    rule_ms: list[float] = []
    card_ms: list[float] = []
    auto_ms: list[float] = []
    for _ in range(args.rounds):
        for game, q, lang in rule_q:
            t = time.perf_counter()
            if not index.search_rules(game, q, lang, limit=5):
                index.closest_topics(game, q, lang)
            rule_ms.append((time.perf_counter() - t) * 1000)
        for game, q, lang in card_q:
            t = time.perf_counter()
            index.search_cards(game, q, lang)
            card_ms.append((time.perf_counter() - t) * 1000)
        for kind, game, prefix, lang in auto_q:
            t = time.perf_counter()
            if kind == "topics":
                index.autocomplete_topics(game, prefix, lang)
            elif kind == "cards":
                index.autocomplete_cards(game, prefix, lang)
            else:
                index.autocomplete_games(prefix, lang)
            auto_ms.append((time.perf_counter() - t) * 1000)

    everything = rule_ms + card_ms + auto_ms
    questions = ROOT / "tests" / "lookup" / "questions"
    print(json.dumps({
        "quality_tuning": _quality(index, _questions(questions)),
        "quality_heldout": _quality(index, _questions(questions / "heldout")),
        "quality_heldout2": _quality(index, _questions(questions / "heldout2")),
        "quality_heldout3": _quality(index, _questions(questions / "heldout3")),
        "corpus": index.stats(),
        "corpus_errors": list(corpus.errors),
        "load_corpus_s": round(load_s, 4),
        "build_index_s": {"min": round(min(builds), 4), "max": round(max(builds), 4)},
        "rules_queries": _summary(rule_ms),
        "card_queries": _summary(card_ms),
        "autocomplete": _summary(auto_ms),
        "all_queries": _summary(everything),
        "target_p99_ms": 20,
        "p99_ok": _pct(everything, 0.99) < 20,
    }, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()

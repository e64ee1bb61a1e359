"""Table-picture rendering: time per render and PNG size (plain script, prints JSON).

    python benchmarks/render.py [--renders N] [--seed S]

States are sampled from random Cthulhu Wars: Duel games on both maps (biased towards building and
fighting so boards fill up), alternating English and Russian. The first render of each map and language
draws the fixed background and is reported apart ("cold"); the rest reuse it, as a running bot does.

The ``eldritch_horror`` section does the same for the Eldritch Horror world map: states from random games
with 1-8 investigators, stopped at random points so early and crowded late boards both appear.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cogs.cthulhu_wars_duel.map import draw_map  # noqa: E402
from cogs.eldritch_horror.map import draw_map as draw_eh_map  # noqa: E402
from cogs.games.ui import Names  # noqa: E402
from rules import registry  # noqa: E402
from rules.cthulhu_wars_duel.maps import MAP_IDS  # noqa: E402

BUSY = ("recruit", "summon", "awaken", "build_gate", "move", "move_unit", "battle", "capture", "ritual")


def sample_views(map_id: str, count: int, rnd: random.Random) -> list[Any]:
    engine = registry.get("cthulhu_wars_duel").engine
    views: list[Any] = []
    while len(views) < count:
        state = engine.new_game(["s1", "s2"], {"map": map_id}, seed=rnd.getrandbits(32))
        states = []
        while prompts := engine.pending(state):
            legal = engine.legal_actions(state, prompts[0].seat)
            keen = [a for a in legal if a.type in BUSY]
            state, _ = engine.apply(state, prompts[0].seat, rnd.choice(keen if keen and rnd.random() < 0.85 else legal))
            states.append(state)
        step = max(1, len(states) // 12)
        views.extend(engine.view(s, None) for s in states[::step])
    return views[:count]


def sample_eh_views(count: int, rnd: random.Random) -> list[Any]:
    engine = registry.get("eldritch_horror").engine
    views: list[Any] = []
    while len(views) < count:
        seats = [f"s{i}" for i in range(rnd.randint(1, 4))]
        state = engine.new_game(seats, {"investigators": rnd.choice([0, len(seats), 8])}, seed=rnd.getrandbits(32))
        states = []
        while prompts := engine.pending(state):
            state, _ = engine.apply(state, prompts[0].seat, rnd.choice(engine.legal_actions(state, prompts[0].seat)))
            states.append(state)
        step = max(1, len(states) // 8)
        views.extend(engine.view(s, None) for s in states[::step])
    return views[:count]


def measure_eh(count: int, rnd: random.Random) -> dict[str, Any]:
    views = sample_eh_views(count, rnd)
    cold: dict[str, float] = {}
    for locale in ("en", "ru"):
        t0 = time.perf_counter()
        draw_eh_map(views[0], locale)
        cold[locale] = round((time.perf_counter() - t0) * 1000, 1)
    ms: list[float] = []
    sizes: list[int] = []
    for i, view in enumerate(views):
        t0 = time.perf_counter()
        png = draw_eh_map(view, ("en", "ru")[i % 2])
        ms.append((time.perf_counter() - t0) * 1000)
        sizes.append(len(png))
    return {
        "renders": len(views), "cold_ms": cold, "ms_mean": round(statistics.fmean(ms), 1),
        "ms_p50": round(pct(ms, 0.5), 1), "ms_p99": round(pct(ms, 0.99), 1),
        "png_bytes_mean": round(statistics.fmean(sizes)), "png_bytes_max": max(sizes),
    }


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--renders", type=int, default=100, help="renders per map")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rnd = random.Random(args.seed)
    names = Names({"s1": "Alice", "s2": "Борис"})
    out: dict[str, Any] = {"game": "cthulhu_wars_duel", "renders_per_map": args.renders, "maps": {}}
    all_ms: list[float] = []
    all_bytes: list[int] = []
    for map_id in MAP_IDS:
        views = sample_views(map_id, args.renders, rnd)
        cold: dict[str, float] = {}
        for locale in ("en", "ru"):
            t0 = time.perf_counter()
            draw_map(views[0], locale, names)
            cold[locale] = round((time.perf_counter() - t0) * 1000, 1)
        ms: list[float] = []
        sizes: list[int] = []
        for i, view in enumerate(views):
            t0 = time.perf_counter()
            png = draw_map(view, ("en", "ru")[i % 2], names)
            ms.append((time.perf_counter() - t0) * 1000)
            sizes.append(len(png))
        all_ms += ms
        all_bytes += sizes
        out["maps"][map_id] = {
            "cold_ms": cold,
            "ms_mean": round(statistics.fmean(ms), 1),
            "ms_p50": round(pct(ms, 0.5), 1),
            "ms_p99": round(pct(ms, 0.99), 1),
            "png_bytes_mean": round(statistics.fmean(sizes)),
            "png_bytes_max": max(sizes),
        }
    out["all"] = {
        "ms_mean": round(statistics.fmean(all_ms), 1),
        "ms_p50": round(pct(all_ms, 0.5), 1),
        "ms_p99": round(pct(all_ms, 0.99), 1),
        "png_bytes_mean": round(statistics.fmean(all_bytes)),
        "png_bytes_max": max(all_bytes),
    }
    out["eldritch_horror"] = measure_eh(args.renders, rnd)
    print(json.dumps(out, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()

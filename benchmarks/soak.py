"""Soak: many random games per engine over every seat count and sampled options, looking for games that
crash, hang (no end within a step cap) or break the contract. Plain script, run by hand; prints JSON.

    python benchmarks/soak.py [--game ID] [--games 500] [--workers 2] [--max-steps 50000]

Each failure is printed with its game, seats, options, seed and policy seed, so it can be replayed as a
test. Random legal play is uniform except that a seat never answers its own any-time actions, the same
policy the property tests use; the options of each game are drawn from its options model.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, get_args

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import registry  # noqa: E402
from rules.core import GameSpec, RuleError  # noqa: E402


def sample_options(spec: GameSpec, rnd: random.Random) -> dict[str, Any]:
    """One random value for every option whose values the model enumerates (booleans, literals, bounded
    integers); other options keep their defaults. Invalid combinations are skipped by the caller."""
    out: dict[str, Any] = {}
    for name, field in spec.options_model.model_fields.items():
        ann = field.annotation
        if ann is bool:
            out[name] = rnd.random() < 0.5
        elif get_args(ann) and all(isinstance(a, str) for a in get_args(ann)):
            out[name] = rnd.choice(get_args(ann))
        elif ann is int:
            lo = next((m.ge for m in field.metadata if hasattr(m, "ge")), None)
            hi = next((m.le for m in field.metadata if hasattr(m, "le")), None)
            if lo is not None and hi is not None:
                out[name] = rnd.randint(lo, hi)
    return out


def play(game: str, seats: int, options: dict[str, Any], seed: int, policy: int, max_steps: int) -> dict[str, Any]:
    spec = registry.get(game)
    engine = spec.engine
    rnd = random.Random(policy)
    names = [f"s{i}" for i in range(seats)]
    try:
        state = engine.new_game(names, spec.parse_options(options), seed)
    except RuleError as exc:  # a seating the lobby refuses too (more seats than investigators, say)
        return {"refused": exc.code}
    steps = 0
    while prompts := engine.pending(state):
        steps += 1
        if steps > max_steps:
            return {"problem": "no end", "steps": steps}
        seat = prompts[0].seat
        legal = engine.legal_actions(state, seat)
        if not legal:
            return {"problem": f"{seat} is asked but has no legal action", "steps": steps}
        state, _ = engine.apply(state, seat, rnd.choice(legal))
    if engine.result(state) is None:
        return {"problem": "no result at the end", "steps": steps}
    return {"steps": steps}


def job(args: tuple[str, int, dict[str, Any], int, int, int]) -> dict[str, Any]:
    game, seats, options, seed, policy, max_steps = args
    try:
        out = play(game, seats, options, seed, policy, max_steps)
    except Exception as exc:  # the point of a soak: report every failure, keep going
        out = {"problem": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc(limit=6)}
    return {"game": game, "seats": seats, "options": options, "seed": seed, "policy": policy, **out}


def jobs(spec: GameSpec, games: int, max_steps: int) -> list[tuple[str, int, dict[str, Any], int, int, int]]:
    rnd = random.Random(spec.id)
    out = []
    while len(out) < games:
        options = sample_options(spec, rnd)
        try:
            spec.parse_options(options)
        except Exception:
            continue  # a combination the lobby refuses too
        seats = spec.min_seats + len(out) % (spec.max_seats - spec.min_seats + 1)
        out.append((spec.id, seats, options, rnd.getrandbits(48), rnd.getrandbits(32), max_steps))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", help="one game id (default: every game)")
    parser.add_argument("--games", type=int, default=500, help="games per engine")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-steps", type=int, default=50_000)
    args = parser.parse_args()
    specs = [registry.get(args.game)] if args.game else registry.all()
    report = []
    with ProcessPoolExecutor(args.workers) as pool:
        for spec in specs:
            start = time.perf_counter()
            results = list(pool.map(job, jobs(spec, args.games, args.max_steps), chunksize=4))
            problems = [r for r in results if "problem" in r]
            steps = [r["steps"] for r in results if "steps" in r]
            report.append({
                "game": spec.id, "games": sum("steps" in r for r in results), "problems": len(problems),
                "refused_setups": sum("refused" in r for r in results),
                "steps_max": max(steps, default=0), "seconds": round(time.perf_counter() - start, 1),
                "first_problems": problems[:5],
            })
    print(json.dumps(report, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()

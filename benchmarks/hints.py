"""How long a player waits for a 💡 hint: ``rules.ai.hint`` at the AI seats' normal budget, per game.

    python benchmarks/hints.py [--positions 20] [--seed 0] [--game call_to_glory]

For every registered game (or one), random games are played at the smallest table and a hint is asked at
``--positions`` decisions with more than one legal move, spread over the game. The worker does exactly
this for a hint (the bot adds the state's JSON round trip, a few milliseconds). Prints JSON: seconds per
hint (mean, p50, p95, max) and how many moves the answer named.
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

from rules import registry
from rules.ai import hint
from rules.core import GameSpec

LEVEL = "normal"
"""The hint's budget in the bot (``cogs.games.ai_seats.HINT_LEVEL``)."""


def positions(spec: GameSpec, count: int, seed: int) -> list[tuple[Any, str]]:
    """``count`` decisions with a real choice, taken from random games (a new game when one ends)."""
    rnd = random.Random(seed)
    seats = [f"s{i}" for i in range(max(2, spec.min_seats))]
    out: list[tuple[Any, str]] = []
    game = 0
    while len(out) < count:
        state = spec.engine.new_game(seats, spec.options_model(), seed + game)
        game += 1
        while (prompts := spec.engine.pending(state)) and len(out) < count:
            seat = prompts[0].seat
            legal = spec.engine.legal_actions(state, seat)
            if len(legal) > 1 and rnd.random() < 0.2:
                out.append((state, seat))
            state, _events = spec.engine.apply(state, seat, rnd.choice(legal))
    return out


def measure(spec: GameSpec, count: int, seed: int) -> dict[str, Any]:
    times: list[float] = []
    named: list[int] = []
    for i, (state, seat) in enumerate(positions(spec, count, seed)):
        start = time.perf_counter()
        moves = hint(spec, state, seat, seed=seed + i, level=LEVEL)
        times.append(time.perf_counter() - start)
        named.append(len(moves))
    ordered = sorted(times)
    return {"game": spec.id, "level": LEVEL, "hints": len(times), "mean_s": round(statistics.fmean(times), 3),
            "p50_s": round(ordered[len(ordered) // 2], 3),
            "p95_s": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 3),
            "max_s": round(ordered[-1], 3), "moves_named_mean": round(statistics.fmean(named), 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game", choices=sorted(spec.id for spec in registry.all()))
    args = parser.parse_args()
    specs = [registry.get(args.game)] if args.game else list(registry.all())
    for spec in specs:
        print(json.dumps(measure(spec, args.positions, args.seed)), flush=True)


if __name__ == "__main__":
    main()

"""Random full games per engine: games/s, actions/s and state JSON size (plain script, prints JSON).

    python benchmarks/engines.py [--game ID] [--games N] [--seats K] [--options JSON]

The policy picks uniformly among ``legal_actions`` of the seat the first prompt names, so every engine
is measured the way AI seats and fuzzers drive it. One process, one core.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import registry  # noqa: E402
from rules.core import GameSpec  # noqa: E402


def run(spec: GameSpec, games: int, seats: int, options: dict) -> dict:
    opts = spec.parse_options(options)
    engine = spec.engine
    names = [f"seat{i}" for i in range(seats)]
    actions = 0
    sizes: list[int] = []
    rnd = random.Random(0)
    start = time.perf_counter()
    for g in range(games):
        state = engine.new_game(names, opts, seed=g)
        while prompts := engine.pending(state):
            seat = prompts[0].seat
            state, _ = engine.apply(state, seat, rnd.choice(engine.legal_actions(state, seat)))
            actions += 1
    elapsed = time.perf_counter() - start
    # Sizes are sampled in a second pass so JSON dumping does not slow the timed loop.
    for g in range(min(games, 20)):
        state = engine.new_game(names, opts, seed=g)
        step = 0
        while prompts := engine.pending(state):
            seat = prompts[0].seat
            state, _ = engine.apply(state, seat, rnd.choice(engine.legal_actions(state, seat)))
            step += 1
            if step % 10 == 0:
                sizes.append(len(state.model_dump_json()))
        sizes.append(len(state.model_dump_json()))
    return {
        "game": spec.id,
        "seats": seats,
        "options": options,
        "games": games,
        "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 1),
        "actions_per_s": round(actions / elapsed),
        "actions_per_game": round(actions / games, 1),
        "state_json_bytes_mean": round(statistics.fmean(sizes)),
        "state_json_bytes_max": max(sizes),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", help="one game id (default: every game in the registry)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seats", type=int, help="default: the game's maximum")
    parser.add_argument("--options", default="{}", help="options as JSON")
    args = parser.parse_args()
    specs = [registry.get(args.game)] if args.game else registry.all()
    out = [
        run(spec, args.games, args.seats or spec.max_seats, json.loads(args.options))
        for spec in specs
    ]
    print(json.dumps(out, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()

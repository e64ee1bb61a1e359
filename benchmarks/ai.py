"""AI strength and decision time: the searcher against uniform-random or greedy one-ply seats.

    python benchmarks/ai.py --game call_to_glory [--seats 2] [--games 200] [--level normal]
                            [--opponent random|greedy] [--options JSON] [--seed 0]
    python benchmarks/ai.py --game eldritch_horror --seats 2 --team [--options JSON]
    add --jobs 2 to play the games in two worker processes (same games, same figures but the timings)

Competitive games: one AI seat, the others played by the opponent policy; the AI's seat moves round the
table from game to game so it starts first as often as the others (seat order is turn order in every
engine, and games whose first player is drawn draw it from the game's seed). A shared win counts a half.
``--team`` (co-operative Eldritch Horror): every seat is the AI in one run and random in another, and both
win rates are printed. Every AI decision with more than one legal action is timed. Prints JSON.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.greedy import greedy_action  # noqa: E402
from rules import registry  # noqa: E402
from rules.ai import choose_action  # noqa: E402
from rules.core import GameSpec  # noqa: E402


def play(
    spec: GameSpec, seats: list[str], options: Any, seed: int, ai_seats: set[str], level: str, opponent: str,
    times: list[float],
) -> Any:
    """One game to the end; returns its result."""
    engine = spec.engine
    rnd = random.Random(seed)
    state = engine.new_game(seats, options, seed)
    step = 0
    while prompts := engine.pending(state):
        seat = prompts[0].seat
        legal = engine.legal_actions(state, seat)
        if seat in ai_seats and len(legal) > 1:
            start = time.perf_counter()
            act = choose_action(spec, state, seat, seed=seed * 100_003 + step, level=level)
            times.append(time.perf_counter() - start)
        elif opponent == "greedy" and seat not in ai_seats:
            act = greedy_action(spec, state, seat, rnd)
        else:
            act = legal[0] if len(legal) == 1 else rnd.choice(legal)
        state, _ = engine.apply(state, seat, act)
        step += 1
    return engine.result(state)


def timing(times: list[float]) -> dict[str, float]:
    if not times:
        return {}
    ordered = sorted(times)
    return {
        "decisions": len(ordered),
        "mean_s": round(statistics.fmean(ordered), 3),
        "p50_s": round(ordered[len(ordered) // 2], 3),
        "p95_s": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 3),
        "max_s": round(ordered[-1], 3),
    }


def one_game(
    spec: GameSpec, n: int, g: int, level: str, opponent: str, options: Any, seed: int
) -> tuple[str, Any, list[float]]:
    """Game ``g`` of a ``versus`` run: the AI's seat, the result and the AI's decision times."""
    seats = [f"seat{i}" for i in range(n)]
    ai = seats[g % n]
    times: list[float] = []
    result = play(spec, seats, options, seed + g, {ai}, level, opponent, times)
    return ai, result, times


def _one_game_job(args: tuple[str, int, int, str, str, Any, int]) -> tuple[str, Any, list[float]]:
    game, n, g, level, opponent, options, seed = args
    return one_game(registry.get(game), n, g, level, opponent, options, seed)


def versus(
    spec: GameSpec, n: int, games: int, level: str, opponent: str, options: Any, seed: int, jobs: int = 1
) -> dict:
    """The AI in one seat against ``opponent`` in the others; each game is independent of the others'
    order, so ``jobs`` worker processes give the same games and results as one."""
    score = 0.0
    times: list[float] = []
    outcomes: dict[str, int] = {}
    start = time.perf_counter()
    work = [(spec.id, n, g, level, opponent, options, seed) for g in range(games)]
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            finished = pool.map(_one_game_job, work, chunksize=1)
    else:
        finished = [_one_game_job(w) for w in work]
    for ai, result, game_times in finished:
        times.extend(game_times)
        if ai in result.winners:
            score += 1.0 / len(result.winners)
        how = "won" if ai in result.winners else "lost" if result.winners else "nobody_won"
        outcomes[f"{how}:{result.reason}"] = outcomes.get(f"{how}:{result.reason}", 0) + 1
    return {
        "game": spec.id, "seats": n, "level": level, "opponent": opponent, "games": games, "jobs": jobs,
        "ai_win_rate": round(score / games, 3), "outcomes": dict(sorted(outcomes.items())), "wall_s": round(time.perf_counter() - start, 1),
        "decision_time": timing(times),
    }


def team(spec: GameSpec, n: int, games: int, level: str, options: Any, seed: int) -> dict:
    seats = [f"seat{i}" for i in range(n)]
    out: dict[str, Any] = {"game": spec.id, "seats": n, "level": level, "games": games}
    for who, ai_seats in (("ai", set(seats)), ("random", set())):
        times: list[float] = []
        results = [play(spec, seats, options, seed + g, ai_seats, level, "random", times) for g in range(games)]
        out[f"{who}_team_win_rate"] = round(sum(bool(r.winners) for r in results) / games, 3)
        reasons: dict[str, int] = {}
        for r in results:
            reasons[r.reason] = reasons.get(r.reason, 0) + 1
        out[f"{who}_team_outcomes"] = dict(sorted(reasons.items()))
        if times:
            out["decision_time"] = timing(times)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--level", default="normal", choices=("easy", "normal", "hard"))
    parser.add_argument("--opponent", default="random", choices=("random", "greedy"))
    parser.add_argument("--options", default="{}", help="game options as JSON")
    parser.add_argument("--team", action="store_true", help="co-operative: all-AI team against all-random")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes for --opponent runs")
    args = parser.parse_args()
    spec = registry.get(args.game)
    options = spec.parse_options(json.loads(args.options))
    if args.team:
        out = team(spec, args.seats, args.games, args.level, options, args.seed)
    else:
        out = versus(spec, args.seats, args.games, args.level, args.opponent, options, args.seed, args.jobs)
    out["options"] = json.loads(args.options)
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()

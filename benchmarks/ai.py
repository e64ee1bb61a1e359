"""AI strength and decision time: the searcher against uniform-random or greedy one-ply seats.

    python benchmarks/ai.py --game call_to_glory [--seats 2] [--games 200] [--level normal]
                            [--opponent random|greedy|easy|normal|hard] [--options JSON] [--seed 0]
    python benchmarks/ai.py --game eldritch_horror --seats 2 --team [--options JSON]
    python benchmarks/ai.py --game coc_lcg --level hard --decision-cpu 20   (CPU seconds per decision)
    add --jobs 2 to play the games in two worker processes (same games, same figures but the timings)
    a game still running after --move-cap actions (4000) is stopped and counted as lost (reason move_cap)

Competitive games: one AI seat, the others played by the opponent policy (``--opponent normal`` with
``--level hard``: hard against normal, a duel); the AI's seat moves round the
table from game to game so it starts first as often as the others (seat order is turn order in every
engine, and games whose first player is drawn draw it from the game's seed). A shared win counts a half.
``--team`` (co-operative Eldritch Horror): every seat is the AI in one run and random in another, and both
win rates are printed. Every AI decision with more than one legal action is timed (in a duel, the
``--level`` seat's only). Prints JSON.

A 200-game line of a searching AI costs hours of CPU on this machine, more than one sitting has beside
other work, so a versus line can be built up over several runs in a ledger:

    python benchmarks/ai.py --game call_to_glory --first 80 --games 40 --ledger benchmarks/results/ai_games.jsonl
    python benchmarks/ai.py --ledger benchmarks/results/ai_games.jsonl --summary
    python benchmarks/ai.py --ledger benchmarks/results/ai_games.jsonl --check 3

``--first``/``--games`` pick game numbers (game g always has seed ``seed + g`` and the AI in seat g mod n,
so chunks played at different times are the games one long run would play). Each finished game is appended
at once as a JSON line with its line's parameters, the commit it ran on, its result, the AI's decision
times and a digest of every action taken; games already in the ledger for that line are skipped.
``--summary`` adds the lines up. ``--check K`` replays K recorded games of every line with today's code
and compares their digests: equal digests mean today's engine and AI still play those games move for
move, so the ledger's older games may be counted with the new ones; any difference is printed and the
exit status is 1.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.greedy import greedy_action  # noqa: E402
from rules import registry  # noqa: E402
from rules.ai import LEVELS, choose_action  # noqa: E402
from rules.core import GameSpec  # noqa: E402


# Actions after which a game is stopped and reported as capped: about three times the longest of 20 random
# games of any engine here (the LCG's, 1281), far beyond what a game that is going somewhere takes.
MOVE_CAP = 4000


def play(
    spec: GameSpec, seats: list[str], options: Any, seed: int, ai_seats: set[str], level: str, opponent: str,
    times: list[float], digest: Any = None, move_cap: int = MOVE_CAP,
) -> Any:
    """One game to the end; returns its result, or None when it was stopped unfinished after ``move_cap``
    actions (two players who keep a game from ending must not hang a line). ``digest`` (a hashlib
    object), when given, is fed every action taken, so two runs of the same game can be compared move for
    move."""
    engine = spec.engine
    rnd = random.Random(seed)
    state = engine.new_game(seats, options, seed)
    step = 0
    while prompts := engine.pending(state):
        if step >= move_cap:
            return None
        seat = prompts[0].seat
        legal = engine.legal_actions(state, seat)
        if seat in ai_seats and len(legal) > 1:
            start = time.perf_counter()
            act = choose_action(spec, state, seat, seed=seed * 100_003 + step, level=level)
            times.append(time.perf_counter() - start)
        elif opponent == "greedy" and seat not in ai_seats:
            act = greedy_action(spec, state, seat, rnd)
        elif opponent in LEVELS and len(legal) > 1:
            act = choose_action(spec, state, seat, seed=seed * 100_003 + step, level=opponent)
        else:
            act = legal[0] if len(legal) == 1 else rnd.choice(legal)
        if digest is not None:
            digest.update(f"{seat}:{type(act).__name__}:{act.model_dump_json()}\n".encode())
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
    spec: GameSpec, n: int, g: int, level: str, opponent: str, options: Any, seed: int, move_cap: int = MOVE_CAP
) -> tuple[str, Any, list[float], str, float]:
    """Game ``g`` of a ``versus`` run: the AI's seat, the result (None if capped), the AI's decision times,
    the digest of the game's actions and the CPU seconds the game took (every seat's moves)."""
    seats = [f"seat{i}" for i in range(n)]
    ai = seats[g % n]
    times: list[float] = []
    digest = hashlib.sha256()
    cpu = time.process_time()
    result = play(spec, seats, options, seed + g, {ai}, level, opponent, times, digest, move_cap)
    return ai, result, times, digest.hexdigest()[:16], time.process_time() - cpu


def _one_game_job(
    args: tuple[str, int, int, str, str, Any, int, int]
) -> tuple[int, str, Any, list[float], str, float]:
    game, n, g, level, opponent, options, seed, move_cap = args
    return (g, *one_game(registry.get(game), n, g, level, opponent, options, seed, move_cap))


def line_key(spec: GameSpec, n: int, level: str, opponent: str, options_json: Any, seed: int) -> dict[str, Any]:
    """What makes two games comparable: same game, table size, level, opponent, options and base seed."""
    return {"game": spec.id, "seats": n, "level": level, "opponent": opponent, "options": options_json, "seed": seed}


def score_of(ai: str, winners: list[str]) -> float:
    """The AI's share of the game: 1 for a sole win, a half for a shared one, 0 otherwise."""
    return 1.0 / len(winners) if ai in winners else 0.0


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate: unlike the normal approximation it stays inside 0…1
    and is honest for rates near the ends, where most of these lines sit."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3))


def summarize(line: dict[str, Any], games: list[dict[str, Any]], wall_s: float | None = None) -> dict[str, Any]:
    times = [t for game in games for t in game["times"]]
    outcomes: dict[str, int] = {}
    for game in games:
        how = "won" if game["ai"] in game["winners"] else "lost" if game["winners"] else "nobody_won"
        outcomes[f"{how}:{game['reason']}"] = outcomes.get(f"{how}:{game['reason']}", 0) + 1
    numbers = sorted(game["g"] for game in games)
    wins = sum(score_of(game["ai"], game["winners"]) for game in games)
    cpu = [game["cpu_s"] for game in games if "cpu_s" in game]
    out: dict[str, Any] = {
        **line, "games": len(games), "game_numbers": _ranges(numbers),
        "ai_wins": wins, "ai_win_rate": round(wins / max(1, len(games)), 3), "wilson95": wilson(wins, len(games)),
        "capped": sum(1 for game in games if game.get("capped")),
        "outcomes": dict(sorted(outcomes.items())), "decision_time": timing(times),
        "cpu_s_per_game": round(statistics.fmean(cpu), 1) if cpu else None,
        "commits": sorted({game.get("commit", "?") for game in games}),
    }
    if wall_s is not None:
        out["wall_s"] = round(wall_s, 1)
    return out


def _ranges(numbers: list[int]) -> str:
    """0,1,2,5,6 -> "0-2,5-6": which games a summary covers, short enough to read."""
    runs: list[list[int]] = []
    for x in numbers:
        if runs and runs[-1][1] == x - 1:
            runs[-1][1] = x
        else:
            runs.append([x, x])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def read_ledger(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(row) for row in path.read_text().splitlines() if row.strip()]


def current_commit() -> str:
    try:
        root = Path(__file__).resolve().parents[1]
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--", "rules"], capture_output=True, text=True)
        return out.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "") if out.returncode == 0 else "?"
    except OSError:
        return "?"


def versus(
    spec: GameSpec, n: int, games: int, level: str, opponent: str, options: Any, seed: int, jobs: int = 1,
    first: int = 0, options_json: Any = None, ledger: Path | None = None, move_cap: int = MOVE_CAP,
) -> dict:
    """The AI in one seat against ``opponent`` in the others, games ``first`` … ``first + games - 1``. Each
    game is independent of the others' order, so ``jobs`` worker processes give the same games and results
    as one. With a ledger, games it already holds for this line are not played again and each finished
    game is appended at once; the summary then covers every game of the line in the ledger. A game stopped
    at ``move_cap`` actions is recorded as nobody's win with the reason ``move_cap`` (a loss for the AI)."""
    line = line_key(spec, n, level, opponent, options_json if options_json is not None else {}, seed)
    recorded = [row for row in read_ledger(ledger) if row["line"] == line] if ledger else []
    done = {row["g"] for row in recorded}
    work = [
        (spec.id, n, g, level, opponent, options, seed, move_cap) for g in range(first, first + games) if g not in done
    ]
    commit = current_commit()
    played: list[dict[str, Any]] = []
    start = time.perf_counter()

    def record(g: int, ai: str, result: Any, game_times: list[float], digest: str, cpu_s: float) -> None:
        row: dict[str, Any] = {
            "line": line, "g": g, "ai": ai,
            "winners": sorted(result.winners) if result is not None else [],
            "reason": result.reason if result is not None else "move_cap",
            "digest": digest, "times": [round(t, 4) for t in game_times], "commit": commit,
            "cpu_s": round(cpu_s, 2),
        }
        if result is None:
            row["capped"] = move_cap
        played.append(row)
        if ledger is not None:
            with ledger.open("a") as f:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")

    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for finished in pool.imap_unordered(_one_game_job, work, chunksize=1):
                record(*finished)
    else:
        for w in work:
            record(*_one_game_job(w))
    wall = time.perf_counter() - start
    if ledger is None:
        return summarize(line, played, wall) | {"jobs": jobs}
    return summarize(line, recorded + played, wall) | {"jobs": jobs, "played_now": len(played)}


def summary(ledger: Path) -> list[dict[str, Any]]:
    """Every line in the ledger, added up."""
    lines: dict[str, list[dict[str, Any]]] = {}
    for row in read_ledger(ledger):
        lines.setdefault(json.dumps(row["line"], sort_keys=True), []).append(row)
    return [summarize(json.loads(key), rows) for key, rows in sorted(lines.items())]


def check(ledger: Path, per_line: int, seed: int) -> list[dict[str, Any]]:
    """Replay ``per_line`` games of every line (picked at random by ``seed``) and compare their digests."""
    rnd = random.Random(seed)
    lines: dict[str, list[dict[str, Any]]] = {}
    for row in read_ledger(ledger):
        lines.setdefault(json.dumps(row["line"], sort_keys=True), []).append(row)
    report = []
    for key, rows in sorted(lines.items()):
        line = json.loads(key)
        spec = registry.get(line["game"])
        options = spec.parse_options(line["options"])
        for row in rnd.sample(rows, min(per_line, len(rows))):
            cap = row.get("capped", MOVE_CAP)
            _, _, _, digest, _ = one_game(
                spec, line["seats"], row["g"], line["level"], line["opponent"], options, line["seed"], cap
            )
            report.append({**line, "g": row["g"], "recorded_on": row.get("commit"), "same": digest == row["digest"]})
    return report


def team(spec: GameSpec, n: int, games: int, level: str, options: Any, seed: int) -> dict:
    seats = [f"seat{i}" for i in range(n)]
    out: dict[str, Any] = {"game": spec.id, "seats": n, "level": level, "games": games}
    for who, ai_seats in (("ai", set(seats)), ("random", set())):
        times: list[float] = []
        results = [play(spec, seats, options, seed + g, ai_seats, level, "random", times) for g in range(games)]
        out[f"{who}_team_win_rate"] = round(sum(r is not None and bool(r.winners) for r in results) / games, 3)
        reasons: dict[str, int] = {}
        for r in results:
            reason = r.reason if r is not None else "move_cap"
            reasons[reason] = reasons.get(reason, 0) + 1
        out[f"{who}_team_outcomes"] = dict(sorted(reasons.items()))
        if times:
            out["decision_time"] = timing(times)
    return out


def decision_cpu(spec: GameSpec, n: int, level: str, options: Any, positions: int, seed: int) -> dict[str, Any]:
    """CPU seconds of ``choose_action`` at ``level`` on ``positions`` decisions met along random games
    (every seventh decision with a real choice): the figure a loaded machine's wall clock cannot give, and
    the one to set against the issue's p95 targets (1 s normal, 5 s hard) plus the machine's share."""
    engine = spec.engine
    seats = [f"seat{i}" for i in range(n)]
    cpu: list[float] = []
    g = 0
    while len(cpu) < positions:
        rnd = random.Random(seed + g)
        state = engine.new_game(seats, options, seed + g)
        seen = 0
        while (prompts := engine.pending(state)) and len(cpu) < positions:
            seat = prompts[0].seat
            legal = engine.legal_actions(state, seat)
            if len(legal) > 1:
                seen += 1
                if seen % 7 == 0:
                    start = time.process_time()
                    choose_action(spec, state, seat, seed=seen, level=level)
                    cpu.append(time.process_time() - start)
            state, _ = engine.apply(state, seat, rnd.choice(legal))
        g += 1
    return {"game": spec.id, "seats": n, "level": level, "decision_cpu": timing(cpu)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--level", default="normal", choices=("easy", "normal", "hard"))
    parser.add_argument("--opponent", default="random", choices=("random", "greedy", *LEVELS),
                        help="uniform random, the greedy one-ply baseline, or the AI at that level (a duel)")
    parser.add_argument("--options", default="{}", help="game options as JSON")
    parser.add_argument("--team", action="store_true", help="co-operative: all-AI team against all-random")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes for --opponent runs")
    parser.add_argument("--first", type=int, default=0, help="number of the first game to play")
    parser.add_argument("--ledger", type=Path, help="JSON-lines file that keeps every finished versus game")
    parser.add_argument("--move-cap", type=int, default=MOVE_CAP, help="actions after which a game is stopped")
    parser.add_argument("--summary", action="store_true", help="add up the ledger's lines and stop")
    parser.add_argument("--check", type=int, metavar="K", help="replay K recorded games per ledger line")
    parser.add_argument("--decision-cpu", type=int, metavar="K", help="CPU time of K decisions along random games")
    args = parser.parse_args()
    if args.summary or args.check:
        if args.ledger is None:
            parser.error("--summary and --check read a --ledger")
        if args.summary:
            for out in summary(args.ledger):
                print(json.dumps(out, ensure_ascii=False))
            return
        report = check(args.ledger, args.check, args.seed)
        for row in report:
            print(json.dumps(row, ensure_ascii=False))
        sys.exit(0 if all(row["same"] for row in report) else 1)
    if args.game is None:
        parser.error("--game is required")
    spec = registry.get(args.game)
    options_json = json.loads(args.options)
    options = spec.parse_options(options_json)
    if args.decision_cpu:
        out = decision_cpu(spec, args.seats, args.level, options, args.decision_cpu, args.seed)
    elif args.team:
        out = team(spec, args.seats, args.games, args.level, options, args.seed)
        out["options"] = options_json
    else:
        out = versus(
            spec, args.seats, args.games, args.level, args.opponent, options, args.seed, args.jobs,
            args.first, options_json, args.ledger, args.move_cap,
        )
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()

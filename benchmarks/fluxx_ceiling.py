"""How often could any AI seat win Cthulhu Fluxx against uniform-random seats? A ceiling, not an AI level.

    python benchmarks/fluxx_ceiling.py [--seats 2] [--games 200] [--iterations N] [--seed 0] [--jobs 1]

Plays the games of ``benchmarks/ai.py --game fluxx_cthulhu --opponent random`` (same game seeds, same
seat rotation, same decision seeds, the same random opponents) but the AI seat is an *oracle*: the
searcher of ``rules/ai/search.py`` with the game's own hooks, whose every iteration starts from a copy of
the real state (deck order, every hand, the generator that will shuffle and pick later) instead of a
determinization. It knows every card, so it never loses to a draw it could have foreseen; it does not
know the random seats' future choices, which no player can. Its win rate bounds what an honest seat,
which must guess the hidden cards, can reach with this search; if the oracle falls short of a target,
no amount of tuning the honest AI's guesses will meet it.

The cruder bound needs no search: a game is lost whatever the AI seat did when it ended on an Ungoal
that a random seat put out while its condition was already met, or before the AI seat had a single
choice to make. ``unwinnable`` counts such games among the oracle's games, ``crude_ceiling`` is the
share of the others. (Crude: the AI might have kept that Ungoal's condition from being met earlier.)

``--iterations`` is the oracle's budget per decision (by default the normal level's at that table: 250
until 2026-12-07, since then 500 with two players and 250 with more); ``--only 3,17`` replays just those
games of the run (e.g. the ones the oracle lost at the normal budget, with a larger one).

Measured 2026-11-27 (seed 0, nice 19 on a loaded 2-core machine, so the times are not decision times):
2 players, 200 games, 250 iterations: oracle 179/200 = 0.895 (Wilson 95 % 0.845-0.930); 10 unwinnable,
crude ceiling 0.95. 4 players, 250 iterations, games 0-13 and 15-59 (game 14 stopped unfinished after
more than 4 CPU minutes): oracle 28/59 = 0.475 (95 % 0.35-0.60); 12 unwinnable, crude ceiling 0.80.
2 players at 1000 iterations, games 0-5 and the first five lost at 250 (10, 17, 37, 52, 69): 10/11 won
(the loss is game 52, unwinnable); a selected sample, not a win rate.
Measured 2026-12-07 with the Ungoal-aware hooks of 593dcd0 (nice 0, 2-core machine at load 4-5): 2 players,
200 games, 500 iterations: oracle 172/200 = 0.86 (Wilson 95 % 0.805-0.901); 15 unwinnable, crude ceiling
0.925; decision wall p95 0.92 s. The games differ from the 2026-11-27 run's from the first decision on, so
the unwinnable ones differ too.
Prints one JSON line (and one line a game on stderr).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.ai import MOVE_CAP, timing  # noqa: E402
from rules import registry  # noqa: E402
from rules.ai.hooks import hooks_for  # noqa: E402
from rules.ai.search import Searcher  # noqa: E402
from rules.core import Rng  # noqa: E402
from rules.fluxx_cthulhu import events as ev  # noqa: E402
from rules.fluxx_cthulhu.cards import UNGOAL, catalog  # noqa: E402
from rules.fluxx_cthulhu.state import FlxState  # noqa: E402
from rules.fluxx_cthulhu.table import ungoal_met  # noqa: E402

SPEC = registry.get("fluxx_cthulhu")


class _SeeingEngine:
    """The game's engine, except that a "determinization" is the real state itself, generator included."""

    def __init__(self, engine: Any) -> None:
        self._engine = engine

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

    @staticmethod
    def determinize(state: FlxState, seat: str, rng: Rng) -> FlxState:
        return state.clone()


def oracle_action(state: FlxState, seat: str, seed: int, iterations: int) -> Any:
    """What ``rules.ai.choose_action`` would do for ``seat`` if every card and the generator were open."""
    searcher = Searcher(SPEC, hooks_for(SPEC), random.Random(seed))
    searcher.engine = _SeeingEngine(SPEC.engine)
    candidates = searcher.legal(state, seat)
    if len(candidates) == 1:
        return candidates[0]
    return searcher.run(state, seat, candidates, iterations)


def play(n: int, g: int, seed: int, iterations: int) -> dict[str, Any]:
    """Game ``g`` of a ``benchmarks/ai.py`` run with the oracle in the AI's seat; a game still running
    after ``benchmarks/ai.py``'s move cap is stopped and counted as lost (reason ``move_cap``), as there."""
    engine = SPEC.engine
    seats = [f"seat{i}" for i in range(n)]
    ai = seats[g % n]
    game_seed = seed + g
    rnd = random.Random(game_seed)
    state = engine.new_game(seats, SPEC.parse_options({}), game_seed)
    times: list[float] = []
    placed: dict[str, tuple[str, bool]] = {}  # goal or ungoal -> (who put it out, met at that moment)
    events: list[Any] = []
    step = 0
    while prompts := engine.pending(state):
        if step >= MOVE_CAP:
            return {"won": False, "share": 0.0, "reason": "move_cap", "unwinnable": False, "times": times}
        seat = prompts[0].seat
        legal = engine.legal_actions(state, seat)
        if seat == ai and len(legal) > 1:
            start = time.perf_counter()
            act = oracle_action(state, seat, game_seed * 100_003 + step, iterations)
            times.append(time.perf_counter() - start)
        else:
            act = legal[0] if len(legal) == 1 else rnd.choice(legal)
        state, events = engine.apply(state, seat, act)
        for e in events:
            if isinstance(e, ev.GoalPlaced):
                met = catalog()[e.card].type == UNGOAL and (state.phase == "over" or ungoal_met(state, e.card))
                placed[e.card] = (e.seat, met)
        step += 1
    result = engine.result(state)
    card = next((e.card for e in reversed(events) if isinstance(e, ev.GameEnded)), None)
    who, met = placed.get(card, (None, False)) if card else (None, False)
    unwinnable = not times or (result.reason == "ungoal" and who not in (None, ai) and met)
    return {"won": ai in result.winners, "share": (1.0 / len(result.winners)) if ai in result.winners else 0.0,
            "reason": result.reason, "unwinnable": unwinnable, "times": times}


def _job(args: tuple[int, int, int, int]) -> dict[str, Any]:
    return play(*args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--iterations", type=int, default=None, help="default: the normal level's at this table")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--only", default="", help="comma-separated game numbers: replay just these games")
    args = parser.parse_args()
    if args.iterations is None:
        table = SPEC.engine.new_game([f"seat{i}" for i in range(args.seats)], None, args.seed)
        args.iterations = hooks_for(SPEC).iterations_for(table, "normal")
    start = time.perf_counter()
    numbers = [int(g) for g in args.only.split(",")] if args.only else list(range(args.games))
    work = [(args.seats, g, args.seed, args.iterations) for g in numbers]
    games: list[dict[str, Any]] = []
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        for r in pool.imap(_job, work, chunksize=1):  # one line a game on stderr: a long run can be read early
            games.append(r)
            line = {"game": numbers[len(games) - 1]} | {k: v for k, v in r.items() if k != "times"}
            print(json.dumps(line), file=sys.stderr, flush=True)
    outcomes: dict[str, int] = {}
    for r in games:
        how = "won" if r["won"] else "unwinnable" if r["unwinnable"] else "lost"
        outcomes[f"{how}:{r['reason']}"] = outcomes.get(f"{how}:{r['reason']}", 0) + 1
    unwinnable = sum(r["unwinnable"] for r in games)
    print(json.dumps({
        "game": SPEC.id, "seats": args.seats, "games": len(games), "seed": args.seed,
        "oracle_iterations": args.iterations,
        "oracle_win_rate": round(sum(r["share"] for r in games) / len(games), 3),
        "unwinnable": unwinnable, "crude_ceiling": round(1 - unwinnable / len(games), 3),
        "outcomes": dict(sorted(outcomes.items())), "wall_s": round(time.perf_counter() - start, 1),
        "decision_time": timing([t for r in games for t in r["times"]]),
    }))


if __name__ == "__main__":
    main()

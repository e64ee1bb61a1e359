"""How long finding a take-back point takes: ``bot.takeback.find`` replays a game's whole log with the
engine's barrier marks, once per request (in a thread, off the event loop).

    python benchmarks/takeback.py [--steps 2000] [--seed 1]

Plays one random two-seat game per registry game (up to ``--steps`` steps, fewer when it ends) and prints
the log's length and the time of one ``find`` for the last mover, best of three.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import takeback as takebacks
from bot.storage import LogEntry, SessionRecord
from rules import registry


def random_log(game_id: str, steps: int, seed: int) -> tuple[SessionRecord, list[LogEntry]]:
    spec = registry.get(game_id)
    rnd = random.Random(seed)
    state = spec.engine.new_game(["1", "2"], spec.options_model(), seed)
    entries: list[LogEntry] = []
    for i in range(steps):
        prompts = spec.engine.pending(state)
        if not prompts:
            break
        seat = prompts[0].seat
        action = rnd.choice(spec.engine.legal_actions(state, seat))
        state, _events = spec.engine.apply(state, seat, action)
        entries.append(LogEntry(session_id=1, seq=i + 1, seat=seat, action_json=spec.dump_action(action),
                                created_at=datetime.now(UTC)))
    rec = SessionRecord.model_construct(id=1, game_id=game_id, seats=[1, 2], seed=seed,
                                        options=spec.options_model().model_dump(mode="json"))
    return rec, entries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for spec in registry.all():
        rec, entries = random_log(spec.id, args.steps, args.seed)
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            found = takebacks.find(rec, entries, entries[-1].seat)
            best = min(best, time.perf_counter() - start)
        print(f"{spec.id:20} {len(entries):5} steps  {best * 1000:7.1f} ms  {type(found).__name__}")


if __name__ == "__main__":
    main()

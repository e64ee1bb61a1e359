"""Seeded random 4-player Call to Glory games with any checkout's engine: a load-independent cost measure.

    python benchmarks/ctg_games.py [--root DIR] [--games N] [--seats K] [--options JSON] [--digest]

Plays exactly the games ``benchmarks/engines.py --game call_to_glory`` plays (game ``g`` seeded ``g``, one
``random.Random(0)`` choosing among ``legal_actions`` of the first prompt's seat), with the engine of the
checkout at ``--root`` (default: this one), so an older commit can be measured the same way from a
``git worktree``. Wall time on a shared machine is noisy; run it under
``valgrind --tool=callgrind`` with ``--games 0`` and ``--games N`` and divide the difference in instructions
by N for a per-game cost that does not depend on load. The figures quoted for issue #18 use
``PYTHONHASHSEED=0`` and N = 20.

``--digest`` hashes every event and every final state (JSON) instead of timing, so two checkouts can be
shown to play the same games.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=str(Path(__file__).resolve().parents[1]))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--options", default="{}", help="options as JSON")
    parser.add_argument("--digest", action="store_true", help="hash events and final states, no timing")
    args = parser.parse_args()
    sys.path.insert(0, args.root)
    from rules.call_to_glory import SPEC  # the checkout at --root

    engine = SPEC.engine
    opts = SPEC.parse_options(json.loads(args.options))
    names = [f"seat{i}" for i in range(args.seats)]
    rnd = random.Random(0)
    digest = hashlib.sha256() if args.digest else None
    actions = 0
    start = time.perf_counter()
    for g in range(args.games):
        state = engine.new_game(names, opts, seed=g)
        while prompts := engine.pending(state):
            seat = prompts[0].seat
            state, events = engine.apply(state, seat, rnd.choice(engine.legal_actions(state, seat)))
            actions += 1
            if digest is not None:
                for e in events:
                    digest.update(e.model_dump_json().encode())
        if digest is not None:
            digest.update(state.model_dump_json().encode())
    elapsed = time.perf_counter() - start
    import rules

    out: dict[str, object] = {"rules": rules.__file__, "games": args.games, "actions": actions}
    if digest is not None:
        out["digest"] = digest.hexdigest()
    else:
        out["games_per_s"] = round(args.games / elapsed, 1) if elapsed else None
    print(json.dumps(out))


if __name__ == "__main__":
    main()

"""Why the Cthulhu Fluxx AI loses: plays the same games as ``benchmarks/ai.py`` (same seeds, same seat
rotation, same decision seeds) and classifies every game the AI does not win.

    python benchmarks/fluxx_losses.py [--seats 2] [--games 30] [--seed 0] [--level normal]
                                      [--opponent random|greedy]

For each lost game it prints which goal or Ungoal ended it, who put that card out, whether that player
had another card to play (``forced``: one play or none, e.g. a rule that plays held Ungoals at once), and
for an Ungoal whether its condition was already met when it came out (then that last play could not have
saved the game) or became met later. The summary counts the classes; their share bounds what a better
choice at the final play could have won back. Prints JSON lines, then a summary line.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.greedy import greedy_action  # noqa: E402
from rules import registry  # noqa: E402
from rules.ai import choose_action  # noqa: E402
from rules.fluxx_cthulhu import events as ev  # noqa: E402
from rules.fluxx_cthulhu.actions import Play  # noqa: E402
from rules.fluxx_cthulhu.cards import UNGOAL, catalog  # noqa: E402
from rules.fluxx_cthulhu.table import ungoal_met  # noqa: E402

SPEC = registry.get("fluxx_cthulhu")


def play(seed: int, g: int, n: int, level: str, opponent: str) -> dict[str, Any]:
    """Game ``g`` of a ``benchmarks/ai.py`` run, with how each goal and Ungoal came into play."""
    engine = SPEC.engine
    seats = [f"seat{i}" for i in range(n)]
    ai = seats[g % n]
    rnd = random.Random(seed + g)
    state = engine.new_game(seats, SPEC.parse_options({}), seed + g)
    placed: dict[str, dict[str, Any]] = {}
    step = 0
    while prompts := engine.pending(state):
        seat = prompts[0].seat
        legal = engine.legal_actions(state, seat)
        if seat == ai and len(legal) > 1:
            act = choose_action(SPEC, state, seat, seed=(seed + g) * 100_003 + step, level=level)
        elif opponent == "greedy":
            act = greedy_action(SPEC, state, seat, rnd)
        else:
            act = legal[0] if len(legal) == 1 else rnd.choice(legal)
        state, events = engine.apply(state, seat, act)
        for e in events:
            if isinstance(e, ev.GoalPlaced):
                over = state.phase == "over"
                placed[e.card] = {
                    "by_ai": e.seat == ai,
                    "forced": sum(isinstance(a, Play) for a in legal) <= 1 or seat != e.seat,
                    "met_when_played": over or (catalog()[e.card].type == UNGOAL and ungoal_met(state, e.card)),
                }
        step += 1
    result = engine.result(state)
    card = next(e.card for e in reversed(events) if isinstance(e, ev.GameEnded))
    return {"game": g, "ai": ai, "won": ai in result.winners, "reason": result.reason, "card": card,
            "turns": state.turn, "doom": result.scores, "placed": placed.get(card)}


def kind(game: dict[str, Any]) -> str:
    """A lost game's class: what ended it, who put it out, and whether that play had an alternative."""
    how = game["placed"] or {}
    who = "ai" if how.get("by_ai") else "opponent"
    choice = "forced" if how.get("forced") else "chosen"
    if game["reason"] == "goal":
        return f"goal by {who} ({choice})"
    met = "met when played" if how.get("met_when_played") else "met later"
    return f"{game['reason']} by {who} ({choice}, {met})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--level", default="normal", choices=("easy", "normal", "hard"))
    parser.add_argument("--opponent", default="random", choices=("random", "greedy"))
    args = parser.parse_args()
    classes: Counter[str] = Counter()
    won = 0
    for g in range(args.games):
        game = play(args.seed, g, args.seats, args.level, args.opponent)
        won += game["won"]
        if not game["won"]:
            game["class"] = kind(game)
            classes[game["class"]] += 1
        print(json.dumps(game), flush=True)
    print(json.dumps({"games": args.games, "ai_won": won, "losses": dict(classes.most_common())}))


if __name__ == "__main__":
    main()

"""What makes the generic searcher play Cthulhu Fluxx well and fast.

A player wins by meeting a goal in play (FLX-R goal rules), so the estimate of an unfinished game is how
close each player's table is to the goals now in play: the share of a goal's keepers in front of them,
a goal met counting most, creepers that would spoil a goal counting against, and a little for keepers and
cards in hand (options later). Each player's closeness is compared with the best rival's. With it,
rollouts stop after a couple of turns instead of running to a win.
"""

from __future__ import annotations

import math

from rules.ai.hooks import GameAI
from rules.fluxx_cthulhu.cards import catalog
from rules.fluxx_cthulhu.state import FlxState, PlayerState
from rules.fluxx_cthulhu.table import meets_goal, visible

_SCALE = 0.35


def _progress(state: FlxState, player: PlayerState) -> float:
    cards = catalog()
    have = visible(state, player)
    best = 0.0
    for goal in state.goals:
        card = cards[goal]
        if card.type != "goal":
            continue
        if meets_goal(state, player, goal, have):
            return 1.5
        need = card.all_of
        share = sum(1 for k in need if k in have) / len(need) if need else 0.0
        if not card.any_creepers:
            share -= 0.25 * sum(1 for c in player.creepers if c not in card.allowed_creepers and c not in need)
        best = max(best, share)
    return best + 0.03 * len(player.keepers) + 0.02 * len(player.hand)


def evaluate(state: FlxState) -> dict[str, float]:
    points = {p.seat: _progress(state, p) for p in state.players}
    out = {}
    for seat, mine in points.items():
        rival = max(v for s, v in points.items() if s != seat)
        out[seat] = 1.0 / (1.0 + math.exp(-(mine - rival) / _SCALE))
    return out


AI = GameAI(evaluate=evaluate, iterations={"easy": 50, "normal": 250, "hard": 1200}, rollout_depth=16)

"""What makes the generic searcher play the Call of Cthulhu LCG well and fast.

A player wins with three stories (CoC-R86), a story being won at five success tokens, so the estimate of
an unfinished game counts stories won and the tokens on the stories in play (the closest one most), then
what wins future stories: characters and their skill on the table, resources, cards in hand. The
difference with the rival is turned into a win chance. Rollouts stop after a few dozen simulated actions.
"""

from __future__ import annotations

import math

from rules.ai.hooks import GameAI
from rules.coc_lcg.state import CocState

_SCALE = 4.0


def _worth(state: CocState, p: int) -> float:
    pl = state.players[p]
    tokens = sorted((t[p] for t in state.tokens.values()), reverse=True)
    closest = tokens[0] if tokens else 0
    on_table = sum(1 for x in state.play.values() if x.ctl == p and x.host is None)
    wounded = sum(1 for x in state.play.values() if x.ctl == p and (x.insane or x.wounds))
    resources = sum(len(d.resources) for d in pl.domains)
    return (5.0 * len(pl.won) + 0.6 * closest + 0.2 * sum(tokens) + 0.7 * on_table - 0.3 * wounded
            + 0.25 * resources + 0.15 * len(pl.hand))


def evaluate(state: CocState) -> dict[str, float]:
    a, b = _worth(state, 0), _worth(state, 1)
    lead = 1.0 / (1.0 + math.exp(-(a - b) / _SCALE))
    return {state.players[0].seat: lead, state.players[1].seat: 1.0 - lead}


AI = GameAI(evaluate=evaluate, iterations={"easy": 30, "normal": 100, "hard": 500}, rollout_depth=30)

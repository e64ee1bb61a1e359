"""What makes the generic searcher play Cthulhu Fluxx well and fast.

A player wins by meeting a goal in play (FLX-R goal rules), so the estimate of an unfinished game is how
close each player's table is to the goals now in play: the share of a goal's keepers in front of them,
a goal met counting most, creepers that would spoil a goal counting against, and a little for keepers and
cards in hand (options later). Each player's closeness is compared with the best rival's, and the whole
is scaled down as an Ungoal in play nears being met (then nobody wins). With it,
rollouts stop after a couple of turns instead of running to a win.

Simulated players are a little sensible: they play a goal they meet at once (a win), keepers a goal in
play asks for, and never a goal a rival meets; otherwise they play at random.

The Necronomicon's power is free, unlimited and sends the card back to hand (FLX card K01), so under
Play All a seat can play it and use it for ever and the turn never ends: a one-ply greedy seat did so for
thousands of moves. After ``_NECRO_PLAYS`` plays in a turn the power is left out of what any seat built on
these hooks considers, and the turn runs out.
"""

from __future__ import annotations

import math
import random

from pydantic import BaseModel

from rules.ai.hooks import GameAI
from rules.fluxx_cthulhu.actions import Play, UsePower
from rules.fluxx_cthulhu.cards import catalog
from rules.fluxx_cthulhu.state import FlxState, PlayerState
from rules.fluxx_cthulhu.table import meets_goal, table_doom, visible

_SCALE = 0.35
# Plays in one turn after which the Necronomicon's power is no longer considered (a turn of Play All with
# a full hand stays below it).
_NECRO_PLAYS = 12


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


def _danger(state: FlxState) -> float:
    """How close an Ungoal in play is to ending the game with everyone losing (FLX-R25), 0 … 1."""
    cards = catalog()
    worst = 0.0
    doom = table_doom(state)
    for goal in state.goals:
        card = cards[goal]
        if card.type != "ungoal":
            continue
        near = 1.0
        if card.someone_has:
            near = max(sum(1 for k in card.someone_has if k in visible(state, p)) / len(card.someone_has)
                       for p in state.players)
        if card.doom_at_least:
            near *= min(1.0, doom / card.doom_at_least)
        worst = max(worst, near)
    return worst


def evaluate(state: FlxState) -> dict[str, float]:
    points = {p.seat: _progress(state, p) for p in state.players}
    alive = 1.0 - 0.8 * _danger(state) ** 2  # an Ungoal met is a loss for every player
    out = {}
    for seat, mine in points.items():
        rival = max(v for s, v in points.items() if s != seat)
        out[seat] = alive / (1.0 + math.exp(-(mine - rival) / _SCALE))
    return out


def rollout(state: FlxState, seat: str, actions: list[BaseModel], rnd: random.Random) -> BaseModel:
    plays = [a for a in actions if isinstance(a, Play)]
    if not plays:
        return actions[rnd.randrange(len(actions))]
    cards = catalog()
    me = next(p for p in state.players if p.seat == seat)
    wanted = {k for g in state.goals for k in cards[g].all_of}
    good, fair = [], []
    for a in plays:
        card = cards[a.card]
        if card.type == "goal":
            if meets_goal(state, me, a.card):
                return a
            if any(meets_goal(state, p, a.card) for p in state.players if p is not me):
                continue
        if card.type == "keeper" and a.card in wanted:
            good.append(a)
        elif card.type != "creeper":
            fair.append(a)
    pick = good or fair
    if pick and rnd.random() < 0.85:
        return pick[rnd.randrange(len(pick))]
    return actions[rnd.randrange(len(actions))]


def prune(state: FlxState, seat: str, actions: list[BaseModel]) -> list[BaseModel]:
    """Everything, but the Necronomicon's power once the turn has seen ``_NECRO_PLAYS`` plays (see the
    module's docstring); the play count is on the table, so this looks at nothing the seat cannot see."""
    if state.played < _NECRO_PLAYS:
        return actions
    return [a for a in actions if not (isinstance(a, UsePower) and a.card == "necronomicon")] or actions


# Hard keeps the wide exploration of the other levels: Fluxx's rules and goals change under the searcher's
# feet, so early averages mislead and a search that settles on them early plays worse. In games 0-7 of
# hard against normal (seed 0, hard's seat alternating) hard won 6 at 0.7 and 3 at 0.15.
AI = GameAI(rollout=rollout, evaluate=evaluate, prune=prune, iterations={"easy": 50, "normal": 250, "hard": 1200},
            rollout_depth=16, exploration={"easy": 0.7, "normal": 0.7, "hard": 0.7})

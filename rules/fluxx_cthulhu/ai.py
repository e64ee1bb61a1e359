"""What makes the generic searcher play Cthulhu Fluxx well and fast.

A player wins by meeting a goal in play (FLX-R20), so the estimate of an unfinished game is how close each
player is to the goals that may decide it: each goal's keepers, investigator count and Doom count as parts
(spoiling creepers as parts missing), weighted by where the goal lies: in play, in the player's own hand,
in a rival's hand (cards must be played even when they make someone else win, FLX-R24) or in the deck;
plus a little for keepers and cards in hand. Each player's closeness is compared with the best rival's,
and the whole is scaled down as an Ungoal nears being met (then everyone loses, FLX-R14), by how near its
condition is and how soon it may come out. With it, rollouts stop after a couple of turns.

Simulated players are a little sensible: they play a goal they meet at once (a win), keepers a goal in
play asks for, never a goal a rival meets nor an Ungoal already met; otherwise they play at random.
"""

from __future__ import annotations

import math
import random

from pydantic import BaseModel

from rules.ai.hooks import GameAI
from rules.fluxx_cthulhu.actions import Play
from rules.fluxx_cthulhu.cards import catalog
from rules.fluxx_cthulhu.state import FlxState, PlayerState
from rules.fluxx_cthulhu.table import meets_goal, own_doom, table_doom, ungoal_met, visible

_SCALE = 0.35
# How much a goal counts by where it lies: in play it decides the game now; in the seat's own hand the
# seat can put it out when it suits; in a rival's hand it comes out sooner or later (FLX-R24: cards must be
# played even when they make someone else win); in the deck it is a distant chance.
_IN_PLAY, _OWN_HAND, _RIVAL_HAND, _DECK = 1.0, 0.8, 0.55, 0.15
# How likely an Ungoal is to be played soon, by where it lies (the seat holding one plays it only when
# forced to, a rival may play it any time, a drawn one may be forced out by a rule).
_UNGOAL_HAND, _UNGOAL_DECK = 0.6, 0.2
# A goal met counts this much (a sure win if it is in play), against at most 1 for one nearly met.
_MET = 1.6


def closeness(state: FlxState, player: PlayerState, goal: str, have: set[str]) -> float:
    """How much of ``goal`` the player meets, 0 … 1 (1 = met): its keepers, its investigator count and
    its Doom count (FLX-R18/R19) as parts, each spoiling creeper (FLX-R12) as one more part missing."""
    card = catalog()[goal]
    if meets_goal(state, player, goal, have):
        return 1.0
    parts = float(len(card.all_of))
    got = float(sum(1 for k in card.all_of if k in have))
    if card.investigators_at_least:
        parts += 1
        got += min(1.0, sum(1 for k in player.keepers if catalog()[k].investigator) / card.investigators_at_least)
    if card.doom_at_least:
        doom = own_doom(state, player) if card.doom_scope == "self" else table_doom(state)
        parts += 1
        got += min(1.0, doom / card.doom_at_least)
    if not card.any_creepers:
        parts += sum(1 for c in player.creepers
                     if c != state.hidden and c not in card.allowed_creepers and c not in card.all_of)
    return min(0.95, got / parts) if parts else 0.0


def _goal_weights(state: FlxState, player: PlayerState) -> dict[str, float]:
    """Every goal card that may still decide the game, with how much it counts for ``player``."""
    cards = catalog()
    out: dict[str, float] = {}
    for g in state.deck:
        if cards[g].type == "goal":
            out[g] = _DECK
    for p in state.players:
        weight = _OWN_HAND if p is player else _RIVAL_HAND
        for g in (*p.hand, *p.limbo, *p.dreams):
            if cards[g].type == "goal":
                out[g] = max(out.get(g, 0.0), weight)
    for g in state.goals:
        if cards[g].type == "goal":
            out[g] = _IN_PLAY
    return out


def _progress(state: FlxState, player: PlayerState) -> float:
    """The player's best weighted closeness to a goal, plus a little for keepers and cards in hand."""
    have = visible(state, player)
    best = 0.0
    weights = _goal_weights(state, player)
    for goal in sorted(weights, key=weights.__getitem__, reverse=True):
        weight = weights[goal]
        if weight * _MET <= best:
            break  # no goal left can beat it, even met (this keeps the estimate cheap)
        c = closeness(state, player, goal, have)
        best = max(best, weight * (c * c + (_MET - 1.0 if c >= 1.0 else 0.0)))
    return best + 0.03 * len(player.keepers) + 0.02 * len(player.hand)


def ungoal_closeness(state: FlxState, ungoal: str) -> float:
    """How near an Ungoal's condition is to being met (FLX-R14), 0 … 1: the best single player's share
    of the creepers it names times the table's share of the Doom it needs."""
    card = catalog()[ungoal]
    near = 1.0
    if card.someone_has:
        near = max(sum(1 for k in card.someone_has if k in visible(state, p)) / len(card.someone_has)
                   for p in state.players)
    if card.doom_at_least:
        near *= min(1.0, table_doom(state) / card.doom_at_least)
    return near


def _danger(state: FlxState) -> float:
    """How likely the game is to end soon by an Ungoal, with everyone losing, 0 … 1: the worst live
    Ungoal's closeness, weighted by how soon it may come into play (in play, held, or in the deck)."""
    cards = catalog()
    where: dict[str, float] = {}
    for g in state.deck:
        if cards[g].type == "ungoal":
            where[g] = _UNGOAL_DECK
    for p in state.players:
        for g in (*p.hand, *p.limbo, *p.dreams):
            if cards[g].type == "ungoal":
                where[g] = _UNGOAL_HAND
    for g in state.goals:
        if cards[g].type == "ungoal":
            where[g] = 1.0
    return max((w * ungoal_closeness(state, g) ** 3 for g, w in where.items()), default=0.0)


def evaluate(state: FlxState) -> dict[str, float]:
    """Each seat's chance of winning as the table stands, 0 … 1 (see the module text)."""
    points = {p.seat: _progress(state, p) for p in state.players}
    alive = 1.0 - 0.9 * _danger(state)  # an Ungoal met is a loss for every player
    out = {}
    for seat, mine in points.items():
        rival = max(v for s, v in points.items() if s != seat)
        out[seat] = alive / (1.0 + math.exp(-(mine - rival) / _SCALE))
    return out


def rollout(state: FlxState, seat: str, actions: list[BaseModel], rnd: random.Random) -> BaseModel:
    """A quick simulated player's action (see the module text): sensible enough that rollouts do not
    throw away wins or end games under an Ungoal, random enough to stay cheap."""
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
        if card.type == "ungoal" and ungoal_met(state, a.card):
            continue  # it would end the game with everyone losing
        if card.type == "keeper" and a.card in wanted:
            good.append(a)
        elif card.type != "creeper":
            fair.append(a)
    pick = good or fair
    if pick and rnd.random() < 0.85:
        return pick[rnd.randrange(len(pick))]
    return actions[rnd.randrange(len(actions))]


AI = GameAI(rollout=rollout, evaluate=evaluate, iterations={"easy": 50, "normal": 250, "hard": 1200}, rollout_depth=16)

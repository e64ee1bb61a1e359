"""What makes the generic searcher play Cthulhu Fluxx well and fast.

A player wins by meeting a goal in play (FLX-R goal rules), so the estimate of an unfinished game starts
from how close each player's table is to the goals now in play: the share of a goal's keepers in front of
them, a goal met counting most, creepers that would spoil a goal counting against, and a little for
keepers and cards in hand (options later). The closeness of all seats becomes shares of the wins by a
softmax (they sum to 1; a sigmoid against the best rival alone gave four even seats 0.5 each, two games'
worth). Those shares are multiplied by the chance that no Ungoal in play ends the game first (FLX-R25:
everybody loses), which falls with each creeper and Doom point the Ungoal still lacks, and that ending's
winner (the Secret Cultist's holder, or the Cultist's under the Dunwich Horror) gets its chance back.
With it, rollouts stop after a couple of turns instead of running to a win. Against uniform-random seats
most of main's losses were Ungoals met (44 of 200 games at 2 players, 78 of 182 at 4).

Simulated players are a little sensible: they play a goal they meet at once (a win), keepers a goal in
play asks for, a goal that discards an Ungoal in play; they avoid a goal a rival meets, an Ungoal and a
card that meets an Ungoal at once; otherwise, and one time in seven, they play at random. The prune
leaves out of every search the plays that would meet an Ungoal at once (when another move exists and the
ending would not make the seat win).

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
from rules.fluxx_cthulhu.table import has_category, meets_goal, own_doom, table_doom, ungoal_met, visible

_SCALE = 0.35
# Plays in one turn after which the Necronomicon's power is no longer considered (a turn of Play All with
# a full hand stays below it).
_NECRO_PLAYS = 12
# How much less likely an Ungoal is to be met soon for each creeper it names that nobody has yet, and for
# each Doom point the table still lacks.
_CREEPER_MISSING = 0.25
_DOOM_MISSING = 0.6


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


def _ungoal_risk(state: FlxState, card: str) -> float:
    """The chance that the Ungoal ``card`` ends the game before anyone wins (FLX-R25), 0 … 1: each of
    its creepers someone still lacks makes it much less likely (creepers arrive only by chance draws or
    moves), each Doom point the table still lacks a little less likely (every creeper and several
    keepers bring Doom)."""
    c = catalog()[card]
    risk = 1.0
    if c.someone_has:
        missing = min(sum(1 for k in c.someone_has if k not in visible(state, p)) for p in state.players)
        risk *= _CREEPER_MISSING ** missing
    if c.doom_at_least:
        risk *= _DOOM_MISSING ** max(0, c.doom_at_least - table_doom(state))
    return risk


def _ungoal_end(state: FlxState) -> tuple[float, dict[str, float]]:
    """The chance an Ungoal in play ends the game, and who would win that ending: the holder of the
    Secret Cultist (it wins on any Ungoal met, FLX card S01), else the Cultist's owner under the Dunwich
    Horror (FLX-R25); a seat not named loses. Cards in hand are those of the sample being judged, so at
    the root only the searching seat's own hand is real."""
    cards = catalog()
    alive = 1.0
    dunwich = 0.0
    for goal in state.goals:
        if cards[goal].type == "ungoal":
            r = _ungoal_risk(state, goal)
            alive *= 1.0 - r
            if goal == "dunwich_horror":
                dunwich = r
    risk = 1.0 - alive
    rescue: dict[str, float] = {}
    if risk <= 0.0:
        return 0.0, rescue
    for p in state.players:
        if "secret_cultist" in p.hand:
            rescue[p.seat] = 1.0
            return risk, rescue
    if dunwich > 0.0:
        for p in state.players:
            if "cultist" in p.keepers:
                rescue[p.seat] = dunwich / risk
    return risk, rescue


def evaluate(state: FlxState) -> dict[str, float]:
    """Each seat's share of the wins (a softmax over the seats' closeness to a goal, so the shares sum to
    1), scaled by the chance no Ungoal ends the game first, plus what that ending would give the seat."""
    points = {p.seat: _progress(state, p) for p in state.players}
    top = max(points.values())
    weights = {s: math.exp((v - top) / _SCALE) for s, v in points.items()}
    total = sum(weights.values())
    risk, rescue = _ungoal_end(state)
    return {s: (1.0 - risk) * w / total + risk * rescue.get(s, 0.0) for s, w in weights.items()}


def _doom_after(state: FlxState, seat: str, keeper: str) -> int:
    """The table's Doom once ``seat`` has ``keeper`` in front of it (a blessing lowers its own Doom only)."""
    total = 0
    for p in state.players:
        if p.seat == seat:
            p = p.model_copy(update={"keepers": [*p.keepers, keeper]})
        total += own_doom(state, p)
    return total


def meets_ungoal(state: FlxState, seat: str, card: str) -> bool:
    """Whether ``seat`` playing ``card`` from hand would at once meet an Ungoal (then everybody loses,
    FLX-R25): the Ungoal itself when its condition already holds, or a keeper whose Doom brings the table
    to an Ungoal in play. Looks only at the table and the card, so the root may ask it."""
    cards = catalog()
    c = cards[card]
    if c.type == "ungoal":
        return ungoal_met(state, card)
    if c.type == "keeper" and c.doom > c.blessing:
        doom = _doom_after(state, seat, card)
        return any(cards[g].type == "ungoal" and cards[g].doom_at_least is not None and ungoal_met(state, g, doom)
                   for g in state.goals)
    return False


def _rescued(state: FlxState, seat: str) -> bool:
    """Whether an Ungoal met now would make ``seat`` the winner (Secret Cultist in hand, or the Cultist
    with the Dunwich Horror coming)."""
    me = next(p for p in state.players if p.seat == seat)
    return "secret_cultist" in me.hand or ("cultist" in me.keepers and "dunwich_horror" in state.goals)


def _replaces_ungoal(state: FlxState, card: str) -> bool:
    """Whether playing the goal ``card`` discards the Ungoal in play (one goal spot, FLX-R9)."""
    return (catalog()[card].type == "goal" and any(catalog()[g].type == "ungoal" for g in state.goals)
            and len(state.goals) == 1 and not has_category(state, "goal_count")
            and not has_category(state, "goal_ungoal_coexist"))


def rollout(state: FlxState, seat: str, actions: list[BaseModel], rnd: random.Random) -> BaseModel:
    plays = [a for a in actions if isinstance(a, Play)]
    if not plays:
        return actions[rnd.randrange(len(actions))]
    cards = catalog()
    me = next(p for p in state.players if p.seat == seat)
    wanted = {k for g in state.goals for k in cards[g].all_of}
    danger = not _rescued(state, seat) and any(cards[g].type == "ungoal" for g in state.goals)
    good, fair = [], []
    for a in plays:
        card = cards[a.card]
        if card.type == "goal":
            if meets_goal(state, me, a.card):
                return a
            if any(meets_goal(state, p, a.card) for p in state.players if p is not me):
                continue
            if danger and _replaces_ungoal(state, a.card):
                good.append(a)
                continue
        if danger and meets_ungoal(state, seat, a.card):
            continue
        if card.type == "keeper" and a.card in wanted:
            good.append(a)
        elif card.type not in ("creeper", "ungoal"):
            fair.append(a)
    pick = good or fair
    if pick and rnd.random() < 0.85:
        return pick[rnd.randrange(len(pick))]
    return actions[rnd.randrange(len(actions))]


def prune(state: FlxState, seat: str, actions: list[BaseModel]) -> list[BaseModel]:
    """Everything but plays that meet an Ungoal at once (unless that ending would make ``seat`` win), and
    the Necronomicon's power once the turn has seen ``_NECRO_PLAYS`` plays (see the module's docstring).
    Both look at the table and ``seat``'s own hand only."""
    out = actions
    if state.played >= _NECRO_PLAYS:
        out = [a for a in out if not (isinstance(a, UsePower) and a.card == "necronomicon")] or out
    if not _rescued(state, seat):
        out = [a for a in out if not (isinstance(a, Play) and meets_ungoal(state, seat, a.card))] or out
    return out


_ITERATIONS = {"easy": 50, "normal": 500, "hard": 1200}
_ITERATIONS_CROWDED = {**_ITERATIONS, "normal": 250}  # three players or more


def budget(state: FlxState, level: str) -> int:
    """Normal searches 500 iterations at a table of two, 250 at a larger one; the other levels do not
    depend on the table. A seat that must guess the deck and the other hands gains from averaging over more
    guesses: on the ledger's 200 two-player games against random, 250 iterations won 145 and 500 won 157
    (34 games won only at 500, 22 only at 250; decision CPU p95 0.44 s and 0.70 s). At four players the
    same change lost ground: games 0-79 against three random seats, 38 won at 250 and 28 at 500 (16 only
    at 250, 6 only at 500). Our reading, not tested apart: a larger tree holds more of three rivals' own
    choices, each taken as their best move for themselves, which random seats do not make."""
    return (_ITERATIONS if len(state.players) == 2 else _ITERATIONS_CROWDED)[level]


# Hard keeps the wide exploration of the other levels: Fluxx's rules and goals change under the searcher's
# feet, so early averages mislead and a search that settles on them early plays worse. In games 0-7 of
# hard against normal (seed 0, hard's seat alternating, normal then at 250) hard won 6 at 0.7 and 3 at 0.15.
AI = GameAI(rollout=rollout, evaluate=evaluate, prune=prune, iterations=_ITERATIONS, budget=budget,
            rollout_depth=16, exploration={"easy": 0.7, "normal": 0.7, "hard": 0.7})

"""Call to Glory as one seat could imagine it: the cards it cannot see and the other players' secret
Imperial Tasks re-drawn.

Hidden from a seat: the other hands, the order of both draw piles, every discard pile card under its top
(the view shows only tops and counts) and the other players' unrevealed tasks. The cards form one pool
(all 110 minus the seat's hand, the sets on the table and the discard tops); each other player's
unrevealed tasks come one per task deck it has not revealed from (CTG-V1 deals one from each deck),
drawn from that deck's cards nobody has shown.
"""

from __future__ import annotations

from rules.ai.sampling import fresh_rng, redeal
from rules.call_to_glory.cards import catalog
from rules.call_to_glory.state import DECK1, DECK2, DISCARD1, DISCARD2, CtgState, build_player
from rules.core import Rng


def determinize(state: CtgState, seat: str, rng: Rng) -> CtgState:
    out = _own_copy(state)
    me = out.seat_index(seat)
    assert me is not None, seat
    others = [p for i, p in enumerate(out.players) if i != me]
    piles = out.piles
    unders = [piles[DISCARD1][:-1], piles[DISCARD2][:-1]]
    zones = [p.hand for p in others] + [piles[DECK1], piles[DECK2]] + unders
    redeal(rng, zones)
    for p in others:
        p.hand.sort()  # hands are kept sorted (the engine inserts in order)
    for pile, under in zip((DISCARD1, DISCARD2), unders, strict=True):
        piles[pile][:-1] = under
    if out.options.imperial_tasks:
        _redraw_tasks(out, me, rng)
    out.rng = fresh_rng(rng)
    return out


def _own_copy(state: CtgState) -> CtgState:
    """The engine's successor (every container shared with ``state``, which the engine never edits in
    place) with players and piles of its own, the only containers this module changes in place. A deep
    copy here was a fifth of an AI decision's time."""
    out = state.successor()
    out.__dict__["players"] = [build_player({**p.__dict__, "hand": p.hand[:]}) for p in state.players]
    out.__dict__["piles"] = [pile[:] for pile in state.piles]
    return out


def _redraw_tasks(state: CtgState, me: int, rng: Rng) -> None:
    cat = catalog()
    seen = set(state.players[me].tasks)
    for p in state.players:
        seen.update(p.revealed_tasks)
    for i, p in enumerate(state.players):
        if i == me:
            continue
        shown = {cat.tasks[t].deck for t in p.revealed_tasks}
        unshown = [deck for deck in cat.decks if deck not in shown]  # dealt in deck order (new_game)
        tasks = []
        for deck in unshown[: len(p.tasks)]:
            pool = [t for t in cat.decks[deck] if t not in seen]
            pick = pool[rng.below(len(pool))]
            seen.add(pick)
            tasks.append(pick)
        p.tasks = tasks

"""Cthulhu Wars: Duel as one seat could imagine it: the rival's face-down Elder Signs and the bag's mix
re-drawn (CWD-R120..R122).

Only the sign values are hidden: a seat sees its own values, how many face-down signs its rival holds and
how many signs are left in the bag. The signs it cannot account for come from the 12 of the box (6 ones,
4 twos, 2 threes) minus its own; the rival's hand and the bag are dealt from them at random and whatever
is left over stands for the signs already revealed (their values are not part of the view). The game's
generator is replaced too, so the sample's future dice and draws are its own.
"""

from __future__ import annotations

from rules.ai.sampling import fresh_rng
from rules.core import Rng
from rules.cthulhu_wars_duel.factions import ELDER_SIGNS
from rules.cthulhu_wars_duel.state import CwdState


def determinize(state: CwdState, seat: str, rng: Rng) -> CwdState:
    out = state.clone()
    me = out.seats.index(seat)
    rival = out.players[1 - me]
    pool = [v for v, n in sorted(ELDER_SIGNS.items()) for _ in range(n)]
    for v in out.players[me]["signs"]:
        pool.remove(v)
    rng.shuffle(pool)
    held = len(rival["signs"])
    rival["signs"] = sorted(pool[:held])
    in_bag = pool[held : held + sum(out.bag)]
    out.bag = [in_bag.count(v) for v in sorted(ELDER_SIGNS)]
    out.rng = fresh_rng(rng)
    return out

"""Cthulhu Fluxx as one seat could imagine it: the deck order and the other players' hands, cards drawn
for an action (limbo) and Dreams and Omens cards re-dealt.

Everything else (rules, goals, keepers and creepers, the discard pile, the chain of reactions, the
creeper under the Elder Sign) is in every view. The hidden cards are exactly the whole card set minus
what this seat sees, so pooling and re-dealing them depends on nothing the seat cannot see.
"""

from __future__ import annotations

from rules.ai.sampling import fresh_rng, redeal
from rules.core import Rng
from rules.fluxx_cthulhu.state import FlxState


def determinize(state: FlxState, seat: str, rng: Rng) -> FlxState:
    out = state.clone()
    others = [p for p in out.players if p.seat != seat]
    redeal(rng, [out.deck] + [z for p in others for z in (p.hand, p.limbo, p.dreams)])
    out.rng = fresh_rng(rng)
    return out

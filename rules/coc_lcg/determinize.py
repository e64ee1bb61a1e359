"""Call of Cthulhu LCG as one seat could imagine it: every deck order, the rival's hand, the face-down
domain cards (CoC-R131) and the rival's private choices re-drawn.

A seat knows each player's whole deck list (public through the lobby), so the cards hidden from it are
that list minus what it sees: for itself its deck and its face-down domain cards; for the rival its
hand, deck, looked-at cards and face-down domain cards. Each owner's hidden cards are pooled and dealt
back with the same counts. The story deck is reshuffled. The rival's private choices follow its new
hand: setup picks (CoC-R27) are kept as many as were made once the rival has finished picking (any
cards of the new hand) and cleared while it is still picking; a commit plan not yet revealed (CoC-D3) is
cleared, so the rival plans again in the sample.
"""

from __future__ import annotations

from rules.ai.sampling import fresh_rng, redeal, reshuffled
from rules.coc_lcg.state import CocState
from rules.core import Rng


def determinize(state: CocState, seat: str, rng: Rng) -> CocState:
    out = state.clone()
    for p in (0, 1):
        out.own_player(p)
    out.seal()
    still_picking = set(out.stack[-1].seats) if out.stack and out.stack[-1].kind == "setup" else set()
    for pl in out.players:
        faced = [d for d in pl.domains if d.card is not None]
        cards = [d.card for d in faced if d.card is not None]
        zones = [pl.deck, cards] if pl.seat == seat else [pl.hand, pl.deck, pl.peek, cards]
        redeal(rng, zones)
        for d, c in zip(faced, cards, strict=True):
            d.card = c
        if pl.seat != seat:
            picked = 0 if pl.seat in still_picking else len(pl.picks)
            pl.picks = reshuffled(rng, pl.hand)[:picked]
            pl.plan = {}
    out.story_deck = reshuffled(rng, out.story_deck)
    out.rng = fresh_rng(rng)
    return out

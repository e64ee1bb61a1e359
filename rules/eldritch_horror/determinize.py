"""Eldritch Horror as the table could imagine it: every hidden order and hidden back re-drawn.

Eldritch Horror has no private hands (every seat sees the same view), so what is hidden is hidden from
all: the order of every encounter, asset, spell and condition deck, the Mythos deck, the Mystery deck and
the gate stack; the monster cup; which space each clue token in the pool, on an investigator or on a
corpse comes from; which copy of a spell or condition someone holds (the copy decides its back). The
discard piles are public facts the table knows (the view just does not draw them) and stay as they are.

The Mythos deck keeps its stage structure (setup step 8): each stage keeps as many cards of each colour
as it has, and which card of that colour it is comes from the colour's unseen cards (the stages and the
unused cards in the box), the order within the stage shuffled.
"""

from __future__ import annotations

from collections import defaultdict

from rules.ai.sampling import fresh_rng, redeal, reshuffled
from rules.core import Rng
from rules.eldritch_horror import mythos as M
from rules.eldritch_horror.data import COLOURS, load
from rules.eldritch_horror.people import kind_of
from rules.eldritch_horror.state import EhState

C = load()
_COPIED = ("spells", "conditions")  # decks whose cards are copies with a hidden back


def determinize(state: EhState, seat: str, rng: Rng) -> EhState:
    out = state.clone()
    for name in sorted(out.decks):
        if name != "mythos_box":
            out.decks[name] = reshuffled(rng, out.decks[name])
    for deck in _COPIED:
        _redraw_copies(out, deck, rng)
    _redraw_mythos(out, rng)
    out.mystery_deck = reshuffled(rng, out.mystery_deck)
    out.gate_stack = reshuffled(rng, out.gate_stack)
    out.cup = reshuffled(rng, out.cup)
    redeal(rng, [out.clue_pool] + [inv["clues"] for inv in out.investigators] + [c["clues"] for c in out.corpses])
    out.rng = fresh_rng(rng)
    return out


def _redraw_copies(state: EhState, deck: str, rng: Rng) -> None:
    """Keep every zone's kinds where they are and deal the copies of each kind among them afresh."""
    zones: list[list[str]] = [state.decks.get(deck, []), state.discards.get(deck, [])]
    zones += [inv[deck] for inv in state.investigators]
    zones += [c[deck] for c in state.corpses if deck in c]
    pools: dict[str, list[str]] = defaultdict(list)
    for zone in zones:
        for card in zone:
            pools[kind_of(card)].append(card)
    for kind in sorted(pools):
        pools[kind] = reshuffled(rng, pools[kind])
    for zone in zones:
        zone[:] = [pools[kind_of(card)].pop() for card in zone]


def _redraw_mythos(state: EhState, rng: Rng) -> None:
    deck = state.mythos_deck
    box = state.decks.get("mythos_box", [])

    def colour(card: str) -> str:
        return str(C.mythos[card]["color"])

    unseen: dict[str, list[str]] = {c: [] for c in COLOURS}
    for card in deck + box:
        unseen[colour(card)].append(card)
    for c in COLOURS:
        unseen[c] = reshuffled(rng, unseen[c])
    stages: list[list[str]] = []
    start = 0
    for size in reversed(M.stages_left(state)):  # the list holds stage III first, stage I last
        segment = [colour(card) for card in deck[start : start + size]]
        stages.append([unseen[c].pop() for c in reshuffled(rng, segment)])
        start += size
    state.mythos_deck = [card for stage in stages for card in stage]
    if "mythos_box" in state.decks:
        state.decks["mythos_box"] = sorted(card for c in COLOURS for card in unseen[c])

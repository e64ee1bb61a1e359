"""Building exact Call to Glory positions for rule tests."""

from __future__ import annotations

from typing import Any

from rules import registry
from rules.call_to_glory.state import CtgState
from rules.core import Event

SPEC = registry.get("call_to_glory")
ENGINE = SPEC.engine

EMPEROR, EMPRESS, DAIMYO, SHOGUN, SAMURAI, NINJA, ENVOY, MONK, FARMER = 6, 7, 8, 9, 12, 14, 16, 18, 20


def new(n: int = 2, seed: int = 1, **options: Any) -> CtgState:
    return ENGINE.new_game([f"p{i}" for i in range(n)], SPEC.options_model(**options), seed)


def arrange(
    state: CtgState,
    *,
    hands: dict[int, list[int]] | None = None,
    sets: dict[int, dict[int, int]] | None = None,
    discards: tuple[list[int], list[int]] | None = None,
    decks: tuple[list[int], list[int]] | None = None,
) -> CtgState:
    """Rewrite parts of a fresh state; untouched cards simply leave the test position."""
    for i, hand in (hands or {}).items():
        state.players[i].hand = sorted(hand)
    for i, s in (sets or {}).items():
        state.players[i].sets = dict(s)
    if discards is not None:
        state.piles[2], state.piles[3] = list(discards[0]), list(discards[1])
    if decks is not None:
        state.piles[0], state.piles[1] = list(decks[0]), list(decks[1])
    return state


def act(state: CtgState, seat: str, action: dict[str, Any]) -> tuple[CtgState, list[Event]]:
    return ENGINE.apply(state, seat, action)


def to_act_phase(state: CtgState, seat: str = "p0") -> CtgState:
    state, _ = act(state, seat, {"type": "draw", "pile": "deck1"})
    state, _ = act(state, seat, {"type": "draw", "pile": "deck2"})
    return state


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]

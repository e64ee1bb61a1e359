"""Cthulhu Fluxx samples for the AI: the deck order and other players' hands, limbo and dream cards are
re-dealt; what the seat sees (its own hand and limbo, the table, the discard pile) is not."""

from __future__ import annotations

from rules import registry
from rules.core import Rng
from rules.fluxx_cthulhu.state import FlxState
from tests.rules.ai.checks import check_positions

SPEC = registry.get("fluxx_cthulhu")


def _hidden(state: FlxState, seat: str) -> object:
    return [p.hand for p in state.players if p.seat != seat], state.deck


def test_samples_match_the_view_and_vary() -> None:
    for n in (2, 4):
        seats = [f"p{i}" for i in range(n)]
        varied = check_positions(SPEC, seats, SPEC.options_model(), games=3, every=9, hidden=_hidden)
        assert varied >= 20


def test_cards_are_conserved() -> None:
    state = SPEC.engine.new_game(["a", "b", "c"], SPEC.options_model(), 4)
    sample = SPEC.engine.determinize(state, "b", Rng.from_seed(1))

    def cards(s: FlxState) -> list[str]:
        zones = [s.deck, s.discard, s.rules, s.goals] + [z for p in s.players for z in (p.hand, p.keepers, p.creepers, p.limbo, p.dreams)]
        return sorted(c for z in zones for c in z)

    assert cards(sample) == cards(state)
    assert sample.players[1].hand == state.players[1].hand
    assert [len(p.hand) for p in sample.players] == [len(p.hand) for p in state.players]

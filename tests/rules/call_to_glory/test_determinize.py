"""Call to Glory samples for the AI: other hands, draw piles, discard piles under their tops and other
players' unrevealed Imperial Tasks (CTG-V1) are re-drawn; what the seat sees is not."""

from __future__ import annotations

from rules import registry
from rules.call_to_glory.cards import catalog
from rules.call_to_glory.state import CtgState
from rules.core import Rng
from tests.rules.ai.checks import check_positions

SPEC = registry.get("call_to_glory")


def _hidden(state: CtgState, seat: str) -> object:
    others = [(p.hand, p.tasks) for p in state.players if p.seat != seat]
    return others, state.piles[0], state.piles[1], state.rng.state


def test_samples_match_the_view_and_vary() -> None:
    for n in (2, 4):
        seats = [f"p{i}" for i in range(n)]
        opts = SPEC.options_model(imperial_tasks=True, ninja_power=True)
        varied = check_positions(SPEC, seats, opts, games=2, every=97, hidden=_hidden, limit=2000)
        assert varied >= 10


def test_cards_are_conserved_and_tasks_follow_the_decks() -> None:
    state = SPEC.engine.new_game(["a", "b", "c"], SPEC.options_model(imperial_tasks=True), 5)
    sample = SPEC.engine.determinize(state, "a", Rng.from_seed(3))
    cards = lambda s: sorted([c for p in s.players for c in p.hand] + [c for pile in s.piles for c in pile])  # noqa: E731
    assert cards(sample) == cards(state)
    assert sample.players[0].hand == state.players[0].hand and sample.players[0].tasks == state.players[0].tasks
    deck = lambda tasks: [catalog().tasks[t].deck for t in tasks]  # noqa: E731
    for real, drawn in zip(state.players[1:], sample.players[1:]):
        assert deck(drawn.tasks) == deck(real.tasks)  # one from each task deck (CTG-V1)
    every = [t for p in sample.players for t in p.tasks]
    assert len(every) == len(set(every))  # no task dealt twice

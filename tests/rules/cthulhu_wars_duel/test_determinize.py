"""Cthulhu Wars: Duel samples for the AI: the rival's face-down Elder Sign values and the bag's mix are
re-drawn (CWD-R120..R122); the seat's own values, the counts and the whole board are not."""

from __future__ import annotations

from rules import registry
from rules.core import Rng
from rules.cthulhu_wars_duel.state import CwdState
from tests.rules.ai.checks import check_positions

SPEC = registry.get("cthulhu_wars_duel")


def _hidden(state: CwdState, seat: str) -> object:
    return [pl["signs"] for s, pl in zip(state.seats, state.players) if s != seat], state.bag, state.rng.state


def test_samples_match_the_view_and_vary() -> None:
    varied = check_positions(SPEC, ["a", "b"], SPEC.options_model(), games=3, every=11, hidden=_hidden)
    assert varied >= 20


def test_rival_signs_come_from_what_is_left() -> None:
    state = SPEC.engine.new_game(["a", "b"], SPEC.options_model(), 2)
    state.players[0]["signs"] = [3, 3]
    state.players[1]["signs"] = [1, 2]
    state.bag = [5, 3, 0]
    for seed in range(20):
        sample = SPEC.engine.determinize(state, "a", Rng.from_seed(seed))
        assert sample.players[0]["signs"] == [3, 3]
        assert len(sample.players[1]["signs"]) == 2 and 3 not in sample.players[1]["signs"]  # both 3s are mine
        assert sum(sample.bag) == 8 and sample.bag[2] == 0

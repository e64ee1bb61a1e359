"""Call of Cthulhu LCG samples for the AI: deck orders, the rival's hand and looked-at cards, face-down
domain cards (CoC-R131), the story deck and the rival's private setup picks and commit plan (CoC-R27,
CoC-D3) are re-drawn; what the seat sees is not."""

from __future__ import annotations

from rules import registry
from rules.coc_lcg.state import CocState
from rules.core import Rng
from tests.rules.ai.checks import check_positions

SPEC = registry.get("coc_lcg")


def _hidden(state: CocState, seat: str) -> object:
    return [(p.hand, p.deck) for p in state.players if p.seat != seat], state.story_deck


def _cards(state: CocState, p: int) -> list[str]:
    pl = state.players[p]
    zones = [pl.hand, pl.deck, pl.discard, pl.won, pl.peek, [d.card for d in pl.domains if d.card]]
    zones += [r for d in pl.domains for r in [d.resources]]
    return sorted(c for z in zones for c in z)


def test_samples_match_the_view_and_vary() -> None:
    varied = check_positions(SPEC, ["a", "b"], SPEC.options_model(), games=2, every=37, hidden=_hidden, limit=700)
    assert varied >= 20


def test_each_owner_keeps_their_own_cards() -> None:
    state = SPEC.engine.new_game(["a", "b"], SPEC.options_model(), 8)
    for seed in range(5):
        sample = SPEC.engine.determinize(state, "a", Rng.from_seed(seed))
        assert _cards(sample, 0) == _cards(state, 0) and _cards(sample, 1) == _cards(state, 1)
        assert sample.players[0].hand == state.players[0].hand
        assert sorted(sample.story_deck) == sorted(state.story_deck)

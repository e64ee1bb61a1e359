"""Eldritch Horror samples for the AI: deck orders, the Mythos deck within its stages (setup step 8), the
Mystery deck, the gate stack, the monster cup, where clue tokens come from and which copy of a spell or
condition is held (its hidden back) are re-drawn; the shared view is not."""

from __future__ import annotations

from collections import Counter

from rules import registry
from rules.core import Rng
from rules.eldritch_horror import mythos as M
from rules.eldritch_horror.data import load
from rules.eldritch_horror.people import kind_of
from rules.eldritch_horror.state import EhState
from tests.rules.ai.checks import check_positions

SPEC = registry.get("eldritch_horror")
C = load()


def _hidden(state: EhState, seat: str) -> object:
    return state.decks, state.mythos_deck, state.cup, state.gate_stack, [i["spells"] for i in state.investigators]


def test_samples_match_the_view_and_vary() -> None:
    for seats in (["a", "b"], ["a"]):
        varied = check_positions(SPEC, seats, SPEC.options_model(), games=3, every=7, hidden=_hidden)
        assert varied >= 10


def test_mythos_stages_keep_their_colours_and_copies_their_kinds() -> None:
    state = SPEC.engine.new_game(["a", "b"], SPEC.options_model(), 3)
    sample = SPEC.engine.determinize(state, "a", Rng.from_seed(5))

    def stage_colours(s: EhState) -> list[Counter[str]]:
        out, start = [], 0
        for size in reversed(M.stages_left(s)):
            out.append(Counter(C.mythos[c]["color"] for c in s.mythos_deck[start : start + size]))
            start += size
        return out

    assert stage_colours(sample) == stage_colours(state)
    assert sorted(sample.mythos_deck + sample.decks["mythos_box"]) == sorted(state.mythos_deck + state.decks["mythos_box"])
    for real, drawn in zip(state.investigators, sample.investigators):
        assert [kind_of(c) for c in drawn["spells"]] == [kind_of(c) for c in real["spells"]]
    held = [c for inv in sample.investigators for c in inv["spells"]] + sample.decks["spells"]
    assert len(held) == len(set(held))  # no copy twice

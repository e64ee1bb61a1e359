"""The Eldritch Horror AI at the normal level plays its hand-written policy (rules/eldritch_horror/policy.py):
it decides from what the seat can see, goes where the mystery is advanced, and rests before it is defeated."""

from __future__ import annotations

from rules.ai import choose_action
from rules.ai.hooks import hooks_for
from rules.eldritch_horror.actions import Choose
from rules.eldritch_horror.spec import SPEC
from rules.eldritch_horror.state import EhState
from tests.rules.ai.checks import check_choices
from tests.rules.eldritch_horror.helpers import game


def _board_cleared(state: EhState) -> EhState:
    """No gate, monster, clue or rumor pulls the investigator anywhere; the pending question stays."""
    state.cup += [m["id"] for m in state.monsters if m["id"] < 100]
    state.monsters = []
    state.gate_discard += state.gates
    state.gates = []
    state.clue_pool += state.clues
    state.clues = []
    state.rumors = {}
    return state


def test_normal_plays_the_policy_and_other_levels_search() -> None:
    ai = hooks_for(SPEC)
    assert ai.policy is not None and ai.policy_levels == frozenset({"normal"})


def test_normal_level_same_view_same_action() -> None:
    """The policy's look-ahead samples hidden cards through ``determinize``, so equal views decide alike."""
    assert check_choices(SPEC, ["a", "b"], SPEC.options_model(), games=1, every=9, limit=80, level="normal") >= 5


def test_a_research_mystery_sends_the_investigator_to_a_clue() -> None:
    """EH-R11 travel, EH-R25 research encounters: Occult Research is advanced by clues from research
    encounters, so with a clue one step away the investigator goes there."""
    state = _board_cleared(game(names=("Lily Chen",)))
    state.mystery = {**state.mystery, "name": "Occult Research", "tokens": 0}
    if "Space 17" in state.clue_pool:
        state.clue_pool.remove("Space 17")
    state.clues = ["Space 17"]
    assert "travel:Space 17" in state.stack[-1].params["options"]
    assert choose_action(SPEC, state, "s1", seed=1, level="normal") == Choose(option="travel:Space 17")


def test_a_wounded_investigator_rests_first() -> None:
    """EH-R13: resting heals; an investigator two wounds from defeat rests before anything else."""
    state = _board_cleared(game(names=("Lily Chen",)))
    state.clues = ["Space 17"]
    state.investigators[0]["health"] = 2
    assert choose_action(SPEC, state, "s1", seed=1, level="normal") == Choose(option="rest")

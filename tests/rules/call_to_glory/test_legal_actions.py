"""legal_actions against apply over the whole action space, on positions reached by random play.

The engine lists moves (``_draw_options``, ``_act_options``) and validates them (the ``_check_*``
functions) by separate, separately optimised code. Here every candidate move of every seat is tried: a
listed move must be accepted, an accepted one must give the same state as some listed move (leaving out a
pile the rules force is the same move), and a refused one must raise RuleError and change nothing.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.call_to_glory.cards import catalog
from rules.core import RuleError
from tests.rules.call_to_glory.helpers import ENGINE, SPEC

VARIANTS = [
    {},
    {"imperial_tasks": True},
    {"ninja_power": True},
    {"imperial_tasks": True, "ninja_power": True},
]
PILES = ["deck1", "deck2", "discard1", "discard2"]


def _candidates(state) -> list[dict]:
    chars = catalog().characters
    seats = [p.seat for p in state.players]
    out: list[dict] = [{"type": "draw", "pile": p} for p in PILES]
    out += [
        {"type": "lay_out", "character": c, "count": n, "pile": pile}
        for c in chars
        for n in range(1, 9)
        for pile in (None, 1, 2)
    ]
    out += [{"type": "discard", "character": c, "pile": pile} for c in chars for pile in (None, 1, 2)]
    out += [{"type": "give_up_card", "pile": pile} for pile in (1, 2)]
    out += [{"type": "place_beaten_set", "pile": p} for p in (1, 2)]
    out += [{"type": "use_ninja", "target": s, "character": c} for s in seats for c in chars]
    out += [{"type": "reveal_task", "task": t} for t in catalog().tasks]
    out.append({"type": "end_turn"})
    return out


def _check_position(state) -> None:
    snapshot = state.model_dump_json()
    for player in state.players:
        seat = player.seat
        legal = ENGINE.legal_actions(state, seat)
        outcomes = [ENGINE.apply(state, seat, a)[0] for a in legal]  # every listed move is accepted
        listed = {a.model_dump_json() for a in legal}
        for raw in _candidates(state):
            action = SPEC.parse_action(raw)
            try:
                after, _ = ENGINE.apply(state, seat, action)
            except RuleError:
                assert action.model_dump_json() not in listed, f"listed but refused: {seat} {raw}"
                continue
            assert after in outcomes, f"accepted but not listed: {seat} {raw}"
    assert state.model_dump_json() == snapshot


@settings(max_examples=8, deadline=None)
@given(
    n=st.sampled_from([2, 3, 4]),
    variant=st.sampled_from(range(len(VARIANTS))),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_legal_actions_are_exactly_what_apply_accepts(n: int, variant: int, seed: int) -> None:
    """CTG-R5..R11, CTG-V1, CTG-V2: the listed moves and the validated ones agree, seat by seat."""
    rnd = random.Random(seed)
    state = ENGINE.new_game([f"p{i}" for i in range(n)], SPEC.parse_options(VARIANTS[variant]), seed)
    step = 0
    while prompts := ENGINE.pending(state):
        if step % 23 == 0:
            _check_position(state)
        seat = prompts[0].seat
        state, _ = ENGINE.apply(state, seat, rnd.choice(ENGINE.legal_actions(state, seat)))
        step += 1

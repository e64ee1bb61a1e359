"""Random legal games to the end for every player count and variant, checking invariants at every step."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.call_to_glory.actions import ACTION_TYPES
from tests.rules.call_to_glory.helpers import ENGINE, SPEC
from tests.rules.call_to_glory.test_rules import FULL, all_cards
from tests.rules.contract import Checks, play_random_game

VARIANTS = [
    {},
    {"imperial_tasks": True},
    {"ninja_power": True},
    {"imperial_tasks": True, "ninja_power": True},
    {"quick": True, "first_player": "random"},
]


def _junk_actions(rnd: random.Random, seats: list[str]) -> list[object]:
    """Actions drawn at random from the whole action space (mostly illegal) plus malformed input."""
    chars = [6, 7, 8, 9, 12, 14, 16, 18, 20]
    return [
        {"type": "draw", "pile": rnd.choice(["deck1", "deck2", "discard1", "discard2"])},
        {"type": "lay_out", "character": rnd.choice(chars), "count": rnd.randint(1, 9),
         "pile": rnd.choice([None, 1, 2])},
        {"type": "discard", "character": rnd.choice(chars), "pile": rnd.choice([None, 1, 2])},
        {"type": "use_ninja", "target": rnd.choice(seats + ["nobody"]), "character": rnd.choice(chars)},
        {"type": "give_up_card", "pile": rnd.choice([1, 2])},
        {"type": "place_beaten_set", "pile": rnd.choice([1, 2])},
        {"type": "reveal_task", "task": rnd.choice(["task-a-emperor", "task-c-farmer", "nope"])},
        {"type": "end_turn"},
        {"type": "draw", "pile": "deck9"},
        {"type": "teleport"},
        {"character": 6},
        "not even a dict",
        42,
    ]


def _check_views(state) -> None:
    public = ENGINE.view(state, None)
    assert all(p.hand is None and p.tasks is None for p in public.players)
    assert set(public.model_dump()) == set(SPEC.view_model.model_fields)
    for p in state.players:
        own = ENGINE.view(state, p.seat)
        for pv in own.players:
            if pv.seat == p.seat:
                assert pv.hand == p.hand and pv.tasks == p.tasks
            else:
                assert pv.hand is None and pv.tasks is None
    dumped = json.loads(public.model_dump_json())
    assert "piles" not in dumped and "rng" not in dumped  # deck order and the generator stay inside


def _play(n: int, options: dict, seed: int, policy_seed: int) -> None:
    def cards_conserved(state) -> None:
        assert all_cards(state) == FULL

    # Games are short here: every state's views and JSON round-trip are checked, not a sample.
    checks = Checks(junk=_junk_actions, every_step=cards_conserved, views=_check_views, view_every=1)
    seats = [f"u{i}" for i in range(n)]
    run = play_random_game(SPEC, seats, SPEC.parse_options(options), seed, policy_seed, checks)
    assert run.state.phase == "over" and ENGINE.result(run.state).winners
    assert all(isinstance(SPEC.parse_action(a), ACTION_TYPES) for _, a in run.log)


@settings(max_examples=6, deadline=None)
@given(
    n=st.sampled_from([2, 3, 4]),
    variant=st.sampled_from(range(len(VARIANTS))),
    seed=st.integers(min_value=0, max_value=2**63),
    policy=st.integers(min_value=0, max_value=2**32),
)
def test_random_games_keep_every_invariant(n: int, variant: int, seed: int, policy: int) -> None:
    _play(n, VARIANTS[variant], seed, policy)


def test_every_player_count_and_variant_plays_to_the_end() -> None:
    for n in (2, 3, 4):
        for i, variant in enumerate(VARIANTS):
            _play(n, variant, seed=1000 * n + i, policy_seed=i)

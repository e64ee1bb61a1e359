"""The engine builds its prompts, legal actions, events and decisions without pydantic's validation
(``fastmodel``): over random games, each must be what validating its own fields makes of it."""

from __future__ import annotations

import random

from pydantic import BaseModel

from tests.rules.eldritch_horror.helpers import ENGINE


def _valid(obj: BaseModel) -> None:
    assert type(obj).model_validate(obj.model_dump()) == obj


def test_unvalidated_objects_are_valid_over_random_games() -> None:
    for seed in range(4):
        rnd = random.Random(seed)
        state = ENGINE.new_game(["a", "b"], {"investigators": 2 + seed % 3}, seed)
        for _ in range(150):
            if not (prompts := ENGINE.pending(state)):
                break
            for p in prompts:
                _valid(p)
            for f in state.stack:
                _valid(f)
            seat = prompts[0].seat
            legal = ENGINE.legal_actions(state, seat)
            for a in legal:
                _valid(a)
            state, events = ENGINE.apply(state, seat, rnd.choice(legal))
            for e in events:
                _valid(e)

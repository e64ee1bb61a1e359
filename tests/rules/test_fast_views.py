"""The LCG, Cthulhu Wars: Duel and Eldritch Horror views are built without validation
(``rules.core.fastmodel``): each must be exactly what validating its own fields gives, value and type (a
count left a float or a flag left a 0 would change what the bot shows or stores), and share no list or
dict with the state it shows."""

from __future__ import annotations

import random

import pytest
from pydantic import BaseModel

from rules import registry

SEATS = ["s1", "s2"]


def states(game: str, seed: int, moves: int = 150) -> list[BaseModel]:
    engine = registry.get(game).engine
    rnd = random.Random(seed)
    state = engine.new_game(SEATS, None, seed=seed)
    out = [state]
    for _ in range(moves):
        prompts = engine.pending(state)
        if not prompts:
            break
        state, _ = engine.apply(state, prompts[0].seat, rnd.choice(engine.legal_actions(state, prompts[0].seat)))
        out.append(state)
    return out


@pytest.mark.parametrize("game", ["coc_lcg", "cthulhu_wars_duel", "eldritch_horror"])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_view_is_what_validating_it_gives(game: str, seed: int) -> None:
    engine = registry.get(game).engine
    for state in states(game, seed):
        for seat in (None, *SEATS):
            view = engine.view(state, seat)
            shown = view.model_dump()
            validated = type(view).model_validate(shown)
            assert validated == view and repr(validated.model_dump()) == repr(shown)


@pytest.mark.parametrize("game", ["coc_lcg", "cthulhu_wars_duel", "eldritch_horror"])
def test_changing_a_view_leaves_the_state_as_it_was(game: str) -> None:
    engine = registry.get(game).engine
    state = states(game, 3)[-1]
    before = state.model_dump_json()
    view = engine.view(state, SEATS[0])
    for value in view.__dict__.values():
        items = value if isinstance(value, list) else [value]
        for item in items:
            for v in (item.__dict__.values() if isinstance(item, BaseModel) else [item]):
                if isinstance(v, list):
                    v.append("x")
                elif isinstance(v, dict):
                    v["x"] = 1
    assert state.model_dump_json() == before

"""``EhState.clone`` copies most fields shallowly (the annotation says their elements are immutable): over
random games, a clone must equal its original and share nothing with it that can be changed in place."""

from __future__ import annotations

import random
from typing import Any

from rules.eldritch_horror.state import (
    _ENTRIES,
    _FLAT_ENTRIES,
    _SCALAR_ENTRIES,
    IN_PLAY_KEYS,
    MONSTER_KEYS,
    EhState,
)
from tests.rules.eldritch_horror.helpers import ENGINE

_MARK = "__changed__"


def _scribble(v: Any) -> None:
    """Change every list and dict reachable from ``v`` in place (and every Decision's)."""
    if isinstance(v, list):
        for x in v:
            _scribble(x)
        v.append(_MARK)
    elif isinstance(v, dict):
        for x in list(v.values()):
            _scribble(x)
        v[_MARK] = _MARK
    elif hasattr(v, "__dict__") and not isinstance(v, type):
        for x in list(vars(v).values()):
            _scribble(x)


def _check(state: EhState) -> None:
    for inv in state.investigators:  # what lets the clone copy an investigator's entries flat
        assert inv.keys() == _ENTRIES
        for key in _FLAT_ENTRIES:
            values = inv[key].values() if isinstance(inv[key], dict) else inv[key]
            assert all(isinstance(x, str | int) for x in values), (key, inv[key])
        assert all(isinstance(inv[key], str | int | None) for key in _SCALAR_ENTRIES)
    for rows, keys in ((state.monsters, MONSTER_KEYS), (state.in_play, IN_PLAY_KEYS)):
        assert all(r.keys() <= keys and all(isinstance(x, str | int) for x in r.values()) for r in rows)
    before = state.model_dump()
    twin = state.clone()
    assert twin.model_dump() == before
    assert twin.rng is not state.rng and all(a is not b for a, b in zip(twin.stack, state.stack, strict=True))
    _scribble(twin.__dict__)
    twin.rng.next_u64()
    assert state.model_dump() == before


def test_a_clone_shares_nothing_mutable_over_random_games() -> None:
    for seed in range(6):
        rnd = random.Random(seed)
        seats = ["a", "b"][: 1 + seed % 2]
        state = ENGINE.new_game(seats, {"investigators": 2 + seed % 3}, seed)
        for _ in range(120):
            if not (prompts := ENGINE.pending(state)):
                break
            _check(state)
            seat = prompts[0].seat
            state, _events = ENGINE.apply(state, seat, rnd.choice(ENGINE.legal_actions(state, seat)))
        _check(state)

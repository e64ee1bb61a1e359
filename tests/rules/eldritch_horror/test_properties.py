"""Random legal games to the end for every Ancient One, with the contract's invariants
(tests/rules/contract.py) and this game's: tokens conserved, doom on its track, nothing hidden in a view."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.eldritch_horror.data import load
from rules.eldritch_horror.options import EhOptions
from rules.eldritch_horror.spec import SPEC
from rules.eldritch_horror.world import TOKENS
from tests.rules.contract import Checks, play_random_game
from tests.rules.eldritch_horror.helpers import ENGINE

C = load()
NORMAL = {m for m in TOKENS if m < 100}
EPIC = {m for m in TOKENS if m >= 100}


def _junk(rnd: random.Random, seats: list[str]) -> list[object]:
    return [
        {"type": "choose", "option": rnd.choice(["rest", "travel:Atlantis", "end!", "fight:999:Cthulhu", "buy:Axe+Axe"])},
        {"type": "choose", "option": "x" * 300},
        {"type": "choose"},
        {"type": "travel", "to": "Arkham"},
        {"option": "end"},
        "nonsense",
        17,
    ]


def _every_step(state) -> None:
    on_board = [m["id"] for m in state.monsters]
    card = state.mystery or {}  # what the active mystery holds: clues, monsters, gates
    normal = state.cup + state.set_aside + [m for m in on_board if m < 100] + card.get("monsters", [])
    assert sorted(normal) == sorted(NORMAL), "34 monster tokens, each in exactly one place"
    assert sorted(state.box + [m for m in on_board if m >= 100]) == sorted(EPIC)
    held = [c for inv in state.investigators for c in inv["clues"]] + [c for x in state.corpses for c in x["clues"]]
    held += card.get("clues", [])
    assert sorted(state.clue_pool + state.clues + held) == sorted(C.spaces), "36 clue tokens conserved"
    gates = state.gate_stack + state.gates + state.gate_discard + card.get("gates", [])
    assert len(gates) == len(set(gates)) and set(gates) <= set(C.gate_tokens)
    boxed = "Where the Old Ones Broke Through" in state.solved  # its banked gates leave the game
    assert boxed or sorted(gates) == sorted(C.gate_tokens), "9 gate tokens conserved"
    assert 0 <= state.doom <= C.doom_max
    assert all(0 <= inv["health"] and 0 <= inv["sanity"] for inv in state.investigators)
    dropping = bool(state.stack) and state.stack[-1].kind == "drop_ticket"
    assert all(sum(inv["tickets"].values()) <= 2 or dropping for inv in state.investigators), "EH-R16"
    assert len(state.reserve) <= 4 and len(state.solved) <= 4


def _views(state) -> None:
    for seat in [None, *state.seats]:
        view = ENGINE.view(state, seat)
        raw = view.model_dump_json()
        data = json.loads(raw)
        assert not {"decks", "cup", "clue_pool", "gate_stack", "rng", "mythos_deck", "mystery_deck", "work"} & set(data)
        assert "#" not in raw, "a spell or condition copy (its hidden back) leaked"
        for card in state.mythos_deck:
            assert f'"{C.mythos[card]["name"]}"' not in raw or any(m["id"] == card for m in state.in_play)


CHECKS = Checks(junk=_junk, every_step=_every_step, views=_views, view_every=9, junk_every=5)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), policy=st.integers(0, 10**6),
       ao=st.sampled_from(["Azathoth", "Cthulhu", "Shub-Niggurath", "Yog-Sothoth"]),
       seats=st.integers(1, 3), extra=st.integers(0, 2),
       difficulty=st.sampled_from(["easy", "normal", "hard"]))
def test_random_games_end_with_invariants(seed: int, policy: int, ao: str, seats: int, extra: int, difficulty: str) -> None:
    names = [f"p{k}" for k in range(seats)]
    options = EhOptions(ancient_one=ao, investigators=seats + extra, difficulty=difficulty)
    run = play_random_game(SPEC, names, options, seed, policy, CHECKS)
    assert ENGINE.result(run.state) is not None


def test_each_ancient_one_plays_to_an_end() -> None:
    for k, ao in enumerate(["Azathoth", "Cthulhu", "Shub-Niggurath", "Yog-Sothoth"]):
        run = play_random_game(SPEC, ["a", "b"], EhOptions(ancient_one=ao, investigators=4), 100 + k, k, CHECKS)
        assert run.state.ancient_one == ao and run.state.phase == "over"

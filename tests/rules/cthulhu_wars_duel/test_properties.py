"""Random legal games to the end on both maps, with the contract's invariants (tests/rules/contract.py)."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.cthulhu_wars_duel.engine import CthulhuWarsDuelEngine
from tests.rules.contract import Checks, play_random_game
from tests.rules.cthulhu_wars_duel.helpers import ENGINE, SPEC, conserved

AREAS = ["arctic", "antarctic", "kalahari", "central_pangaea", "north_america", "nowhere"]
KINDS = ["sl_acolyte", "wizard", "formless_spawn", "tsathoggua", "wendigo", "gnoph_keh", "rhan_tegoth", "ghoul"]


def _junk(rnd: random.Random, seats: list[str]) -> list[object]:
    return [
        {"type": "recruit", "area": rnd.choice(AREAS)},
        {"type": "summon", "kind": rnd.choice(KINDS), "area": rnd.choice(AREAS)},
        {"type": "awaken", "kind": rnd.choice(KINDS), "area": rnd.choice(AREAS)},
        {"type": "build_gate", "area": rnd.choice(AREAS)},
        {"type": "move"},
        {"type": "move_unit", "kind": rnd.choice(KINDS), "src": rnd.choice(AREAS), "dst": rnd.choice(AREAS)},
        {"type": "end_move"},
        {"type": "cancel_move"},
        {"type": "battle", "area": rnd.choice(AREAS)},
        {"type": "capture", "area": rnd.choice(AREAS)},
        {"type": "pass"},
        {"type": "unique", "ability": rnd.choice(["lethargy", "hibernate", "ice_age", "zap"]), "area": rnd.choice(AREAS)},
        {"type": "spend_requirement", "requirement": rnd.choice(["sl_req_spend3_opp_gain1", "ww_req_opp_6_books_or_spend_6", "x"])},
        {"type": "control_gate", "area": rnd.choice(AREAS)},
        {"type": "abandon_gate", "area": rnd.choice(AREAS)},
        {"type": "end_turn"},
        {"type": "reveal", "value": rnd.choice([1, 2, 3, 7])},
        {"type": "take_any_time_book"},
        {"type": "ritual"},
        {"type": "doom_done"},
        {"type": "decide", "choice": rnd.choice(["yes", "no", "pains", "wendigo", "howl", seats[0]]), "area": rnd.choice(AREAS)},
        {"type": "teleport"},
        {"area": "arctic"},
        "nonsense",
        17,
    ]


def _every_step(state) -> None:
    assert conserved(state), "no unit over its box count, none under the wrong owner, no empty entries"
    assert all(p["power"] >= 0 for p in state.players)
    assert sum(state.bag) + sum(len(p["signs"]) for p in state.players) <= 12
    for a, c in state.gates.items():
        if c >= 0:
            assert state.units[c].get(a, {}).get(("sl_acolyte", "ww_acolyte")[c]), "a controlled Gate has its cultist"
        if a in state.towers:
            assert c == -1, "a towered Gate is never controlled"


def _views(state) -> None:
    public = ENGINE.view(state, None)
    dumped = public.model_dump_json()
    assert "rng" not in json.loads(dumped) and "bag" not in json.loads(dumped)
    for pv in public.players:
        assert pv.elder_sign_values is None
    for i, seat in enumerate(state.seats):
        own = ENGINE.view(state, seat)
        for pv in own.players:
            if pv.seat == seat:
                assert pv.elder_sign_values == sorted(state.players[i]["signs"])
            else:
                assert pv.elder_sign_values is None  # CWD-R123: no opponent Elder Sign value leaks


CHECKS = Checks(junk=_junk, every_step=_every_step, views=_views, view_every=5, junk_every=3,
                any_time=frozenset({"reveal", "take_any_time_book"}), any_time_chance=0.05)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), policy=st.integers(0, 10**6), mp=st.sampled_from(["extinction", "earth"]),
       who=st.sampled_from(["first_seat", "second_seat", "random"]))
def test_random_games_end_with_invariants(seed: int, policy: int, mp: str, who: str) -> None:
    opts = SPEC.parse_options({"map": mp, "sleeper": who})
    play = play_random_game(SPEC, ["x", "y"], opts, seed, policy, CHECKS)
    assert play.state.phase == "over"


def test_many_fast_random_games_both_maps_and_tracks() -> None:
    engine = CthulhuWarsDuelEngine()
    for mp in ("extinction", "earth"):
        for track in ("standard", "long"):
            for g in range(15):
                rnd = random.Random(g)
                s = engine.new_game(["a", "b"], {"map": mp, "ritual_track": track}, seed=g)
                n = 0
                while prompts := engine.pending(s):
                    seat = prompts[0].seat
                    s, events = engine.apply(s, seat, rnd.choice(engine.legal_actions(s, seat)))
                    for e in events:
                        if e.type == "elder_sign_value":
                            assert e.audience == seat or e.audience in s.seats
                    n += 1
                    assert n < 5000
                    if n % 11 == 0:
                        _every_step(s)
                r = engine.result(s)
                assert r is not None and r.reason in ("end_of_the_world", "doom_30")
                assert SPEC.state_model.model_validate_json(s.model_dump_json()) == s


WEIGHTS = {"battle": 12, "awaken": 10, "summon": 6, "capture": 5, "spend_requirement": 4, "ritual": 6,
           "pass": 0.2, "unique": 1, "take_any_time_book": 0.3, "reveal": 0.2}


def _weight(s, seat: str, a) -> float:
    """Battles and the like weigh more; a unit step into an area holding enemy units weighs like a battle,
    so armies meet on a 20-area map too."""
    if a.type == "move_unit" and s.units[1 - s.seats.index(seat)].get(a.dst):
        return WEIGHTS["battle"]
    return WEIGHTS.get(a.type, 1)


def test_aggressive_random_games_reach_deep_rules() -> None:
    """A policy that prefers fights: battles, awakenings and captures happen often, so the battle paths
    (Eternal, Berserkergang, blocked retreats, Cannibalism, Energy Nexus, Doom 30) are exercised."""
    engine = CthulhuWarsDuelEngine()
    seen: set[str] = set()
    reasons: set[str] = set()
    for mp in ("extinction", "earth"):
        for g in range(40):
            rnd = random.Random(1000 + g)
            s = engine.new_game(["a", "b"], {"map": mp}, seed=g)
            n = 0
            while prompts := engine.pending(s):
                seat = prompts[0].seat
                legal = engine.legal_actions(s, seat)
                action = rnd.choices(legal, [_weight(s, seat, a) for a in legal])[0]
                s, events = engine.apply(s, seat, action)
                seen.update(e.type for e in events)
                seen.update(p.kind for p in engine.pending(s))
                n += 1
                assert n < 5000
                _every_step(s)
            reasons.add(engine.result(s).reason)
    for needed in ("eternal_paid", "cannibalism", "howled_out", "demand_sacrifice", "captured", "retreated",
                   "eliminated", "energy_nexus", "burrow", "awakened", "six_spellbooks", "hibernated"):
        assert needed in seen, needed
    assert reasons == {"end_of_the_world", "doom_30"} or "end_of_the_world" in reasons

"""The shared contract: RNG determinism, decisions, events, registry, replay, error shape."""

from __future__ import annotations

import collections

import pytest
from pydantic import BaseModel

from rules import registry
from rules.core import Decision, Event, RuleError, Rng, answer, prompts_for, replay, visible_to


def test_rng_same_seed_same_sequence_and_state_is_one_int() -> None:
    a, b = Rng.from_seed(42), Rng.from_seed(42)
    assert [a.next_u64() for _ in range(5)] == [b.next_u64() for _ in range(5)]
    assert Rng.model_validate_json(a.model_dump_json()) == a
    assert set(a.model_dump()) == {"state"}
    assert Rng.from_seed(1).next_u64() != Rng.from_seed(2).next_u64()


def test_rng_below_is_in_range_and_roughly_uniform() -> None:
    rng = Rng.from_seed(7)
    counts = collections.Counter(rng.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(9_000 < c < 11_000 for c in counts.values())
    with pytest.raises(ValueError):
        rng.below(0)


def test_rng_shuffle_is_a_permutation_and_reproducible() -> None:
    items = list(range(50))
    a, b = Rng.from_seed(3), Rng.from_seed(3)
    x, y = items[:], items[:]
    a.shuffle(x)
    b.shuffle(y)
    assert x == y and sorted(x) == items and x != items


def test_rng_clone_is_independent() -> None:
    a = Rng.from_seed(5)
    c = a.clone()
    a.next_u64()
    assert c != a


def test_decision_stack_handles_several_seats_at_once() -> None:
    stack = [Decision(kind="turn", seats=["a"]), Decision(kind="discard_to_limit", seats=["b", "c"])]
    assert [p.seat for p in prompts_for(stack[-1])] == ["b", "c"]
    assert answer(stack, "c") is None and stack[-1].seats == ["b"]
    done = answer(stack, "b")
    assert done is not None and done.kind == "discard_to_limit" and stack[-1].kind == "turn"


def test_events_private_ones_reach_only_their_seat() -> None:
    events = [Event(type="x"), Event(type="y", audience="a")]
    assert [e.type for e in visible_to(events, None)] == ["x"]
    assert [e.type for e in visible_to(events, "b")] == ["x"]
    assert [e.type for e in visible_to(events, "a")] == ["x", "y"]


def test_rule_error_carries_code_and_params() -> None:
    err = RuleError("ctg.same_pile", pile="deck1")
    assert err.code == "ctg.same_pile" and err.params == {"pile": "deck1"}
    assert "deck1" in str(err)


def test_registry_lists_and_gets_games() -> None:
    ids = [s.id for s in registry.all()]
    assert "call_to_glory" in ids and ids == sorted(ids)
    spec = registry.get("call_to_glory")
    assert spec.name("ru") == "Зов Славы" and spec.name("en-US") == "Call to Glory"
    with pytest.raises(KeyError):
        registry.get("chess")


def test_contract_calls_exactly_as_designed() -> None:
    spec = registry.get("call_to_glory")
    options = spec.options_model()
    state = spec.engine.new_game(seats=["s1", "s2", "s3"], options=options, seed=42)
    prompts = spec.engine.pending(state)
    assert prompts[0].seat == "s1"
    action = spec.engine.legal_actions(state, "s1")[0]
    state2, events = spec.engine.apply(state, "s1", action)
    assert events and state2 != state
    assert spec.engine.view(state, "s1").viewer == "s1"
    assert spec.engine.view(state, None).viewer is None
    assert spec.engine.result(state) is None
    assert spec.state_model.model_validate_json(state.model_dump_json()) == state


def test_same_seed_same_actions_same_state_and_replay() -> None:
    spec = registry.get("call_to_glory")
    seats = ["a", "b"]

    def run() -> tuple[BaseModel, list]:
        state = spec.engine.new_game(seats, spec.options_model(), 99)
        log = []
        for _ in range(30):
            seat = spec.engine.pending(state)[0].seat
            action = spec.engine.legal_actions(state, seat)[-1]
            state, _ = spec.engine.apply(state, seat, action)
            log.append((seat, action.model_dump()))
        return state, log

    s1, log = run()
    s2, _ = run()
    assert s1 == s2
    assert replay(spec, seats, {}, 99, log) == s1


@pytest.mark.parametrize(
    "seat,action,code",
    [
        ("ghost", {"type": "draw", "pile": "deck1"}, "unknown_seat"),
        ("b", {"type": "draw", "pile": "deck1"}, "not_your_turn"),
        ("a", {"type": "fly"}, "bad_action"),
        ("a", {"type": "draw", "pile": "deck7"}, "bad_action"),
        ("a", {"type": "draw"}, "bad_action"),
        ("a", "garbage", "bad_action"),
        ("a", {"type": "draw", "pile": "discard1"}, "ctg.pile_empty"),
        ("a", {"type": "lay_out", "character": 20, "count": 2}, "ctg.wrong_phase"),
    ],
)
def test_bad_input_is_a_rule_error_and_changes_nothing(seat: str, action: object, code: str) -> None:
    spec = registry.get("call_to_glory")
    state = spec.engine.new_game(["a", "b"], spec.options_model(), 5)
    before = state.model_dump_json()
    with pytest.raises(RuleError) as err:
        spec.engine.apply(state, seat, action)  # type: ignore[arg-type]
    assert err.value.code == code
    assert state.model_dump_json() == before


def test_foreign_action_model_is_refused() -> None:
    class Foreign(BaseModel):
        type: str = "draw"
        pile: str = "deck1"

    spec = registry.get("call_to_glory")
    state = spec.engine.new_game(["a", "b"], spec.options_model(), 5)
    with pytest.raises(RuleError) as err:
        spec.engine.apply(state, "a", Foreign())
    assert err.value.code == "bad_action"

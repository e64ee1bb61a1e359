"""What the coverage audit (notes/coverage_fluxx_ctg.md) found untested or only touched by the random
games: precise RuleError codes for bad input (and that a refused action changes nothing), CTG-R11 for a
set a player replaces, CTG-R12 checked only when the turn really ends, and replay / JSON round-trip of
exact positions for every variant."""

from __future__ import annotations

import pytest

from rules.core import RuleError, replay
from tests.rules.call_to_glory.helpers import (
    DAIMYO,
    EMPEROR,
    EMPRESS,
    ENGINE,
    ENVOY,
    FARMER,
    MONK,
    NINJA,
    SAMURAI,
    SHOGUN,
    SPEC,
    act,
    arrange,
    new,
    to_act_phase,
    types,
)
from tests.rules.call_to_glory.test_rules import FULL, all_cards


def refused(state, who: str, move: object, code: str, /, **params: object) -> RuleError:
    """The action raises RuleError(code) and the state is exactly as before."""
    before = state.model_dump_json()
    with pytest.raises(RuleError) as err:
        act(state, who, move)  # type: ignore[arg-type]
    assert err.value.code == code, err.value
    for k, v in params.items():
        assert err.value.params[k] == v, err.value.params
    assert state.model_dump_json() == before
    return err.value


# ---------------------------------------------------------------- bad input: unknown seat, wrong type


def test_unknown_seat_is_refused_everywhere() -> None:
    s = new(3)
    refused(s, "nobody", {"type": "draw", "pile": "deck1"}, "unknown_seat", seat="nobody")
    refused(s, "", {"type": "draw", "pile": "deck1"}, "unknown_seat")
    with pytest.raises(RuleError) as err:
        ENGINE.view(s, "nobody")
    assert err.value.code == "unknown_seat"
    assert ENGINE.legal_actions(s, "nobody") == []


@pytest.mark.parametrize("raw", [
    {"type": "teleport"},
    {"character": 6},
    "not json",
    42,
    {"type": "draw", "pile": "deck9"},
    {"type": "draw"},
    {"type": "lay_out", "character": 5, "count": 2},  # no character is worth 5
    {"type": "lay_out", "character": 6, "count": 0},
    {"type": "discard", "character": 6, "pile": 3},
    {"type": "draw", "pile": "deck1", "extra": True},
])
def test_malformed_action_is_a_bad_action(raw: object) -> None:
    refused(new(2), "p0", raw, "bad_action")


def test_action_of_the_wrong_kind_for_the_moment() -> None:
    s = new(2)
    refused(s, "p0", {"type": "lay_out", "character": FARMER, "count": 2}, "ctg.wrong_phase", phase="draw")
    refused(s, "p0", {"type": "end_turn"}, "ctg.wrong_phase", action="end_turn")
    refused(s, "p0", {"type": "place_beaten_set", "pile": 1}, "ctg.nothing_to_answer")
    refused(s, "p0", {"type": "give_up_card", "pile": 1}, "ctg.nothing_to_answer")
    refused(s, "p0", {"type": "reveal_task", "task": "task-a-emperor"}, "ctg.nothing_to_answer")
    refused(s, "p1", {"type": "draw", "pile": "deck1"}, "not_your_turn", current="p0")
    s = to_act_phase(s)
    refused(s, "p0", {"type": "draw", "pile": "discard1"}, "ctg.wrong_phase", phase="act")


def test_answer_of_the_wrong_kind_while_a_decision_is_owed() -> None:
    s = arrange(new(2), hands={0: [MONK] * 4}, sets={1: {MONK: 2}}, decks=([EMPEROR] * 3, [EMPEROR] * 3),
                discards=([FARMER], [FARMER]))
    s, _ = act(to_act_phase(s), "p0", {"type": "lay_out", "character": MONK, "count": 3})
    assert [(p.seat, p.kind) for p in ENGINE.pending(s)] == [("p1", "beaten_set")]
    refused(s, "p1", {"type": "draw", "pile": "deck1"}, "ctg.answer_expected", kind="beaten_set")
    refused(s, "p1", {"type": "give_up_card", "pile": 1}, "ctg.answer_expected")
    refused(s, "p0", {"type": "place_beaten_set", "pile": 1}, "waiting_for", seats=["p1"])
    refused(s, "p0", {"type": "end_turn"}, "waiting_for")


def test_empty_pile_and_card_not_in_hand_and_set_too_small_codes() -> None:
    s = arrange(new(3), hands={0: [SAMURAI, SAMURAI, MONK]}, decks=([EMPEROR] * 5, [EMPEROR] * 5))
    refused(s, "p0", {"type": "draw", "pile": "discard1"}, "ctg.pile_empty", pile="discard1")
    s = to_act_phase(s)
    refused(s, "p0", {"type": "lay_out", "character": SAMURAI, "count": 2}, "ctg.set_too_small", minimum=3)
    refused(s, "p0", {"type": "lay_out", "character": SAMURAI, "count": 3}, "ctg.not_in_hand", have=2, need=3)
    refused(s, "p0", {"type": "lay_out", "character": MONK, "count": 2}, "ctg.not_in_hand", have=1)
    refused(s, "p0", {"type": "discard", "character": FARMER}, "ctg.not_in_hand", character=FARMER)
    refused(s, "p0", {"type": "lay_out", "character": EMPEROR, "count": 2, "pile": 1}, "ctg.pile_unused")


def test_ctg_v2_the_figures_owner_names_an_existing_set_and_the_victim_only_the_pile() -> None:
    s = arrange(new(2, ninja_power=True), sets={1: {MONK: 3, FARMER: 2}}, discards=([EMPEROR], [EMPEROR]))
    s.players[0].ninjas = 2
    refused(s, "p0", {"type": "use_ninja", "target": "p1", "character": NINJA}, "ctg.target_has_no_set",
            character=NINJA, owner="p1")
    s, _ = act(s, "p0", {"type": "use_ninja", "target": "p1", "character": FARMER})
    refused(s, "p0", {"type": "use_ninja", "target": "p1", "character": MONK}, "waiting_for")
    s, events = act(s, "p1", {"type": "give_up_card", "pile": 1})
    assert s.players[1].sets == {MONK: 3, FARMER: 1} and s.piles[2][-1] == FARMER
    assert next(e for e in events if e.type == "card_given_up").character == FARMER


def test_ninja_target_that_is_not_seated() -> None:
    s = arrange(new(2, ninja_power=True), sets={1: {MONK: 3}})
    s.players[0].ninjas = 1
    refused(s, "p0", {"type": "use_ninja", "target": "stranger", "character": MONK}, "ctg.bad_target",
            target="stranger")


def test_finished_game_refuses_every_move_and_view_still_works() -> None:
    s = arrange(new(2, quick=True), hands={0: [MONK]}, decks=([FARMER] * 5, [EMPEROR]))
    s = to_act_phase(s)
    s, events = act(s, "p0", {"type": "discard", "character": MONK})
    assert "game_ended" in types(events)
    for seat in ("p0", "p1"):
        refused(s, seat, {"type": "draw", "pile": "deck1"}, "game_over")
    assert ENGINE.view(s, None).result is not None


# ---------------------------------------------------------------- CTG-R11 for a replaced own set (CTG-R9)


def test_ctg_r9_r11_replaced_own_set_must_restart_the_missing_pile() -> None:
    s = arrange(new(2), hands={0: [NINJA] * 5}, sets={0: {NINJA: 3}}, decks=([EMPEROR] * 3, [EMPEROR] * 3),
                discards=([MONK], []))
    s = to_act_phase(s)
    refused(s, "p0", {"type": "lay_out", "character": NINJA, "count": 5, "pile": 1}, "ctg.pile_must", pile=2)
    legal = {(a.count, a.pile) for a in ENGINE.legal_actions(s, "p0") if a.type == "lay_out" and a.character == NINJA}
    assert legal == {(4, 2), (5, 2)}
    s, _ = act(s, "p0", {"type": "lay_out", "character": NINJA, "count": 5})
    assert s.piles[3] == [NINJA] * 3 and s.players[0].sets == {NINJA: 5}


def test_ctg_r8_r11_beaten_set_with_both_piles_out_may_go_on_either() -> None:
    for pile in (1, 2):
        s = arrange(new(2), hands={0: [FARMER] * 3}, sets={1: {FARMER: 2}}, decks=([EMPEROR] * 3, [EMPEROR] * 3),
                    discards=([MONK], [SHOGUN]))
        s, _ = act(to_act_phase(s), "p0", {"type": "lay_out", "character": FARMER, "count": 3})
        assert {a.pile for a in ENGINE.legal_actions(s, "p1")} == {1, 2}
        s, _ = act(s, "p1", {"type": "place_beaten_set", "pile": pile})
        assert s.piles[1 + pile][-2:] == [FARMER, FARMER]
        assert all_cards(s) == sorted(all_cards(s))


# ---------------------------------------------------------------- CTG-R12 only at the real end of the turn


def test_ctg_r12_condition_undone_before_the_turn_ends_does_not_end_the_round() -> None:
    """All nine characters are out after the lay-out, but a Ninja figure used after it (CTG-V2) takes
    the last card of an opponent's set: when the turn ends only eight remain."""
    s = arrange(
        new(2, ninja_power=True),
        hands={0: [FARMER, FARMER]},
        sets={0: {EMPEROR: 2, EMPRESS: 2, DAIMYO: 2, SHOGUN: 2}, 1: {SAMURAI: 1, NINJA: 2, ENVOY: 2, MONK: 2}},
        decks=([EMPEROR] * 9, [EMPEROR] * 9),
        discards=([EMPRESS], [DAIMYO]),
    )
    s.players[0].ninjas = 1
    s = to_act_phase(s)
    s, events = act(s, "p0", {"type": "lay_out", "character": FARMER, "count": 2})
    assert "round_ended" not in types(events) and ENGINE.pending(s)[0].kind == "after_action"
    s, _ = act(s, "p0", {"type": "use_ninja", "target": "p1", "character": SAMURAI})
    s, events = act(s, "p1", {"type": "give_up_card", "pile": 1})
    # No figure left, so the turn ends here: eight characters remain and the round goes on.
    assert SAMURAI not in s.players[1].sets and "turn_started" in types(events)
    assert "round_ended" not in types(events) and s.round == 1 and ENGINE.pending(s)[0].seat == "p1"


def test_ctg_r12_the_round_ends_after_the_after_action_phase() -> None:
    s = arrange(new(2, ninja_power=True), hands={0: [MONK]}, sets={1: {NINJA: 2}},
                decks=([FARMER] * 9, [FARMER]), discards=([ENVOY], [ENVOY]))
    s.players[0].ninjas = 1
    s, _ = act(to_act_phase(s), "p0", {"type": "discard", "character": MONK, "pile": 1})
    assert s.round == 1 and ENGINE.pending(s)[0].kind == "after_action"
    s, events = act(s, "p0", {"type": "end_turn"})
    assert next(e for e in events if e.type == "round_ended").reason == "deck_empty" and s.round == 2


def test_ctg_r12c_both_draw_piles_emptied_in_one_turn_end_the_round() -> None:
    s = arrange(new(2), hands={0: [MONK]}, decks=([FARMER], [EMPEROR]))
    s, events = act(to_act_phase(s), "p0", {"type": "discard", "character": MONK})
    assert next(e for e in events if e.type == "round_ended").reason == "deck_empty" and s.round == 2
    assert all_cards(s) == FULL


def test_ctg_v2_a_set_cut_down_by_a_ninja_is_beaten_by_strictly_more_cards() -> None:
    s = arrange(new(2, ninja_power=True), hands={1: [FARMER, FARMER]}, sets={0: {FARMER: 1}},
                decks=([EMPEROR] * 5, [EMPEROR] * 5), discards=([MONK], [MONK]))
    s.current = 1
    s, _ = act(to_act_phase(s, "p1"), "p1", {"type": "lay_out", "character": FARMER, "count": 2})
    assert s.players[1].sets == {FARMER: 2} and FARMER not in s.players[0].sets
    assert [(p.seat, p.kind) for p in ENGINE.pending(s)] == [("p0", "beaten_set")]


# ---------------------------------------------------------------- CTG-R13 / CTG-V1 together, exact figures


def test_ctg_r13_each_player_scores_only_their_own_sets_and_totals_add_up() -> None:
    s = arrange(new(3), hands={0: [MONK]}, sets={0: {FARMER: 2}, 1: {EMPEROR: 2, EMPRESS: 2}, 2: {}},
                decks=([FARMER] * 5, [EMPEROR]))
    s, events = act(to_act_phase(s), "p0", {"type": "discard", "character": MONK})
    ended = next(e for e in events if e.type == "round_ended")
    assert ended.set_points == {"p0": 20, "p1": 13, "p2": 0}
    assert [sum(p.round_scores) for p in s.players] == [20, 13, 0]
    assert s.players[s.current].seat == "p2"  # CTG-R14: the lowest total starts round 2


# ---------------------------------------------------------------- replay and JSON round-trip, by variant


@pytest.mark.parametrize("options", [
    {}, {"imperial_tasks": True}, {"ninja_power": True}, {"quick": True, "first_player": "random"},
])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_same_seed_and_moves_give_the_same_game_and_json_round_trips(options: dict, n: int) -> None:
    opts = SPEC.parse_options(options)
    seats = [f"s{i}" for i in range(n)]
    state = ENGINE.new_game(seats, opts, 77)
    log: list[tuple[str, str]] = []
    for step in range(400):
        prompts = ENGINE.pending(state)
        if not prompts:
            break
        seat = prompts[0].seat
        legal = ENGINE.legal_actions(state, seat)
        action = legal[(step * 7) % len(legal)]
        state, _ = ENGINE.apply(state, seat, action)
        log.append((seat, action.model_dump_json()))
        assert all_cards(state) == FULL
        assert SPEC.state_model.model_validate_json(state.model_dump_json()) == state
    assert replay(SPEC, seats, opts, 77, log) == state

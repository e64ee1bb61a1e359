"""One test (or a few) per rule of the Call to Glory digest, named by rule id, plus the book's examples."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from rules.core import RuleError
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


def all_cards(state) -> list[int]:
    cards = [c for pile in state.piles for c in pile]
    for p in state.players:
        cards += p.hand
        for v, n in p.sets.items():
            cards += [v] * n
    for frame in state.stack:
        if frame.kind == "beaten_set":
            cards += [frame.params["character"]] * frame.params["count"]
    return sorted(cards)


FULL = sorted(v for v in (6, 7, 8, 9, 12, 14, 16, 18, 20) for _ in range(v))


# ---------------------------------------------------------------- CTG-R1


@pytest.mark.parametrize("n", [1, 5])
def test_ctg_r1_seat_count_is_two_to_four(n: int) -> None:
    with pytest.raises(RuleError) as err:
        ENGINE.new_game([f"p{i}" for i in range(n)], SPEC.options_model(), 1)
    assert err.value.code == "seat_count"
    assert err.value.params == {"count": n, "min": 2, "max": 4}


def test_ctg_r1_duplicate_seats_refused() -> None:
    with pytest.raises(RuleError) as err:
        ENGINE.new_game(["a", "a"], SPEC.options_model(), 1)
    assert err.value.code == "duplicate_seat"


@pytest.mark.parametrize("bad", ["", 3, None])
def test_ctg_r1_a_seat_that_is_not_a_player_id_is_refused_as_such(bad: object) -> None:
    with pytest.raises(RuleError) as err:
        ENGINE.new_game(["a", bad], SPEC.options_model(), 1)  # type: ignore[list-item]
    assert err.value.code == "bad_seat" and err.value.params == {"seat": repr(bad)}


def test_ctg_r1_four_rounds_standard_three_with_tasks_one_quick() -> None:
    assert new().rounds_total == 4
    assert new(imperial_tasks=True).rounds_total == 3
    assert new(quick=True).rounds_total == 1


# ---------------------------------------------------------------- CTG-R2


@pytest.mark.parametrize("n", [2, 3, 4])
def test_ctg_r2_setup_deals_three_and_splits_two_decks(n: int) -> None:
    s = new(n)
    assert all(len(p.hand) == 3 for p in s.players)
    rest = 110 - 3 * n
    assert sorted([len(s.piles[0]), len(s.piles[1])]) == [rest // 2, rest - rest // 2]
    assert s.piles[2] == [] and s.piles[3] == []
    assert all_cards(s) == FULL


def test_ctg_r2_next_round_starts_clean_with_all_cards() -> None:
    s = new(2)
    arrange(s, sets={0: {FARMER: 2}}, decks=([MONK, MONK], [EMPEROR]))
    s = to_act_phase(s)  # deck2 is now empty: CTG-R12(c) ends the round at the end of this turn
    s, events = act(s, "p0", {"type": "discard", "character": MONK})
    assert "round_ended" in types(events) and s.round == 2
    assert all(p.sets == {} for p in s.players)
    assert all(len(p.hand) == 3 for p in s.players)
    assert all_cards(s) == FULL


# ---------------------------------------------------------------- CTG-R3


def test_ctg_r3_first_seat_starts_by_default() -> None:
    s = new(3)
    assert s.current == 0 and ENGINE.pending(s)[0].seat == "p0"


def test_ctg_r3_random_first_player_is_seeded() -> None:
    firsts = {new(4, seed=seed, first_player="random").current for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert new(4, seed=7, first_player="random").current == new(4, seed=7, first_player="random").current


def test_ctg_r3_play_goes_clockwise() -> None:
    s = to_act_phase(new(3))
    s, events = act(s, "p0", {"type": "discard", "character": s.players[0].hand[0]})
    assert ENGINE.pending(s)[0].seat == "p1"
    assert events[-1].type == "turn_started" and events[-1].seat == "p1"


# ---------------------------------------------------------------- CTG-R4 / CTG-R5


def test_ctg_r4_turn_is_draw_two_then_one_action() -> None:
    s = new()
    assert ENGINE.pending(s)[0].kind == "draw"
    with pytest.raises(RuleError) as err:
        act(s, "p0", {"type": "discard", "character": s.players[0].hand[0]})
    assert err.value.code == "ctg.wrong_phase"
    s = to_act_phase(s)
    assert ENGINE.pending(s)[0].kind == "lay_or_discard"
    assert len(s.players[0].hand) == 5


def test_ctg_r5_never_two_cards_from_the_same_pile() -> None:
    s = new()
    s, _ = act(s, "p0", {"type": "draw", "pile": "deck1"})
    with pytest.raises(RuleError) as err:
        act(s, "p0", {"type": "draw", "pile": "deck1"})
    assert err.value.code == "ctg.same_pile"


def test_ctg_r5_discard_piles_can_be_drawn_from_and_show_the_card() -> None:
    s = arrange(new(), discards=([EMPRESS, SHOGUN], [MONK]))
    s, events = act(s, "p0", {"type": "draw", "pile": "discard1"})
    assert SHOGUN in s.players[0].hand and s.piles[2] == [EMPRESS]
    assert events[0].card == SHOGUN and events[0].audience is None


def test_ctg_r5_face_down_draw_is_private() -> None:
    s = arrange(new(), decks=([DAIMYO], [FARMER, FARMER]))
    s, events = act(s, "p0", {"type": "draw", "pile": "deck1"})
    public = [e for e in events if e.audience is None]
    private = [e for e in events if e.audience == "p0"]
    assert public[0].card is None and private[0].card == DAIMYO


def test_ctg_r5_empty_pile_cannot_be_drawn() -> None:
    s = new()
    with pytest.raises(RuleError) as err:
        act(s, "p0", {"type": "draw", "pile": "discard2"})
    assert err.value.code == "ctg.pile_empty"


def test_ctg_r5_draw_what_the_piles_allow() -> None:
    s = arrange(new(), decks=([FARMER], []))
    s, _ = act(s, "p0", {"type": "draw", "pile": "deck1"})
    assert ENGINE.pending(s)[0].kind == "lay_or_discard"


# ---------------------------------------------------------------- CTG-R6 / CTG-R7


def test_ctg_r6_lay_at_least_two_of_one_character() -> None:
    s = to_act_phase(arrange(new(), hands={0: [MONK, MONK, FARMER]}, decks=([EMPEROR] * 3, [EMPEROR] * 3)))
    with pytest.raises(RuleError) as err:
        act(s, "p0", {"type": "lay_out", "character": FARMER, "count": 1})
    assert err.value.code == "ctg.set_too_small" and err.value.params["minimum"] == 2
    s2, events = act(s, "p0", {"type": "lay_out", "character": MONK, "count": 2})
    assert s2.players[0].sets == {MONK: 2} and "set_laid" in types(events)


def test_ctg_r6_only_one_character_per_turn() -> None:
    s = to_act_phase(
        arrange(new(), hands={0: [MONK, MONK, FARMER, FARMER]}, decks=([EMPEROR] * 3, [EMPEROR] * 3))
    )
    s, _ = act(s, "p0", {"type": "lay_out", "character": MONK, "count": 2})
    with pytest.raises(RuleError) as err:
        act(s, "p0", {"type": "lay_out", "character": FARMER, "count": 2})
    assert err.value.code == "not_your_turn"


def test_ctg_r6_cannot_lay_cards_not_in_hand() -> None:
    s = to_act_phase(arrange(new(), hands={0: [MONK, MONK]}, decks=([FARMER] * 3, [FARMER] * 3)))
    with pytest.raises(RuleError) as err:
        act(s, "p0", {"type": "lay_out", "character": MONK, "count": 3})
    assert err.value.code == "ctg.not_in_hand" and err.value.params == {
        "character": MONK, "have": 2, "need": 3,
    }


@pytest.mark.parametrize("character", [SAMURAI, NINJA, ENVOY])
def test_ctg_r7_three_dot_characters_need_three_cards_with_three_players(character: int) -> None:
    s = to_act_phase(
        arrange(new(3), hands={0: [character] * 3}, decks=([EMPEROR] * 3, [EMPEROR] * 3))
    )
    with pytest.raises(RuleError) as err:
        act(s, "p0", {"type": "lay_out", "character": character, "count": 2})
    assert err.value.code == "ctg.set_too_small" and err.value.params["minimum"] == 3
    s, _ = act(s, "p0", {"type": "lay_out", "character": character, "count": 3})
    assert s.players[0].sets == {character: 3}


def test_ctg_r7_two_players_may_lay_two_samurai() -> None:
    s = to_act_phase(arrange(new(2), hands={0: [SAMURAI] * 2}, decks=([EMPEROR] * 3, [EMPEROR] * 3)))
    s, _ = act(s, "p0", {"type": "lay_out", "character": SAMURAI, "count": 2})
    assert s.players[0].sets == {SAMURAI: 2}


# ---------------------------------------------------------------- CTG-R8 (the Farmer 4 -> 6 example)


def test_ctg_r8_farmer_four_beaten_by_six_previous_owner_picks_the_pile() -> None:
    s = arrange(
        new(2),
        hands={1: [FARMER] * 6},
        sets={0: {FARMER: 4}},
        decks=([EMPEROR] * 5, [EMPEROR] * 5),
        discards=([MONK], [MONK]),
    )
    s.current = 1
    s = to_act_phase(s, "p1")
    s, events = act(s, "p1", {"type": "lay_out", "character": FARMER, "count": 6})
    assert s.players[1].sets == {FARMER: 6} and FARMER not in s.players[0].sets
    laid = next(e for e in events if e.type == "set_laid")
    assert laid.beaten_seat == "p0" and laid.beaten_count == 4
    # The beaten player, who is not on turn, owes the choice of pile.
    prompt = ENGINE.pending(s)
    assert [(p.seat, p.kind) for p in prompt] == [("p0", "beaten_set")]
    assert ENGINE.legal_actions(s, "p1") == []
    with pytest.raises(RuleError) as err:
        act(s, "p1", {"type": "end_turn"})
    assert err.value.code == "waiting_for"
    s, events = act(s, "p0", {"type": "place_beaten_set", "pile": 2})
    assert s.piles[3] == [MONK] + [FARMER] * 4
    assert all_cards(s) == sorted(all_cards(s))  # still consistent
    assert ENGINE.pending(s)[0].seat == "p0" and ENGINE.pending(s)[0].kind == "draw"


def test_ctg_r8_equal_count_does_not_beat() -> None:
    s = arrange(new(2), hands={0: [FARMER] * 4}, sets={1: {FARMER: 4}}, decks=([EMPEROR] * 3, [EMPEROR] * 3))
    s = to_act_phase(s)
    with pytest.raises(RuleError) as err:
        act(s, "p0", {"type": "lay_out", "character": FARMER, "count": 4})
    assert err.value.code == "ctg.must_beat" and err.value.params == {
        "character": FARMER, "count": 4, "owner": "p1",
    }


def test_ctg_r8_beaten_set_goes_to_the_empty_pile_without_asking() -> None:
    s = arrange(new(2), hands={0: [MONK] * 3}, sets={1: {MONK: 2}}, decks=([EMPEROR] * 3, [EMPEROR] * 3))
    s = to_act_phase(s)
    s, events = act(s, "p0", {"type": "lay_out", "character": MONK, "count": 3})
    assert s.piles[2] == [MONK, MONK] and not s.stack
    assert next(e for e in events if e.type == "set_discarded").seat == "p1"


# ---------------------------------------------------------------- CTG-R9 (the Ninja 3 -> 5 example)


def test_ctg_r9_ninja_three_replaced_by_five() -> None:
    s = arrange(
        new(2),
        hands={0: [NINJA] * 5},
        sets={0: {NINJA: 3}},
        decks=([EMPEROR] * 3, [EMPEROR] * 3),
        discards=([MONK], [MONK]),
    )
    s = to_act_phase(s)
    with pytest.raises(RuleError) as err:
        act(s, "p0", {"type": "lay_out", "character": NINJA, "count": 5})
    assert err.value.code == "ctg.pile_required"
    s, events = act(s, "p0", {"type": "lay_out", "character": NINJA, "count": 5, "pile": 1})
    assert s.players[0].sets == {NINJA: 5}
    assert s.piles[2] == [MONK] + [NINJA] * 3
    laid = next(e for e in events if e.type == "set_laid")
    assert laid.replaced == 3 and laid.beaten_seat is None


def test_ctg_r9_cannot_add_to_own_set() -> None:
    s = arrange(new(2), hands={0: [NINJA] * 2}, sets={0: {NINJA: 3}}, decks=([EMPEROR] * 3, [EMPEROR] * 3))
    s = to_act_phase(s)
    with pytest.raises(RuleError) as err:
        act(s, "p0", {"type": "lay_out", "character": NINJA, "count": 2})
    assert err.value.code == "ctg.must_beat"


# ---------------------------------------------------------------- CTG-R10 / CTG-R11


def test_ctg_r10_discard_exactly_one_card() -> None:
    s = to_act_phase(arrange(new(2), hands={0: [MONK, FARMER, FARMER]}, decks=([EMPEROR] * 3, [EMPEROR] * 3)))
    before = len(s.players[0].hand)
    s, events = act(s, "p0", {"type": "discard", "character": FARMER})
    assert len(s.players[0].hand) == before - 1 and s.piles[2] == [FARMER]
    assert types(events)[0] == "card_discarded"


def test_ctg_r10_cannot_discard_a_card_not_held() -> None:
    s = to_act_phase(arrange(new(2), hands={0: [MONK]}, decks=([FARMER] * 3, [FARMER] * 3)))
    with pytest.raises(RuleError) as err:
        act(s, "p0", {"type": "discard", "character": EMPRESS})
    assert err.value.code == "ctg.not_in_hand"


def test_ctg_r11_first_discard_starts_pile_one_second_starts_pile_two() -> None:
    s = to_act_phase(arrange(new(2), hands={0: [MONK]}, decks=([FARMER] * 9, [FARMER] * 9)))
    with pytest.raises(RuleError) as err:
        act(s, "p0", {"type": "discard", "character": MONK, "pile": 2})
    assert err.value.code == "ctg.pile_must" and err.value.params == {"pile": 1}
    s, _ = act(s, "p0", {"type": "discard", "character": MONK})
    assert s.piles[2] == [MONK]
    s = to_act_phase(s, "p1")
    with pytest.raises(RuleError):
        act(s, "p1", {"type": "discard", "character": FARMER, "pile": 1})
    s, _ = act(s, "p1", {"type": "discard", "character": FARMER, "pile": 2})
    assert s.piles[3] == [FARMER]
    s = to_act_phase(s, "p0")
    with pytest.raises(RuleError) as err:
        act(s, "p0", {"type": "discard", "character": FARMER})
    assert err.value.code == "ctg.pile_required"
    legal = {(a.type, a.pile) for a in ENGINE.legal_actions(s, "p0") if a.type == "discard"}
    assert legal == {("discard", 1), ("discard", 2)}


def test_ctg_r11_emptied_pile_must_be_restarted_first() -> None:
    s = arrange(new(2), hands={0: [MONK]}, discards=([SHOGUN], [EMPRESS]), decks=([FARMER] * 9, [FARMER] * 9))
    s, _ = act(s, "p0", {"type": "draw", "pile": "discard2"})
    s, _ = act(s, "p0", {"type": "draw", "pile": "deck1"})
    with pytest.raises(RuleError) as err:
        act(s, "p0", {"type": "discard", "character": MONK, "pile": 1})
    assert err.value.code == "ctg.pile_must" and err.value.params == {"pile": 2}
    s, _ = act(s, "p0", {"type": "discard", "character": MONK, "pile": 2})
    assert s.piles[3] == [MONK]


# ---------------------------------------------------------------- CTG-R12


def _finish_turn_with_sets(n: int, sets: dict[int, int], extra: dict[int, dict[int, int]] | None = None):
    s = arrange(new(n), hands={0: [MONK]}, sets={0: sets, **(extra or {})}, decks=([FARMER] * 9, [FARMER] * 9))
    s = to_act_phase(s)
    return act(s, "p0", {"type": "discard", "character": MONK})


@pytest.mark.parametrize("n,need", [(2, 6), (3, 5), (4, 4)])
def test_ctg_r12a_round_ends_on_enough_different_characters(n: int, need: int) -> None:
    chars = [EMPEROR, EMPRESS, DAIMYO, SHOGUN, SAMURAI, NINJA][:need]
    _, events = _finish_turn_with_sets(n, {c: 3 for c in chars})
    ended = next(e for e in events if e.type == "round_ended")
    assert ended.reason == "characters_per_player"
    assert (ended.seat, ended.characters) == ("p0", need)  # the table names who ended it
    _, events = _finish_turn_with_sets(n, {c: 3 for c in chars[:-1]})
    assert "round_ended" not in types(events)


def test_ctg_r12b_round_ends_when_all_nine_are_on_the_table() -> None:
    _, events = _finish_turn_with_sets(
        4,
        {EMPEROR: 2, EMPRESS: 2, DAIMYO: 2},
        {1: {SHOGUN: 2, SAMURAI: 3, NINJA: 3}, 2: {ENVOY: 3, MONK: 2}, 3: {FARMER: 2}},
    )
    assert next(e for e in events if e.type == "round_ended").reason == "all_characters"


def test_ctg_r12c_round_ends_when_one_draw_pile_is_left() -> None:
    s = arrange(new(2), hands={0: [MONK]}, decks=([FARMER] * 5, [EMPEROR]))
    s, _ = act(s, "p0", {"type": "draw", "pile": "deck2"})
    assert s.round == 1  # not mid-turn: only at the end of the turn
    s, _ = act(s, "p0", {"type": "draw", "pile": "deck1"})
    s, events = act(s, "p0", {"type": "discard", "character": MONK})
    assert next(e for e in events if e.type == "round_ended").reason == "deck_empty"


def test_ctg_r12c_empty_discard_piles_do_not_end_the_round() -> None:
    s = arrange(new(2), hands={0: [MONK]}, decks=([FARMER] * 5, [EMPEROR] * 5), discards=([SHOGUN], []))
    s, _ = act(s, "p0", {"type": "draw", "pile": "discard1"})
    s, _ = act(s, "p0", {"type": "draw", "pile": "deck1"})
    s, events = act(s, "p0", {"type": "discard", "character": MONK})
    assert "round_ended" not in types(events)


# ---------------------------------------------------------------- CTG-R13 (the 60 vs 36 example)


def test_ctg_r13_worked_example_sixty_against_thirty_six() -> None:
    s, events = _finish_turn_with_sets(
        2,
        {MONK: 2, SAMURAI: 2, SHOGUN: 4, DAIMYO: 2, EMPRESS: 3, EMPEROR: 2},
        {1: {FARMER: 7, ENVOY: 2}},
    )
    ended = next(e for e in events if e.type == "round_ended")
    assert ended.set_points == {"p0": 60, "p1": 36}
    assert [p.round_scores for p in s.players] == [[60], [36]]


def test_ctg_r13_cards_in_hand_score_nothing_and_count_does_not_matter() -> None:
    s, events = _finish_turn_with_sets(
        2, {FARMER: 9, EMPEROR: 2, EMPRESS: 2, DAIMYO: 2, SHOGUN: 2, MONK: 2}, {1: {ENVOY: 2}}
    )
    ended = next(e for e in events if e.type == "round_ended")
    assert ended.set_points == {"p0": 20 + 6 + 7 + 8 + 9 + 18, "p1": 16}


# ---------------------------------------------------------------- CTG-R14


def _end_round_now(s):
    """End the current round at once: the player on turn discards with a near-empty second deck."""
    seat = s.players[s.current].seat
    arrange(s, decks=([FARMER] * 5, [EMPEROR]))
    s.players[s.current].hand = [MONK]
    s, _ = act(s, seat, {"type": "draw", "pile": "deck1"})
    s, _ = act(s, seat, {"type": "draw", "pile": "deck2"})
    return act(s, seat, {"type": "discard", "character": MONK})


def test_ctg_r14_lowest_total_starts_next_round() -> None:
    s = arrange(new(3), sets={0: {FARMER: 2}, 1: {EMPEROR: 2}, 2: {MONK: 2}})
    s, _ = _end_round_now(s)
    assert s.round == 2 and s.players[s.current].seat == "p1"


def test_ctg_r14_tie_on_total_goes_to_lowest_last_round() -> None:
    s = arrange(new(3), sets={0: {FARMER: 2}, 1: {EMPEROR: 2}, 2: {MONK: 2}})
    for p, prior in zip(s.players, ([0], [14], [2])):
        p.round_scores = prior  # totals after this round: 20, 20, 20; last round 20, 6, 18
    s, _ = _end_round_now(s)
    assert s.players[s.current].seat == "p1"


def test_ctg_r14_full_tie_goes_to_the_seat_after_the_previous_first() -> None:
    s = new(4)
    s.first = s.current = 2
    s, _ = _end_round_now(s)  # nobody has sets: every total and round score is 0
    assert s.players[s.current].seat == "p3"


# ---------------------------------------------------------------- CTG-R15


def _final(scores: list[list[int]]):
    s = new(len(scores), quick=True)
    for p, rounds in zip(s.players, scores):
        p.round_scores = rounds
    s, events = _end_round_now(s)
    return ENGINE.result(s), events


def test_ctg_r15_highest_total_wins() -> None:
    result, events = _final([[30], [50]])
    assert result.winners == ["p1"] and result.ranking == [["p1"], ["p0"]]
    assert events[-1].type == "game_ended"


def test_ctg_r15_tie_broken_by_best_single_round() -> None:
    s = new(2)
    s.round = s.rounds_total = 4
    s.players[0].round_scores = [20, 20, 20]
    s.players[1].round_scores = [50, 5, 5]
    s, _ = _end_round_now(s)
    result = ENGINE.result(s)
    assert result.scores == {"p0": 60, "p1": 60} and result.winners == ["p1"]


def test_ctg_r15_full_tie_is_a_shared_win() -> None:
    result, _ = _final([[40], [40], [10]])
    assert result.ranking == [["p0", "p1"], ["p2"]] and result.winners == ["p0", "p1"]


def test_finished_game_refuses_actions() -> None:
    s, _ = _end_round_now(new(2, quick=True))
    assert ENGINE.pending(s) == [] and ENGINE.legal_actions(s, "p0") == []
    with pytest.raises(RuleError) as err:
        act(s, "p0", {"type": "draw", "pile": "deck1"})
    assert err.value.code == "game_over"


# ---------------------------------------------------------------- options


def test_quick_game_is_one_round() -> None:
    s, events = _end_round_now(new(2, quick=True))
    assert s.phase == "over" and "game_ended" in types(events)


def test_options_quick_with_tasks_refused_with_a_code() -> None:
    with pytest.raises(ValidationError) as err:
        SPEC.parse_options({"quick": True, "imperial_tasks": True})
    assert err.value.errors()[0]["type"] == "ctg_quick_with_tasks"


@pytest.mark.parametrize(
    "raw", [{"first_player": "youngest"}, {"ninja_power": "maybe"}, {"rounds": 9}]
)
def test_options_out_of_range_refused(raw: dict) -> None:
    with pytest.raises(ValidationError):
        SPEC.parse_options(raw)


def test_options_combine_tasks_and_ninja() -> None:
    s = new(3, imperial_tasks=True, ninja_power=True)
    assert s.rounds_total == 3 and s.ninja_supply == 4


def test_options_given_as_a_dict_are_validated_not_ignored() -> None:
    s = ENGINE.new_game(["a", "b"], {"quick": True}, 1)
    assert s.rounds_total == 1
    with pytest.raises(ValidationError):
        ENGINE.new_game(["a", "b"], {"quick": True, "imperial_tasks": True}, 1)

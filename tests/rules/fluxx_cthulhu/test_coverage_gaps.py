"""Rules, rulings and card effects that test_rules.py and test_cards.py left untested or only touched
in passing (found by the coverage audit in notes/coverage_fluxx_ctg.md). Named by digest id; FAQ rulings
of the rulebook as ``faq``."""

from __future__ import annotations

import pytest

from rules.core import RuleError
from rules.fluxx_cthulhu.cards import catalog
from tests.rules.fluxx_cthulhu.helpers import ENGINE, SPEC, act, all_cards, arrange, full, new, pass_all, play, types

CAT = catalog()


def rejected(state, seat, action, code):
    before = state.model_dump_json()
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, seat, action)
    assert err.value.code == code, err.value
    assert state.model_dump_json() == before
    return err.value


def choose(s, seat, option):
    return act(s, seat, {"type": "choose", "option": option})


# ---------------------------------------------------------------- FLX-R3 / FLX-R12 creepers while dealing
def test_flx_r3_dealt_creepers_go_out_and_are_replaced_until_three_non_creepers() -> None:
    """Dealing uses the same draw as setup: two creepers in a row are both placed and replaced."""
    s = arrange(new(3), hands={0: ["cat"]}, deck=["cthulhu", "shoggoth", "tomb", "nightmares", "farm", "poet"])
    s, ev = act(s, "late", {"type": "join"})
    late = s.players[s.seat_index("late")]
    assert late.creepers == ["cthulhu", "shoggoth", "nightmares"]
    assert sorted(late.hand) == ["farm", "poet", "tomb"]
    placed = [e.card for e in ev if e.type == "creeper_placed"]
    assert placed == ["cthulhu", "shoggoth", "nightmares"]
    assert all_cards(s) == full(s)


@pytest.mark.parametrize("n", [2, 4, 6])
def test_flx_r3_setup_never_leaves_a_creeper_in_a_hand(n: int) -> None:
    found = False
    for seed in range(300):
        s = new(n, seed=seed)
        for i, p in enumerate(s.players):
            assert not any(CAT[c].type == "creeper" for c in p.hand)
            assert len(p.hand) == (4 if i == s.current else 3)
            found = found or (i != s.current and bool(p.creepers))
        if found:
            break
    assert found, "no seed dealt a creeper to a player who is not first"


def test_flx_r12_a_creeper_drawn_by_an_action_into_the_hand_is_replaced() -> None:
    s = arrange(new(3), hands={0: ["revelations_of_azathoth", "cat"]}, rules=["play_2"],
                deck=["tomb", "yog_sothoth", "farm"])
    s, ev = play(s, "p0", "revelations_of_azathoth")
    assert s.players[0].creepers == ["yog_sothoth"]
    assert sorted(s.players[0].hand) == ["cat", "farm", "tomb"] and s.played == 1


# ---------------------------------------------------------------- FLX-R7 rule changed by a card an action drew
def test_flx_r7_a_draw_rule_played_from_an_actions_cards_draws_the_difference_at_once() -> None:
    s = arrange(new(3), hands={0: ["forbidden_rites"]}, deck=["draw_3", "cat", "tomb", "farm"])
    """The difference is drawn as soon as the action that drew the rule is finished (its second card
    played), before the player may do anything else."""
    s, _ = play(s, "p0", "forbidden_rites")
    s, _ = play(s, "p0", "draw_3")
    s, ev = play(s, "p0", "cat")
    drawn = [(e.seat, e.count) for e in ev if e.type == "cards_drawn" and e.audience is None]
    assert drawn == [("p0", 2), ("p1", 3)]  # p0's difference first; then Forbidden Rites was p0's one play
    assert sorted(s.players[0].hand) == ["farm", "tomb"] and s.current == 1


def test_flx_r7_lowering_the_play_count_below_what_was_played_ends_the_turn() -> None:
    s = arrange(new(3), hands={0: ["cat", "tomb", "play_2", "farm"]}, rules=["play_3"])
    s, _ = play(s, "p0", "cat")
    s, _ = play(s, "p0", "tomb")
    assert s.current == 0
    s, _ = play(s, "p0", "play_2")  # third play under Play 3 is Play 2: already three, nothing owed
    assert s.current == 1 and s.players[0].hand == ["farm"]


# ---------------------------------------------------------------- FLX-R13 attachments
def test_flx_r13_attachment_is_discarded_with_its_keeper() -> None:
    s = arrange(new(3), hands={0: ["ritual_sacrifice"]}, keepers={1: ["professor", "cat"]}, creepers={1: ["insanity"]})
    s.attached = {"insanity": "professor"}
    s, _ = play(s, "p0", "ritual_sacrifice")
    s, _ = choose(s, "p0", "professor")
    assert s.players[1].keepers == ["cat"] and s.players[1].creepers == []
    assert {"professor", "insanity"} <= set(s.discard) and s.attached == {}


def test_flx_r13_waiting_creeper_attaches_to_a_keeper_gained_by_an_action() -> None:
    s = arrange(new(3), hands={0: ["cult_theft"]}, keepers={1: ["poet"]}, creepers={0: ["insanity"]})
    s, ev = play(s, "p0", "cult_theft")
    s, ev = choose(s, "p0", "poet")
    assert s.attached == {"insanity": "poet"} and "creeper_attached" in types(ev)


def test_flx_r13_a_creeper_revealed_from_under_the_elder_sign_attaches_again() -> None:
    s = arrange(new(3), hands={0: ["cat", "tomb"]}, keepers={0: ["elder_sign", "poet"]}, creepers={0: ["nightmares"]},
                rules=["play_2"])
    s.attached = {"nightmares": "poet"}
    s, _ = act(s, "p0", {"type": "use_power", "card": "elder_sign", "target": "nightmares"})
    assert s.hidden == "nightmares" and s.attached == {}
    s, _ = act(s, "p0", {"type": "use_power", "card": "elder_sign", "target": "nightmares"})
    assert s.hidden is None and s.attached == {"nightmares": "elder_sign"}


# ---------------------------------------------------------------- FLX-R14 ungoal conditions
@pytest.mark.parametrize("ungoal,creepers,ends", [
    ("dunwich_horror", {1: ["yog_sothoth", "cthulhu"]}, False),  # table Doom 5 < 6
    ("dunwich_horror", {1: ["yog_sothoth", "cthulhu"], 2: ["deep_ones"]}, True),  # 6
    ("dunwich_horror", {1: ["cthulhu", "shoggoth", "deep_ones"]}, False),  # Doom 6, no Yog-Sothoth
    ("cthulhu_ungoal", {1: ["cthulhu", "shoggoth"]}, False),  # 5
    ("cthulhu_ungoal", {1: ["cthulhu"], 2: ["shoggoth", "deep_ones"]}, True),  # 6, Cthulhu out
    ("shadow_out_of_time", {1: ["cthulhu", "shoggoth"], 2: ["yog_sothoth"]}, False),  # 7 < 8
    ("shadow_out_of_time", {1: ["cthulhu", "shoggoth"], 2: ["yog_sothoth", "deep_ones"]}, True),
    ("madness_takes_hold", {1: ["nightmares"], 2: ["insanity"]}, False),  # split between two players
    ("madness_takes_hold", {2: ["nightmares", "insanity"]}, True),
])
def test_flx_r14_ungoal_thresholds(ungoal: str, creepers: dict, ends: bool) -> None:
    s = arrange(new(3), hands={0: [ungoal]}, creepers=creepers)
    s, _ = play(s, "p0", ungoal)
    assert (s.phase == "over") is ends
    if ends:
        assert s.winner is None and ENGINE.result(s).winners == []


def test_flx_r14_blessings_lower_the_table_doom_an_ungoal_counts() -> None:
    s = arrange(new(3), hands={0: ["dunwich_horror"]}, creepers={1: ["yog_sothoth", "cthulhu"], 2: ["deep_ones"]},
                keepers={1: ["cat"]})
    s, _ = play(s, "p0", "dunwich_horror")
    assert s.phase != "over"  # 2 + 3 + 1 - 1 = 5


def test_flx_r14_an_ungoal_already_in_play_ends_the_game_the_moment_it_is_met() -> None:
    """Checked at every moment: a creeper drawn later completes the ungoal."""
    s = arrange(new(3), hands={0: ["draw_2"]}, goals=["dunwich_horror"], creepers={1: ["yog_sothoth", "cthulhu"]},
                deck=["deep_ones", "cat"])
    s, _ = play(s, "p0", "draw_2")
    assert s.phase == "over" and s.end_reason == "ungoal" and s.players[0].creepers == ["deep_ones"]


# ---------------------------------------------------------------- FLX-R15 surprises
def test_flx_r15_cancel_chain_three_deep_the_last_cancel_decides() -> None:
    s = arrange(new(3), hands={0: ["time_slip", "twist_of_fate"], 1: ["disorder_of_the_stars"], 2: ["secret_cultist"]},
                quiet=False)
    s, _ = play(s, "p0", "time_slip")
    s, _ = act(s, "p1", {"type": "play", "card": "disorder_of_the_stars"})  # cancels Time Slip
    s, _ = act(s, "p2", {"type": "play", "card": "secret_cultist"})  # cancels Disorder
    assert s.stack[-1].seats == ["p0", "p1"]
    s, ev = act(s, "p0", {"type": "play", "card": "twist_of_fate"})  # cancels the Secret Cultist
    assert not s.stack or s.stack[-1].kind != "react"  # every surprise is spent: no window left
    cancelled = [e.card for e in ev if e.type == "cancelled"]
    assert cancelled == ["secret_cultist", "time_slip"]  # so Disorder stands and Time Slip is gone
    assert s.extra_turns == 0 and s.current == 1 and s.played == 0
    assert {"time_slip", "disorder_of_the_stars", "secret_cultist", "twist_of_fate"} <= set(s.discard)


def test_flx_r15_an_on_turn_surprise_can_be_cancelled_and_the_play_stays_used() -> None:
    s = arrange(new(3), hands={0: ["twist_of_fate", "cat"], 2: ["disorder_of_the_stars"]}, keepers={1: ["tomb"]},
                quiet=False)
    s, _ = play(s, "p0", "twist_of_fate")
    assert s.stack[-1].kind == "react" and s.stack[-1].params["trigger"] == "surprise"
    s, _ = act(s, "p2", {"type": "play", "card": "disorder_of_the_stars"})
    s = pass_all(s)
    assert s.players[1].keepers == ["tomb"] and s.current == 1  # the steal never happened, no replacement


def test_flx_r15_a_dreamt_surprise_uses_its_own_turn_effect_without_counting() -> None:
    s = arrange(new(3), hands={0: ["dreams_and_omens"]}, keepers={0: ["farm"]},
                deck=["cat", "twist_of_fate", "tomb", "poet"])
    s, _ = play(s, "p0", "dreams_and_omens")
    s, _ = act(s, "p0", {"type": "give", "card": "twist_of_fate", "to": "p1"})
    s, _ = act(s, "p0", {"type": "give", "card": "cat", "to": "p0"})
    s, _ = act(s, "p0", {"type": "give", "card": "tomb", "to": "p2"})
    s, _ = play(s, "p0", "cat")
    s = pass_all(s)
    assert s.current == 1
    assert ENGINE.legal_actions(s, "p1") == [SPEC.parse_action({"type": "play", "card": "twist_of_fate"})]
    s, _ = play(s, "p1", "twist_of_fate")
    assert s.stack[-1].kind == "choose" and s.stack[-1].params["effect"] == "steal_keeper"
    s, _ = choose(s, "p1", "farm")
    assert "farm" in s.players[1].keepers and s.played == 0


def test_flx_r15_off_turn_only_fitting_surprises_answer_a_window() -> None:
    s = arrange(new(3), hands={0: ["time_slip"], 1: ["cat", "twist_of_fate"], 2: ["disorder_of_the_stars"]},
                quiet=False)
    s, _ = play(s, "p0", "time_slip")
    rejected(s, "p1", {"type": "play", "card": "cat"}, "flx.surprise_does_not_apply")
    rejected(s, "p1", {"type": "play", "card": "twist_of_fate"}, "flx.surprise_does_not_apply")
    rejected(s, "p0", {"type": "pass"}, "waiting_for")  # the player of the card is not asked


def test_faq_disorder_stops_a_keeper_theft_and_the_keeper_stays() -> None:
    s = arrange(new(3), hands={0: ["cult_theft"], 2: ["disorder_of_the_stars"]}, keepers={1: ["cat"]}, quiet=False)
    s, _ = play(s, "p0", "cult_theft")
    s, _ = act(s, "p2", {"type": "play", "card": "disorder_of_the_stars"})
    s = pass_all(s)
    assert s.players[1].keepers == ["cat"] and s.players[0].keepers == [] and "cult_theft" in s.discard


def test_faq_twist_of_fate_takes_a_keeper_played_from_an_actions_cards() -> None:
    """A keeper played because an action drew it is still played (unlike one an action moves)."""
    s = arrange(new(3), hands={0: ["forbidden_rites"], 2: ["twist_of_fate"]}, deck=["tomb", "farm"], quiet=False)
    s, _ = play(s, "p0", "forbidden_rites")
    s = pass_all(s)
    s, _ = play(s, "p0", "tomb")
    assert s.stack[-1].kind == "react" and s.stack[-1].params["trigger"] == "keeper"
    s, _ = act(s, "p2", {"type": "play", "card": "twist_of_fate"})
    s = pass_all(s)
    assert "tomb" in s.players[2].keepers and "tomb" not in s.players[0].keepers


# ---------------------------------------------------------------- FLX-R16 precedence over the Meta Rule
def test_flx_r16_the_cultist_beats_cult_clash() -> None:
    s = arrange(new(3, meta_rule=True), hands={0: ["dunwich_horror"]}, keepers={1: ["cultist"]},
                creepers={2: ["yog_sothoth", "cthulhu", "shoggoth"]})
    s, _ = play(s, "p0", "dunwich_horror")
    assert s.winner == "p1" and s.end_reason == "cultist"


def test_flx_r16_the_secret_cultist_beats_cult_clash() -> None:
    s = arrange(new(3, meta_rule=True), hands={0: ["shadow_out_of_time"], 1: ["secret_cultist"]},
                creepers={2: ["yog_sothoth", "cthulhu", "shoggoth", "deep_ones"]}, quiet=False)
    s, _ = play(s, "p0", "shadow_out_of_time")
    s, _ = act(s, "p1", {"type": "play", "card": "secret_cultist"})
    s = pass_all(s)
    assert s.winner == "p1" and s.end_reason == "secret_cultist"


def test_flx_r16_cult_clash_full_tie_leaves_everyone_losing() -> None:
    s = arrange(new(3, meta_rule=True), hands={0: ["shadow_out_of_time"]},
                creepers={1: ["cthulhu", "deep_ones"], 2: ["shoggoth", "yog_sothoth"]})
    s, _ = play(s, "p0", "shadow_out_of_time")  # table Doom 8; p1 and p2 both 4, the ungoal names nobody
    assert s.phase == "over" and s.winner is None


# ---------------------------------------------------------------- FLX-R18 doom goals
def test_flx_r18_own_doom_goal_needs_the_threshold() -> None:
    s = arrange(new(3), hands={0: ["prophet_of_doom", "cat"]}, rules=["play_2"], creepers={1: ["cthulhu"]})
    s, _ = play(s, "p0", "prophet_of_doom")
    assert s.phase != "over"  # own Doom 3 < 4
    s = arrange(s, hands={0: ["prophet_of_doom"]}, creepers={1: ["cthulhu"]}, keepers={1: ["cultist"]})
    s, _ = play(s, "p0", "prophet_of_doom")
    assert s.winner == "p1"  # 3 + 1


def test_flx_r18_table_doom_goal_counts_everyone() -> None:
    s = arrange(new(3), hands={0: ["last_days"]}, keepers={1: ["elder_sign"]}, creepers={2: ["cthulhu", "deep_ones"]})
    s, _ = play(s, "p0", "last_days")
    assert s.phase != "over"  # 4 - 1 = 3 < 5
    s = arrange(s, hands={0: ["last_days"]}, keepers={1: ["elder_sign"], 0: ["necronomicon"]}, current=0,
                creepers={2: ["cthulhu", "deep_ones"]})
    s, _ = play(s, "p0", "last_days")
    assert s.winner == "p1"  # 2 + 4 - 1 = 5, and only p1 has the Elder Sign


# ---------------------------------------------------------------- FLX-R20 play on until exactly one
def test_flx_r20_after_a_tie_the_first_moment_one_player_alone_meets_the_goal_wins() -> None:
    s = arrange(new(3), hands={0: ["prophet_of_doom", "cat"]}, rules=["play_2"], keepers={0: ["necronomicon"]},
                creepers={1: ["cthulhu", "deep_ones"], 2: ["shoggoth", "yog_sothoth"]})
    s, _ = play(s, "p0", "prophet_of_doom")
    assert s.phase != "over"  # p1 and p2 both have Doom 4
    s, ev = act(s, "p0", {"type": "use_power", "card": "necronomicon", "target": "deep_ones", "to": "p0"})
    assert s.phase == "over" and s.winner == "p2" and ev[-1].type == "game_ended"  # off turn, at once


# ---------------------------------------------------------------- FLX-R23 joining
def test_flx_r23_a_newcomer_under_a_hand_limit_discards_at_once() -> None:
    s = arrange(new(3), hands={0: ["cat"]}, rules=["hand_limit_2"], deck=["tomb", "farm", "poet"])
    s, _ = act(s, "late", {"type": "join"})
    top = s.stack[-1]
    assert top.kind == "hand_limit" and top.seats == ["late"]
    s, _ = act(s, "late", {"type": "discard", "card": "poet"})
    assert sorted(s.players[s.seat_index("late")].hand) == ["farm", "tomb"] and not s.stack


def test_flx_r23_a_newcomer_is_not_asked_in_an_open_window_and_plays_after_everyone() -> None:
    s = arrange(new(3), hands={0: ["time_slip"], 1: ["disorder_of_the_stars"]}, quiet=False)
    s, _ = play(s, "p0", "time_slip")
    s, _ = act(s, "late", {"type": "join"})
    assert s.stack[-1].seats == ["p1", "p2"] and ENGINE.legal_actions(s, "late") == []
    rejected(s, "late", {"type": "pass"}, "waiting_for")
    order = [p.seat for p in s.players]
    assert order.index("late") + 1 == order.index("p0")  # right before the player on turn


# ---------------------------------------------------------------- FLX-R24 plays are compulsory
def test_flx_r24_you_must_play_even_a_card_that_makes_someone_else_win() -> None:
    s = arrange(new(3), hands={0: ["miskatonic_university"]}, keepers={1: ["librarian", "professor"]})
    assert ENGINE.legal_actions(s, "p0") == [SPEC.parse_action({"type": "play", "card": "miskatonic_university"})]
    rejected(s, "p0", {"type": "end_turn"}, "flx.must_play")
    rejected(s, "p0", {"type": "discard", "card": "miskatonic_university"}, "flx.nothing_to_answer")


# ---------------------------------------------------------------- FLX-R26 out of turn
def test_flx_r26_out_of_turn_no_keeper_power_and_no_play() -> None:
    s = arrange(new(3), hands={0: ["cat"], 1: ["tomb"]}, keepers={1: ["elder_sign"]}, creepers={1: ["cthulhu"]})
    rejected(s, "p1", {"type": "use_power", "card": "elder_sign", "target": "cthulhu"}, "not_your_turn")
    rejected(s, "p1", {"type": "play", "card": "tomb"}, "not_your_turn")
    assert ENGINE.legal_actions(s, "p1") == []


def test_flx_r26_keeper_limit_for_several_players_is_one_shared_decision() -> None:
    s = arrange(new(4), hands={0: ["keeper_limit_3"]},
                keepers={1: ["cat", "tomb", "farm", "poet"],
                         3: ["ghoul", "artist", "penguins", "dreamer", "dreamlands"]})
    s, _ = play(s, "p0", "keeper_limit_3")
    assert s.stack[-1].kind == "keeper_limit" and s.stack[-1].seats == ["p1", "p3"]
    s, _ = act(s, "p3", {"type": "discard", "card": "ghoul"})
    s, _ = act(s, "p1", {"type": "discard", "card": "cat"})
    assert s.stack[-1].seats == ["p3"]
    s, _ = act(s, "p3", {"type": "discard", "card": "artist"})
    assert not s.stack and [len(p.keepers) for p in s.players] == [0, 3, 0, 3]


# ---------------------------------------------------------------- card effects the audit found untested
def test_dream_cards_are_played_in_the_order_received() -> None:
    """Dreams and Omens (card data): several dream cards are played in the order they came."""
    s = arrange(new(3), hands={0: ["farm"]})
    s.deck.remove("tomb"), s.deck.remove("cat")
    s.players[1].dreams = ["tomb", "cat"]
    s, _ = play(s, "p0", "farm")
    assert s.current == 1 and s.stack[-1].kind == "play_dream" and s.drawn == 0
    assert ENGINE.legal_actions(s, "p1") == [SPEC.parse_action({"type": "play", "card": "tomb"})]
    rejected(s, "p1", {"type": "play", "card": "cat"}, "flx.dream_order")
    s, _ = play(s, "p1", "tomb")
    s, _ = play(s, "p1", "cat")
    assert s.players[1].keepers == ["tomb", "cat"] and s.played == 0 and s.drawn == 1


def test_the_dreamer_and_the_sanitarium_only_remove_attached_creepers() -> None:
    s = arrange(new(3), hands={0: ["cat"]}, keepers={0: ["dreamer", "sanitarium"]},
                creepers={0: ["insanity"], 1: ["nightmares"]})
    s.attached = {"insanity": "dreamer"}
    powers = {(a.card, a.target) for a in ENGINE.legal_actions(s, "p0") if a.type == "use_power"}
    assert powers == {("sanitarium", "insanity")}  # the Nightmares in front of p1 waits for a keeper
    rejected(s, "p0", {"type": "use_power", "card": "dreamer", "target": "nightmares"}, "flx.power_unavailable")


def test_the_necronomicon_may_move_a_creeper_onto_its_own_player_and_is_not_a_play() -> None:
    s = arrange(new(3), hands={0: ["cat"]}, keepers={0: ["necronomicon"]}, creepers={1: ["the_body"]})
    s, _ = act(s, "p0", {"type": "use_power", "card": "necronomicon", "target": "the_body", "to": "p0"})
    assert s.players[0].creepers == ["the_body"] and s.players[0].keepers == [] and s.played == 0
    assert sorted(s.players[0].hand) == ["cat", "necronomicon"]


def test_the_feds_only_target_keepers_with_an_attachment() -> None:
    s = arrange(new(3), hands={0: ["cat"]}, keepers={0: ["feds"], 1: ["professor", "poet"]}, creepers={1: ["insanity"]})
    s.attached = {"insanity": "poet"}
    powers = {(a.card, a.target) for a in ENGINE.legal_actions(s, "p0") if a.type == "use_power"}
    assert powers == {("feds", "poet")}


def test_mi_go_migration_spares_the_elder_sign_owner_in_part_one_only() -> None:
    s = arrange(new(3), hands={0: ["mi_go_migration"]}, keepers={1: ["elder_sign", "professor"], 2: ["private_eye"]})
    s, _ = play(s, "p0", "mi_go_migration")
    assert s.players[1].keepers == ["elder_sign", "professor"] and s.players[2].keepers == []


@pytest.mark.parametrize("creeper,doom", [
    ("cthulhu", 3), ("yog_sothoth", 2), ("shoggoth", 2), ("deep_ones", 1), ("mi_go", 1),
    ("nightmares", 0), ("insanity", 0), ("the_body", 0),
])
def test_flx_r18_each_creepers_doom_counts_for_its_player(creeper: str, doom: int) -> None:
    s = arrange(new(3), hands={0: ["cat"]}, creepers={1: [creeper]})
    assert ENGINE.view(s, None).players[1].doom == doom and ENGINE.view(s, None).table_doom == doom

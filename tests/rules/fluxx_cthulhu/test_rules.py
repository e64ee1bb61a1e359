"""One test (or a few) per rule of the Cthulhu Fluxx digest (FLX-R1..R27) and per FAQ ruling, named
by rule id. Card-by-card effects are in test_cards.py."""

from __future__ import annotations

import pytest

from rules.core import RuleError
from rules.fluxx_cthulhu.cards import catalog, counts, deck_ids
from tests.rules.fluxx_cthulhu.helpers import (
    ENGINE,
    SPEC,
    act,
    all_cards,
    arrange,
    full,
    new,
    pass_all,
    play,
    types,
)


def rejected(state, seat, action, code):
    before = state.model_dump_json()
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, seat, action)
    assert err.value.code == code, err.value
    assert state.model_dump_json() == before
    return err.value


# ---------------------------------------------------------------- FLX-R1 components
def test_flx_r1_the_deck_has_the_rulebook_composition() -> None:
    assert counts(True) == {
        "basic_rule": 1, "action": 18, "creeper": 8, "keeper": 20, "goal": 28, "ungoal": 4,
        "new_rule": 17, "surprise": 3, "meta_rule": 1,
    }
    assert sum(counts(True).values()) == 100
    assert len(deck_ids(True)) == 98  # Basic Rules and the Meta Rule are never shuffled in


def test_flx_r1_without_house_cards_only_identified_cards_remain() -> None:
    c = counts(False)
    assert sum(c.values()) == 57
    assert c["goal"] == 9 and c["ungoal"] == 2 and c["surprise"] == 3
    assert not any(catalog()[x].house for x in deck_ids(False))
    s = new(3, house_cards=False)
    assert all_cards(s) == sorted(deck_ids(False))


def test_flx_r1_goals_without_house_cards_only_need_identified_cards() -> None:
    ids = set(deck_ids(False))
    for g in deck_ids(False):
        if catalog()[g].type == "goal":
            assert catalog()[g].all_of and set(catalog()[g].all_of) <= ids, g


@pytest.mark.parametrize("n", [1, 7])
def test_flx_r1_two_to_six_players(n: int) -> None:
    with pytest.raises(RuleError) as err:
        ENGINE.new_game([f"p{i}" for i in range(n)], SPEC.options_model(), 1)
    assert err.value.code == "seat_count"


def test_flx_r1_duplicate_seats_refused() -> None:
    with pytest.raises(RuleError) as err:
        ENGINE.new_game(["a", "a"], SPEC.options_model(), 1)
    assert err.value.code == "duplicate_seat"


# ---------------------------------------------------------------- FLX-R2/R3 setup
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_flx_r2_setup_deals_three_cards_and_the_first_player_draws(n: int) -> None:
    s = new(n, seed=n)
    first = s.players[0]
    assert len(first.hand) == 4  # 3 dealt + the first draw of the Basic Rules
    assert all(len(p.hand) == 3 for p in s.players[1:])
    assert all_cards(s) == full(s)
    v = ENGINE.view(s, None)
    assert v.basic_rules == "basic_rules" and v.meta_rule is None
    assert ENGINE.view(new(2, meta_rule=True), None).meta_rule == "cult_clash"


def test_flx_r3_creepers_dealt_at_setup_are_placed_and_replaced() -> None:
    for seed in range(200):
        s = new(4, seed=seed)
        if any(p.creepers for p in s.players):
            break
    else:
        raise AssertionError("no seed dealt a creeper")
    for p in s.players:
        assert not any(catalog()[c].type == "creeper" for c in p.hand)
        assert len(p.hand) >= 3


# ---------------------------------------------------------------- FLX-R4
def test_flx_r4_first_player_seat_order_or_random() -> None:
    assert all(new(4, seed=k).current == 0 for k in range(5))
    assert {new(4, seed=k, first_player="random").current for k in range(30)} == {0, 1, 2, 3}


# ---------------------------------------------------------------- FLX-R5 turn
def test_flx_r5_basic_turn_draw_one_play_one_then_next_player() -> None:
    s = new(3, seed=3)
    assert len(s.players[0].hand) == 4 and s.drawn == 1  # the Basic Rules draw is already taken
    card = next(c for c in s.players[0].hand if catalog()[c].type in ("keeper", "goal"))
    s, ev = play(s, "p0", card)
    assert s.current == 1 and len(s.players[1].hand) == 4 and s.played == 0
    assert [e.type for e in ev if e.type == "turn_started"] == ["turn_started"]


def test_flx_r5_hand_limit_applies_to_the_player_on_turn_at_the_end_of_the_turn() -> None:
    s = arrange(new(3), hands={0: ["hand_limit_1", "cat", "tomb", "farm"]})
    s, _ = play(s, "p0", "hand_limit_1")
    top = s.stack[-1]
    assert top.kind == "hand_limit" and top.seats == ["p0"]
    s, _ = act(s, "p0", {"type": "discard", "card": "cat"})
    s, _ = act(s, "p0", {"type": "discard", "card": "tomb"})
    assert s.players[0].hand == ["farm"] and s.current == 1


# ---------------------------------------------------------------- FLX-R6 Play N / Play All
def test_flx_r6_an_empty_hand_ends_the_turn_even_if_plays_remain() -> None:
    s = arrange(new(3), hands={0: ["play_3", "cat"]})
    s, _ = play(s, "p0", "play_3")
    assert s.current == 0
    s, _ = play(s, "p0", "cat")
    assert s.current == 1  # two plays of three, but nothing left to play


def test_flx_r6_play_all_plays_the_whole_hand() -> None:
    s = arrange(new(3), hands={0: ["play_all", "cat", "tomb", "farm"]})
    for c in ["play_all", "cat", "tomb"]:
        s, _ = play(s, "p0", c)
        assert s.current == 0
    s, _ = play(s, "p0", "farm")
    assert s.current == 1


def test_flx_r6_play_all_but_one_leaves_one_card() -> None:
    s = arrange(new(3), hands={0: ["play_all_but_1", "cat", "tomb", "farm"], 1: ["poet", "ghoul"]})
    s, _ = play(s, "p0", "play_all_but_1")
    s, _ = play(s, "p0", "cat")
    assert s.current == 0
    s, _ = play(s, "p0", "tomb")
    assert s.current == 1 and s.players[0].hand == ["farm"]


def test_flx_r6_no_card_may_be_played_beyond_the_play_count() -> None:
    s = arrange(new(3), hands={0: ["cat", "tomb"]}, keepers={0: ["elder_sign"]}, creepers={0: ["cthulhu"]})
    s, _ = play(s, "p0", "cat")
    assert s.current == 0  # the Elder Sign's free action keeps the turn open
    rejected(s, "p0", {"type": "play", "card": "tomb"}, "flx.no_plays_left")
    s, _ = act(s, "p0", {"type": "end_turn"})
    assert s.current == 1


# ---------------------------------------------------------------- FLX-R7 mid-turn changes
def test_flx_r7_book_example_draw_4_then_draw_2() -> None:
    s = arrange(new(3), hands={0: ["draw_4"], 1: ["draw_2"]}, deck=["cat", "tomb", "farm", "poet", "ghoul", "artist", "penguins"])
    s, ev = play(s, "p0", "draw_4")
    drawn = [e for e in ev if e.type == "cards_drawn" and e.audience is None]
    assert drawn[0].seat == "p0" and drawn[0].count == 3  # one drawn before, three more at once
    assert s.current == 1 and s.drawn == 4 and len(s.players[1].hand) == 1 + 4  # Oleg draws 4
    s, ev = play(s, "p1", "draw_2")
    assert not any(e.type == "cards_drawn" and e.seat == "p1" for e in ev)  # already has 4
    assert "draw_4" in s.discard and s.rules == ["draw_2"]


def test_flx_r7_raising_the_play_count_mid_turn_must_be_fulfilled() -> None:
    s = arrange(new(3), hands={0: ["play_2", "play_3", "cat", "tomb"]}, rules=[])
    s, _ = play(s, "p0", "play_2")
    s, _ = play(s, "p0", "play_3")  # second play under Play 2 is Play 3: a third is owed
    assert s.current == 0 and ENGINE.pending(s)[0].kind == "play"
    s, _ = play(s, "p0", "cat")
    assert s.current == 1


# ---------------------------------------------------------------- FLX-R8 rule slots
def test_flx_r8_same_category_replaces_different_categories_coexist() -> None:
    s = arrange(new(3), hands={0: ["draw_2", "cat"]}, rules=["draw_3", "keeper_limit_4", "play_2"])
    s, ev = play(s, "p0", "draw_2")
    assert s.rules == ["keeper_limit_4", "play_2", "draw_2"] and "draw_3" in s.discard
    assert ev[1].type == "rule_placed" and ev[1].replaced == ["draw_3"]


def test_flx_r8_the_basic_rules_return_when_the_new_rule_leaves() -> None:
    s = arrange(new(3), hands={0: ["aeons_pass"]}, rules=["draw_3", "play_2"])
    assert ENGINE.view(s, None).draw_target == 3 and ENGINE.view(s, None).play_target == 2
    s, _ = play(s, "p0", "aeons_pass")
    assert s.rules == [] and ENGINE.view(s, None).draw_target == 1


# ---------------------------------------------------------------- FLX-R9 goals
def test_flx_r9_no_win_without_a_goal_and_a_new_goal_replaces_the_old() -> None:
    s = arrange(new(3), hands={0: ["meat_market", "cat"]}, keepers={1: ["librarian", "professor"]})
    assert ENGINE.result(s) is None
    s, ev = play(s, "p0", "meat_market")
    assert s.goals == ["meat_market"] and s.phase != "over"
    s = arrange(s, hands={1: ["miskatonic_university"]}, goals=["meat_market"], current=1,
                keepers={0: ["cat"], 1: ["librarian", "professor"]})
    s, ev = play(s, "p1", "miskatonic_university")
    assert s.phase == "over" and s.winner == "p1"
    assert "meat_market" in s.discard


# ---------------------------------------------------------------- FLX-R10 keepers
def test_flx_r10_any_number_of_keepers_without_a_keeper_limit() -> None:
    s = arrange(new(3), hands={0: ["play_all", "cat", "tomb", "farm", "poet"]})
    for c in ["play_all", "cat", "tomb", "farm", "poet"]:
        s, _ = play(s, "p0", c)
    assert s.players[0].keepers == ["cat", "tomb", "farm", "poet"]


def test_flx_r10_keeper_limit_makes_others_discard_at_once() -> None:
    s = arrange(new(3), hands={0: ["keeper_limit_3"]}, keepers={0: ["cat", "tomb", "farm", "poet"], 1: ["ghoul", "artist", "penguins", "dreamer", "dreamlands"]})
    s, _ = play(s, "p0", "keeper_limit_3")
    top = s.stack[-1]
    assert top.kind == "keeper_limit" and top.seats == ["p1"]
    s, _ = act(s, "p1", {"type": "discard", "card": "ghoul"})
    assert s.stack[-1].seats == ["p1"]
    s, _ = act(s, "p1", {"type": "discard", "card": "artist"})
    # p0 trims at the end of their own turn
    assert s.stack[-1].kind == "keeper_limit" and s.stack[-1].seats == ["p0"]


# ---------------------------------------------------------------- FLX-R11 actions count once
def test_flx_r11_book_example_an_action_and_its_plays_count_as_one() -> None:
    s = arrange(new(3), hands={0: ["forbidden_rites", "penguins"]}, rules=["play_2"], deck=["whispers_from_beyond", "cat", "tomb", "farm", "poet"])
    s.drawn = 1
    s, _ = play(s, "p0", "forbidden_rites")
    assert s.played == 1 and sorted(s.players[0].limbo) == ["cat", "whispers_from_beyond"]
    s, _ = play(s, "p0", "whispers_from_beyond")
    assert sorted(s.players[0].limbo) == ["cat", "farm", "poet", "tomb"]
    s, _ = play(s, "p0", "tomb")
    s, _ = play(s, "p0", "farm")
    assert "poet" in s.discard  # the third card of Whispers is discarded
    s, _ = play(s, "p0", "cat")
    assert s.played == 1 and s.current == 0  # still one play of two
    assert set(s.players[0].keepers) == {"tomb", "farm", "cat"}
    assert {"forbidden_rites", "whispers_from_beyond"} <= set(s.discard) and not s.resolving


def _everything_held_but(s, card: str, to_discard: tuple[str, ...] = ()):
    """p0 holds ``card``; p1 holds every other card but the creepers (in front of p1) and ``to_discard``:
    the deck is empty, so an action's draws can only come from a reshuffled discard pile."""
    every = full(s)
    creepers = [c for c in every if catalog()[c].type == "creeper"]
    rest = [c for c in every if c not in creepers and c != card and c not in to_discard]
    s = arrange(s, hands={0: [card], 1: rest}, creepers={1: creepers}, current=0)
    s.deck = [c for c in s.deck if c not in to_discard]
    s.discard = list(to_discard)
    assert not s.deck and sorted(all_cards(s)) == sorted(every)
    return s


def _pass_windows(s, seat: str):
    while s.stack and s.stack[-1].kind == "react" and seat in s.stack[-1].seats:
        s, _ = ENGINE.apply(s, seat, {"type": "pass"})
    return s


def test_flx_r11_an_action_is_discarded_after_it_acts_so_it_cannot_draw_itself() -> None:
    """With the deck and the discard pile empty, Forbidden Rites draws nothing: it is not yet in the pile
    its own draw would reshuffle, so the turn goes on instead of replaying it forever."""
    s = _pass_windows(play(_everything_held_but(new(2), "forbidden_rites"), "p0", "forbidden_rites")[0], "p1")
    assert not s.players[0].limbo and not s.resolving
    assert s.current == 1, "p0's turn ended normally"
    assert "forbidden_rites" in s.players[1].hand, "discarded, then reshuffled for p1's turn-start draw"


def test_flx_r11_two_draw_and_play_actions_cannot_feed_each_other_forever() -> None:
    """Forbidden Rites draws Whispers from Beyond out of the reshuffled discard pile and must play it;
    Forbidden Rites is still being carried out, so Whispers finds nothing to draw and both end."""
    s = _everything_held_but(new(2), "forbidden_rites", ("whispers_from_beyond",))
    s, _ = play(s, "p0", "forbidden_rites")
    s = _pass_windows(s, "p1")
    assert s.players[0].limbo == ["whispers_from_beyond"] and [c for c, _ in s.resolving] == ["forbidden_rites"]
    s = _pass_windows(play(s, "p0", "whispers_from_beyond")[0], "p1")
    assert s.current == 1 and not s.players[0].limbo and not s.resolving
    assert {"forbidden_rites", "whispers_from_beyond"} <= set(s.players[1].hand + s.deck + s.discard)


# ---------------------------------------------------------------- FLX-R12 creepers
def test_flx_r12_a_drawn_creeper_goes_out_and_is_replaced_not_a_play() -> None:
    s = arrange(new(3), hands={0: ["draw_2", "tomb"]}, deck=["cat"], rules=["play_2"])
    s.deck.append("cthulhu")  # next card drawn is Cthulhu, then the cat
    s.discard.remove("cthulhu")
    s, ev = play(s, "p0", "draw_2")
    assert s.players[0].creepers == ["cthulhu"] and "cat" in s.players[0].hand
    assert s.played == 1 and "creeper_placed" in types(ev)


def test_flx_r12_creepers_drawn_during_an_action_are_replaced() -> None:
    s = arrange(new(3), hands={0: ["whispers_from_beyond"]}, deck=["cat", "tomb", "farm"])
    s.discard.remove("mi_go")
    s.deck.insert(len(s.deck) - 1, "mi_go")  # second card drawn is the Mi-Go
    s, _ = play(s, "p0", "whispers_from_beyond")
    assert s.players[0].creepers == ["mi_go"] and sorted(s.players[0].limbo) == ["cat", "farm", "tomb"]


# ---------------------------------------------------------------- FLX-R13 attaching creepers
def test_flx_r13_attaching_creeper_waits_then_attaches_and_follows_its_keeper() -> None:
    s = arrange(new(3), hands={0: ["professor"], 1: ["cult_theft"]}, creepers={0: ["nightmares"]})
    assert "nightmares" not in s.attached
    s, ev = play(s, "p0", "professor")
    assert s.attached == {"nightmares": "professor"}
    assert s.current == 1
    s, _ = play(s, "p1", "cult_theft")
    s, _ = act(s, "p1", {"type": "choose", "option": "professor"})
    assert "professor" in s.players[1].keepers and "nightmares" in s.players[1].creepers
    assert s.players[0].creepers == []


# ---------------------------------------------------------------- FLX-R14 ungoals
def test_flx_r14_a_met_ungoal_ends_the_game_with_everyone_losing() -> None:
    s = arrange(new(3), hands={0: ["dunwich_horror"]}, creepers={1: ["yog_sothoth", "cthulhu"]}, keepers={2: ["necronomicon"]})
    s, ev = play(s, "p0", "dunwich_horror")
    assert s.phase == "over" and s.winner is None
    r = ENGINE.result(s)
    assert r.winners == [] and r.reason == "ungoal" and sorted(r.ranking[0]) == ["p0", "p1", "p2"]


# ---------------------------------------------------------------- FLX-R15 surprises
def test_flx_r15_window_is_owed_by_every_other_seat_not_only_holders() -> None:
    s = arrange(new(4), hands={0: ["exchange_keepers"], 2: ["disorder_of_the_stars"]}, quiet=False)
    s, _ = play(s, "p0", "exchange_keepers")
    top = s.stack[-1]
    assert top.kind == "react" and top.seats == ["p1", "p2", "p3"]
    assert ENGINE.legal_actions(s, "p1") == [SPEC.parse_action({"type": "pass"})]
    assert len(ENGINE.legal_actions(s, "p2")) == 2


def test_flx_r15_no_window_when_the_surprise_is_publicly_gone() -> None:
    s = arrange(new(3), hands={0: ["time_slip"]})  # quiet: all surprises are in the discard pile
    s, ev = play(s, "p0", "time_slip")
    assert "extra_turn_gained" in types(ev) and not any(e.type == "surprise_played" for e in ev)
    assert s.current == 0 and s.turn == 2  # the extra turn has begun


def test_flx_r15_a_passing_seat_is_not_asked_again() -> None:
    s = arrange(new(3), hands={0: ["time_slip"], 1: ["disorder_of_the_stars"]}, quiet=False)
    s, _ = play(s, "p0", "time_slip")
    s, _ = act(s, "p2", {"type": "pass"})
    assert s.stack[-1].seats == ["p1"]
    rejected(s, "p2", {"type": "pass"}, "waiting_for")


def test_flx_r15_off_turn_surprise_cancels_an_action_and_the_play_is_not_refunded() -> None:
    s = arrange(new(3), hands={0: ["time_slip", "cat"], 1: ["disorder_of_the_stars"]}, quiet=False)
    s, _ = play(s, "p0", "time_slip")
    s, ev = act(s, "p1", {"type": "play", "card": "disorder_of_the_stars"})
    s = pass_all(s)
    assert s.extra_turns == 0 and "time_slip" in s.discard
    assert s.current == 1  # the cancelled card still used p0's only play


def test_flx_r15_cancel_chain_a_surprise_cancels_the_cancel() -> None:
    s = arrange(
        new(3),
        hands={0: ["time_slip", "twist_of_fate"], 1: ["disorder_of_the_stars"]},
        quiet=False,
    )
    s, _ = play(s, "p0", "time_slip")
    s, _ = act(s, "p1", {"type": "play", "card": "disorder_of_the_stars"})
    assert s.stack[-1].seats == ["p0", "p2"]  # everyone but the player of the surprise
    s, ev = act(s, "p0", {"type": "play", "card": "twist_of_fate"})  # cancels Disorder, not a play
    assert ev[-1].mode == "cancel" and s.played == 1
    s = pass_all(s)
    assert "disorder_of_the_stars" in s.discard and "twist_of_fate" in s.discard
    assert s.current == 0 and s.turn == 2  # Time Slip was not cancelled: p0 takes another turn


def test_flx_r15_on_turn_surprise_uses_a_play() -> None:
    s = arrange(new(3), hands={0: ["disorder_of_the_stars", "cat"], 1: ["tomb", "time_slip"], 2: ["farm"]})
    s, ev = play(s, "p0", "disorder_of_the_stars")
    assert s.played == 1
    top = s.stack[-1]
    assert top.kind == "discard_action_or_random" and top.seats == ["p1", "p2"]


# ---------------------------------------------------------------- FLX-R16 meta rule
def test_flx_r16_cult_clash_gives_the_ungoal_to_the_most_doom() -> None:
    s = arrange(new(3, meta_rule=True), hands={0: ["dunwich_horror"]}, creepers={1: ["yog_sothoth"], 2: ["cthulhu", "shoggoth"]})
    s, ev = play(s, "p0", "dunwich_horror")
    assert s.phase == "over" and s.winner == "p2" and s.end_reason == "meta_rule"


def test_flx_r16_cult_clash_tie_broken_by_cards_named_on_the_ungoal() -> None:
    s = arrange(new(3, meta_rule=True), hands={0: ["dunwich_horror"]}, creepers={1: ["yog_sothoth", "deep_ones"], 2: ["cthulhu"]}, keepers={0: ["necronomicon"]})
    # doom: p0 2, p1 3, p2 3 -> tie between p1 and p2; p1 has Yog-Sothoth, named on the ungoal
    s, ev = play(s, "p0", "dunwich_horror")
    assert s.winner == "p1"


# ---------------------------------------------------------------- FLX-R17 investigators
def test_flx_r17_investigator_icons() -> None:
    assert catalog()["professor"].investigator and catalog()["private_eye"].investigator
    assert not catalog()["cat"].investigator


# ---------------------------------------------------------------- FLX-R18/R19 doom and blessings
def test_flx_r18_doom_for_one_player_and_for_the_table() -> None:
    s = arrange(new(3), keepers={0: ["necronomicon", "cat"], 1: ["elder_sign"]}, creepers={1: ["cthulhu"], 2: ["shoggoth"]})
    v = ENGINE.view(s, None)
    assert [p.doom for p in v.players] == [1, 2, 2] and v.table_doom == 5


def test_flx_r19_a_blessing_cancels_only_its_own_players_doom() -> None:
    """p0's two blessings (Cat, Elder Sign) have one Doom icon to cancel (Necronomicon): p0 is at 0, not
    -1, and the spare blessing lowers neither p1's Cthulhu nor the table's count."""
    s = arrange(new(3), keepers={0: ["necronomicon", "cat", "elder_sign"]}, creepers={1: ["cthulhu"]})
    v = ENGINE.view(s, None)
    assert [p.doom for p in v.players] == [0, 3, 0] and v.table_doom == 3


def test_flx_r19_spare_blessings_do_not_save_the_table_from_an_ungoal() -> None:
    """Dunwich Horror needs 5 Doom on the table: p1 and p2 have 5, p0's lone blessings must not undo it."""
    s = arrange(new(3), hands={0: ["dunwich_horror"]}, keepers={0: ["cat", "elder_sign"]},
                creepers={1: ["yog_sothoth", "cthulhu"], 2: ["deep_ones"]})
    s, _ = play(s, "p0", "dunwich_horror")
    assert s.phase == "over" and s.end_reason == "ungoal"


def test_flx_r19_elder_sign_hides_a_creeper_which_stops_counting() -> None:
    s = arrange(new(3), hands={0: ["cat"]}, keepers={0: ["elder_sign"]}, creepers={0: ["cthulhu"]})
    s, ev = act(s, "p0", {"type": "use_power", "card": "elder_sign", "target": "cthulhu"})
    # The Elder Sign's blessing has no Doom left to cancel: the count stops at 0 (FLX-R19).
    assert s.hidden == "cthulhu" and ENGINE.view(s, None).players[0].doom == 0
    assert s.played == 0  # a free action
    rejected(s, "p0", {"type": "use_power", "card": "elder_sign", "target": "cthulhu", "to": "p1"}, "flx.power_unavailable")
    s, ev = act(s, "p0", {"type": "use_power", "card": "elder_sign", "target": "cthulhu"})
    assert s.hidden is None


def test_flx_r19_a_hidden_creeper_does_not_block_a_win() -> None:
    s = arrange(new(3), hands={0: ["meat_market"]}, keepers={0: ["reanimator", "tomb", "elder_sign"]}, creepers={0: ["cthulhu"]})
    s.hidden = "cthulhu"
    s, _ = play(s, "p0", "meat_market")
    assert s.winner == "p0"


def test_flx_r19_the_hidden_creeper_is_turned_up_at_any_time_even_to_win_off_turn() -> None:
    """The Elder Sign's card lets its owner reveal the hidden creeper at any time: on p0's turn, p1 (asked
    nothing) turns up the Mi-Go and wins at once with The Whisperer in Darkness (FLX-R20)."""
    s = arrange(new(3), keepers={1: ["professor", "elder_sign"]}, creepers={1: ["mi_go"]},
                goals=["whisperer_in_darkness"], current=0)
    s.hidden = "mi_go"
    assert s.phase != "over" and not ENGINE.pending(s)[0].seat == "p1"
    reveal = {"type": "use_power", "card": "elder_sign", "target": "mi_go"}
    assert [a.model_dump() for a in ENGINE.legal_actions(s, "p1")] == [{**reveal, "to": None}]
    assert ENGINE.legal_actions(s, "p2") == []
    s, ev = act(s, "p1", reveal)
    assert s.hidden is None and s.winner == "p1"


def test_flx_r16_faq_the_elder_sign_reveals_before_the_cult_clash_count() -> None:
    """FAQ ruling on Cult Clash: when an ungoal would end the game, the Elder Sign's owner may first turn
    up the hidden creeper. With no Secret Cultist left to wait for, the window is theirs alone; revealing
    the Shoggoth lifts p1's Doom from 2 to 4, past p2's 3 (table Doom 6 meets The Dunwich Horror)."""
    s = arrange(new(3, meta_rule=True), hands={0: ["dunwich_horror"]}, keepers={1: ["elder_sign"]},
                creepers={0: ["mi_go"], 1: ["yog_sothoth", "deep_ones", "shoggoth"], 2: ["cthulhu"]})
    s.hidden = "shoggoth"
    s, _ = play(s, "p0", "dunwich_horror")
    assert s.phase != "over" and [(p.seat, p.kind) for p in ENGINE.pending(s)] == [("p1", "react")]
    s, _ = act(s, "p1", {"type": "use_power", "card": "elder_sign", "target": "shoggoth"})
    assert s.phase != "over", "revealing does not close the window"
    s, _ = act(s, "p1", {"type": "pass"})
    assert s.phase == "over" and s.winner == "p1" and s.end_reason == "meta_rule"


def test_flx_r16_faq_without_a_reveal_the_count_stands() -> None:
    s = arrange(new(3, meta_rule=True), hands={0: ["dunwich_horror"]}, keepers={1: ["elder_sign"]},
                creepers={0: ["mi_go"], 1: ["yog_sothoth", "deep_ones", "shoggoth"], 2: ["cthulhu"]})
    s.hidden = "shoggoth"
    s, _ = play(s, "p0", "dunwich_horror")
    s, _ = act(s, "p1", {"type": "pass"})
    assert s.phase == "over" and s.winner == "p2"


# ---------------------------------------------------------------- FLX-R20 winning
def test_flx_r20_a_player_wins_at_once_even_off_turn() -> None:
    s = arrange(new(3), hands={0: ["miskatonic_university"]}, keepers={2: ["librarian", "professor"]})
    s, ev = play(s, "p0", "miskatonic_university")
    assert s.winner == "p2" and ev[-1].type == "game_ended" and ev[-1].card == "miskatonic_university"
    assert ENGINE.result(s).winners == ["p2"]
    rejected(s, "p0", {"type": "end_turn"}, "game_over")


def test_flx_r20_a_creeper_blocks_a_win_unless_the_goal_names_it() -> None:
    s = arrange(new(3), hands={0: ["miskatonic_university", "whisperer_in_darkness"]}, rules=["play_2"],
                keepers={1: ["librarian", "professor"]}, creepers={1: ["mi_go"]})
    s, _ = play(s, "p0", "miskatonic_university")
    assert s.phase != "over"
    s, _ = play(s, "p0", "whisperer_in_darkness")
    assert s.winner == "p1"


def test_flx_r20_simultaneous_winners_play_on() -> None:
    s = arrange(new(3), hands={0: ["prophet_of_doom", "cat"]}, rules=["play_2"],
                creepers={1: ["cthulhu", "deep_ones"], 2: ["shoggoth", "yog_sothoth"]})
    s, ev = play(s, "p0", "prophet_of_doom")
    assert s.phase != "over" and s.current == 0
    s, ev = play(s, "p0", "cat")
    assert s.phase != "over"


def test_flx_r20_goal_and_ungoal_met_together_play_on() -> None:
    s = arrange(new(3), hands={0: ["last_days"]}, rules=["stars_are_right"], goals=["dunwich_horror"],
                keepers={1: ["elder_sign"]}, creepers={2: ["cthulhu", "yog_sothoth", "shoggoth"]})
    s, ev = play(s, "p0", "last_days")
    assert s.phase != "over" and set(s.goals) == {"dunwich_horror", "last_days"}


# ---------------------------------------------------------------- FLX-R21 goals seen before replaced
def test_flx_r21_a_goal_is_checked_before_the_next_can_bury_it() -> None:
    s = arrange(new(3), hands={0: ["forbidden_rites"]}, keepers={1: ["tomb", "penguins"]},
                deck=["mountains_of_madness", "miskatonic_university"])
    s, _ = play(s, "p0", "forbidden_rites")
    s, _ = play(s, "p0", "mountains_of_madness")
    assert s.phase == "over" and s.winner == "p1"


# ---------------------------------------------------------------- FLX-R22 reshuffle
def test_flx_r22_an_empty_deck_is_rebuilt_from_the_discard_pile() -> None:
    s = arrange(new(3), hands={0: ["draw_3"]})
    s.discard = s.discard + s.deck
    s.deck = []
    s, ev = play(s, "p0", "draw_3")
    assert "reshuffled" in types(ev) and s.drawn == 3
    assert all_cards(s) == full(s)


# ---------------------------------------------------------------- FLX-R23 joining
def test_flx_r23_a_newcomer_joins_with_three_cards_before_the_player_on_turn() -> None:
    s = new(3, seed=5)
    s, ev = act(s, "late", {"type": "join"})
    assert [p.seat for p in s.players] == ["late", "p0", "p1", "p2"]
    assert s.players[s.current].seat == "p0"
    late = s.players[0]
    assert len(late.hand) == 3 and not any(catalog()[c].type == "creeper" for c in late.hand)
    assert ev[0].type == "player_joined" and all_cards(s) == full(s)
    rejected(s, "late", {"type": "join"}, "flx.already_seated")


def test_flx_r23_no_seventh_player() -> None:
    s = new(6)
    rejected(s, "x", {"type": "join"}, "seat_count")


# ---------------------------------------------------------------- FLX-R24 discarding is not playing
def test_flx_r24_no_discarding_at_will() -> None:
    s = arrange(new(3), hands={0: ["cat"]})
    rejected(s, "p0", {"type": "discard", "card": "cat"}, "flx.nothing_to_answer")
    rejected(s, "p1", {"type": "play", "card": "cat"}, "not_your_turn")


# ---------------------------------------------------------------- FLX-R25 cultists
def test_flx_r25_the_cultist_wins_the_dunwich_horror() -> None:
    s = arrange(new(3), hands={0: ["dunwich_horror"]}, keepers={1: ["cultist", "necronomicon"]}, creepers={2: ["yog_sothoth", "cthulhu"]})
    s, _ = play(s, "p0", "dunwich_horror")
    assert s.winner == "p1" and s.end_reason == "cultist"


def test_flx_r25_the_cultist_does_not_win_other_ungoals() -> None:
    s = arrange(new(3), hands={0: ["shadow_out_of_time"]}, keepers={1: ["cultist", "necronomicon"]}, creepers={2: ["yog_sothoth", "cthulhu", "shoggoth"]})
    s, _ = play(s, "p0", "shadow_out_of_time")
    assert s.phase == "over" and s.winner is None


def test_flx_r25_secret_cultist_beats_the_cultist() -> None:
    s = arrange(new(3), hands={0: ["dunwich_horror"], 2: ["secret_cultist"]}, keepers={1: ["cultist", "necronomicon"]},
                creepers={2: ["yog_sothoth", "cthulhu"]}, quiet=False)
    s.discard += ["twist_of_fate", "disorder_of_the_stars"]
    s.deck.remove("twist_of_fate"), s.deck.remove("disorder_of_the_stars")
    s, ev = play(s, "p0", "dunwich_horror")
    top = s.stack[-1]
    assert top.kind == "react" and top.seats == ["p0", "p1", "p2"]  # everybody is asked
    s, ev = act(s, "p2", {"type": "play", "card": "secret_cultist"})
    s = pass_all(s)
    assert s.winner == "p2" and s.end_reason == "secret_cultist"


def test_flx_r25_everyone_passing_leaves_the_cultist_win() -> None:
    s = arrange(new(3), hands={0: ["dunwich_horror"], 2: ["secret_cultist"]}, keepers={1: ["cultist", "necronomicon"]},
                creepers={2: ["yog_sothoth", "cthulhu"]}, quiet=False)
    s, _ = play(s, "p0", "dunwich_horror")
    s = pass_all(s)
    assert s.winner == "p1"


# ---------------------------------------------------------------- FLX-R26 off-turn limits
def test_flx_r26_hand_limit_is_one_decision_for_several_players() -> None:
    s = arrange(new(4), hands={0: ["hand_limit_2", "cat"], 1: ["tomb", "farm", "poet"], 2: ["ghoul", "artist"], 3: ["penguins", "dreamer", "dreamlands", "innsmouth"]}, rules=["play_2"])
    s, _ = play(s, "p0", "hand_limit_2")
    top = s.stack[-1]
    assert top.kind == "hand_limit" and top.seats == ["p1", "p3"]
    s, _ = act(s, "p3", {"type": "discard", "card": "penguins"})
    assert s.stack[-1].seats == ["p1", "p3"]
    s, _ = act(s, "p1", {"type": "discard", "card": "tomb"})
    s, _ = act(s, "p3", {"type": "discard", "card": "dreamer"})
    assert not s.stack and s.current == 0 and len(s.players[0].hand) == 1


def test_faq_hand_limit_is_a_ceiling_not_a_refill() -> None:
    s = arrange(new(3), hands={0: ["hand_limit_2", "cat"], 1: ["tomb"]}, rules=["play_2"])
    s, _ = play(s, "p0", "hand_limit_2")
    assert s.players[1].hand == ["tomb"] and not s.stack


def test_faq_a_limit_removed_before_the_end_of_the_turn_no_longer_applies() -> None:
    s = arrange(new(3), hands={0: ["unspeakable_truth", "cat", "tomb", "farm"]}, rules=["hand_limit_1", "play_2"])
    s, _ = play(s, "p0", "unspeakable_truth")
    s, _ = act(s, "p0", {"type": "choose", "option": "hand_limit_1"})
    s, _ = play(s, "p0", "cat")
    assert s.current == 1 and len(s.players[0].hand) == 2


# ---------------------------------------------------------------- FLX-R27 keeper powers are free
def test_flx_r27_necronomicon_moves_a_creeper_as_a_free_action_and_returns_to_hand() -> None:
    s = arrange(new(3), hands={0: ["cat"]}, keepers={0: ["necronomicon"]}, creepers={0: ["cthulhu"]})
    s, ev = act(s, "p0", {"type": "use_power", "card": "necronomicon", "target": "cthulhu", "to": "p2"})
    assert s.players[2].creepers == ["cthulhu"] and "necronomicon" in s.players[0].hand
    assert s.played == 0 and s.current == 0


def test_flx_r27_necronomicon_moves_an_attached_creeper_with_its_keeper() -> None:
    s = arrange(new(3), hands={0: ["cat"]}, keepers={0: ["necronomicon"], 1: ["professor"]}, creepers={1: ["insanity"]})
    s.attached = {"insanity": "professor"}
    s, _ = act(s, "p0", {"type": "use_power", "card": "necronomicon", "target": "insanity", "to": "p2"})
    assert s.players[2].keepers == ["professor"] and s.players[2].creepers == ["insanity"]


def test_flx_r27_powers_only_on_your_own_turn() -> None:
    s = arrange(new(3), hands={0: ["cat"]}, keepers={1: ["necronomicon"]}, creepers={0: ["cthulhu"]})
    rejected(s, "p1", {"type": "use_power", "card": "necronomicon", "target": "cthulhu", "to": "p2"}, "not_your_turn")


# ---------------------------------------------------------------- rejected actions
def test_unknown_seat_and_bad_input() -> None:
    s = new(3)
    rejected(s, "nobody", {"type": "pass"}, "unknown_seat")
    rejected(s, "p0", {"type": "fly"}, "bad_action")
    rejected(s, "p0", {"type": "play", "card": "not_a_card"}, "flx.not_in_hand")


# ---------------------------------------------------------------- leaving a running game (bot ruling)
def test_a_player_off_turn_leaves_and_everything_they_had_is_discarded() -> None:
    s = arrange(new(3), hands={1: ["cat", "time_slip"], 2: ["meat_market"]}, keepers={1: ["elder_sign", "tomb"]},
                creepers={1: ["cthulhu"]}, current=2)
    s.hidden = "cthulhu"
    s, events = act(s, "p1", {"type": "leave"})
    assert [p.seat for p in s.players] == ["p0", "p2"] and s.players[s.current].seat == "p2"
    left = next(e for e in events if e.type == "player_left")
    assert sorted(left.cards) == ["cat", "cthulhu", "elder_sign", "time_slip", "tomb"]
    assert s.hidden is None and set(left.cards) <= set(s.discard)
    assert all_cards(s) == full(s)
    rejected(s, "p1", {"type": "play", "card": "cat"}, "unknown_seat")


def test_the_player_on_turn_leaves_between_plays_and_the_next_turn_begins() -> None:
    s = arrange(new(4), hands={1: ["cat", "time_slip"], 2: ["meat_market"]}, current=1)
    s, events = act(s, "p1", {"type": "leave"})
    assert [p.seat for p in s.players] == ["p0", "p2", "p3"]
    assert s.players[s.current].seat == "p2" and s.played == 0 and s.phase == "play"
    assert [e.seat for e in events if e.type == "turn_started"] == ["p2"]
    assert all_cards(s) == full(s)


def test_leaving_drops_the_leaver_from_an_open_reaction_window() -> None:
    s = arrange(new(4), hands={0: ["tomb"], 1: ["twist_of_fate"], 2: ["cat"], 3: ["meat_market"]})
    s, _ = play(s, "p0", "tomb")  # Twist of Fate could take a keeper being played: a window opens
    assert s.stack[-1].kind == "react" and s.stack[-1].seats == ["p1", "p2", "p3"]
    s, _ = act(s, "p2", {"type": "leave"})
    assert s.stack[-1].seats == ["p1", "p3"]
    s, _ = act(s, "p1", {"type": "pass"})
    s, _ = act(s, "p3", {"type": "pass"})
    assert "tomb" in s.players[0].keepers  # the window closed without the leaver and the keeper landed


def test_leaving_is_refused_while_an_effect_waits_on_the_leaver() -> None:
    s = arrange(new(4), hands={0: ["cult_theft"]}, keepers={1: ["tomb"], 2: ["cat"]})
    s, _ = play(s, "p0", "cult_theft")
    s = pass_all(s)
    assert s.stack[-1].kind == "choose" and s.stack[-1].params["options"] == ["tomb", "cat"]
    rejected(s, "p0", {"type": "leave"}, "flx.leave_later")  # in the middle of their own action
    rejected(s, "p1", {"type": "leave"}, "flx.leave_later")  # their keeper is one of the choices
    s, _ = act(s, "p3", {"type": "leave"})  # p3 is not concerned: free to go
    assert [p.seat for p in s.players] == ["p0", "p1", "p2"] and s.stack[-1].seats == ["p0"]
    s, _ = act(s, "p0", {"type": "choose", "option": "tomb"})
    assert "tomb" in s.players[0].keepers and all_cards(s) == full(s)


def test_a_leaver_is_no_longer_asked_to_trim_to_a_hand_limit() -> None:
    s = arrange(new(3), hands={0: ["hand_limit_1"], 1: ["cat", "tomb", "time_slip"], 2: ["meat_market"]})
    s, _ = play(s, "p0", "hand_limit_1")
    assert s.stack[-1].kind == "hand_limit" and "p1" in s.stack[-1].seats
    s, _ = act(s, "p1", {"type": "leave"})
    assert all(f.kind != "hand_limit" or "p1" not in f.seats for f in s.stack)
    assert all_cards(s) == full(s)

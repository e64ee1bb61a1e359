"""Card by card: every goal, ungoal, New Rule, action, surprise and keeper power of the data file does
what its (paraphrased) text says. Rule ids refer to the digest; FAQ rulings are named as such."""

from __future__ import annotations

import pytest

from rules.core import RuleError
from rules.fluxx_cthulhu.cards import catalog, deck_ids
from rules.fluxx_cthulhu.effects import ACTIONS, CHOICES
from tests.rules.fluxx_cthulhu.helpers import ENGINE, SPEC, act, all_cards, arrange, full, new, pass_all, play, types

CAT = catalog()
GOALS = sorted(c for c in deck_ids(True) if CAT[c].type == "goal")
UNGOALS = sorted(c for c in deck_ids(True) if CAT[c].type == "ungoal")
DOOM_CREEPERS = ["cthulhu", "shoggoth", "yog_sothoth", "deep_ones", "mi_go"]


def choose(s, seat, option):
    return act(s, seat, {"type": "choose", "option": option})


# ---------------------------------------------------------------- data completeness
def test_every_card_has_engine_facts() -> None:
    for cid in deck_ids(True):
        c = CAT[cid]
        if c.type == "goal":
            assert c.all_of or c.investigators_at_least or c.doom_scope, cid
        elif c.type == "ungoal":
            assert c.someone_has or c.doom_at_least is not None, cid
        elif c.type == "new_rule":
            assert c.category in {"draw", "play", "hand_limit", "keeper_limit", "draw_bonus", "bonus_draw_play",
                                  "goal_count", "goal_ungoal_coexist", "studies", "forced_ungoal_play"}, cid
        elif c.type == "action":
            assert c.effect in ACTIONS, cid
        elif c.type == "surprise":
            assert c.on_turn in ACTIONS and c.off_turn in {"win_on_ungoal", "hijack_played_keeper", "cancel_action"}, cid
    assert set(CHOICES) >= {"steal_keeper", "trash_keeper", "trash_rule", "exchange_keepers"}


def test_house_cards_are_marked_and_named_in_both_languages() -> None:
    house = [c for c in CAT.values() if c.house]
    assert len(house) == 43
    assert all(c.name_en and c.name_ru for c in CAT.values())


# ---------------------------------------------------------------- goals
def _goal_position(goal: str, extra_creeper: str | None = None):
    c = CAT[goal]
    keepers = [x for x in c.all_of if CAT[x].type == "keeper"]
    creepers = [x for x in c.all_of if CAT[x].type == "creeper"]
    if c.investigators_at_least:
        keepers += ["professor", "private_eye"]
    others: list[str] = []
    if c.doom_scope == "self":
        creepers += ["cthulhu", "shoggoth"]
    if c.doom_scope == "table":
        others = [x for x in ["cthulhu", "shoggoth", "yog_sothoth"] if x not in creepers]
    if extra_creeper:
        creepers.append(extra_creeper)
    return arrange(new(3), hands={0: [goal]}, keepers={1: keepers}, creepers={1: creepers, 2: others})


@pytest.mark.parametrize("goal", GOALS)
def test_goal_wins_for_the_player_who_meets_it(goal: str) -> None:
    s, ev = play(_goal_position(goal), "p0", goal)
    assert s.phase == "over" and s.winner == "p1" and s.end_reason == "goal", goal


@pytest.mark.parametrize("goal", [g for g in GOALS if not CAT[g].any_creepers])
def test_goal_is_blocked_by_a_creeper_it_does_not_name(goal: str) -> None:
    c = CAT[goal]
    extra = next(x for x in ["insanity", "the_body", "deep_ones"] if x not in c.all_of and x not in c.allowed_creepers)
    s, ev = play(_goal_position(goal, extra), "p0", goal)
    assert s.phase != "over", goal


def test_goal_missing_a_card_does_not_win() -> None:
    s = arrange(new(3), hands={0: ["meat_market"]}, keepers={1: ["reanimator"]})
    s, _ = play(s, "p0", "meat_market")
    assert s.phase != "over"


# ---------------------------------------------------------------- ungoals
def _ungoal_position(ungoal: str, met: bool = True):
    c = CAT[ungoal]
    mine = list(c.someone_has) if met else []
    rest = [x for x in DOOM_CREEPERS if x not in c.someone_has] if (met or c.someone_has) else []
    return arrange(new(3), hands={0: [ungoal]}, creepers={1: mine, 2: rest})


@pytest.mark.parametrize("ungoal", UNGOALS)
def test_ungoal_ends_the_game_with_everyone_losing(ungoal: str) -> None:
    s, ev = play(_ungoal_position(ungoal), "p0", ungoal)
    assert s.phase == "over" and s.winner is None and "ungoal_met" in types(ev)


@pytest.mark.parametrize("ungoal", [u for u in UNGOALS if CAT[u].someone_has])
def test_ungoal_needs_its_named_cards(ungoal: str) -> None:
    s, ev = play(_ungoal_position(ungoal, met=False), "p0", ungoal)
    assert s.phase != "over"


def test_ungoal_and_goal_replace_each_other_in_one_spot() -> None:
    s = arrange(new(3), hands={0: ["dunwich_horror", "cat"]}, goals=["meat_market"], rules=["play_2"])
    s, ev = play(s, "p0", "dunwich_horror")
    assert s.goals == ["dunwich_horror"] and "meat_market" in s.discard


# ---------------------------------------------------------------- New Rules
def test_draw_rules_and_play_rules_values() -> None:
    for rule, draw_n in (("draw_2", 2), ("draw_3", 3), ("draw_4", 4)):
        s = arrange(new(3), rules=[rule], hands={0: ["cat"]})
        assert ENGINE.view(s, None).draw_target == draw_n
    for rule, n in (("play_2", 2), ("play_3", 3), ("play_all", "all"), ("play_all_but_1", "all_but_1")):
        s = arrange(new(3), rules=[rule], hands={0: ["cat"]})
        assert ENGINE.view(s, None).play_target == n


def test_hand_limit_and_keeper_limit_values() -> None:
    for rule, n in (("hand_limit_1", 1), ("hand_limit_2", 2)):
        assert ENGINE.view(arrange(new(3), rules=[rule], hands={0: ["cat"]}), None).hand_limit == n
    for rule, n in (("keeper_limit_3", 3), ("keeper_limit_4", 4)):
        assert ENGINE.view(arrange(new(3), rules=[rule], hands={0: ["cat"]}), None).keeper_limit == n


def test_doom_draw_bonus_adds_your_own_doom_up_to_three() -> None:
    s = arrange(new(3), rules=["doom_draw_bonus"], keepers={0: ["necronomicon"]}, hands={0: ["cat"]})
    assert ENGINE.view(s, None).draw_target == 3
    s = arrange(new(3), rules=["doom_draw_bonus", "draw_2"], keepers={0: ["necronomicon"]}, creepers={0: ["cthulhu"]}, hands={0: ["cat"]})
    assert ENGINE.view(s, None).draw_target == 5


def test_miskatonic_studies_draws_one_more_with_the_book_or_the_librarian() -> None:
    s = arrange(new(3), rules=["miskatonic_studies"], keepers={0: ["librarian"]}, hands={0: ["cat"]})
    assert ENGINE.view(s, None).draw_target == 2
    s = arrange(new(3), rules=["miskatonic_studies"], keepers={0: ["librarian"], 1: ["necronomicon"]}, hands={0: ["cat"]})
    assert ENGINE.view(s, None).draw_target == 1  # the real book is out: the Librarian does not stand in


def test_fear_of_the_unknown_draws_one_and_adds_a_play_once_per_turn() -> None:
    s = arrange(new(3), rules=["fear_of_the_unknown"], hands={0: ["cat"]}, deck=["tomb"])
    s, ev = act(s, "p0", {"type": "use_power", "card": "fear_of_the_unknown"})
    assert s.players[0].hand == ["cat", "tomb"] and s.extra_plays == 1 and s.played == 0
    with pytest.raises(RuleError):
        act(s, "p0", {"type": "use_power", "card": "fear_of_the_unknown"})
    s, _ = play(s, "p0", "cat")
    assert s.current == 0
    s, _ = play(s, "p0", "tomb")
    assert s.current == 1


def test_double_agenda_keeps_two_goals_and_either_wins() -> None:
    s = arrange(new(3), hands={0: ["double_agenda", "meat_market", "mountains_of_madness"]}, rules=["play_all"],
                keepers={1: ["tomb", "penguins", "reanimator"]}, creepers={1: ["cthulhu"]})
    s, _ = play(s, "p0", "double_agenda")
    s, _ = play(s, "p0", "meat_market")
    s, _ = play(s, "p0", "mountains_of_madness")
    assert s.goals == ["meat_market", "mountains_of_madness"]
    s2 = arrange(s, hands={0: ["cat"]}, rules=["double_agenda"], goals=["meat_market", "mountains_of_madness"],
                 keepers={1: ["tomb", "reanimator"]}, current=0)
    s2, _ = play(s2, "p0", "cat")  # the older of the two goals is met
    assert s2.winner == "p1"


def test_double_agenda_a_third_goal_lets_its_player_choose_which_goal_leaves() -> None:
    s = arrange(new(3), hands={0: ["thing_on_the_doorstep", "cat"]}, rules=["double_agenda"],
                goals=["meat_market", "mountains_of_madness"])
    s, events = play(s, "p0", "thing_on_the_doorstep")
    # The new goal is in play beside the old two until p0 picks which old one goes (not the oldest by force).
    assert s.goals == ["meat_market", "mountains_of_madness", "thing_on_the_doorstep"]
    [prompt] = ENGINE.pending(s)
    assert (prompt.seat, prompt.kind, prompt.params["effect"]) == ("p0", "choose", "replace_goal")
    assert [a.option for a in ENGINE.legal_actions(s, "p0")] == ["meat_market", "mountains_of_madness"]
    for option in ("thing_on_the_doorstep", "cat"):  # the new goal stays; a non-goal is no answer
        with pytest.raises(RuleError) as err:
            choose(s, "p0", option)
        assert err.value.code == "flx.bad_option"
    s, events = choose(s, "p0", "mountains_of_madness")
    assert s.goals == ["meat_market", "thing_on_the_doorstep"] and s.discard[-1] == "mountains_of_madness"
    assert sorted(all_cards(s)) == full(s)


def test_double_agenda_the_third_goal_wins_at_once_before_the_choice() -> None:
    """FLX-R21: everyone sees the new goal before anything replaces it; p1 meets it, so the game ends."""
    s = arrange(new(3), hands={0: ["thing_on_the_doorstep"]}, rules=["double_agenda"],
                goals=["meat_market", "mountains_of_madness"], keepers={1: ["poet", "tomb"]})
    s, _ = play(s, "p0", "thing_on_the_doorstep")
    assert s.phase == "over" and s.winner == "p1"


def test_double_agenda_an_ungoal_sharing_the_spots_also_asks() -> None:
    s = arrange(new(3), hands={0: ["dunwich_horror"]}, rules=["double_agenda"],
                goals=["meat_market", "mountains_of_madness"])
    s, _ = play(s, "p0", "dunwich_horror")
    assert ENGINE.pending(s)[0].params["effect"] == "replace_goal"
    s, _ = choose(s, "p0", "meat_market")
    assert s.goals == ["mountains_of_madness", "dunwich_horror"]


def test_a_single_goal_spot_still_replaces_without_asking() -> None:
    s = arrange(new(3), hands={0: ["thing_on_the_doorstep"]}, goals=["meat_market"])
    s, events = play(s, "p0", "thing_on_the_doorstep")
    assert s.goals == ["thing_on_the_doorstep"] and not s.stack
    assert next(e for e in events if e.type == "goal_placed").replaced == ["meat_market"]


def test_double_agenda_leaving_trims_to_the_newest_goal() -> None:
    s = arrange(new(3), hands={0: ["unspeakable_truth"]}, rules=["double_agenda"], goals=["meat_market", "mountains_of_madness"])
    s, _ = play(s, "p0", "unspeakable_truth")
    s, _ = choose(s, "p0", "double_agenda")
    assert s.goals == ["mountains_of_madness"] and "meat_market" in s.discard


def test_the_stars_are_right_lets_a_goal_and_an_ungoal_coexist() -> None:
    s = arrange(new(3), hands={0: ["dunwich_horror"]}, rules=["stars_are_right"], goals=["meat_market"])
    s, _ = play(s, "p0", "dunwich_horror")
    assert s.goals == ["meat_market", "dunwich_horror"]


def test_forced_ungoal_play_puts_an_ungoal_from_any_hand_into_play() -> None:
    s = arrange(new(3), hands={0: ["forced_ungoal_play", "cat"], 2: ["dunwich_horror", "tomb"]}, rules=["play_2"])
    s, ev = play(s, "p0", "forced_ungoal_play")
    assert s.goals == ["dunwich_horror"] and s.players[2].hand == ["tomb"] and s.played == 1
    assert any(e.type == "card_played" and e.source == "forced" for e in ev)


# ---------------------------------------------------------------- actions
def test_dreams_and_omens_deals_cards_played_before_the_next_turn_without_counting() -> None:
    s = arrange(new(3), hands={0: ["dreams_and_omens", "poet"], 1: ["ghoul"]}, deck=["cat", "tomb", "farm", "artist"])
    s.deck.insert(len(s.deck) - 1, "cthulhu")  # drawn second: stays with the dealer and is replaced
    s.discard.remove("cthulhu")
    s, ev = play(s, "p0", "dreams_and_omens")
    assert s.players[0].creepers == ["cthulhu"] and sorted(s.players[0].limbo) == ["cat", "farm", "tomb"]
    assert s.stack[-1].kind == "deal_dreams"
    pub = ENGINE.view(s, None)
    assert pub.players[0].limbo is None and pub.players[0].limbo_count == 3
    s, ev = act(s, "p0", {"type": "give", "card": "cat", "to": "p1"})
    assert [e.card for e in ev if e.audience is None] == [None]
    assert {e.audience for e in ev if e.card} == {"p0", "p1"}
    s, _ = act(s, "p0", {"type": "give", "card": "tomb", "to": "p2"})
    s, _ = act(s, "p0", {"type": "give", "card": "farm", "to": "p0"})
    assert s.stack[-1].kind == "play_dream"  # the dealer plays their own dream at once
    s, ev = play(s, "p0", "farm")
    assert "farm" in s.players[0].keepers and ev[0].type == "card_played" and ev[0].counted is False
    assert s.current == 1 and s.stack[-1].kind == "play_dream" and s.drawn == 0  # before drawing
    s, _ = play(s, "p1", "cat")
    assert "cat" in s.players[1].keepers and s.played == 0 and s.drawn == 1


def test_even_death_may_die_plays_an_action_or_investigator_from_the_discard() -> None:
    s = arrange(new(3), hands={0: ["even_death_may_die"]})
    s.deck.remove("professor"), s.deck.remove("cat"), s.deck.remove("time_slip")
    s.discard += ["professor", "cat", "time_slip"]
    s, _ = play(s, "p0", "even_death_may_die")
    opts = s.stack[-1].params["options"]
    assert "professor" in opts and "time_slip" in opts and "cat" not in opts and "even_death_may_die" not in opts
    s, _ = choose(s, "p0", "professor")
    assert "professor" in s.players[0].keepers and all_cards(s) == full(s)


def test_mi_go_migration_investigators_then_the_mi_go_owner() -> None:
    s = arrange(new(3), hands={0: ["mi_go_migration"]}, keepers={1: ["professor", "cat"], 2: ["elder_sign", "private_eye"]},
                creepers={2: ["mi_go"]})
    s, _ = play(s, "p0", "mi_go_migration")
    assert s.players[1].keepers == ["cat"]  # part 1
    assert s.players[2].keepers == ["elder_sign"] and s.players[2].creepers == []  # part 2: no shelter


def test_mi_go_migration_player_with_two_investigators_chooses() -> None:
    s = arrange(new(3), hands={0: ["mi_go_migration"]}, keepers={1: ["professor", "private_eye"]})
    s, _ = play(s, "p0", "mi_go_migration")
    assert s.stack[-1].kind == "discard_investigator" and s.stack[-1].seats == ["p1"]
    s, _ = act(s, "p1", {"type": "discard", "card": "private_eye"})
    assert s.players[1].keepers == ["professor"]


def test_fbi_raid_discards_a_keeper_or_hands_it_to_the_feds() -> None:
    s = arrange(new(3), hands={0: ["fbi_raid"]}, keepers={1: ["professor"]}, creepers={1: ["insanity"]})
    s.attached = {"insanity": "professor"}
    s, _ = play(s, "p0", "fbi_raid")
    s, _ = choose(s, "p0", "professor")
    assert s.players[1].keepers == [] and s.players[1].creepers == [] and "insanity" in s.discard
    s = arrange(new(3), hands={0: ["fbi_raid"]}, keepers={1: ["cat"], 2: ["feds"]})
    s, _ = play(s, "p0", "fbi_raid")
    s, _ = choose(s, "p0", "cat")
    assert s.players[2].keepers == ["feds", "cat"]


def test_revelations_of_azathoth_draws_two_or_three_with_the_book() -> None:
    s = arrange(new(3), hands={0: ["revelations_of_azathoth", "cat"]}, rules=["play_2"])
    s, _ = play(s, "p0", "revelations_of_azathoth")
    assert len(s.players[0].hand) == 3
    s = arrange(new(3), hands={0: ["revelations_of_azathoth", "cat"]}, rules=["play_2"], keepers={0: ["librarian"]})
    s, _ = play(s, "p0", "revelations_of_azathoth")
    assert len(s.players[0].hand) == 4


def test_yellow_sign_discards_a_rule_or_all_with_the_book() -> None:
    s = arrange(new(3), hands={0: ["yellow_sign"]}, rules=["draw_2", "hand_limit_2"])
    s, _ = play(s, "p0", "yellow_sign")
    assert s.stack[-1].params["options"] == ["draw_2", "hand_limit_2"]
    s = arrange(new(3), hands={0: ["yellow_sign"]}, rules=["draw_2", "hand_limit_2"], keepers={0: ["necronomicon"]})
    s, _ = play(s, "p0", "yellow_sign")
    s, _ = choose(s, "p0", "all")
    assert s.rules == []


def test_exchange_keepers_swaps_with_attachments() -> None:
    s = arrange(new(3), hands={0: ["exchange_keepers"]}, keepers={0: ["cat"], 1: ["professor"]}, creepers={1: ["nightmares"]})
    s.attached = {"nightmares": "professor"}
    s, _ = play(s, "p0", "exchange_keepers")
    s, _ = choose(s, "p0", "cat>professor")
    assert s.players[0].keepers == ["professor"] and s.players[0].creepers == ["nightmares"]
    assert s.players[1].keepers == ["cat"]


def test_whispers_from_beyond_draw_three_play_two() -> None:
    s = arrange(new(3), hands={0: ["whispers_from_beyond", "poet"]}, rules=["play_2"], deck=["cat", "tomb", "farm"])
    s, _ = play(s, "p0", "whispers_from_beyond")
    s, _ = play(s, "p0", "cat")
    s, ev = play(s, "p0", "farm")
    assert "tomb" in s.discard and s.players[0].limbo == [] and s.played == 1


def test_cult_theft_ritual_sacrifice_banishing_ritual() -> None:
    s = arrange(new(3), hands={0: ["cult_theft"]}, keepers={2: ["cat"]})
    s, _ = play(s, "p0", "cult_theft")
    s, _ = choose(s, "p0", "cat")
    assert s.players[0].keepers == ["cat"]
    s = arrange(new(3), hands={0: ["ritual_sacrifice"]}, keepers={2: ["cat"]})
    s, _ = play(s, "p0", "ritual_sacrifice")
    s, _ = choose(s, "p0", "cat")
    assert "cat" in s.discard
    s = arrange(new(3), hands={0: ["banishing_ritual"]}, creepers={0: ["cthulhu", "shoggoth"]})
    s, _ = play(s, "p0", "banishing_ritual")
    s, _ = choose(s, "p0", "shoggoth")
    assert s.players[0].creepers == ["cthulhu"]


def test_body_swap_dream_drift_sleepless_night() -> None:
    s = arrange(new(3), hands={0: ["body_swap", "cat"], 2: ["tomb"]}, rules=["play_2"])
    s, _ = play(s, "p0", "body_swap")
    s, _ = choose(s, "p0", "p2")
    assert s.players[0].hand == ["tomb"] and s.players[2].hand == ["cat"]
    s = arrange(new(3), hands={0: ["dream_drift", "cat"], 1: ["tomb"], 2: ["farm"]}, rules=["play_2"])
    s, ev = play(s, "p0", "dream_drift")
    assert [p.hand for p in s.players] == [["farm"], ["cat"], ["tomb"]]
    s = arrange(new(3), hands={0: ["sleepless_night", "cat", "tomb"]}, rules=["play_2"], deck=["farm", "poet"])
    s, _ = play(s, "p0", "sleepless_night")
    assert sorted(s.players[0].hand) == ["farm", "poet"] and "cat" in s.discard


def test_time_slip_and_aeons_pass() -> None:
    s = arrange(new(3), hands={0: ["time_slip"], 1: ["cat"]})
    s, ev = play(s, "p0", "time_slip")
    turns = [e for e in ev if e.type == "turn_started"]
    assert s.current == 0 and turns[-1].seat == "p0" and turns[-1].extra is True


# ---------------------------------------------------------------- surprises
def test_twist_of_fate_off_turn_takes_a_keeper_just_played() -> None:
    s = arrange(new(3), hands={0: ["professor"], 2: ["twist_of_fate"]}, creepers={0: ["nightmares"]}, quiet=False)
    s, _ = play(s, "p0", "professor")
    assert s.stack[-1].seats == ["p1", "p2"]
    s, _ = act(s, "p2", {"type": "play", "card": "twist_of_fate"})
    s = pass_all(s)
    assert "professor" in s.players[2].keepers and "nightmares" not in s.attached  # no time to attach


def test_faq_twist_of_fate_does_not_react_to_a_keeper_gained_by_an_action() -> None:
    s = arrange(new(3), hands={0: ["cult_theft"], 2: ["twist_of_fate"]}, keepers={1: ["cat"]}, quiet=False)
    s, _ = play(s, "p0", "cult_theft")  # an action window: Disorder could cancel, Twist cannot
    legal = ENGINE.legal_actions(s, "p2")
    assert legal == [SPEC.parse_action({"type": "pass"})]
    with pytest.raises(RuleError) as err:
        act(s, "p2", {"type": "play", "card": "twist_of_fate"})
    assert err.value.code == "flx.surprise_does_not_apply"
    s = pass_all(s)
    s, _ = choose(s, "p0", "cat")
    assert not s.stack or s.stack[-1].kind != "react"


def test_twist_of_fate_on_turn_steals_a_keeper() -> None:
    s = arrange(new(3), hands={0: ["twist_of_fate"]}, keepers={1: ["cat"]})
    s, _ = play(s, "p0", "twist_of_fate")
    s, _ = choose(s, "p0", "cat")
    assert s.players[0].keepers == ["cat"]


def test_disorder_of_the_stars_on_turn_victims_choose_action_or_random() -> None:
    s = arrange(new(3), hands={0: ["disorder_of_the_stars", "cat"], 1: ["time_slip", "tomb"], 2: ["farm"]})
    s, _ = play(s, "p0", "disorder_of_the_stars")
    assert [a.type for a in ENGINE.legal_actions(s, "p1")] == ["discard", "discard_random"]
    assert [a.type for a in ENGINE.legal_actions(s, "p2")] == ["discard_random"]
    with pytest.raises(RuleError):
        act(s, "p1", {"type": "discard", "card": "tomb"})
    s, _ = act(s, "p1", {"type": "discard", "card": "time_slip"})
    s, _ = act(s, "p2", {"type": "discard_random"})
    assert "tomb" in s.players[1].hand and {"time_slip", "farm"} <= set(s.discard)


def test_secret_cultist_on_turn_brings_back_an_ungoal() -> None:
    s = arrange(new(3), hands={0: ["secret_cultist"]}, goals=["meat_market"])
    s.deck.remove("dunwich_horror")
    s.discard.append("dunwich_horror")
    s, _ = play(s, "p0", "secret_cultist")
    s, _ = choose(s, "p0", "dunwich_horror")
    assert s.goals == ["dunwich_horror"]


def test_secret_cultist_can_be_cancelled_and_then_the_ungoal_stands() -> None:
    s = arrange(new(3), hands={0: ["dunwich_horror"], 1: ["secret_cultist"], 2: ["disorder_of_the_stars"]},
                creepers={2: ["yog_sothoth", "cthulhu", "shoggoth"]}, quiet=False)
    s, _ = play(s, "p0", "dunwich_horror")
    s, _ = act(s, "p1", {"type": "play", "card": "secret_cultist"})
    s, _ = act(s, "p2", {"type": "play", "card": "disorder_of_the_stars"})
    s = pass_all(s)
    assert s.phase == "over" and s.winner is None


# ---------------------------------------------------------------- keeper powers
def test_faq_the_dreamer_shakes_off_nightmares_even_from_itself() -> None:
    s = arrange(new(3), hands={0: ["cat"]}, keepers={0: ["dreamer"]}, creepers={0: ["nightmares"]})
    s.attached = {"nightmares": "dreamer"}
    s, _ = act(s, "p0", {"type": "use_power", "card": "dreamer", "target": "nightmares"})
    assert s.players[0].creepers == [] and s.players[0].keepers == ["dreamer"] and s.attached == {}


def test_the_dreamer_helps_any_keeper() -> None:
    s = arrange(new(3), hands={0: ["cat"]}, keepers={0: ["dreamer"], 1: ["professor"]}, creepers={1: ["nightmares"]})
    s.attached = {"nightmares": "professor"}
    s, _ = act(s, "p0", {"type": "use_power", "card": "dreamer", "target": "nightmares"})
    assert s.players[1].keepers == ["professor"] and s.players[1].creepers == []


def test_the_sanitarium_cures_its_owner_of_nightmares_or_insanity() -> None:
    s = arrange(new(3), hands={0: ["cat"]}, keepers={0: ["sanitarium", "professor"], 1: ["poet"]},
                creepers={0: ["insanity"], 1: ["nightmares"]})
    s.attached = {"insanity": "sanitarium", "nightmares": "poet"}
    opts = [a for a in ENGINE.legal_actions(s, "p0") if a.type == "use_power"]
    assert [(a.card, a.target) for a in opts] == [("sanitarium", "insanity")]
    s, _ = act(s, "p0", {"type": "use_power", "card": "sanitarium", "target": "insanity"})
    assert s.players[0].keepers == ["sanitarium", "professor"] and s.players[0].creepers == []


def test_the_feds_wipe_out_a_keeper_with_its_creeper_and_themselves() -> None:
    s = arrange(new(3), hands={0: ["cat"]}, keepers={0: ["feds"], 1: ["professor"]}, creepers={1: ["insanity"]})
    s.attached = {"insanity": "professor"}
    s, _ = act(s, "p0", {"type": "use_power", "card": "feds", "target": "professor"})
    assert s.players[1].keepers == [] and s.players[1].creepers == [] and s.players[0].keepers == []
    assert {"feds", "professor", "insanity"} <= set(s.discard)


def test_the_reanimator_claims_the_body() -> None:
    s = arrange(new(3), hands={0: ["cat"]}, keepers={0: ["reanimator"]}, creepers={2: ["the_body"]})
    s, _ = act(s, "p0", {"type": "use_power", "card": "reanimator", "target": "the_body"})
    assert s.players[0].creepers == ["the_body"]


def test_the_librarian_stands_in_for_actions_not_goals() -> None:
    s = arrange(new(3), hands={0: ["miskatonics_rarest_book"]}, keepers={1: ["librarian"]})
    s, _ = play(s, "p0", "miskatonics_rarest_book")
    assert s.phase != "over"


def test_the_cat_and_the_elder_sign_bless() -> None:
    assert CAT["cat"].blessing == 1 and CAT["elder_sign"].blessing == 1
    assert CAT["cthulhu"].doom == 3 and CAT["necronomicon"].doom == 2


def test_rejected_power_changes_nothing() -> None:
    s = arrange(new(3), hands={0: ["cat"]}, keepers={0: ["reanimator"]})
    before = s.model_dump_json()
    with pytest.raises(RuleError):
        act(s, "p0", {"type": "use_power", "card": "reanimator", "target": "the_body"})
    assert s.model_dump_json() == before

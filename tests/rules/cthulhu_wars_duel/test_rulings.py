"""The digest's §10 rulings (A1..A28) as the engine applies them, one test each, plus the engine behaviour
that replaced former known limitations (reveal window, map notice, Gate runs, Energy Nexus actions)."""

from __future__ import annotations

import pytest

from rules.core import RuleError
from rules.cthulhu_wars_duel import battle as B
from rules.cthulhu_wars_duel import maps
from rules.cthulhu_wars_duel.common import held, on_map, pool
from rules.cthulhu_wars_duel.factions import RITUAL_TRACKS, SPELLBOOKS, UNITS
from rules.cthulhu_wars_duel.factions import SLEEPER as S
from rules.cthulhu_wars_duel.factions import WINDWALKER as W
from tests.rules.cthulhu_wars_duel.helpers import ENGINE, SL, WW, act, conserved, new, place, set_turn, top
from tests.rules.cthulhu_wars_duel.test_rules import decide, doom_phase

SIX_SL = ["burrow", "energy_nexus", "ancient_sorcery", "capture_monster", "cursed_slumber", "demand_sacrifice"]


def legal(s, seat, type_=None):
    return [a for a in ENGINE.legal_actions(s, seat) if type_ is None or a.type == type_]


def test_a1_serpent_man_combat_is_one():
    """A1: a Serpent Man rolls one die (battle example 2: two of them roll two)."""
    s = place(new(), {S: {"kalahari": {"serpent_man": 2, "sl_acolyte": 1}}})
    assert B.unit_combat(s, S, "serpent_man") == 1 and B.side_combat(s, S, "kalahari") == 2


def test_a2_spellbooks_are_data_with_six_per_faction():
    """A2: the twelve spellbooks and twelve requirements are data (factions.py mirrors data/cards.json)."""
    assert all(len(books) == 6 for books in SPELLBOOKS)
    assert set(SPELLBOOKS[S]) == set(SIX_SL)


def test_a3_extinction_map_is_marked_reconstructed_in_view_and_event():
    """A3: the Extinction layout is a reconstruction: the map data says so, every view carries the flag and
    the start event tells the bot to announce it; the Earth map is not flagged."""
    assert maps.load("extinction").reconstructed and not maps.load("earth").reconstructed
    s = ENGINE.new_game([SL, WW], None, 2)
    assert ENGINE.view(s, None).map_reconstructed is True
    s, ev = ENGINE.apply(s, WW, {"type": "decide", "choice": "start", "area": "arctic"})
    assert [e.data for e in ev if e.type == "map_reconstructed"] == [{"map": "extinction"}]
    e = ENGINE.new_game([SL, WW], {"map": "earth"}, 2)
    assert ENGINE.view(e, SL).map_reconstructed is False
    _e, ev = ENGINE.apply(e, WW, {"type": "decide", "choice": "start", "area": "arctic_ocean"})
    assert not [x for x in ev if x.type == "map_reconstructed"]


def test_a4_ritual_tracks():
    """A4: standard 5,6,7,8,9,10 then END; the long option 5,6,7,7,8,8,9,10 then END."""
    assert new().ritual_track == [5, 6, 7, 8, 9, 10] == list(RITUAL_TRACKS["standard"])
    assert new(ritual_track="long").ritual_track == [5, 6, 7, 7, 8, 8, 9, 10]


def test_a5_elder_sign_mix():
    """A5: twelve signs, six 1s, four 2s, two 3s."""
    assert new().bag == [6, 4, 2]


def test_a6_capture_scores_the_unit_value():
    """A6: capturing a cultist gives 1 Doom; Capture Monster gives the monster's value (Wendigo 1)."""
    s = set_turn(new(), S, {S: 5})
    s.players[S]["books"] = ["capture_monster"]
    s = place(s, {S: {"kalahari": {"tsathoggua": 1}}, W: {"kalahari": {"wendigo": 1, "ww_acolyte": 1}}}, {})
    s2, _ = act(s, SL, type="capture", area="kalahari")
    assert s2.players[S]["doom"] == 1
    s3, _ = act(s, SL, type="unique", ability="capture_monster", area="kalahari")
    assert s3.players[S]["doom"] == 1 and s3.captives[S] == {"wendigo": 1} and conserved(s3)


def test_a7_demand_sacrifice_pains_score_nothing(dice):
    """A7: Kills turned into Pains by Demand Sacrifice give the Windwalker no Doom."""
    s = set_turn(new(), W, {S: 3, W: 4})
    s.players[S]["books"] = ["demand_sacrifice"]
    s = place(s, {S: {"kalahari": {"sl_acolyte": 1}, "karoo": {"tsathoggua": 1}}, W: {"kalahari": {"gnoph_keh": 1}}}, {})
    s, _ = act(s, WW, type="battle", area="kalahari")
    dice[:] = [6, 6, 6]
    s, _ = decide(s, WW, "pains")
    while s.battle is not None:
        a = legal(s, SL, "decide")[0]
        s, _ = decide(s, SL, a.choice, a.area)
    assert s.players[W]["doom"] == 0


def test_a8_eternal_on_a_pain_gives_no_doom(dice):
    """A8: only a cancelled Kill scores half; a cancelled Pain scores nothing."""
    s = set_turn(new(), S, {S: 3, W: 2})
    s = place(s, {S: {"kalahari": {"serpent_man": 1}}, W: {"kalahari": {"rhan_tegoth": 1}}}, {})
    dice[:] = [4] + [1, 1, 1]
    s, _ = act(s, SL, type="battle", area="kalahari")
    s, _ = decide(s, WW, "yes")
    assert s.players[S]["doom"] == 0 and s.units[W]["kalahari"] == {"rhan_tegoth": 1}


def test_a9_berserkergang_only_battle_units_never_goos(dice):
    """A9: Berserkergang picks among the Sleeper's monsters/cultists in the battle; with only Tsathoggua
    left, nothing is eliminated."""
    s = set_turn(new(), S, {S: 3, W: 2})
    s.players[W]["books"] = ["berserkergang"]
    s = place(s, {S: {"kalahari": {"tsathoggua": 1}, "karoo": {"sl_acolyte": 2}}, W: {"kalahari": {"gnoph_keh": 1}}}, {})
    dice[:] = [6, 1] + [1, 1, 1]
    s, _ = act(s, SL, type="battle", area="kalahari")
    assert s.units[S]["kalahari"] == {"tsathoggua": 1} and s.units[S]["karoo"] == {"sl_acolyte": 2}
    assert s.players[W]["doom"] == 0 and s.battle is None


def test_a10_cannibalism_after_berserkergang_in_example_order(dice):
    """A10: with both Post-Battle books the eliminations are settled with the Kills, Cannibalism after all
    results, as in the rulebook's complex example."""
    s = set_turn(new(), S, {S: 3, W: 2})
    s.players[W]["books"] = ["berserkergang", "cannibalism"]
    s = place(s, {S: {"kalahari": {"serpent_man": 1, "wizard": 1}}, W: {"kalahari": {"gnoph_keh": 1, "ww_acolyte": 1}}}, {})
    dice[:] = [6] + [6, 1, 1]
    s, _ = act(s, SL, type="battle", area="kalahari")
    kinds = []
    while s.stack:
        kinds.append(top(s).kind)
        seat = top(s).seats[0]
        a = legal(s, seat, "decide")[0]
        s, _ = decide(s, seat, a.choice, a.area)
    assert kinds.index("cannibalism") == len(kinds) - 1 and "assign" in kinds


def test_a11_energy_nexus_costs_normally_without_decay_and_needs_power():
    """A11: Energy Nexus pays the normal cost, no Decay on the opponent's turn, and is not offered at 0."""
    s = set_turn(new(), W, {S: 2, W: 5})
    s.players[S]["books"] = ["energy_nexus"]
    s = place(s, {S: {"kalahari": {"wizard": 1}}, W: {"kalahari": {"wendigo": 1}}}, {})
    s.decay = 3
    t, _ = act(s, WW, type="battle", area="kalahari")
    t, _ = decide(t, SL, "recruit", "kalahari")
    assert t.players[S]["power"] == 1
    z = s.clone()
    z.players[S]["power"] = 0
    z, _ = act(z, WW, type="battle", area="kalahari")
    assert "nexus" not in [f.kind for f in z.stack]


def test_a12_decay_once_per_turn_not_per_action():
    """A12: free Gate changes and the main action add no further Decay."""
    from rules.cthulhu_wars_duel.engine import begin_turn
    s = set_turn(new(), S, {S: 5, W: 0})
    s.decay = 1
    s.turn = W
    begin_turn(s, [])
    assert s.decay == 2 and s.players[S]["power"] == 3
    s, _ = act(s, SL, type="abandon_gate", area="central_pangaea")
    assert s.players[S]["power"] == 3
    s, _ = act(s, SL, type="spend_requirement", requirement="sl_req_spend3_opp_lose1")
    assert s.players[S]["power"] == 0 and s.decay == 2


def test_a13_reveal_to_thirty_on_your_turn_lets_the_turn_finish():
    """A13/CWD-R113: (the kill variant is in test_rule_ids) a reveal to 30 on your own turn: the turn goes
    on, and the game ends when it ends."""
    s = set_turn(new(), S, {S: 4, W: 4})
    s.players[S]["doom"] = 28
    s.players[S]["signs"] = [2]
    s, _ = act(s, SL, type="reveal", value=2)
    assert s.phase == "action" and ENGINE.pending(s)[0].kind == "turn"
    s, _ = act(s, SL, type="pass")
    assert s.phase == "over" and ENGINE.result(s).winners == [SL]


def test_a14_hibernating_counts_as_zero_for_decay():
    """A14: a hibernating Windwalker advances Decay on its turns and keeps its Power."""
    s = set_turn(new(), W, {S: 6, W: 4})
    s, _ = act(s, WW, type="unique", ability="hibernate")
    s, _ = act(s, SL, type="move")
    s, _ = act(s, SL, type="move_unit", kind="sl_acolyte", src="central_pangaea", dst="kalahari")
    s, _ = act(s, SL, type="end_move")
    s, _ = act(s, SL, type="end_turn")
    assert s.decay == 1 and s.players[W]["power"] == 4 and s.players[S]["power"] == 4 and s.turn == S


def test_a15_hibernate_gain_is_capped_by_current_power():
    """A15: gain = min(enemy GOOs in play, current Power): one GOO, 1 Power -> 2."""
    s = set_turn(new(), W, {S: 5, W: 1})
    s = place(s, {S: {"central_pangaea": {"sl_acolyte": 6, "tsathoggua": 1}}})
    s, ev = act(s, WW, type="unique", ability="hibernate")
    assert s.players[W]["power"] == 2 and [e.data["gain"] for e in ev if e.type == "hibernated"] == [1]


def test_a16_one_glyph_area_left_places_one():
    """A16: see test_rule_ids.test_cwd_r96...; a finished tower supply places nothing."""
    from rules.cthulhu_wars_duel.engine import place_tower
    s = new()
    s.towers = ["x"] * 10
    place_tower(s, "kalahari", [])
    assert len(s.towers) == 10


def test_a17_ithaqua_can_replace_a_towered_gate_and_the_tower_stays():
    """A17: a towered Gate in a glyph area can become Ithaqua; the Tower covers the next Gate built there."""
    s = set_turn(new(start="antarctic"), W, {W: 12})
    s.players[W]["rhan_ever"] = True
    s.gates["arctic"] = -1
    s.towers = ["arctic"]
    s = place(s, {W: {"antarctic": {"ww_acolyte": 5}, "arctic": {"ww_acolyte": 1}}})
    s, _ = act(s, WW, type="awaken", kind="ithaqua", area="arctic")
    assert "arctic" not in s.gates and s.towers == ["arctic"]
    s = set_turn(s, W)
    s, _ = act(s, WW, type="build_gate", area="arctic")
    assert s.gates["arctic"] == -1


def test_a18_first_tower_without_a_gate():
    """A18: the first-Doom-phase Tower goes into a start area that has no Gate (here Ithaqua took it)."""
    s = doom_phase(new(start="arctic"), first=S)
    del s.gates["arctic"]
    s, _ = act(s, SL, type="doom_done")
    s, _ = act(s, WW, type="doom_done")
    assert "arctic" in s.towers and "arctic" not in s.gates


def test_a19_any_time_book_outside_battles_and_moves(dice):
    """A19: the Windwalker may take its any-time book on its prompts, but not inside a battle or a Move."""
    s = set_turn(new(), W, {S: 3, W: 5})
    assert legal(s, WW, "take_any_time_book")
    t = place(s, {S: {"kalahari": {"serpent_man": 1, "wizard": 1}}, W: {"kalahari": {"gnoph_keh": 1}}}, {})
    dice[:] = [6, 1, 1] + [1]
    t, _ = act(t, WW, type="battle", area="kalahari")
    assert top(t).kind == "assign" and not legal(t, SL, "take_any_time_book")
    m, _ = act(s, WW, type="move")
    assert not legal(m, WW, "take_any_time_book")
    s, ev = act(s, WW, type="take_any_time_book")
    assert "ww_req_any_time" in s.players[W]["reqs"] and not s.players[W]["signs"]  # opponent lacks six books


def test_a20_defender_retreats_checked_after_attacker():
    """A20: pinned by test_rule_ids.test_cwd_r70_r70a_r70b_retreats_attacker_first_can_block_the_defender."""
    assert B.STEPS.index("r_att") < B.STEPS.index("r_def")


def test_a21_battle_needs_total_combat_above_zero_at_declaration():
    """A21: Tsathoggua alone may attack (at least 2); Wizards and Acolytes alone may not."""
    s = set_turn(new(), S, {S: 3, W: 0})
    s = place(s, {S: {"kalahari": {"tsathoggua": 1}, "karoo": {"wizard": 2, "sl_acolyte": 1}},
                  W: {"kalahari": {"ww_acolyte": 1}, "karoo": {"ww_acolyte": 1}}}, {})
    assert [a.area for a in legal(s, SL, "battle")] == ["kalahari"]


def test_a22_power_tie_previous_first_player_decides():
    """A22: on a Power tie the current first player chooses who is first."""
    from tests.rules.cthulhu_wars_duel.test_phases_and_books import gather
    s = new()
    s.first = S
    s, _ = gather(s)
    assert top(s).kind == "choose_first" and top(s).seats == [SL]
    s, _ = decide(s, SL, SL)
    assert s.first == S and s.phase == "doom"


def test_a23_serpent_man_on_the_enemy_card_is_not_in_play():
    """A23: a Serpent Man lent by Ancient Sorcery is held (not pool, not map); Spawn count only the map."""
    s = place(new(), {S: {"kalahari": {"formless_spawn": 2, "serpent_man": 1}}})
    s.sorcery = 1
    assert on_map(s, S, "serpent_man") == 1 and held(s, S, "serpent_man") == 1 and pool(s, S, "serpent_man") == 1
    assert B.unit_combat(s, S, "formless_spawn") == 2 and conserved(s)


def test_a24_lose_one_power_stops_at_zero():
    """A24: the Sleeper's "opponent loses 1" requirement works against 0 Power, which stays 0."""
    s = set_turn(new(), S, {S: 5, W: 0})
    s, _ = act(s, SL, type="spend_requirement", requirement="sl_req_spend3_opp_lose1")
    assert s.players[W]["power"] == 0 and "sl_req_spend3_opp_lose1" in s.players[S]["reqs"]


def test_a25_rhan_tegoth_takes_one_result(dice):
    """A25: a Kill and a Pain against a lone Rhan-Tegoth: he takes the first only (here unpaid: killed)."""
    s = set_turn(new(), S, {S: 3, W: 0})
    s = place(s, {S: {"kalahari": {"serpent_man": 2}}, W: {"kalahari": {"rhan_tegoth": 1}}}, {})
    dice[:] = [6, 5] + [1, 1, 1]
    s, _ = act(s, SL, type="battle", area="kalahari")
    assert "kalahari" not in s.units[W] and s.players[S]["doom"] == 6 and s.battle is None


def test_a26_serpent_man_comes_back_before_other_doom_abilities():
    """A26: while the Serpent Man is on the enemy card, only its return is offered; then Death from Below."""
    s = doom_phase(new(), first=S)
    s.sorcery = 1
    assert {a.ability for a in legal(s, SL, "unique")} == {"sorcery_return"} and not legal(s, SL, "doom_done")
    s, _ = act(s, SL, type="unique", ability="sorcery_return", area="central_pangaea")
    assert "death_from_below" in {a.ability for a in legal(s, SL, "unique")}


def test_a27_ability_placement_with_empty_pool_does_nothing():
    """A27: no Sleeper monster in the pool, no Death from Below; no Wendigo/Acolyte left, no Cannibalism."""
    s = doom_phase(place(new(), {S: {"central_pangaea": {"sl_acolyte": 6, "wizard": 2, "serpent_man": 3,
                                                        "formless_spawn": 4}}}), first=S)
    assert not legal(s, SL, "unique")
    assert B.cheapest_monster(s) is None


def test_a28_spend_six_is_gone_once_the_opponent_has_six_books():
    """A28: the Windwalker's 6-Power requirement action is not offered when the slot is already earned."""
    s = set_turn(new(), W, {W: 8})
    assert legal(s, WW, "spend_requirement")
    s.players[S]["books"] = list(SIX_SL)
    s.players[W]["reqs"] = ["ww_req_opp_6_books_or_spend_6"]
    assert not legal(s, WW, "spend_requirement")


# ---------------------------------------------------------------------- former limitations, now rules
def test_reveal_window_for_a_player_skipped_at_zero_power():
    """CWD-R121/CWD-R113: a player at 0 Power whose face-down signs could reach 30 (judged from public
    facts only) is asked before Decay advances; a reveal to 30 ends the game at once."""
    s = set_turn(new(), S, {S: 5, W: 0})
    s.players[W]["doom"] = 25
    s.players[W]["signs"] = [2, 3]
    s, _ = act(s, SL, type="move")
    s, _ = act(s, SL, type="move_unit", kind="sl_acolyte", src="central_pangaea", dst="kalahari")
    s, _ = act(s, SL, type="end_move")
    s, _ = act(s, SL, type="end_turn")
    assert top(s).kind == "reveal_window" and top(s).seats == [WW] and s.decay == 0
    assert {a.type for a in legal(s, WW)} == {"decide", "reveal", "take_any_time_book"}
    assert not legal(s, SL)
    declined, _ = decide(s, WW, "done")
    assert declined.decay == 1 and declined.turn == S and declined.players[S]["power"] == 3
    s, _ = act(s, WW, type="reveal", value=3)
    s, _ = act(s, WW, type="reveal", value=2)
    assert top(s).kind == "reveal_window"
    s, _ = decide(s, WW, "done")
    assert s.phase == "over" and ENGINE.result(s).winners == [WW]


def test_no_reveal_window_when_thirty_is_out_of_reach():
    """The window only opens when Doom + 3 per face-down sign reaches 30, so it leaks no values."""
    s = set_turn(new(), S, {S: 5, W: 0})
    s.players[W]["doom"] = 20
    s.players[W]["signs"] = [3, 3]
    s, _ = act(s, SL, type="move")
    s, _ = act(s, SL, type="move_unit", kind="sl_acolyte", src="central_pangaea", dst="kalahari")
    s, _ = act(s, SL, type="end_move")
    s, _ = act(s, SL, type="end_turn")
    assert top(s) is None and s.decay == 1 and s.turn == S


def test_gate_changes_once_per_run_but_again_after_the_action():
    """CWD-R40: control and abandon are free and repeatable; within one run of free changes a Gate flips
    once (a second flip would only undo the first), and a new run opens after the main action."""
    s = set_turn(new(), S, {S: 5})
    s, _ = act(s, SL, type="abandon_gate", area="central_pangaea")
    assert not legal(s, SL, "control_gate")
    with pytest.raises(RuleError) as e:
        act(s, SL, type="control_gate", area="central_pangaea")
    assert e.value.code == "cwd.gate_unavailable"
    s, _ = act(s, SL, type="move")
    s, _ = act(s, SL, type="move_unit", kind="sl_acolyte", src="central_pangaea", dst="kalahari")
    s, _ = act(s, SL, type="end_move")
    assert ENGINE.pending(s)[0].kind == "after_action" and legal(s, SL, "control_gate")
    s, _ = act(s, SL, type="control_gate", area="central_pangaea")
    assert s.gates["central_pangaea"] == S


def test_energy_nexus_offers_every_action_starting_in_the_area():
    """CWD-R60b: Ancient Sorcery, Capture Monster and Cursed Slumber from the battle area are offered too."""
    s = set_turn(new(), W, {S: 5, W: 5})
    s.players[S]["books"] = ["energy_nexus", "ancient_sorcery", "capture_monster", "cursed_slumber"]
    s = place(s, {S: {"kalahari": {"wizard": 1, "serpent_man": 1, "tsathoggua": 1, "sl_acolyte": 1}},
                  W: {"kalahari": {"wendigo": 1}}}, {"kalahari": S})
    s, _ = act(s, WW, type="battle", area="kalahari")
    choices = {a.choice for a in legal(s, SL, "decide")}
    assert {"unique:ancient_sorcery", "unique:capture_monster", "unique:cursed_slumber"} <= choices
    t, _ = decide(s, SL, "unique:capture_monster", "kalahari")
    assert t.captives[S] == {"wendigo": 1} and t.battle is None  # the Windwalker side is empty: no battle
    assert UNITS["wendigo"][4] == t.players[S]["doom"]


def test_a3_map_validation_rejects_broken_data():
    """A3: map files are validated: unknown or self neighbours, a disconnected graph, a missing Sleeper glyph
    or Windwalker pair, glyphs on unknown areas and Tower rules without tower glyphs are all refused."""
    import copy
    import json
    good = json.loads((maps.MAP_DIR / "extinction.json").read_text(encoding="utf-8"))
    maps.validate(good)

    def broken(change):
        data = copy.deepcopy(good)
        change(data)
        with pytest.raises(maps.MapError):
            maps.validate(data)

    def disconnect(d):
        for a in d["areas"]:
            a["adj"] = []

    broken(disconnect)
    broken(lambda d: d["areas"][0]["adj"].append(d["areas"][0]["id"]))
    broken(lambda d: d["areas"][0]["adj"].append("atlantis"))
    broken(lambda d: d["start"].update(sleeper=[]))
    broken(lambda d: d["start"].update(windwalker=["arctic"]))
    broken(lambda d: d.update(tower_glyph=["atlantis"]))
    broken(lambda d: d.update(tower_glyph=[]))

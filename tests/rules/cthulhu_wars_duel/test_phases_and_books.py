"""Gather Power, first player, Doom phase, Dark Towers, end of game, Elder Signs, faction abilities and
spellbooks (rule ids of the digest)."""

from __future__ import annotations

import json

import pytest

from rules.core import RuleError
from rules.cthulhu_wars_duel import battle as B
from rules.cthulhu_wars_duel import maps
from rules.cthulhu_wars_duel.engine import begin_turn, ritual_cost
from rules.cthulhu_wars_duel.factions import SLEEPER as S
from rules.cthulhu_wars_duel.factions import UNITS
from rules.cthulhu_wars_duel.factions import WINDWALKER as W
from tests.rules.cthulhu_wars_duel.helpers import (
    ENGINE,
    SL,
    WW,
    act,
    conserved,
    new,
    place,
    set_turn,
    top,
)
from tests.rules.cthulhu_wars_duel.test_rules import decide, doom_phase, fin


def gather(s):
    """Both players out of Power: the Action phase ends and Gather Power runs."""
    s = s.clone()
    s.players[S]["power"] = 0
    if not s.players[W]["hibernating"]:
        s.players[W]["power"] = 0
    s.stack = []
    ev: list = []
    begin_turn(s, ev)
    return s, ev


# ---------------------------------------------------------------------- Gather Power and first player
def test_cwd_r92_power_minimum_example():
    """CWD-R90/R92: 4 against 11 becomes 6 (half of 11 rounded up)."""
    s = new()
    s = place(s, {S: {"kalahari": {"sl_acolyte": 4}}, W: {"arctic": {"ww_acolyte": 5}}},
              {"arctic": W, "karoo": -2 + 1 and W, "cimmeria": W})
    s.units[W]["karoo"] = {"ww_acolyte": 1}
    s.units[W]["cimmeria"] = {"ww_acolyte": 1}
    s.units[W]["arctic"] = {"ww_acolyte": 3}
    s, ev = gather(s)
    got = next(e for e in ev if e.type == "power_gathered").data
    assert got["gathered"] == [4, 11] and got["power"] == [6, 11]
    # 4.3: the Windwalker has more Power and becomes first player: its requirement is met
    assert s.first == W and "ww_req_first_player" in s.players[W]["reqs"] and top(s).kind == "choose_book"


def test_cwd_r90_abandoned_and_towered_gates_pay_both():
    s = place(new(), {S: {}, W: {}}, {"kalahari": -1, "karoo": -1})
    s.towers = ["karoo"]
    s, ev = gather(s)
    got = next(e for e in ev if e.type == "power_gathered").data
    assert got["income"] == [2, 2]


def test_first_player_tie_is_chosen_by_the_current_first():
    s = new()  # both have 6 Acolytes and a Gate: 8 each
    s, _ = gather(s)
    assert top(s).kind == "choose_first" and top(s).seats == [SL]
    s, _ = decide(s, SL, WW)
    assert s.first == W and s.phase == "doom" and ENGINE.pending(s)[0].seat in (WW,)
    assert "ww_req_first_player" in s.players[W]["reqs"]


# ---------------------------------------------------------------------- Doom phase
def test_cwd_r110_ritual_example_with_herald():
    """Ritual example: the track shows 7, Herald pays 5; 3 Gates give 3 Doom; 2 GOOs draw 2 Elder Signs."""
    s = doom_phase(new(), first=W)
    s.ritual = 2
    assert s.ritual_track[s.ritual] == 7
    s.players[W]["books"] = ["herald_of_the_outer_gods"]
    s.players[W]["power"] = 9
    s = place(s, {W: {"arctic": {"ww_acolyte": 2, "rhan_tegoth": 1}, "karoo": {"ww_acolyte": 1, "ithaqua": 1},
                      "kalahari": {"ww_acolyte": 1}}}, {"arctic": W, "karoo": W, "kalahari": W, "central_pangaea": S})
    assert ritual_cost(s, W) == 5 and ritual_cost(s, S) == 7
    s, ev = act(s, WW, type="ritual")
    assert s.players[W]["power"] == 4 and s.players[W]["doom"] == 3 and len(s.players[W]["signs"]) == 2
    assert s.ritual == 3
    public = [e for e in ev if e.type == "elder_sign_value"]
    assert all(e.audience == WW for e in public) and len(public) == 2
    with pytest.raises(RuleError) as e:
        act(s, WW, type="ritual")
    assert e.value.code == "cwd.ritual_done"


def test_cwd_r111_r113_end_of_the_world_second_player_pays_10():
    s = doom_phase(new(), first=S)
    s.ritual = 5  # the marker on 10
    s.players[S]["power"] = 10
    s.players[W]["power"] = 10
    s, _ = act(s, SL, type="ritual")
    s, _ = act(s, SL, type="decide", choice="burrow") if top(s) else (s, [])
    assert s.ritual == 6 and s.phase == "doom"  # END reached, the phase is finished first
    s, _ = act(s, SL, type="doom_done")
    assert ritual_cost(s, W) == 10
    s, _ = act(s, WW, type="ritual")
    s, _ev = act(s, WW, type="doom_done")
    assert s.phase == "over" and ENGINE.result(s).reason == "end_of_the_world"


def test_cwd_r113_doom_30_in_action_phase_ends_after_the_turn_and_r114_ties_share():
    s = set_turn(new(), S, {S: 8, W: 8})
    s.players[S]["signs"] = [3]
    s.players[S]["doom"] = 27
    s.players[W]["doom"] = 30
    s.players[W]["signs"] = []
    s, _ = act(s, SL, type="reveal", value=3)
    assert s.players[S]["doom"] == 30 and s.phase == "action"  # the turn goes on
    s, _ev = act(s, SL, type="pass")
    assert s.phase == "over"
    r = ENGINE.result(s)
    assert r.ranking == [[SL, WW]] and sorted(r.winners) == [SL, WW] and r.reason == "doom_30"


def test_cwd_r114_final_reveal_counts_hidden_signs():
    s = set_turn(new(), S, {S: 8, W: 8})
    s.players[S]["doom"] = 31
    s.players[W]["doom"] = 29
    s.players[W]["signs"] = [3]
    s, events = act(s, SL, type="pass")
    r = ENGINE.result(s)
    assert r.scores == {SL: 31, WW: 32} and r.winners == [WW]
    over = [e for e in events if e.type == "game_over"]
    # The closing event names the seats in faction order so the table can mention the players.
    assert over and over[0].data["seats"] == [SL, WW] and over[0].data["scores"] == [31, 32]


def test_cwd_r121_r122_r123_elder_signs():
    s = set_turn(new(), S)
    s.bag = [0, 0, 0]
    from rules.cthulhu_wars_duel.common import draw_sign
    ev: list = []
    draw_sign(s, S, ev)
    assert s.players[S]["doom"] == 1 and s.players[S]["signs"] == []  # empty bag: 1 Doom instead
    s.players[S]["signs"] = [2, 1]
    assert ENGINE.view(s, WW).players[S].elder_sign_values is None
    assert ENGINE.view(s, WW).players[S].elder_signs == 2
    assert ENGINE.view(s, SL).players[S].elder_sign_values == [1, 2]
    s2, ev = act(s, SL, type="reveal", value=2)
    assert s2.players[S]["signs"] == [1] and s2.players[S]["doom"] == 3
    with pytest.raises(RuleError) as e:
        act(s2, SL, type="reveal", value=3)
    assert e.value.code == "cwd.no_such_sign"
    fresh = new()
    assert sum(fresh.bag) == 12 and fresh.bag == [6, 4, 2]


# ---------------------------------------------------------------------- Dark Towers
def test_cwd_r95_r96_r98_dark_towers():
    s = doom_phase(new(start="antarctic"), first=S)
    s, _ = act(s, SL, type="doom_done")
    s, _ev = act(s, WW, type="doom_done")
    assert sorted(s.towers) == ["antarctic", "central_pangaea"]  # the Windwalker's actual start only
    assert s.gates["central_pangaea"] == -1 and s.gates["antarctic"] == -1
    assert s.phase == "action" and s.round == 2
    s = doom_phase(s, first=W)
    s, _ = act(s, WW, type="doom_done")
    s, _ = act(s, SL, type="doom_done")
    assert top(s).kind == "place_tower" and top(s).seats == [WW]
    opts = {a.area for a in ENGINE.legal_actions(s, WW) if a.type == "decide"}
    assert opts == set(maps.load("extinction").tower_glyph)
    s, _ = decide(s, WW, "tower", "cimmeria")
    s, _ = decide(s, WW, "tower", "karoo")
    assert sorted(s.towers) == ["antarctic", "central_pangaea", "cimmeria", "karoo"] and s.phase == "action"


def test_earth_map_has_no_dark_towers():
    s = doom_phase(new(start="antarctica", map="earth"), first=S)
    s, _ = act(s, SL, type="doom_done")
    s, _ = act(s, WW, type="doom_done")
    assert s.towers == [] and s.gates["north_america"] == S


# ---------------------------------------------------------------------- faction abilities
def test_hibernate_gain_capped_inactive_and_banked():
    s = set_turn(new(), W, {S: 5, W: 3})
    s = place(s, {S: {"central_pangaea": {"sl_acolyte": 6, "tsathoggua": 1}}})
    s, ev = act(s, WW, type="unique", ability="hibernate")
    assert s.players[W]["power"] == 4 and s.players[W]["hibernating"]
    assert s.turn == S
    s, ev = act(s, SL, type="pass")
    assert s.phase != "action"  # a hibernating Windwalker counts as 0 Power (A14)
    got = next(e for e in ev if e.type == "power_gathered").data
    assert got["gathered"][W] == 4 + 6 + 2


def test_lethargy_needs_tsathoggua_and_costs_nothing():
    s = set_turn(new(), S, {S: 5, W: 5})
    assert not [a for a in ENGINE.legal_actions(s, SL) if a.type == "unique" and a.ability == "lethargy"]
    s = place(s, {S: {"central_pangaea": {"sl_acolyte": 6, "tsathoggua": 1}}})
    s, _ = act(s, SL, type="unique", ability="lethargy")
    s = fin(s, SL)
    assert s.players[S]["power"] == 5 and s.turn == W


def test_death_from_below_places_the_cheapest_monster():
    s = doom_phase(new(), first=S)
    opts = [a for a in ENGINE.legal_actions(s, SL) if a.type == "unique"]
    assert {a.area for a in opts} == {"central_pangaea"}
    s, _ = act(s, SL, type="unique", ability="death_from_below", area="central_pangaea")
    assert s.units[S]["central_pangaea"]["wizard"] == 1
    assert not [a for a in ENGINE.legal_actions(s, SL) if a.type == "unique"]  # once per Doom phase


def test_ancient_sorcery_borrow_hibernate_and_return():
    s = set_turn(new(), S, {S: 5, W: 5})
    s.players[S]["books"] = ["ancient_sorcery"]
    s = place(s, {S: {"central_pangaea": {"sl_acolyte": 6, "serpent_man": 1}}, W: {"arctic": {"ww_acolyte": 6, "rhan_tegoth": 1}}})
    s, _ = act(s, SL, type="unique", ability="ancient_sorcery", area="central_pangaea")
    assert s.sorcery == 1 and "serpent_man" not in s.units[S]["central_pangaea"] and conserved(s)
    s = set_turn(s, S)
    s, _ = act(s, SL, type="unique", ability="hibernate")
    assert s.players[S]["hibernating"] and s.players[S]["power"] == 5  # 4 + 1 for Rhan-Tegoth
    s = doom_phase(s, first=S)
    assert {a.ability for a in ENGINE.legal_actions(s, SL) if a.type == "unique"} == {"sorcery_return"}
    power = s.players[S]["power"]
    s, _ = act(s, SL, type="unique", ability="sorcery_return", area="tethys_ocean")
    assert s.sorcery == 0 and s.players[S]["power"] == power + 1 and s.units[S]["tethys_ocean"] == {"serpent_man": 1}


def test_cursed_slumber_gate_off_the_map_still_counts():
    s = set_turn(new(), S, {S: 5, W: 5})
    s.players[S]["books"] = ["cursed_slumber"]
    s, _ = act(s, SL, type="unique", ability="cursed_slumber", area="central_pangaea")
    assert s.slumber and "central_pangaea" not in s.gates and s.units[S]["central_pangaea"] == {"sl_acolyte": 5}
    assert conserved(s)
    _s2, ev = gather(s)
    got = next(e for e in ev if e.type == "power_gathered").data
    assert got["income"][S] == 5 + 1 + 2
    s3 = doom_phase(s, first=S)
    s3.players[S]["power"] = 5
    s3, _ = act(s3, SL, type="ritual")
    assert s3.players[S]["doom"] == 1
    s4 = set_turn(s, S, {S: 3})
    s4, _ = act(s4, SL, type="unique", ability="slumber_return", area="kalahari")
    assert not s4.slumber and s4.gates["kalahari"] == S and s4.units[S]["kalahari"] == {"sl_acolyte": 1}


def test_capture_monster_victim_chooses():
    s = set_turn(new(), S, {S: 5, W: 5})
    s.players[S]["books"] = ["capture_monster"]
    s = place(s, {S: {"kalahari": {"tsathoggua": 1}}, W: {"kalahari": {"wendigo": 1, "gnoph_keh": 1}}}, {})
    s, _ = act(s, SL, type="unique", ability="capture_monster", area="kalahari")
    assert top(s).kind == "capture_monster_victim" and top(s).seats == [WW]
    s, _ = decide(s, WW, "gnoph_keh")
    assert s.captives[S] == {"gnoph_keh": 1} and s.players[S]["doom"] == 3 and conserved(s)


def test_ice_age_taxes_the_sleeper():
    s = set_turn(new(), W, {S: 5, W: 5})
    s.players[W]["books"] = ["ice_age"]
    s, _ = act(s, WW, type="unique", ability="ice_age", area="appalachia")
    s = fin(s, WW)
    assert s.ice == "appalachia" and s.turn == S
    s, _ = act(s, SL, type="move")
    s, _ = act(s, SL, type="move_unit", kind="sl_acolyte", src="central_pangaea", dst="appalachia")
    s, _ = act(s, SL, type="move_unit", kind="sl_acolyte", src="central_pangaea", dst="appalachia")
    assert s.players[S]["power"] == 5 - 2 - 1  # +1 once for the action ending there


def test_burrow_refund_and_arctic_wind_followers():
    s = set_turn(new(), S, {S: 5})
    s.players[S]["books"] = ["burrow"]
    s, _ = act(s, SL, type="move")
    s, _ = act(s, SL, type="move_unit", kind="sl_acolyte", src="central_pangaea", dst="kalahari")
    s, _ = act(s, SL, type="move_unit", kind="sl_acolyte", src="central_pangaea", dst="kalahari")
    s, ev = act(s, SL, type="end_move")
    assert s.players[S]["power"] == 4 and "burrow" in [e.type for e in ev]
    w = set_turn(new(), W, {W: 2})
    w.players[W]["books"] = ["arctic_wind"]
    w = place(w, {W: {"arctic": {"ww_acolyte": 6, "ithaqua": 1, "wendigo": 2}}})
    w, _ = act(w, WW, type="move")
    w, _ = act(w, WW, type="move_unit", kind="ithaqua", src="arctic", dst="siberia")
    w, _ = act(w, WW, type="move_unit", kind="wendigo", src="arctic", dst="siberia")
    w, _ = act(w, WW, type="move_unit", kind="wendigo", src="arctic", dst="siberia")
    assert w.players[W]["power"] == 1


def test_cwd_r39_spend_requirements_once_each():
    s = set_turn(new(), S, {S: 9, W: 2})
    s, _ = act(s, SL, type="spend_requirement", requirement="sl_req_spend3_opp_lose1")
    assert s.players[S]["power"] == 6 and s.players[W]["power"] == 1
    s, _ = decide(s, SL, "burrow")
    s = set_turn(s, S)
    with pytest.raises(RuleError) as e:
        act(s, SL, type="spend_requirement", requirement="sl_req_spend3_opp_lose1")
    assert e.value.code == "cwd.requirement_done"
    s, _ = act(s, SL, type="spend_requirement", requirement="sl_req_spend3_opp_gain3")
    assert s.players[W]["power"] == 4
    w = set_turn(new(), W, {W: 6})
    w, _ = act(w, WW, type="spend_requirement", requirement="ww_req_opp_6_books_or_spend_6")
    assert w.players[W]["power"] == 0 and "ww_req_opp_6_books_or_spend_6" in w.players[W]["reqs"]


def test_any_time_book_and_six_books_consequences():
    s = set_turn(new(), S, {S: 9, W: 2})
    s.players[S]["books"] = ["burrow", "energy_nexus", "ancient_sorcery", "capture_monster", "cursed_slumber"]
    s, _ = act(s, SL, type="spend_requirement", requirement="sl_req_spend3_opp_gain1")
    assert len(s.players[S]["books"]) == 6  # the last book goes in without a question
    assert "ww_req_opp_6_books_or_spend_6" in s.players[W]["reqs"]  # the opponent has six
    s, _ = decide(s, WW, "howl")
    s = fin(s, SL)
    s, _ev = act(s, WW, type="take_any_time_book")
    assert len(s.players[W]["signs"]) == 1  # Duel: one Elder Sign when the opponent has six books
    assert top(s).kind == "choose_book"


def test_cwd_r41_unlimited_battles_once_six_books(dice):
    s = set_turn(new(), W, {S: 0, W: 8})
    s.players[S]["power"] = 0
    s.players[S]["books"] = ["burrow", "energy_nexus", "ancient_sorcery", "capture_monster", "cursed_slumber", "demand_sacrifice"]
    s = place(s, {S: {"kalahari": {"sl_acolyte": 1}, "karoo": {"sl_acolyte": 1}},
                  W: {"kalahari": {"wendigo": 1}, "karoo": {"wendigo": 1}, "arctic": {"ww_acolyte": 4}}}, {})
    dice[:] = [1, 1]
    s, _ = act(s, WW, type="battle", area="kalahari")
    assert not s.acted and ENGINE.pending(s)[0].kind == "turn"
    s, _ = act(s, WW, type="battle", area="karoo")
    assert "kalahari" not in [a.area for a in ENGINE.legal_actions(s, WW) if a.type == "battle"]
    s, ev = act(s, WW, type="recruit", area="arctic")
    # 8 - 1 - 1 - 1 = 5; the turn ends, the idle Sleeper advances Decay and the Windwalker pays 1 more
    assert s.players[W]["power"] == 4 and s.decay == 1 and "recruited" in [e.type for e in ev]


def test_energy_nexus_sleeper_moves_out_before_the_battle():
    s = set_turn(new(), W, {S: 3, W: 5})
    s.players[S]["books"] = ["energy_nexus"]
    s = place(s, {S: {"kalahari": {"wizard": 1, "sl_acolyte": 1}}, W: {"kalahari": {"wendigo": 1}}}, {})
    s, _ = act(s, WW, type="battle", area="kalahari")
    assert top(s).kind == "nexus" and top(s).seats == [SL]
    s, _ = decide(s, SL, "move")
    opts = [a for a in ENGINE.legal_actions(s, SL) if a.type == "move_unit"]
    assert {a.src for a in opts} == {"kalahari"}
    s, _ = act(s, SL, type="move_unit", kind="wizard", src="kalahari", dst="karoo")
    s, _ = act(s, SL, type="move_unit", kind="sl_acolyte", src="kalahari", dst="karoo")
    s, ev = act(s, SL, type="end_move")
    assert "battle_void" in [e.type for e in ev] and s.players[S]["power"] == 1 and s.decay == 0


def test_energy_nexus_is_not_offered_to_a_hibernated_sleeper():
    """CWD-R60b with Hibernate borrowed through Ancient Sorcery: after Hibernate a player takes no more
    actions this Action phase, so the Nexus action is not offered and the battle goes straight on."""
    s = set_turn(new(), W, {S: 3, W: 5})
    s.players[S]["books"] = ["energy_nexus"]
    s.players[S]["hibernating"] = True
    s = place(s, {S: {"kalahari": {"wizard": 1, "sl_acolyte": 1}}, W: {"kalahari": {"wendigo": 1}}}, {})
    s, _ = act(s, WW, type="battle", area="kalahari")
    assert top(s) is None or top(s).kind != "nexus"
    assert ENGINE.legal_actions(s, SL) == [] or all(a.type != "move_unit" for a in ENGINE.legal_actions(s, SL))


def test_energy_nexus_summon_joins_the_battle(dice):
    s = set_turn(new(), W, {S: 3, W: 5})
    s.players[S]["books"] = ["energy_nexus"]
    s = place(s, {S: {"kalahari": {"wizard": 1, "sl_acolyte": 1}}, W: {"kalahari": {"wendigo": 1}}}, {"kalahari": S})
    s, _ = act(s, WW, type="battle", area="kalahari")
    choices = {a.choice for a in ENGINE.legal_actions(s, SL) if a.type == "decide"}
    assert choices == {"decline", "move", "recruit", "summon:wizard", "summon:serpent_man", "summon:formless_spawn"}
    dice[:] = [1] + [1, 1]
    s, ev = decide(s, SL, "summon:serpent_man", "kalahari")
    assert s.players[S]["power"] == 1 and s.units[S]["kalahari"]["serpent_man"] == 1
    assert [e.data["dice"] for e in ev if e.type == "dice"] == [1, 1]


def test_ww_gate_in_other_glyph_area_earns_a_book():
    s = set_turn(new(start="arctic"), S, {S: 5})
    s = place(s, {S: {"antarctic": {"sl_acolyte": 1}, "central_pangaea": {"sl_acolyte": 5}}})
    s, _ = act(s, SL, type="build_gate", area="antarctic")
    assert "ww_req_gate_other_glyph_area" in s.players[W]["reqs"] and top(s).seats == [WW]


# ---------------------------------------------------------------------- data
def test_constants_match_cards_json():
    data = json.loads((maps.MAP_DIR.parent / "cards.json").read_text(encoding="utf-8"))
    cards = {c["id"]: c for c in data["cards"]}
    for kind, (_p, _t, n, cost, doom) in UNITS.items():
        card = cards["acolyte" if kind.endswith("acolyte") else kind]
        assert card["count"] == n and card["doom_value"] == doom
        if cost is not None:
            assert card["cost"] == cost


def test_maps_validate_and_keep_known_extinction_facts():
    ext = maps.load("extinction")
    assert ext.reconstructed and ext.dark_towers and len(ext.tower_glyph) == 8
    assert "north_thalassa_ocean" in ext.adj["mawson_ocean"] and "south_thalassa_ocean" in ext.adj["tethys_ocean"]
    assert "antarctic" not in ext.adj["arctic"]
    assert set(ext.windwalker_start) == {"arctic", "antarctic"}
    assert {"mawson_ocean", "tethys_ocean", "north_thalassa_ocean", "south_thalassa_ocean"} <= ext.ocean
    earth = maps.load("earth")
    assert not earth.dark_towers and earth.sleeper_start == ("north_america",)
    bad = json.loads((maps.MAP_DIR / "earth.json").read_text(encoding="utf-8"))
    bad["areas"][0]["adj"] = bad["areas"][0]["adj"][1:]
    with pytest.raises(maps.MapError):
        maps.validate(bad)


def test_death_from_below_needs_a_sleeper_unit_on_the_map():
    """Death from Below (Sleeper card): the monster rises only where a Sleeper unit stands; with none on the
    map the ability has no area and is not offered (Ritual and Done stay)."""
    s = doom_phase(place(new(), {S: {}}, {}), first=S)
    assert B.cheapest_monster(s) == "wizard"
    assert not [a for a in ENGINE.legal_actions(s, SL) if a.type == "unique"]
    assert {a.type for a in ENGINE.legal_actions(s, SL)} >= {"doom_done"}
    s = place(s, {S: {"karoo": {"sl_acolyte": 1}}})
    assert {a.area for a in ENGINE.legal_actions(s, SL) if a.type == "unique"} == {"karoo"}


def test_energy_nexus_also_before_a_battle_the_sleeper_declares(dice):
    """Energy Nexus (Sleeper card; CWD-R60b): 'just before a battle' in a Wizard's area, whoever declares
    it; the Sleeper attacking from there gets the one extra action too, at its normal cost."""
    s = set_turn(new(), S, {S: 5, W: 5})
    s.players[S]["books"] = ["energy_nexus"]
    s = place(s, {S: {"kalahari": {"wizard": 1, "serpent_man": 1, "sl_acolyte": 1}}, W: {"kalahari": {"wendigo": 1}}},
              {"kalahari": S})
    s, _ = act(s, SL, type="battle", area="kalahari")
    assert top(s).kind == "nexus" and top(s).seats == [SL] and s.players[S]["power"] == 4
    dice[:] = [1, 1] + [1]
    s, ev = decide(s, SL, "summon:serpent_man", "kalahari")
    assert s.players[S]["power"] == 2 and s.units[S]["kalahari"]["serpent_man"] == 2
    assert [e.data["dice"] for e in ev if e.type == "dice"] == [2, 1]


def test_demand_sacrifice_dice_event_counts_the_kills_turned_into_pains(dice):
    """Demand Sacrifice (Sleeper card): with 'pains' chosen, the Windwalker's dice event keeps the roll and
    says how many Kills were counted as Pains, so the table can tell the players."""
    s = set_turn(new(), W, {S: 3, W: 4})
    s.players[S]["books"] = ["demand_sacrifice"]
    s = place(s, {S: {"kalahari": {"sl_acolyte": 1}, "karoo": {"tsathoggua": 1}}, W: {"kalahari": {"gnoph_keh": 1}}}, {})
    s, _ = act(s, WW, type="battle", area="kalahari")
    dice[:] = [6, 4, 6]
    _s, ev = decide(s, WW, "pains")
    rolled = next(e.data for e in ev if e.type == "dice")
    assert rolled["rolls"] == [6, 4, 6] and rolled["kills"] == 0 and rolled["pains"] == 3 and rolled["converted"] == 2


def test_cwd_r113_no_tower_is_asked_in_the_doom_phase_that_ends_the_game():
    """CWD-R96 with CWD-R113: the Doom phase in which the Ritual marker reached END is the last; Towers
    placed then would change nothing, so the first player is not asked and the game ends."""
    s = doom_phase(new(start="antarctic"), first=W)
    s.towers_started = True
    s.towers = ["antarctic", "central_pangaea"]
    s.ritual = len(s.ritual_track)
    s, _ = act(s, WW, type="doom_done")
    s, ev = act(s, SL, type="doom_done")
    assert s.phase == "over" and "place_tower" not in [f.kind for f in s.stack]
    assert "game_over" in [e.type for e in ev] and s.towers == ["antarctic", "central_pangaea"]


def test_a_move_can_be_backed_out_of_before_it_is_finished():
    """CWD-R34: a Move is one action made of unit steps; until it is finished the player may take it back:
    the units return, the Power comes back, and the turn's action is still to be chosen."""
    s = set_turn(new(), S, {S: 6})
    s, _ = act(s, SL, type="move")
    s, _ = act(s, SL, type="move_unit", kind="sl_acolyte", src="central_pangaea", dst="kalahari")
    s, _ = act(s, SL, type="move_unit", kind="sl_acolyte", src="central_pangaea", dst="appalachia")
    assert s.players[S]["power"] == 4 and "cancel_move" in {a.type for a in ENGINE.legal_actions(s, SL)}
    s, ev = act(s, SL, type="cancel_move")
    assert s.units[S] == {"central_pangaea": {"sl_acolyte": 6}} and s.players[S]["power"] == 6
    assert s.move is None and not s.acted and ENGINE.pending(s)[0].kind == "turn"
    assert "move_cancelled" in [e.type for e in ev]
    with pytest.raises(RuleError) as err:
        act(set_turn(new(), S, {S: 6}), SL, type="cancel_move")
    assert err.value.code == "cwd.no_move_open"


def test_an_energy_nexus_move_backed_out_of_asks_the_nexus_question_again():
    """Energy Nexus (Sleeper card): backing out of the Nexus Move undoes its steps and puts the Nexus
    question back, so the Sleeper may still decline or pick another action."""
    s = set_turn(new(), W, {S: 3, W: 5})
    s.players[S]["books"] = ["energy_nexus"]
    s = place(s, {S: {"kalahari": {"wizard": 1, "sl_acolyte": 1}}, W: {"kalahari": {"wendigo": 1}}}, {})
    s, _ = act(s, WW, type="battle", area="kalahari")
    s, _ = decide(s, SL, "move")
    s, _ = act(s, SL, type="move_unit", kind="wizard", src="kalahari", dst="karoo")
    s, _ = act(s, SL, type="cancel_move")
    assert top(s).kind == "nexus" and top(s).params["area"] == "kalahari" and s.players[S]["power"] == 3
    assert s.units[S]["kalahari"] == {"wizard": 1, "sl_acolyte": 1}


def test_backing_out_restores_the_free_gate_changes_made_before_the_move():
    """CWD-R40: Gate changes before the action and after it are separate runs; a Move taken back returns
    to before the action, so a Gate stepped off just before cannot be retaken until the action is done."""
    s = set_turn(new(), S, {S: 6})
    s, _ = act(s, SL, type="abandon_gate", area="central_pangaea")
    s, _ = act(s, SL, type="move")
    s, _ = act(s, SL, type="cancel_move")
    assert s.toggled == ["central_pangaea"]
    assert "control_gate" not in {a.type for a in ENGINE.legal_actions(s, SL)}

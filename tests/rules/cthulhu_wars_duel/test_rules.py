"""One test per implemented rule (CWD-Rnn ids of the digest) and per worked example of the rulebook."""

from __future__ import annotations

import pytest

from rules.core import RuleError
from rules.cthulhu_wars_duel import battle as B
from rules.cthulhu_wars_duel import maps
from rules.cthulhu_wars_duel.engine import begin_turn
from rules.cthulhu_wars_duel.factions import SLEEPER as S
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


def decide(s, seat, choice, area=None):
    return act(s, seat, type="decide", choice=choice, area=area)


def doom_phase(s, first=S):
    s = s.clone()
    s.phase = "doom"
    s.first = first
    s.turn = first
    s.stack = []
    for p in s.players:
        p["ritual_done"] = False
        p["dfb_done"] = False
    return s


# ---------------------------------------------------------------------- setup and turn structure
def test_setup_windwalker_chooses_pole_sleeper_first():
    """Setup 9-11: 8 Power, 6 Acolytes and a controlled Gate each; Windwalker picks a pole; Sleeper first."""
    s = ENGINE.new_game([SL, WW], None, 3)
    assert ENGINE.pending(s)[0].seat == WW and ENGINE.pending(s)[0].kind == "choose_start"
    assert {a.area for a in ENGINE.legal_actions(s, WW) if a.type == "decide"} == {"arctic", "antarctic"}
    assert ENGINE.legal_actions(s, SL) == []
    s, _ = decide(s, WW, "start", "antarctic")
    assert s.units[W] == {"antarctic": {"ww_acolyte": 6}} and s.gates["antarctic"] == W
    assert s.units[S] == {"central_pangaea": {"sl_acolyte": 6}} and s.gates["central_pangaea"] == S
    assert [p["power"] for p in s.players] == [8, 8]
    assert s.first == S and ENGINE.pending(s)[0].seat == SL


def test_options_seat_assignment():
    s = ENGINE.new_game(["a", "b"], {"sleeper": "second_seat"}, 1)
    assert s.seats == ["b", "a"]
    with pytest.raises(RuleError):
        ENGINE.new_game(["a", "b", "c"], None, 1)


def fin(s, seat):
    """End the turn if the engine waits for the optional unlimited actions after the main one."""
    if ENGINE.pending(s)[0].kind == "after_action":
        s, _ = act(s, seat, type="end_turn")
    return s


def test_cwd_r17_decay_example():
    """CWD-R15/R16/R17/R19: A at 0 Power, B pays a growing Decay each turn until both are out."""
    s = place(new(), {S: {"central_pangaea": {"sl_acolyte": 4}}})  # two Acolytes back in the pool
    s = set_turn(s, S, {S: 7, W: 0})
    s, _ = act(s, SL, type="move")
    s, _ = act(s, SL, type="move_unit", kind="sl_acolyte", src="central_pangaea", dst="appalachia")
    s, ev = act(s, SL, type="end_move")
    s = fin(s, SL)
    # Windwalker's turn: no Power, the marker advances; Sleeper pays 1 at the start of its turn.
    assert s.decay == 1 and s.players[S]["power"] == 5 and s.turn == S
    s, _ = act(s, SL, type="recruit", area="appalachia")  # an action costing 1 (the book's battle)
    s = fin(s, SL)
    assert s.decay == 2 and s.players[S]["power"] == 2
    s, _ = act(s, SL, type="recruit", area="appalachia")
    s, ev = act(s, SL, type="end_turn")
    # Marker to 3, the Sleeper (1 Power) cannot pay: Power 0, both out, the Action phase ends, Decay resets.
    types = [e.type for e in ev]
    assert "action_phase_over" in types and s.decay == 0
    paid = [e for e in ev if e.type == "decay_paid"]
    assert paid[-1].data["turn_over"] is True and paid[-1].data["decay"] == 3


def test_cwd_r12_r13_pass_and_zero_power():
    """CWD-R13: Pass spends all Power; CWD-R14: a 0-Power player does not act."""
    s = place(new(), {W: {"arctic": {"ww_acolyte": 4}}})
    s = set_turn(s, S, {S: 5, W: 5})
    s, _ = act(s, SL, type="pass")
    assert s.players[S]["power"] == 0 and s.turn == W
    s, _ = act(s, WW, type="recruit", area="arctic")
    s = fin(s, WW)
    assert s.turn == W and s.decay == 1 and s.players[W]["power"] == 3  # Sleeper skipped, Decay paid


def test_cwd_r20_one_action_then_unlimited_then_end():
    """CWD-R11/R20/R40: one main action; gate control is free before and after it."""
    s = place(new(), {S: {"central_pangaea": {"sl_acolyte": 4}}})
    s = set_turn(s, S, {S: 8, W: 8})
    s, _ = act(s, SL, type="recruit", area="central_pangaea")
    assert ENGINE.pending(s)[0].kind == "after_action" and s.turn == S
    with pytest.raises(RuleError) as e:
        act(s, SL, type="recruit", area="central_pangaea")
    assert e.value.code == "cwd.action_taken"
    s, _ = act(s, SL, type="abandon_gate", area="central_pangaea")
    # the Gate changed once this turn: nothing but ending is left, so the turn ends by itself
    assert s.gates["central_pangaea"] == -1 and s.turn == W


# ---------------------------------------------------------------------- common actions
def test_cwd_r30_recruit_where_you_have_units():
    s = set_turn(new(), S)
    assert not [a for a in ENGINE.legal_actions(s, SL) if a.type == "recruit"]  # CWD-R1: all six are out
    s = place(s, {S: {"central_pangaea": {"sl_acolyte": 5}}})
    areas = {a.area for a in ENGINE.legal_actions(s, SL) if a.type == "recruit"}
    assert areas == {"central_pangaea"}
    s2 = place(s, {S: {}})
    areas = {a.area for a in ENGINE.legal_actions(s2, SL) if a.type == "recruit"}
    assert areas == set(maps.load("extinction").areas)  # no units on the map: anywhere


def test_cwd_r31_summon_at_controlled_gate_and_gnoph_keh_cost():
    s = set_turn(new(), W, {W: 20})
    opts = {(a.kind, a.area) for a in ENGINE.legal_actions(s, WW) if a.type == "summon"}
    assert opts == {("wendigo", "arctic"), ("gnoph_keh", "arctic")}
    costs = []
    for _ in range(4):
        before = s.players[W]["power"]
        s, _ = act(s, WW, type="summon", kind="gnoph_keh", area="arctic")
        costs.append(before - s.players[W]["power"])
        s = set_turn(s, W)
    assert costs == [4, 3, 2, 1]
    s2 = place(s, {}, {"arctic": -1})
    assert not [a for a in ENGINE.legal_actions(s2, WW) if a.type == "summon"]


def test_cwd_r32_awaken_conditions():
    s = set_turn(new(), S, {S: 20})
    assert not [a for a in ENGINE.legal_actions(s, SL) if a.type == "awaken"]
    s = place(s, {S: {"central_pangaea": {"sl_acolyte": 6}, "kalahari": {"formless_spawn": 1}}})
    aw = [a for a in ENGINE.legal_actions(s, SL) if a.type == "awaken"]
    assert [(a.kind, a.area) for a in aw] == [("tsathoggua", "kalahari")]
    s, _ev = act(s, SL, type="awaken", kind="tsathoggua", area="kalahari")
    assert s.players[S]["power"] == 12 and s.units[S]["kalahari"]["tsathoggua"] == 1
    assert "sl_req_awaken_tsathoggua" in s.players[S]["reqs"] and top(s).kind == "choose_book"


def test_cwd_r32_ithaqua_needs_rhan_ever_and_replaces_a_glyph_gate():
    s = set_turn(new(), W, {W: 20})
    assert not [a for a in ENGINE.legal_actions(s, WW) if a.type == "awaken" and a.kind == "ithaqua"]
    s, _ = act(s, WW, type="awaken", kind="rhan_tegoth", area="antarctic")
    s, _ = decide(s, WW, "howl")
    s = set_turn(s, W)
    s = place(s, {W: {"arctic": {"ww_acolyte": 6}}})  # Rhan-Tegoth gone again: once awakened is enough
    aw = [a for a in ENGINE.legal_actions(s, WW) if a.type == "awaken"]
    assert ("ithaqua", "arctic") in [(a.kind, a.area) for a in aw]
    s, _ = act(s, WW, type="awaken", kind="ithaqua", area="arctic")
    assert "arctic" not in s.gates and s.units[W]["arctic"] == {"ww_acolyte": 6, "ithaqua": 1}


def test_cwd_r33_build_gate_and_tower_covers_it():
    s = set_turn(new(), S, {S: 10})
    s = place(s, {S: {"central_pangaea": {"sl_acolyte": 5}, "kalahari": {"sl_acolyte": 1}}})
    s.towers = ["kalahari"]
    s, _ = act(s, SL, type="build_gate", area="kalahari")
    assert s.players[S]["power"] == 7 and s.gates["kalahari"] == -1  # CWD-R98: covered at once
    s = set_turn(s, S)
    assert not [a for a in ENGINE.legal_actions(s, SL) if a.type == "control_gate" and a.area == "kalahari"]


def test_cwd_r34_move_each_unit_once_adjacent_only():
    s = set_turn(new(), S, {S: 8})
    s, _ = act(s, SL, type="move")
    with pytest.raises(RuleError):
        act(s, SL, type="move_unit", kind="sl_acolyte", src="central_pangaea", dst="arctic")  # not adjacent
    with pytest.raises(RuleError):
        act(s, SL, type="end_move")  # nothing moved yet
    s, _ = act(s, SL, type="move_unit", kind="sl_acolyte", src="central_pangaea", dst="kalahari")
    moves = [a for a in ENGINE.legal_actions(s, SL) if a.type == "move_unit"]
    assert all(a.src == "central_pangaea" for a in moves)  # the moved one cannot move again
    # five free Acolytes (one holds the Gate): at most five moves from there
    for _ in range(4):
        s, _ = act(s, SL, type="move_unit", kind="sl_acolyte", src="central_pangaea", dst="kalahari")
    assert not [a for a in ENGINE.legal_actions(s, SL) if a.type == "move_unit"]
    s, _ = act(s, SL, type="end_move")
    assert s.players[S]["power"] == 3


def test_cwd_r35_battle_needs_combat_and_one_per_area():
    s = set_turn(new(), S, {S: 8, W: 8})
    s = place(s, {S: {"kalahari": {"sl_acolyte": 2}}, W: {"kalahari": {"ww_acolyte": 1}}})
    assert not [a for a in ENGINE.legal_actions(s, SL) if a.type == "battle"]  # Combat 0
    s2 = set_turn(s, W)
    assert [a.area for a in ENGINE.legal_actions(s2, WW) if a.type == "battle"] == []
    s3 = place(s2, {W: {"kalahari": {"ww_acolyte": 1, "wendigo": 1}}})
    assert [a.area for a in ENGINE.legal_actions(s3, WW) if a.type == "battle"] == ["kalahari"]


# ---------------------------------------------------------------------- battle
def _example1():
    s = set_turn(new(start="antarctic"), S, {S: 6, W: 2})
    s = place(s, {
        S: {"kalahari": {"formless_spawn": 1, "sl_acolyte": 2, "tsathoggua": 1}, "siberia": {"formless_spawn": 1}},
        W: {"kalahari": {"wendigo": 1, "gnoph_keh": 1, "ww_acolyte": 1}},
    }, {})
    s.players[W]["books"] = ["howl", "cannibalism", "berserkergang"]
    return s


def test_cwd_r72_battle_example_one(dice):
    """CWD-R72 (also R61, R64, R65, R67, R69, R70, R80, R81): Howl, Kill/Pain assignment, Berserkergang,
    Cannibalism and Doom for each removal."""
    s = _example1()
    assert B.side_combat(s, S, "kalahari") == 3 + 2  # Spawn: 2 on the map + Tsathoggua; Tsathoggua max(2, 2)
    assert B.side_combat(s, W, "kalahari") == 1 + 3
    s, _ = act(s, SL, type="battle", area="kalahari")
    assert top(s).kind == "howl" and top(s).seats == [WW]
    s, _ = decide(s, WW, "yes")
    assert top(s).kind == "howl_victim" and top(s).seats == [SL]
    dice[:] = [6, 4, 5, 1, 2] + [6, 1, 2, 3]  # Sleeper 1 Kill 2 Pains; Windwalker 1 Kill
    s, ev = decide(s, SL, "sl_acolyte", "karoo")
    rolled = [e.data for e in ev if e.type == "dice"]
    assert [r["dice"] for r in rolled] == [5, 4]
    assert top(s).kind == "assign" and top(s).seats == [SL]
    s, _ = decide(s, SL, "sl_acolyte")
    assert top(s).kind == "assign" and top(s).seats == [WW] and top(s).params["result"] == "k"
    s, ev = decide(s, WW, "gnoph_keh")
    # Berserkergang: the only Sleeper monster or cultist left without a result is the Spawn; the pains go
    # to the Wendigo and the Acolyte; both retreat; Cannibalism is offered.
    while top(s).kind == "retreat":
        s, more = decide(s, WW, ENGINE.legal_actions(s, WW)[0].choice, "india")
        ev += more
    assert top(s).kind == "cannibalism"
    s, more = decide(s, WW, "wendigo")
    ev += more
    assert s.units[S]["kalahari"] == {"tsathoggua": 1}
    assert s.units[W]["kalahari"] == {"wendigo": 1}
    assert s.units[W]["india"] == {"wendigo": 1, "ww_acolyte": 1}
    assert s.players[W]["doom"] == 1 + 3  # Acolyte killed, Spawn eliminated
    assert s.players[S]["doom"] == 3  # CWD-R81: Gnoph-Keh is worth 3 (average of 4/3/2/1)
    assert s.battle is None and conserved(s)


def test_cwd_r73_battle_example_two_eternal(dice):
    """CWD-R73/R82: Eternal cancels the Kill on Rhan-Tegoth for 1 Power (3 Doom to the Sleeper); he takes
    no second result, so the Pain is wasted."""
    s = set_turn(new(), W, {S: 0, W: 4})
    s.players[S]["power"] = 1
    s = place(s, {S: {"kalahari": {"serpent_man": 2}}, W: {"kalahari": {"rhan_tegoth": 1}}}, {})
    dice[:] = [6, 4, 1] + [6, 5]
    s, _ = act(s, WW, type="battle", area="kalahari")
    assert top(s).kind == "eternal" and top(s).params["result"] == "k"
    s, _ = decide(s, WW, "yes")
    while s.battle is not None and top(s).kind == "retreat":
        s, _ = decide(s, SL, "serpent_man", "karoo")
    assert s.players[W]["power"] == 2
    assert s.players[S]["doom"] == 3 and s.players[W]["doom"] == 2
    assert s.units[W]["kalahari"] == {"rhan_tegoth": 1}
    assert "kalahari" not in s.units[S] and sum(u.get("serpent_man", 0) for u in s.units[S].values()) == 1
    assert s.battle is None


def test_cwd_r70c_blocked_retreat_eliminates_one(dice):
    """CWD-R70c: pained units with no enemy-free neighbour: one is eliminated (Doom), the rest stay."""
    s = set_turn(new(start="antarctic"), W, {S: 3, W: 4})
    karoo_adj = ["kalahari", "south_thalassa_ocean", "antarctic"]
    board = {a: {"ww_acolyte": 1} for a in karoo_adj}
    board["karoo"] = {"gnoph_keh": 1}
    s = place(s, {S: {"karoo": {"sl_acolyte": 2}}, W: board}, {})
    dice[:] = [4, 5, 1]
    s, _ev = act(s, WW, type="battle", area="karoo")
    assert s.units[S]["karoo"] == {"sl_acolyte": 1}
    assert s.players[W]["doom"] == 1 and conserved(s)


def test_cwd_r63_howl_can_empty_the_battle(dice):
    s = set_turn(new(), W, {S: 3, W: 4})
    s.players[W]["books"] = ["howl"]
    s = place(s, {S: {"kalahari": {"sl_acolyte": 1}}, W: {"kalahari": {"wendigo": 1}}}, {})
    s, _ = act(s, WW, type="battle", area="kalahari")
    s, _ = decide(s, WW, "yes")
    s, ev = decide(s, SL, "sl_acolyte", "karoo")
    assert "battle_void" in [e.type for e in ev] and not [e for e in ev if e.type == "dice"]


def test_demand_sacrifice_choice_belongs_to_the_windwalker(dice):
    """Demand Sacrifice: the victim picks an Elder Sign for the Sleeper or its Kills become Pains."""
    s = set_turn(new(), W, {S: 3, W: 4})
    s.players[S]["books"] = ["demand_sacrifice"]
    s = place(s, {S: {"kalahari": {"sl_acolyte": 1}, "karoo": {"tsathoggua": 1}}, W: {"kalahari": {"gnoph_keh": 1}}}, {})
    s, _ = act(s, WW, type="battle", area="kalahari")
    assert top(s).kind == "sacrifice" and top(s).seats == [WW]
    dice[:] = [6, 6, 6]
    s2, _ = decide(s, WW, "pains")
    assert top(s2).kind == "retreat" and top(s2).seats == [SL]  # three Pains, no Kill
    s2, _ = decide(s2, SL, "sl_acolyte", "central_pangaea")
    assert s2.players[W]["doom"] == 0 and s2.units[S]["central_pangaea"] == {"sl_acolyte": 1}
    dice[:] = [6, 6, 6]
    s3, _ev = decide(s, WW, "elder_sign")
    assert len(s3.players[S]["signs"]) == 1 and s3.players[W]["doom"] == 1


def test_cwd_r71_requirement_met_in_battle_waits_for_the_end(dice):
    s = set_turn(new(), S, {S: 10, W: 0})
    s = place(s, {S: {"kalahari": {"formless_spawn": 2, "sl_acolyte": 1}}, W: {"kalahari": {"ww_acolyte": 1}}}, {})
    s.players[W]["power"] = 0
    dice[:] = [1] * 4
    s, ev = act(s, SL, type="battle", area="kalahari")
    assert not [e for e in ev if e.type == "requirement_met"]  # 4 dice only
    s = set_turn(s, S)
    s = place(s, {S: {"kalahari": {"formless_spawn": 3}}, W: {"kalahari": {"ww_acolyte": 1}}}, {})
    s.battled = []
    dice[:] = [1] * 9
    s, ev = act(s, SL, type="battle", area="kalahari")
    types = [e.type for e in ev]
    assert types.index("requirement_met") < types.index("battle_over") < len(types)
    assert top(s).kind == "choose_book" and s.battle is None


# ---------------------------------------------------------------------- capture
def test_cwd_r76_capture_protection_matrix():
    from rules.cthulhu_wars_duel.engine import capture_ok
    base = set_turn(new(), W, {W: 5})
    cases = [
        ({"wendigo": 1}, {"sl_acolyte": 1}, True),
        ({"wendigo": 1}, {"sl_acolyte": 1, "wizard": 1}, False),  # monster protects from monsters
        ({"rhan_tegoth": 1}, {"sl_acolyte": 1, "wizard": 1}, True),  # not from a GOO
        ({"rhan_tegoth": 1}, {"sl_acolyte": 1, "tsathoggua": 1}, False),  # GOO protects from all
        ({"ww_acolyte": 2}, {"sl_acolyte": 1}, False),  # cultists never capture
    ]
    for mine, theirs, ok in cases:
        s = place(base, {W: {"kalahari": mine}, S: {"kalahari": theirs}}, {})
        assert capture_ok(s, W, "kalahari") is ok, (mine, theirs)
    # Ferox: with Ithaqua in play, Sleeper monsters cannot capture Windwalker cultists
    s = place(base, {S: {"kalahari": {"wizard": 1}}, W: {"kalahari": {"ww_acolyte": 1}, "karoo": {"ithaqua": 1}}}, {})
    assert capture_ok(s, S, "kalahari") is False
    s = place(base, {S: {"kalahari": {"wizard": 1}}, W: {"kalahari": {"ww_acolyte": 1}}}, {})
    assert capture_ok(s, S, "kalahari") is True


def test_cwd_r77_r78_victim_chooses_and_captive_returns_at_gather():
    s = set_turn(new(), W, {S: 0, W: 5})
    s = place(s, {S: {"kalahari": {"sl_acolyte": 2}}, W: {"kalahari": {"wendigo": 1}}}, {"kalahari": S})
    s, _ = act(s, WW, type="capture", area="kalahari")
    assert top(s).kind == "capture_victim" and top(s).seats == [SL]
    s2, _ = decide(s, SL, "sl_acolyte")
    assert s2.gates["kalahari"] == S and s2.captives[W] == {"sl_acolyte": 1}
    assert s2.players[W]["doom"] == 1 and conserved(s2)
    s3, _ = decide(s, SL, "gate_acolyte")
    assert s3.gates["kalahari"] == -1
    # Gather Power: +1 for the captive, which goes back to the Sleeper pool
    s4 = s2.clone()
    s4.players[W]["power"] = 0
    s4.stack = []
    ev = []
    begin_turn(s4, ev)
    assert s4.captives[W] == {} and conserved(s4)
    got = next(e for e in ev if e.type == "power_gathered").data
    assert got["income"] == [1 + 2, 1]  # Sleeper: Acolyte + controlled Gate; Windwalker: the captive
    assert got["power"] == [3, 2]  # CWD-R92: at least half the opponent's, rounded up


def test_berserkergang_victim_chooses_among_battle_units(dice):
    """Berserkergang (A9): one Sleeper monster or cultist in the battle per Gnoph-Keh killed; the Sleeper
    picks which; the elimination scores for the Windwalker and is not a kill (no Cannibalism)."""
    s = set_turn(new(), S, {S: 5, W: 1})
    s.players[W]["books"] = ["berserkergang", "cannibalism"]
    s = place(s, {S: {"kalahari": {"serpent_man": 1, "wizard": 1, "sl_acolyte": 1}}, W: {"kalahari": {"gnoph_keh": 1}}}, {})
    dice[:] = [6] + [1, 1, 1]
    s, _ = act(s, SL, type="battle", area="kalahari")
    assert top(s).kind == "assign" and top(s).params["result"] == "e" and top(s).seats == [SL]
    assert {a.choice for a in ENGINE.legal_actions(s, SL) if a.type == "decide"} == {"serpent_man", "wizard", "sl_acolyte"}
    s, _ev = decide(s, SL, "wizard")
    assert s.units[S]["kalahari"] == {"serpent_man": 1, "sl_acolyte": 1} and "kalahari" not in s.units[W]
    assert s.players[S]["doom"] == 3 and s.players[W]["doom"] == 1
    assert "cannibalism" not in [f.kind for f in s.stack] and s.battle is None


def test_cwd_r70c_blocked_retreat_owner_picks_which(dice):
    s = set_turn(new(start="antarctic"), W, {S: 3, W: 4})
    board = {a: {"ww_acolyte": 1} for a in ["kalahari", "south_thalassa_ocean", "antarctic"]}
    board["karoo"] = {"gnoph_keh": 1}
    s = place(s, {S: {"karoo": {"sl_acolyte": 1, "wizard": 1}}, W: board}, {})
    dice[:] = [4, 5, 1]
    s, _ = act(s, WW, type="battle", area="karoo")
    assert top(s).kind == "retreat_elim" and top(s).seats == [SL]
    s, _ = decide(s, SL, "sl_acolyte")
    assert s.units[S]["karoo"] == {"wizard": 1} and s.players[W]["doom"] == 1 and s.battle is None


def test_cwd_r1_unit_caps_and_r2_pool_return():
    """CWD-R1: no more units than the box holds; CWD-R2: removed units go back to the pool for reuse."""
    s = set_turn(new(), W, {W: 30})
    s = place(s, {W: {"arctic": {"ww_acolyte": 6, "wendigo": 4}}})
    assert not [a for a in ENGINE.legal_actions(s, WW) if a.type == "summon" and a.kind == "wendigo"]
    s = place(s, {W: {"arctic": {"ww_acolyte": 6, "wendigo": 3}}})
    assert [a for a in ENGINE.legal_actions(s, WW) if a.type == "summon" and a.kind == "wendigo"]
    assert conserved(s)


def test_cwd_r64_variable_combat_values():
    """CWD-R64: Formless Spawn = Spawns on the map (+1 with Tsathoggua); Tsathoggua = max(2, enemy Power);
    Ithaqua = half the enemy Doom rounded up."""
    s = set_turn(new(), S, {S: 5, W: 7})
    s = place(s, {S: {"kalahari": {"formless_spawn": 2}, "karoo": {"formless_spawn": 1, "tsathoggua": 1}},
                  W: {"arctic": {"ithaqua": 1}}})
    s.players[S]["doom"] = 7
    assert B.unit_combat(s, S, "formless_spawn") == 4
    assert B.side_combat(s, S, "karoo") == 4 + 7
    assert B.unit_combat(s, W, "ithaqua") == 4
    s.players[W]["power"] = 0
    assert B.unit_combat(s, S, "tsathoggua") == 2


def test_cwd_r85_pains_give_no_doom_and_r101_books_are_chosen_freely(dice):
    s = set_turn(new(), W, {S: 3, W: 4})
    s = place(s, {S: {"kalahari": {"sl_acolyte": 1}}, W: {"kalahari": {"gnoph_keh": 1}}}, {})
    dice[:] = [4, 5, 1]
    s, _ = act(s, WW, type="battle", area="kalahari")
    while s.battle is not None:
        s, _ = decide(s, SL, "sl_acolyte", ENGINE.legal_actions(s, SL)[0].area)
    assert s.players[W]["doom"] == 0
    s = set_turn(s, S, {S: 5})
    s, _ = act(s, SL, type="spend_requirement", requirement="sl_req_spend3_opp_gain1")
    assert {a.choice for a in ENGINE.legal_actions(s, SL) if a.type == "decide"} == {
        "ancient_sorcery", "burrow", "capture_monster", "cursed_slumber", "demand_sacrifice", "energy_nexus"}
    s, _ = decide(s, SL, "energy_nexus")
    assert s.players[S]["books"] == ["energy_nexus"]
    assert ENGINE.view(s, None).players[S].spellbooks == ["energy_nexus"]  # CWD-R102: public


def test_replay_and_json_round_trip():
    import random

    from rules.core import replay
    from tests.rules.cthulhu_wars_duel.helpers import SPEC
    rnd = random.Random(5)
    s = ENGINE.new_game(["a", "b"], {"map": "earth"}, seed=9)
    log = []
    while prompts := ENGINE.pending(s):
        seat = prompts[0].seat
        a = rnd.choice(ENGINE.legal_actions(s, seat))
        s, _ = ENGINE.apply(s, seat, a)
        log.append((seat, a.model_dump_json()))
        assert SPEC.state_model.model_validate_json(s.model_dump_json()) == s
    assert replay(SPEC, ["a", "b"], {"map": "earth"}, 9, log) == s


def test_refused_action_changes_nothing():
    s = set_turn(new(), S, {S: 2})
    before = s.model_dump_json()
    for bad in ({"type": "build_gate", "area": "central_pangaea"}, {"type": "ritual"}, {"type": "decide", "choice": "x"},
                {"type": "move_unit", "kind": "wizard", "src": "a", "dst": "b"}):
        with pytest.raises(RuleError):
            ENGINE.apply(s, SL, bad)
    with pytest.raises(RuleError) as e:
        ENGINE.apply(s, WW, {"type": "pass"})
    assert e.value.code == "not_your_turn"
    assert s.model_dump_json() == before

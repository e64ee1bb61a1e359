"""One test per digest rule id (CWD-Rnn) not already pinned by test_rules.py / test_phases_and_books.py.

Each test names its rule id in the docstring; /work/notes/cwd_coverage.md maps every id to code and tests.
"""

from __future__ import annotations

import pytest

from rules.core import RuleError
from rules.cthulhu_wars_duel import battle as B
from rules.cthulhu_wars_duel import maps
from rules.cthulhu_wars_duel.factions import SLEEPER as S
from rules.cthulhu_wars_duel.factions import UNITS
from rules.cthulhu_wars_duel.factions import WINDWALKER as W
from tests.rules.cthulhu_wars_duel.helpers import ENGINE, SL, WW, act, conserved, new, place, set_turn, top
from tests.rules.cthulhu_wars_duel.test_phases_and_books import gather
from tests.rules.cthulhu_wars_duel.test_rules import decide, doom_phase, fin


def legal(s, seat, type_=None):
    return [a for a in ENGINE.legal_actions(s, seat) if type_ is None or a.type == type_]


# ---------------------------------------------------------------------- 5.1 general principles
def test_cwd_r3_r6_abilities_come_from_faction_books_and_goos_in_play():
    """CWD-R3/CWD-R6: the unique ability is there from the start, a spellbook ability only once the book is
    on the card, a GOO ability only while the GOO is in play (and again after re-awakening)."""
    s = set_turn(new(), W, {S: 5, W: 5})
    assert [a.ability for a in legal(s, WW, "unique")] == ["hibernate"]  # no Ice Age book yet
    s.players[W]["books"] = ["ice_age"]
    assert "ice_age" in {a.ability for a in legal(s, WW, "unique")}
    s = set_turn(s, S)
    assert "lethargy" not in {a.ability for a in legal(s, SL, "unique")}
    s = place(s, {S: {"central_pangaea": {"sl_acolyte": 6, "tsathoggua": 1}}})
    assert "lethargy" in {a.ability for a in legal(s, SL, "unique")}


def test_cwd_r4_optional_abilities_can_be_declined(dice):
    """CWD-R4: Howl, Eternal and Cannibalism are asked, and saying no leaves the battle unchanged."""
    s = set_turn(new(), W, {S: 3, W: 4})
    s.players[W]["books"] = ["howl", "cannibalism"]
    s = place(s, {S: {"kalahari": {"sl_acolyte": 1}}, W: {"kalahari": {"wendigo": 1, "rhan_tegoth": 1}}}, {})
    dice[:] = [6, 1, 1, 1]
    s, _ = act(s, WW, type="battle", area="kalahari")
    assert top(s).kind == "howl"
    s, _ = decide(s, WW, "no")
    assert top(s).kind == "cannibalism" and {a.choice for a in legal(s, WW)} == {"decline", "wendigo", "ww_acolyte"}
    s, _ = decide(s, WW, "decline")
    assert s.battle is None and s.units[W]["kalahari"] == {"wendigo": 1, "rhan_tegoth": 1}


def test_cwd_r5_the_victim_picks_the_targeted_unit(dice):
    """CWD-R5: Howl pushes a Sleeper unit chosen by the Sleeper, to an adjacent area the Sleeper picks."""
    s = set_turn(new(), W, {S: 3, W: 4})
    s.players[W]["books"] = ["howl"]
    s = place(s, {S: {"kalahari": {"sl_acolyte": 1, "wizard": 1}}, W: {"kalahari": {"wendigo": 1}}}, {})
    s, _ = act(s, WW, type="battle", area="kalahari")
    s, _ = decide(s, WW, "yes")
    assert top(s).kind == "howl_victim" and top(s).seats == [SL]
    opts = {(a.choice, a.area) for a in legal(s, SL, "decide")}
    assert ("wizard", "karoo") in opts and ("sl_acolyte", "central_pangaea") in opts


def test_cwd_r7_battle_abilities_work_at_zero_power(dice):
    """CWD-R7: the Windwalker with 0 Power still gets Howl when attacked."""
    s = set_turn(new(), S, {S: 5, W: 0})
    s.players[W]["books"] = ["howl"]
    s = place(s, {S: {"kalahari": {"serpent_man": 1}}, W: {"kalahari": {"wendigo": 1, "ww_acolyte": 1}}}, {})
    s, _ = act(s, SL, type="battle", area="kalahari")
    assert top(s).kind == "howl" and top(s).seats == [WW]


def test_cwd_r8_energy_nexus_acts_on_the_opponents_turn():
    """CWD-R8: an effect between actions may be used on the other player's turn (Energy Nexus, A11)."""
    s = set_turn(new(), W, {S: 2, W: 5})
    s.players[S]["books"] = ["energy_nexus"]
    s = place(s, {S: {"kalahari": {"wizard": 1}}, W: {"kalahari": {"wendigo": 1}}}, {})
    s, _ = act(s, WW, type="battle", area="kalahari")
    assert s.turn == W and top(s).kind == "nexus" and top(s).seats == [SL]
    assert legal(s, WW) == []


# ---------------------------------------------------------------------- 5.2 Power, turns and Decay
def test_cwd_r10_actions_cost_power_up_front():
    """CWD-R10: an action you cannot afford is not offered and is refused."""
    s = set_turn(new(), S, {S: 2})
    s = place(s, {S: {"central_pangaea": {"sl_acolyte": 5}, "kalahari": {"sl_acolyte": 1}}})
    assert not legal(s, SL, "build_gate")
    with pytest.raises(RuleError):
        act(s, SL, type="build_gate", area="kalahari")
    s = set_turn(s, S, {S: 3})
    s, _ = act(s, SL, type="build_gate", area="kalahari")
    assert s.players[S]["power"] == 0


def test_cwd_r12_a_player_with_power_must_act():
    """CWD-R12: with Power you cannot just end the turn; Pass is always there."""
    s = set_turn(new(), S, {S: 1})
    assert not legal(s, SL, "end_turn") and legal(s, SL, "pass")
    with pytest.raises(RuleError) as e:
        act(s, SL, type="end_turn")
    assert e.value.code == "cwd.action_owed"


def test_cwd_r16_decay_paid_first_and_exact_zero_ends_the_turn():
    """CWD-R16 (A12): Decay is paid before acting; if that leaves 0 (or cannot be paid), the turn ends."""
    from rules.cthulhu_wars_duel.engine import begin_turn
    s = set_turn(new(), S, {S: 5, W: 2})
    s.decay = 2
    ev: list = []
    begin_turn(s, ev)
    assert s.players[S]["power"] == 3 and s.turn == S
    s2 = set_turn(new(), W, {S: 5, W: 2})
    s2.decay = 2
    ev = []
    begin_turn(s2, ev)
    assert s2.players[W]["power"] == 0 and s2.turn == S
    # the Windwalker's turn ended with the payment; the Sleeper then pays 2 and plays on
    assert [e.data["turn_over"] for e in ev if e.type == "decay_paid"] == [True, False]
    assert s2.players[S]["power"] == 3


def test_cwd_r17_decay_example_sequence():
    """CWD-R17: the rulebook example: B pays 1 then 2, then cannot pay 3 and drops to 0."""
    s = place(new(), {S: {"central_pangaea": {"sl_acolyte": 4}}})
    s = set_turn(s, S, {S: 6, W: 0})  # B has moved once already (7 -> 6)
    s.decay = 0
    from rules.cthulhu_wars_duel.engine import begin_turn
    s.turn = W
    ev: list = []
    begin_turn(s, ev)  # A's turn: the marker goes to 1, B pays 1
    assert s.decay == 1 and s.players[S]["power"] == 5
    s, _ = act(s, SL, type="recruit", area="central_pangaea")  # the book's battle: 1 Power
    s = fin(s, SL)
    assert s.decay == 2 and s.players[S]["power"] == 2
    s, _ = act(s, SL, type="recruit", area="central_pangaea")
    s, ev = act(s, SL, type="end_turn")
    assert "action_phase_over" in [e.type for e in ev] and s.decay == 0


def test_cwd_r18_power_gained_at_zero_brings_turns_back():
    """CWD-R18: a 0-Power player who gains Power takes turns again."""
    s = set_turn(new(), S, {S: 8, W: 0})
    s, _ = act(s, SL, type="spend_requirement", requirement="sl_req_spend3_opp_gain3")
    s, _ = decide(s, SL, "burrow")
    s = fin(s, SL)
    assert s.turn == W and s.players[W]["power"] == 3 and ENGINE.pending(s)[0].kind == "turn"


def test_cwd_r19_phase_ends_when_both_are_out_and_decay_resets():
    """CWD-R19 (A14): a Pass against a hibernating opponent ends the phase; Decay goes back to 0."""
    s = set_turn(new(), S, {S: 4, W: 3})
    s.players[W]["hibernating"] = True
    s.decay = 3
    s, ev = act(s, SL, type="pass")
    assert "action_phase_over" in [e.type for e in ev] and s.decay == 0 and s.phase != "action"


def test_cwd_r20_free_gate_changes_before_and_after_the_action():
    """CWD-R20/CWD-R40: step off the Gate, move that Acolyte away as the action, then put another one on."""
    s = set_turn(new(), S, {S: 8, W: 8})
    s, _ = act(s, SL, type="abandon_gate", area="central_pangaea")
    assert s.gates["central_pangaea"] == -1 and ENGINE.pending(s)[0].kind == "turn"
    s, _ = act(s, SL, type="move")
    for _ in range(5):
        s, _ = act(s, SL, type="move_unit", kind="sl_acolyte", src="central_pangaea", dst="kalahari")
    s, _ = act(s, SL, type="end_move")
    assert ENGINE.pending(s)[0].kind == "after_action"
    s, _ = act(s, SL, type="control_gate", area="central_pangaea")
    assert s.gates["central_pangaea"] == S and s.units[S]["central_pangaea"] == {"sl_acolyte": 1}


# ---------------------------------------------------------------------- 5.3 common actions
def test_cwd_r30_recruit_costs_one_in_an_area_with_own_units():
    """CWD-R30: 1 Power, only where a unit of yours stands (anywhere with none on the map)."""
    s = set_turn(new(), S, {S: 3})
    s = place(s, {S: {"kalahari": {"wizard": 1}}}, {})
    assert {a.area for a in legal(s, SL, "recruit")} == {"kalahari"}
    s, _ = act(s, SL, type="recruit", area="kalahari")
    assert s.players[S]["power"] == 2 and s.units[S]["kalahari"] == {"wizard": 1, "sl_acolyte": 1}


def test_cwd_r31_summon_needs_a_controlled_gate_not_an_abandoned_one():
    """CWD-R31: Summon only at a Gate you control; placing by an ability needs none (Death from Below)."""
    s = set_turn(new(), S, {S: 8})
    assert {a.area for a in legal(s, SL, "summon")} == {"central_pangaea"}
    s2 = place(s, {}, {"central_pangaea": -1})
    assert not legal(s2, SL, "summon")
    d = doom_phase(place(new(), {S: {"kalahari": {"sl_acolyte": 1}}}, {}), first=S)
    d, _ = act(d, SL, type="unique", ability="death_from_below", area="kalahari")
    assert d.units[S]["kalahari"]["wizard"] == 1


def test_cwd_r32_awaken_rhan_tegoth_in_a_glyph_area():
    """CWD-R32: Rhan-Tegoth costs 6, appears in either Windwalker glyph area, and earns his requirement."""
    s = set_turn(new(), W, {W: 6})
    assert {(a.kind, a.area) for a in legal(s, WW, "awaken")} == {("rhan_tegoth", "arctic"), ("rhan_tegoth", "antarctic")}
    s, _ = act(s, WW, type="awaken", kind="rhan_tegoth", area="antarctic")
    assert s.players[W]["power"] == 0 and s.units[W]["antarctic"] == {"rhan_tegoth": 1}
    assert "ww_req_awaken_rhan_tegoth" in s.players[W]["reqs"]


def test_cwd_r33_build_gate_needs_cultist_and_empty_area():
    """CWD-R33/CWD-R50: a cultist of yours and no Gate there; the builder's cultist goes on it."""
    s = set_turn(new(), S, {S: 8})
    s = place(s, {S: {"central_pangaea": {"sl_acolyte": 5}, "kalahari": {"wizard": 1}, "karoo": {"sl_acolyte": 1}}})
    assert {a.area for a in legal(s, SL, "build_gate")} == {"karoo"}  # a Gate already in central_pangaea
    s, ev = act(s, SL, type="build_gate", area="karoo")
    assert s.gates["karoo"] == S and s.players[S]["power"] == 5 and "gate_built" in [e.type for e in ev]


def test_cwd_r34_move_costs_one_per_unit_into_enemy_areas_too():
    """CWD-R34: 1 Power per moved unit, entering an enemy area costs nothing extra."""
    s = set_turn(new(), S, {S: 8})
    s = place(s, {W: {"kalahari": {"ww_acolyte": 1}}})
    s, _ = act(s, SL, type="move")
    s, _ = act(s, SL, type="move_unit", kind="sl_acolyte", src="central_pangaea", dst="kalahari")
    s, _ = act(s, SL, type="move_unit", kind="sl_acolyte", src="central_pangaea", dst="appalachia")
    s, _ = act(s, SL, type="end_move")
    assert s.players[S]["power"] == 6 and s.units[S]["kalahari"] == {"sl_acolyte": 1}


def test_cwd_r35_battle_costs_one_and_once_per_area_per_turn(dice):
    """CWD-R35: 1 Power; the same area cannot host a second battle in one turn."""
    s = set_turn(new(), W, {S: 0, W: 5})
    s.players[S]["books"] = ["burrow", "energy_nexus", "ancient_sorcery", "capture_monster", "cursed_slumber",
                             "demand_sacrifice"]
    s = place(s, {S: {"kalahari": {"sl_acolyte": 1}}, W: {"kalahari": {"wendigo": 1}}}, {})
    dice[:] = [1]
    s, _ = act(s, WW, type="battle", area="kalahari")
    assert s.players[W]["power"] == 4 and "kalahari" not in {a.area for a in legal(s, WW, "battle")}
    with pytest.raises(RuleError) as e:
        act(s, WW, type="battle", area="kalahari")
    assert e.value.code == "cwd.already_battled"


def test_cwd_r36_capture_costs_one():
    """CWD-R36: Capture Cultist costs 1 Power (2 for the Sleeper in the Ice Age area)."""
    s = set_turn(new(), W, {W: 5})
    s = place(s, {S: {"kalahari": {"sl_acolyte": 1}}, W: {"kalahari": {"wendigo": 1}}}, {})
    s, _ = act(s, WW, type="capture", area="kalahari")
    assert s.players[W]["power"] == 4 and s.captives[W] == {"sl_acolyte": 1}
    t = set_turn(new(), S, {S: 5})
    t = place(t, {S: {"kalahari": {"wizard": 1}}, W: {"kalahari": {"ww_acolyte": 1}}}, {})
    t.ice = "kalahari"
    t, _ = act(t, SL, type="capture", area="kalahari")
    assert t.players[S]["power"] == 3


def test_cwd_r37_pass_spends_everything():
    """CWD-R37/CWD-R13: Pass takes all remaining Power."""
    s = set_turn(new(), W, {S: 5, W: 9})
    s, ev = act(s, WW, type="pass")
    assert s.players[W]["power"] == 0 and "passed" in [e.type for e in ev] and s.turn == S


def test_cwd_r38_unique_actions_only_when_fully_possible():
    """CWD-R38: Ancient Sorcery needs a Serpent Man on the map; Capture Monster an unguarded enemy monster
    with Tsathoggua; the Cursed Slumber return an area without a Gate."""
    s = set_turn(new(), S, {S: 5, W: 5})
    s.players[S]["books"] = ["ancient_sorcery", "capture_monster", "cursed_slumber"]
    s = place(s, {S: {"central_pangaea": {"sl_acolyte": 6}, "kalahari": {"tsathoggua": 1}},
                  W: {"kalahari": {"wendigo": 1, "rhan_tegoth": 1}}})
    abilities = {a.ability for a in legal(s, SL, "unique")}
    assert "ancient_sorcery" not in abilities and "capture_monster" not in abilities
    s.slumber = True
    s.gates = {"arctic": W}
    s.units[S]["central_pangaea"]["sl_acolyte"] = 5
    returns = {a.area for a in legal(s, SL, "unique") if a.ability == "slumber_return"}
    assert "arctic" not in returns and "kalahari" in returns


def test_cwd_r39_requirement_action_is_a_whole_action():
    """CWD-R39: paying 3 as a requirement is the turn's action and does nothing else."""
    s = set_turn(new(), S, {S: 8, W: 2})
    s, ev = act(s, SL, type="spend_requirement", requirement="sl_req_spend3_opp_gain1")
    assert s.acted and s.players[S]["power"] == 5 and s.players[W]["power"] == 3
    assert top(s).kind == "choose_book"


# ---------------------------------------------------------------------- 5.4 unlimited actions
def test_cwd_r40_gate_control_is_free_own_turn_only_and_never_the_only_activity():
    """CWD-R40: control an abandoned Gate with your cultist there for 0; not on the opponent's turn; the
    turn still needs its action; the holder must step off before it can move."""
    s = set_turn(new(), S, {S: 4, W: 4})
    s = place(s, {S: {"central_pangaea": {"sl_acolyte": 6}, "kalahari": {"sl_acolyte": 1}},
                  W: {"kalahari": {"ww_acolyte": 1}}}, {"central_pangaea": S, "kalahari": -1})
    assert not [a for a in legal(s, WW) if a.type == "control_gate"]
    s, _ = act(s, SL, type="control_gate", area="kalahari")
    assert s.gates["kalahari"] == S and s.players[S]["power"] == 4 and ENGINE.pending(s)[0].kind == "turn"
    assert not legal(s, SL, "end_turn")
    s, _ = act(s, SL, type="move")
    srcs = {(a.src, a.kind) for a in legal(s, SL, "move_unit")}
    assert ("kalahari", "sl_acolyte") not in srcs  # the only Acolyte there holds the Gate


def test_cwd_r41_a_fought_battle_may_be_the_main_action(dice):
    """CWD-R41/CWD-R103: with extra battles open, a battle may be called the main action afterwards, so the
    turn can end without another action; one battle per area still holds."""
    s = set_turn(new(), W, {S: 0, W: 8})
    s.players[W]["books"] = ["arctic_wind", "berserkergang", "cannibalism", "herald_of_the_outer_gods", "howl",
                             "ice_age"]
    s = place(s, {S: {"kalahari": {"sl_acolyte": 1}}, W: {"kalahari": {"gnoph_keh": 1}, "arctic": {"ww_acolyte": 5}}}, {})
    dice[:] = [1, 1, 1]
    s, _ = act(s, WW, type="battle", area="kalahari")
    assert not s.acted and legal(s, WW, "end_turn") and legal(s, WW, "recruit")
    s2, _ = act(s, WW, type="end_turn")
    assert s2.turn == W and s2.decay == 1  # the idle Sleeper advanced Decay; the Windwalker is on again


# ---------------------------------------------------------------------- 5.5 Gates
def test_cwd_r50_one_gate_per_area_and_only_cultists_hold_gates():
    """CWD-R50: no second Gate in an area; a monster alone cannot control an abandoned Gate."""
    s = set_turn(new(), W, {W: 8})
    s = place(s, {W: {"kalahari": {"wendigo": 1, "ww_acolyte": 1}, "karoo": {"wendigo": 1}}},
              {"kalahari": -1, "karoo": -1})
    assert {a.area for a in legal(s, WW, "control_gate")} == {"kalahari"}
    assert not legal(s, WW, "build_gate")


def test_cwd_r51_abandon_leaves_the_cultist_in_the_area():
    """CWD-R51: a Gate with no cultist on it is abandoned; the cultist stays beside it."""
    s = set_turn(new(), S, {S: 4})
    s, _ = act(s, SL, type="abandon_gate", area="central_pangaea")
    assert s.gates["central_pangaea"] == -1 and s.units[S]["central_pangaea"] == {"sl_acolyte": 6}
    assert ENGINE.view(s, None).gates["central_pangaea"] is None


def test_cwd_r52_r54_killing_the_holder_abandons_but_keeps_the_gate(dice):
    """CWD-R52/CWD-R54: the killed Gate holder leaves the Gate abandoned; battle never removes a Gate."""
    s = set_turn(new(), W, {S: 0, W: 4})
    s = place(s, {S: {"kalahari": {"sl_acolyte": 1}}, W: {"kalahari": {"gnoph_keh": 1}}}, {"kalahari": S})
    dice[:] = [6, 1, 1]
    s, _ = act(s, WW, type="battle", area="kalahari")
    assert s.gates == {"kalahari": -1} and "kalahari" not in s.units[S] and s.players[W]["doom"] == 1


def test_cwd_r53_gates_give_doom_only_through_a_ritual():
    """CWD-R53: a Doom phase without a Ritual gives nothing for controlled Gates."""
    s = doom_phase(new(map="earth", start="antarctica"), first=S)
    s, _ = act(s, SL, type="doom_done")
    s, _ = act(s, WW, type="doom_done")
    assert [p["doom"] for p in s.players] == [0, 0]


# ---------------------------------------------------------------------- 5.6 battle
def test_cwd_r60_r60a_attacker_pays_and_every_unit_takes_part(dice):
    """CWD-R60/CWD-R60a: the attacker pays 1 (+1 in the Ice Age area for the Sleeper); all units in the area
    fight, so every one counts for dice."""
    s = set_turn(new(), S, {S: 5, W: 3})
    s = place(s, {S: {"kalahari": {"serpent_man": 2, "sl_acolyte": 1}}, W: {"kalahari": {"wendigo": 2, "ww_acolyte": 1}}}, {})
    s.ice = "kalahari"
    dice[:] = [1, 1, 1, 1]
    s, ev = act(s, SL, type="battle", area="kalahari")
    assert s.players[S]["power"] == 3
    assert [e.data["dice"] for e in ev if e.type == "dice"] == [2, 2]


def test_cwd_r60b_energy_nexus_can_awaken_before_the_battle(dice):
    """CWD-R60b (A11): any Sleeper action starting in the area, here Awaken Tsathoggua by the Spawn; the
    Awaken requirement is fulfilled after the battle (CWD-R71)."""
    s = set_turn(new(), W, {S: 9, W: 5})
    s.players[S]["books"] = ["energy_nexus"]
    s = place(s, {S: {"kalahari": {"wizard": 1, "formless_spawn": 1}}, W: {"kalahari": {"gnoph_keh": 1}}}, {})
    s.decay = 2
    s, _ = act(s, WW, type="battle", area="kalahari")
    assert "awaken:tsathoggua" in {a.choice for a in legal(s, SL, "decide")}
    dice[:] = [1] * 20
    s, ev = decide(s, SL, "awaken:tsathoggua", "kalahari")
    assert s.players[S]["power"] == 1  # 8, and no Decay on the opponent's turn
    assert s.units[S]["kalahari"]["tsathoggua"] == 1
    types = [e.type for e in ev]
    assert types.index("requirement_met") < types.index("battle_over")
    assert s.battle is None and top(s).kind == "choose_book" and top(s).seats == [SL]  # the book comes after


def test_cwd_r61_r61a_attacker_pre_battle_first_then_defender(dice):
    """CWD-R61/CWD-R61a: the attacker's Howl is settled before the defender's Demand Sacrifice; once the
    defender acts, the attacker is not asked again."""
    s = set_turn(new(), W, {S: 3, W: 4})
    s.players[W]["books"] = ["howl"]
    s.players[S]["books"] = ["demand_sacrifice"]
    s = place(s, {S: {"kalahari": {"sl_acolyte": 2}, "karoo": {"tsathoggua": 1}}, W: {"kalahari": {"wendigo": 1}}}, {})
    s, _ = act(s, WW, type="battle", area="kalahari")
    assert top(s).kind == "howl"
    s, _ = decide(s, WW, "no")
    assert top(s).kind == "sacrifice" and top(s).seats == [WW]
    dice[:] = [1]
    s, _ = decide(s, WW, "elder_sign")
    assert s.battle is None and "howl" not in [f.kind for f in s.stack]


def test_cwd_r61b_pre_battle_abilities_cost_nothing(dice):
    """CWD-R61b: using Howl costs no Power."""
    s = set_turn(new(), W, {S: 3, W: 4})
    s.players[W]["books"] = ["howl"]
    s = place(s, {S: {"kalahari": {"sl_acolyte": 2}}, W: {"kalahari": {"wendigo": 1}}}, {})
    s, _ = act(s, WW, type="battle", area="kalahari")
    s, _ = decide(s, WW, "yes")
    assert s.players[W]["power"] == 3


def test_cwd_r61c_howl_needs_a_wendigo_in_the_battle_demand_sacrifice_only_in_play():
    """CWD-R61c: Howl needs a Wendigo in the battle; Demand Sacrifice only Tsathoggua somewhere on the map."""
    s = set_turn(new(), W, {S: 3, W: 4})
    s.players[W]["books"] = ["howl"]
    s.players[S]["books"] = ["demand_sacrifice"]
    s = place(s, {S: {"kalahari": {"sl_acolyte": 2}, "siberia": {"tsathoggua": 1}},
                  W: {"kalahari": {"gnoph_keh": 1}, "karoo": {"wendigo": 1}}}, {})
    s, _ = act(s, WW, type="battle", area="kalahari")
    assert top(s).kind == "sacrifice"


def test_cwd_r62_a_unit_pushed_out_before_battle_does_not_roll(dice):
    """CWD-R62: a Formless Spawn howled away takes no part; the rest roll without it."""
    s = set_turn(new(), W, {S: 3, W: 4})
    s.players[W]["books"] = ["howl"]
    s = place(s, {S: {"kalahari": {"formless_spawn": 1, "serpent_man": 1}}, W: {"kalahari": {"wendigo": 1}}}, {})
    s, _ = act(s, WW, type="battle", area="kalahari")
    s, _ = decide(s, WW, "yes")
    dice[:] = [1, 1]
    s, ev = decide(s, SL, "formless_spawn", "karoo")
    assert {e.data["seat"]: e.data["dice"] for e in ev if e.type == "dice"} == {WW: 1, SL: 1}


def test_cwd_r63_no_units_left_no_dice():
    """CWD-R63: if Howl empties one side, the battle ends without dice or Post-Battle."""
    s = set_turn(new(), W, {S: 3, W: 4})
    s.players[W]["books"] = ["howl", "cannibalism"]
    s = place(s, {S: {"kalahari": {"wizard": 1}}, W: {"kalahari": {"wendigo": 1}}}, {})
    s, _ = act(s, WW, type="battle", area="kalahari")
    s, _ = decide(s, WW, "yes")
    s, ev = decide(s, SL, "wizard", "karoo")
    types = [e.type for e in ev]
    assert "battle_void" in types and "dice" not in types and s.battle is None and not s.stack


def test_cwd_r65_six_kills_four_five_pain_rest_miss(dice):
    """CWD-R65: faces 6 = Kill, 4-5 = Pain, 1-3 = miss."""
    s = set_turn(new(), W, {S: 0, W: 4})
    s = place(s, {S: {"kalahari": {"sl_acolyte": 6}}, W: {"kalahari": {"gnoph_keh": 2}}}, {})
    dice[:] = [6, 5, 4, 3, 2, 1]
    s, ev = act(s, WW, type="battle", area="kalahari")
    d = next(e.data for e in ev if e.type == "dice")
    assert (d["kills"], d["pains"]) == (1, 2)


def test_cwd_r67_kills_first_one_result_per_unit_excess_ignored(dice):
    """CWD-R67: three Kills on two units kill both; the third is lost; Pains come after the Kills."""
    s = set_turn(new(), W, {S: 0, W: 4})
    s = place(s, {S: {"kalahari": {"sl_acolyte": 1, "wizard": 1}}, W: {"kalahari": {"gnoph_keh": 1}}}, {})
    dice[:] = [6, 6, 6]
    s, ev = act(s, WW, type="battle", area="kalahari")
    assert "kalahari" not in s.units[S] and s.players[W]["doom"] == 2 and s.battle is None
    t = set_turn(new(), W, {S: 0, W: 4})
    t = place(t, {S: {"kalahari": {"sl_acolyte": 1, "wizard": 1}}, W: {"kalahari": {"gnoph_keh": 1}}}, {})
    dice[:] = [6, 4, 1]
    t, _ = act(t, WW, type="battle", area="kalahari")
    assert top(t).kind == "assign" and top(t).params["result"] == "k" and top(t).seats == [SL]


def test_cwd_r68_eternal_is_used_while_pains_are_assigned(dice):
    """CWD-R68 (A8): Eternal on a Pain is asked during Pain assignment; cancelling a Pain gives no Doom."""
    s = set_turn(new(), S, {S: 3, W: 2})
    s = place(s, {S: {"kalahari": {"serpent_man": 1}}, W: {"kalahari": {"rhan_tegoth": 1}}}, {})
    dice[:] = [5] + [1, 1, 1]
    s, _ = act(s, SL, type="battle", area="kalahari")
    assert top(s).kind == "eternal" and top(s).params["result"] == "p"
    s, _ = decide(s, WW, "yes")
    assert s.units[W]["kalahari"] == {"rhan_tegoth": 1} and s.players[S]["doom"] == 0 and s.players[W]["power"] == 1


def test_cwd_r69_demand_sacrifice_does_not_stop_eliminations(dice):
    """CWD-R69: with Kills turned into Pains, Berserkergang eliminations still happen (and score); an
    elimination does not trigger Cannibalism."""
    s = set_turn(new(), S, {S: 3, W: 2})
    s.players[S]["books"] = ["demand_sacrifice"]
    s.players[W]["books"] = ["berserkergang", "cannibalism"]
    s = place(s, {S: {"kalahari": {"tsathoggua": 1, "sl_acolyte": 1}}, W: {"kalahari": {"gnoph_keh": 1}}}, {})
    s, _ = act(s, SL, type="battle", area="kalahari")
    assert top(s).kind == "sacrifice"
    dice[:] = [6, 1] + [1, 1, 1]
    s, ev = decide(s, WW, "pains")
    assert s.units[S]["kalahari"] == {"tsathoggua": 1}  # the Acolyte was eliminated, not pained away
    assert s.players[W]["doom"] == 1 and s.players[S]["doom"] == 3
    assert "cannibalism" not in [e.type for e in ev] and s.battle is None


def test_cwd_r70_r70a_r70b_retreats_attacker_first_can_block_the_defender(dice):
    """CWD-R70/CWD-R70a/CWD-R70b/CWD-R70c (A20): removals first, then the attacker retreats; its unit can
    take the defender's last exit, and the defender then loses one pained unit."""
    s = set_turn(new(start="arctic"), W, {S: 0, W: 4})
    board = {a: {"ww_acolyte": 1} for a in ("kalahari", "south_thalassa_ocean")}
    board["karoo"] = {"gnoph_keh": 1, "wendigo": 1}
    s = place(s, {S: {"karoo": {"serpent_man": 1, "sl_acolyte": 1}}, W: board}, {})
    dice[:] = [4, 5, 1, 1] + [4]
    s, _ = act(s, WW, type="battle", area="karoo")
    assert top(s).kind == "assign" and top(s).seats == [WW] and top(s).params["result"] == "p"
    s, _ = decide(s, WW, "wendigo")
    assert top(s).kind == "retreat" and top(s).seats == [WW]
    assert {a.area for a in legal(s, WW, "decide")} == {"kalahari", "south_thalassa_ocean", "antarctic"}
    s, _ = decide(s, WW, "wendigo", "antarctic")
    assert top(s).kind == "retreat_elim" and top(s).seats == [SL]
    s, _ = decide(s, SL, "serpent_man")
    assert s.units[S]["karoo"] == {"sl_acolyte": 1} and s.players[W]["doom"] == 2 and conserved(s)


# ---------------------------------------------------------------------- 5.7 capture
def test_cwd_r75_capture_needs_a_monster_or_goo():
    """CWD-R75: an Acolyte cannot capture; a Wizard (Combat 0) can."""
    s = set_turn(new(), S, {S: 5})
    s = place(s, {S: {"kalahari": {"sl_acolyte": 2}}, W: {"kalahari": {"ww_acolyte": 1}}}, {})
    assert not legal(s, SL, "capture")
    s = place(s, {S: {"kalahari": {"wizard": 1}}, W: {"kalahari": {"ww_acolyte": 1}}}, {})
    assert [a.area for a in legal(s, SL, "capture")] == ["kalahari"]


def test_cwd_r76_ferox_does_not_stop_a_goo():
    """CWD-R76: with Ithaqua in play, Tsathoggua can still capture Windwalker cultists."""
    s = set_turn(new(), S, {S: 5})
    s = place(s, {S: {"kalahari": {"tsathoggua": 1}}, W: {"kalahari": {"ww_acolyte": 1}, "arctic": {"ithaqua": 1}}}, {})
    assert [a.area for a in legal(s, SL, "capture")] == ["kalahari"]


def test_cwd_r77_victim_keeps_the_gate_holder():
    """CWD-R77: the Sleeper, not the captor, picks which Acolyte goes."""
    s = set_turn(new(), W, {W: 5})
    s = place(s, {S: {"kalahari": {"sl_acolyte": 3}}, W: {"kalahari": {"gnoph_keh": 1}}}, {"kalahari": S})
    s, _ = act(s, WW, type="capture", area="kalahari")
    assert top(s).seats == [SL] and {a.choice for a in legal(s, SL, "decide")} == {"gate_acolyte", "sl_acolyte"}


def test_cwd_r78_r91_captive_is_held_then_returned_for_one_power():
    """CWD-R78/CWD-R91: the captive sits on the captor's card (not in the pool), then goes home at Gather
    Power for +1 to the captor; capture scores 1 Doom (A6)."""
    from rules.cthulhu_wars_duel.common import pool
    s = set_turn(new(), W, {W: 5})
    s = place(s, {S: {"kalahari": {"sl_acolyte": 1}}, W: {"kalahari": {"wendigo": 1}}}, {})
    s, _ = act(s, WW, type="capture", area="kalahari")
    assert s.captives[W] == {"sl_acolyte": 1} and pool(s, S, "sl_acolyte") == 5 and s.players[W]["doom"] == 1
    s, ev = gather(s)
    got = next(e for e in ev if e.type == "power_gathered").data
    assert got["income"][W] == 1 and s.captives[W] == {} and pool(s, S, "sl_acolyte") == 6


# ---------------------------------------------------------------------- 5.8 Doom for kills
def test_cwd_r80_killing_tsathoggua_gives_eight_own_removal_gives_nothing(dice):
    """CWD-R80: a killed enemy unit gives its cost in Doom; taking your own Gate off the map does not."""
    s = set_turn(new(), W, {S: 0, W: 4})
    s = place(s, {S: {"kalahari": {"tsathoggua": 1}}, W: {"kalahari": {"gnoph_keh": 1}}}, {})
    dice[:] = [6, 1, 1] + [1, 1, 1]  # Tsathoggua rolls max(2, 3 Power left) = 3
    s, _ = act(s, WW, type="battle", area="kalahari")
    assert s.players[W]["doom"] == 8
    t = set_turn(new(), S, {S: 5})
    t.players[S]["books"] = ["cursed_slumber"]
    t, _ = act(t, SL, type="unique", ability="cursed_slumber", area="central_pangaea")
    assert [p["doom"] for p in t.players] == [0, 0]


def test_cwd_r81_variable_cost_is_averaged_rounded_up(dice):
    """CWD-R81 (doom averaging): a Gnoph-Keh is worth 3 (4/3/2/1 averages 2.5) whatever it cost."""
    s = set_turn(new(), S, {S: 3, W: 0})
    s = place(s, {S: {"kalahari": {"serpent_man": 1}}, W: {"kalahari": {"gnoph_keh": 4}}}, {})
    assert B.unit_combat(s, W, "gnoph_keh") == 3
    dice[:] = [6] + [1] * 12
    s, _ = act(s, SL, type="battle", area="kalahari")
    assert s.players[S]["doom"] == 3 and UNITS["gnoph_keh"][4] == 3


def test_cwd_r82_escaped_kill_gives_half_rounded_up(dice):
    """CWD-R82: Eternal on a Kill: Rhan-Tegoth survives, the Sleeper still gets 3 (half of 6)."""
    s = set_turn(new(), S, {S: 3, W: 2})
    s = place(s, {S: {"kalahari": {"serpent_man": 1}}, W: {"kalahari": {"rhan_tegoth": 1}}}, {})
    dice[:] = [6] + [1, 1, 1]
    s, _ = act(s, SL, type="battle", area="kalahari")
    s, _ = decide(s, WW, "yes")
    assert s.players[S]["doom"] == 3 and s.units[W]["kalahari"] == {"rhan_tegoth": 1}


def test_cwd_r83_doom_once_per_unit_per_battle(dice):
    """CWD-R83 (A25): after Eternal saves him from a Kill, Rhan-Tegoth takes no further result in that
    battle, so the 3 Doom is the only score for him."""
    s = set_turn(new(), S, {S: 3, W: 2})
    s = place(s, {S: {"kalahari": {"serpent_man": 2}}, W: {"kalahari": {"rhan_tegoth": 1}}}, {})
    dice[:] = [6, 6] + [1, 1, 1]
    s, _ = act(s, SL, type="battle", area="kalahari")
    s, _ = decide(s, WW, "yes")
    assert s.players[S]["doom"] == 3 and s.battle is None and s.units[W]["kalahari"] == {"rhan_tegoth": 1}


def test_cwd_r84_doom_values_of_this_box():
    """CWD-R84: Acolyte 1, Wizard 1, Serpent Man 2, Spawn 3, Tsathoggua 8, Wendigo 1, Gnoph-Keh 3,
    Rhan-Tegoth 6, Ithaqua 6."""
    assert {k: v[4] for k, v in UNITS.items()} == {
        "sl_acolyte": 1, "wizard": 1, "serpent_man": 2, "formless_spawn": 3, "tsathoggua": 8,
        "ww_acolyte": 1, "wendigo": 1, "gnoph_keh": 3, "rhan_tegoth": 6, "ithaqua": 6}


def test_cwd_r85_howl_push_and_pains_score_nothing(dice):
    """CWD-R85: a Howl push and a Pain retreat give no Doom."""
    s = set_turn(new(), W, {S: 3, W: 4})
    s.players[W]["books"] = ["howl"]
    s = place(s, {S: {"kalahari": {"sl_acolyte": 1, "serpent_man": 1}}, W: {"kalahari": {"wendigo": 1}}}, {})
    s, _ = act(s, WW, type="battle", area="kalahari")
    s, _ = decide(s, WW, "yes")
    dice[:] = [5] + [1]
    s, _ = decide(s, SL, "sl_acolyte", "karoo")
    while s.battle is not None:
        a = legal(s, SL, "decide")[0]
        s, _ = decide(s, SL, a.choice, a.area)
    assert [p["doom"] for p in s.players] == [0, 0]


# ---------------------------------------------------------------------- 5.9 Gather Power
def test_cwd_r90_income_sources():
    """CWD-R90: 1 per cultist, 2 per controlled Gate, 1 per abandoned Gate to both."""
    s = place(new(), {S: {"kalahari": {"sl_acolyte": 3}}, W: {"arctic": {"ww_acolyte": 2}}},
              {"kalahari": S, "arctic": W, "karoo": -1})
    s, ev = gather(s)
    got = next(e for e in ev if e.type == "power_gathered").data
    assert got["income"] == [3 + 2 + 1, 2 + 2 + 1]


def test_cwd_r92_minimum_is_half_rounded_up():
    """CWD-R92: exactly half stays as it is; below half rises to half rounded up."""
    s = place(new(), {S: {"kalahari": {"sl_acolyte": 5}}, W: {"arctic": {"ww_acolyte": 6}}}, {"arctic": W})
    s, ev = gather(s)
    got = next(e for e in ev if e.type == "power_gathered").data
    assert got["gathered"] == [5, 8] and got["power"] == [5, 8]
    s = place(new(), {S: {"kalahari": {"sl_acolyte": 3}}, W: {"arctic": {"ww_acolyte": 6}}}, {"arctic": W})
    s, ev = gather(s)
    got = next(e for e in ev if e.type == "power_gathered").data
    assert got["gathered"] == [3, 8] and got["power"] == [4, 8]


def test_cwd_r93_power_has_no_maximum():
    """CWD-R93: income above the printed 20 is kept (6 cultists + 6 Gates + 3 abandoned Gates = 21)."""
    areas = ("kalahari", "karoo", "cimmeria", "siberia", "laurussia", "cathaysia")
    s = place(new(), {S: {a: {"sl_acolyte": 1} for a in areas}, W: {}},
              {**{a: S for a in areas}, "arctic": -1, "antarctic": -1, "mawson_ocean": -1})
    s, ev = gather(s)
    assert next(e for e in ev if e.type == "power_gathered").data["power"][S] == 21 and s.players[S]["power"] == 21


# ---------------------------------------------------------------------- 5.10 Dark Towers
def test_cwd_r95_first_towers_on_actual_starts_even_without_a_gate():
    """CWD-R95 (A18): the first Doom phase towers both start areas; a start area without a Gate still
    gets its Tower; the Windwalker's other glyph area does not."""
    s = doom_phase(new(start="arctic"), first=S)
    del s.gates["central_pangaea"]
    s.units[S]["central_pangaea"] = {"sl_acolyte": 5}
    s, _ = act(s, SL, type="doom_done")
    s, _ = act(s, WW, type="doom_done")
    assert sorted(s.towers) == ["arctic", "central_pangaea"] and "central_pangaea" not in s.gates
    assert s.gates["arctic"] == -1 and s.units[W]["arctic"] == {"ww_acolyte": 6}


def test_cwd_r96_later_towers_two_chosen_by_first_player_then_one_then_none():
    """CWD-R96 (A16): two glyph areas per later Doom phase, chosen by the first player; one when only one
    is left; none when all carry Towers."""
    s = doom_phase(new(start="antarctic"), first=W)
    s.towers_started = True
    glyphs = list(maps.load("extinction").tower_glyph)
    s.towers = ["antarctic", "central_pangaea"] + glyphs[:-1]
    s, _ = act(s, WW, type="doom_done")
    s, _ = act(s, SL, type="doom_done")
    assert top(s).kind == "place_tower" and top(s).seats == [WW] and top(s).params["left"] == 1
    s, _ = decide(s, WW, "tower", glyphs[-1])
    assert s.phase == "action" and len(s.towers) == 10
    s = doom_phase(s, first=S)
    s, _ = act(s, SL, type="doom_done")
    s, _ = act(s, WW, type="doom_done")
    assert s.phase == "action" and len(s.towers) == 10


def test_cwd_r98_towered_gate_cannot_be_controlled_or_summoned_at_and_is_not_a_ritual_gate():
    """CWD-R98: a Gate under a Tower is abandoned for everyone: no control, no Summon, no Ritual Doom."""
    s = set_turn(new(), S, {S: 8})
    s.towers = ["central_pangaea"]
    s.gates["central_pangaea"] = -1
    assert not [a for a in legal(s, SL) if a.type in ("control_gate", "summon")]
    d = doom_phase(s, first=S)
    d, _ = act(d, SL, type="ritual")
    assert d.players[S]["doom"] == 0


# ---------------------------------------------------------------------- 5.11 spellbooks
def test_cwd_r100_r110_ritual_pays_track_advances_gates_and_goos():
    """CWD-R100/CWD-R110: pay the track value, advance the marker, +1 Doom per Gate, a sign per GOO."""
    s = doom_phase(new(), first=S)
    s = place(s, {S: {"central_pangaea": {"sl_acolyte": 6, "tsathoggua": 1}}})
    s, ev = act(s, SL, type="ritual")
    assert s.players[S]["power"] == 3 and s.ritual == 1 and s.players[S]["doom"] == 1
    assert len(s.players[S]["signs"]) == 1 and "sl_req_ritual" in s.players[S]["reqs"]


def test_cwd_r101_a_met_requirement_must_take_a_book_kept_for_good():
    """CWD-R101: a met requirement forces a free choice of book; the book stays even when the condition no
    longer holds (first player lost later)."""
    s = new()
    s, _ = gather(s)
    s, _ = decide(s, SL, WW)  # the Windwalker becomes first player
    assert top(s).kind == "choose_book" and top(s).seats == [WW]
    with pytest.raises(RuleError):
        act(s, WW, type="doom_done")
    s, _ = decide(s, WW, "ice_age")
    s.first = S
    assert s.players[W]["books"] == ["ice_age"]


def test_cwd_r102_book_choice_is_public():
    """CWD-R102: the spellbook event and the public view name the book."""
    s = set_turn(new(), S, {S: 5})
    s, _ = act(s, SL, type="spend_requirement", requirement="sl_req_spend3_opp_gain1")
    s, ev = decide(s, SL, "burrow")
    assert [e.data["book"] for e in ev if e.type == "spellbook"] == ["burrow"]
    assert next(e for e in ev if e.type == "spellbook").audience is None
    assert ENGINE.view(s, WW).players[S].spellbooks == ["burrow"]


def test_cwd_r103_six_books_open_extra_battles_for_both():
    """CWD-R103: when the Sleeper has six books, the Windwalker may battle before its main action too."""
    s = set_turn(new(), W, {S: 3, W: 5})
    s.players[S]["books"] = ["burrow", "energy_nexus", "ancient_sorcery", "capture_monster", "cursed_slumber",
                             "demand_sacrifice"]
    s = place(s, {S: {"kalahari": {"sl_acolyte": 1}, "karoo": {"sl_acolyte": 1}},
                  W: {"kalahari": {"wendigo": 1}, "karoo": {"wendigo": 1}}}, {})
    from rules.cthulhu_wars_duel.engine import unlimited_open
    assert unlimited_open(s)
    s.acted = True
    assert {a.area for a in legal(s, WW, "battle")} == {"kalahari", "karoo"}


# ---------------------------------------------------------------------- 5.12 Doom phase and end
def test_cwd_r111_ritual_on_ten_reaches_end_and_the_second_pays_ten():
    """CWD-R111: from 10 the marker goes to END; the other player may still Ritual for 10."""
    from rules.cthulhu_wars_duel.engine import ritual_cost
    s = doom_phase(new(), first=W)
    s.ritual = 5
    s.players[W]["power"] = 10
    s, _ = act(s, WW, type="ritual")
    assert s.ritual == len(s.ritual_track) and ritual_cost(s, S) == 10 and s.phase == "doom"


def test_cwd_r112_serpent_man_returns_first_to_afford_the_ritual():
    """CWD-R112 (A26): the rulebook example: Ritual costs 8, the Sleeper has 7; bringing the Serpent Man
    back gives 1 Power, and then the Ritual is affordable."""
    s = doom_phase(new(), first=S)
    s.ritual = 3  # the track shows 8
    s.sorcery = 1
    s.players[S]["borrow"] = True
    s.players[S]["power"] = 7
    assert {a.type for a in legal(s, SL)} == {"unique"} and not legal(s, SL, "ritual")
    s, _ = act(s, SL, type="unique", ability="sorcery_return", area="kalahari")
    assert s.players[S]["power"] == 8 and legal(s, SL, "ritual")
    s, _ = act(s, SL, type="ritual")
    assert s.players[S]["power"] == 0


def test_cwd_r113_doom_phase_is_finished_before_the_end():
    """CWD-R113: reaching 30 in the Doom phase lets the second player still decide, then the game ends."""
    s = doom_phase(new(), first=S)
    s.players[S]["doom"] = 29
    s, _ = act(s, SL, type="ritual")
    s, _ = decide(s, SL, "burrow")
    assert s.players[S]["doom"] == 30 and s.phase == "doom"
    s, _ = act(s, SL, type="doom_done")
    assert s.phase == "doom" and s.turn == W
    s, _ = act(s, WW, type="ritual")
    s, _ = act(s, WW, type="doom_done")
    assert s.phase == "over" and ENGINE.result(s).reason == "doom_30"


def test_cwd_r113_a13_kill_doom_ends_the_game_at_the_end_of_the_turn(dice):
    """CWD-R113 (A13): Doom from a kill reaching 30 in the Action phase ends the game when the turn ends."""
    s = set_turn(new(), W, {S: 0, W: 4})
    s.players[W]["doom"] = 29
    s = place(s, {S: {"kalahari": {"sl_acolyte": 1}}, W: {"kalahari": {"gnoph_keh": 1}, "arctic": {"ww_acolyte": 6}}},
              {"arctic": W})
    dice[:] = [6, 1, 1]
    s, _ = act(s, WW, type="battle", area="kalahari")
    assert s.players[W]["doom"] == 30 and s.phase == "action" and s.end_pending  # the turn goes on
    s, _ = act(s, WW, type="end_turn")
    assert s.phase == "over" and ENGINE.result(s).winners == [WW]


def test_cwd_r114_tie_is_a_shared_win():
    """CWD-R114: equal Doom after the final reveal: both win."""
    s = set_turn(new(), S, {S: 3, W: 0})
    s.players[S]["doom"] = 28
    s.players[S]["signs"] = [2]
    s.players[W]["doom"] = 30
    s, _ = act(s, SL, type="pass")
    r = ENGINE.result(s)
    assert r.scores == {SL: 30, WW: 30} and sorted(r.winners) == [SL, WW]


# ---------------------------------------------------------------------- 5.13 Elder Signs
def test_cwd_r120_drawn_sign_is_secret_to_its_owner():
    """CWD-R120 (A5): a drawn sign's value goes only to its owner; the bag holds 6/4/2."""
    from rules.cthulhu_wars_duel.common import draw_sign
    s = new()
    assert s.bag == [6, 4, 2]
    ev: list = []
    draw_sign(s, W, ev)
    assert [(e.type, e.audience) for e in ev] == [("elder_sign_drawn", None), ("elder_sign_value", WW)]
    assert "value" not in ev[0].data and sum(s.bag) == 11


def test_cwd_r121_reveal_adds_doom_and_removes_the_sign():
    """CWD-R121: a revealed sign gives its Doom and leaves the game (the bag does not get it back)."""
    s = set_turn(new(), S)
    s.players[S]["signs"] = [3]
    s.bag = [6, 4, 1]
    s, ev = act(s, SL, type="reveal", value=3)
    assert s.players[S]["doom"] == 3 and s.players[S]["signs"] == [] and s.bag == [6, 4, 1]


def test_cwd_r121_a_player_not_on_turn_may_reveal_and_the_turn_stays_put():
    """CWD-R121: "at any time": the Windwalker, asked nothing during the Sleeper's turn, reveals; its Doom
    rises and the Sleeper is still the one to act, with the same Power. Only any-time actions (a reveal,
    the any-time spellbook) are open to it."""
    s = set_turn(new(), S, {S: 5})
    s.players[W]["signs"] = [2]
    assert {a.type for a in ENGINE.legal_actions(s, WW)} == {"reveal", "take_any_time_book"}
    s, _ = act(s, WW, type="reveal", value=2)
    assert s.players[W]["doom"] == 2 and s.players[W]["signs"] == []
    assert ENGINE.pending(s)[0].seat == SL and s.turn == S and s.players[S]["power"] == 5 and not s.acted
    with pytest.raises(RuleError) as err:
        act(s, WW, type="recruit", area="arctic")
    assert err.value.code == "not_your_turn"


def test_cwd_r121_a_reveal_in_the_middle_of_the_opponents_battle_question(dice):
    """CWD-R121: while the Sleeper owes a battle answer, the Windwalker may still reveal; the question
    stays with the Sleeper."""
    s = set_turn(new(), W, {S: 3, W: 5})
    s.players[S]["books"] = ["energy_nexus"]
    s.players[W]["signs"] = [1]
    s = place(s, {S: {"kalahari": {"wizard": 1, "sl_acolyte": 1}}, W: {"kalahari": {"wendigo": 1}}}, {})
    s, _ = act(s, WW, type="battle", area="kalahari")
    asked = top(s)
    assert asked.kind == "nexus" and asked.seats == [SL]
    assert [a.type for a in ENGINE.legal_actions(s, WW)] == ["reveal"], "no book inside a battle (A19)"
    s, _ = act(s, WW, type="reveal", value=1)
    assert s.players[W]["doom"] == 1 and top(s).kind == "nexus" and top(s).seats == [SL]


def test_a19_the_any_time_book_on_the_opponents_turn():
    """A19: outside a battle or a Move, the Windwalker takes its any-time spellbook while the Sleeper is on
    turn; the spellbook choice that follows is the Windwalker's, then the Sleeper's turn goes on."""
    s = set_turn(new(), S, {S: 5})
    assert "take_any_time_book" in [a.type for a in ENGINE.legal_actions(s, WW)]
    s, _ = act(s, WW, type="take_any_time_book")
    assert "ww_req_any_time" in s.players[W]["reqs"]
    assert top(s).kind == "choose_book" and top(s).seats == [WW]
    s, _ = decide(s, WW, next(a.choice for a in ENGINE.legal_actions(s, WW) if a.type == "decide"))
    assert ENGINE.pending(s)[0].seat == SL and s.turn == S


def test_cwd_r122_empty_bag_gives_one_doom():
    """CWD-R122: drawing from an empty bag gives 1 Doom at once."""
    from rules.cthulhu_wars_duel.common import draw_sign
    s = new()
    s.bag = [0, 0, 0]
    ev: list = []
    draw_sign(s, S, ev)
    assert s.players[S]["doom"] == 1 and s.players[S]["signs"] == []


def test_cwd_r123_views_hide_opponent_values():
    """CWD-R123: the opponent and spectators see only the count of face-down signs."""
    s = new()
    s.players[W]["signs"] = [3, 1]
    assert ENGINE.view(s, SL).players[W].elder_sign_values is None
    assert ENGINE.view(s, None).players[W].elder_sign_values is None
    assert ENGINE.view(s, WW).players[W].elder_sign_values == [1, 3]
    assert "3, 1" not in ENGINE.view(s, SL).model_dump_json()


# ---------------------------------------------------------------------- further worked examples of the rulebook
def test_cwd_r90_r91_gather_power_example():
    """CWD-R90/CWD-R91 (rulebook Gather Power example, without the Great Cthulhu book): 3 cultists, 2
    controlled Gates, 1 abandoned Gate and 1 captive give 3 + 4 + 1 + 1 = 9; the opponent also gets 1 for the
    abandoned Gate."""
    s = place(new(), {S: {"kalahari": {"sl_acolyte": 2}, "karoo": {"sl_acolyte": 1}}, W: {}},
              {"kalahari": S, "karoo": S, "cimmeria": -1})
    s.captives[S] = {"ww_acolyte": 1}
    s, ev = gather(s)
    got = next(e for e in ev if e.type == "power_gathered").data
    assert got["income"] == [9, 1]


def test_cwd_r98_towered_gates_pay_both_players_example():
    """CWD-R98 (rulebook Dark Tower example): four Gates under Towers give each player 4 Power."""
    areas = ["kalahari", "karoo", "cimmeria", "siberia"]
    s = place(new(), {S: {}, W: {}}, {a: -1 for a in areas})
    s.towers = list(areas)
    s, ev = gather(s)
    assert next(e for e in ev if e.type == "power_gathered").data["income"] == [4, 4]


def test_cwd_r76_summoning_a_wizard_guards_the_gate_cultist_example():
    """CWD-R76 (rulebook capture example): two Wendigo and a cultist arrive beside the Sleeper's lone Gate
    Acolyte; summoning a 0-Combat Wizard at that Gate is enough to stop the capture."""
    s = set_turn(new(), W, {S: 4, W: 5})
    s = place(s, {S: {"kalahari": {"sl_acolyte": 1}, "central_pangaea": {"sl_acolyte": 5}},
                  W: {"kalahari": {"wendigo": 2, "ww_acolyte": 1}}}, {"kalahari": S, "central_pangaea": S})
    assert [a.area for a in legal(s, WW, "capture")] == ["kalahari"]
    t = set_turn(s, S)
    t, _ = act(t, SL, type="summon", kind="wizard", area="kalahari")
    t = set_turn(t, W)
    assert not legal(t, WW, "capture")


def test_cwd_r113_reveal_during_the_opponents_battle_ends_after_that_turn(dice):
    """CWD-R113 (rulebook end-game example): both at 25; the defender's two Kills fall on the attacker's
    Acolytes (+2) and, while answering in that battle, the defender reveals 4 in Elder Signs: 31, and the
    game ends when the attacker's turn ends."""
    s = set_turn(new(), W, {S: 3, W: 5})
    s.players[S]["doom"] = s.players[W]["doom"] = 25
    s.players[S]["signs"] = [1, 3]
    s = place(s, {S: {"kalahari": {"serpent_man": 2, "wizard": 1}},
                  W: {"kalahari": {"gnoph_keh": 1, "ww_acolyte": 2}, "arctic": {"ww_acolyte": 4}}}, {"arctic": W})
    dice[:] = [4, 1, 1] + [6, 6]
    s, _ = act(s, WW, type="battle", area="kalahari")
    assert top(s).kind == "assign" and top(s).seats == [WW] and top(s).params["result"] == "k"
    s, _ = decide(s, WW, "ww_acolyte")
    s, _ = decide(s, WW, "ww_acolyte")  # both Kills on Acolytes, as in the book
    assert top(s).kind == "assign" and top(s).seats == [SL] and top(s).params["result"] == "p"
    s, _ = act(s, SL, type="reveal", value=1)
    s, _ = act(s, SL, type="reveal", value=3)
    s, _ = decide(s, SL, "wizard")
    while s.battle is not None:
        a = legal(s, SL, "decide")[0]
        s, _ = decide(s, SL, a.choice, a.area)
    assert s.players[S]["doom"] == 31 and s.phase == "action" and s.turn == W
    s, _ = act(s, WW, type="end_turn")
    assert s.phase == "over" and ENGINE.result(s).winners == [SL]

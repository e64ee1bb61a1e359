"""Investigator sheets (actions and passives), Ancient One sheets, and message catalogs."""

from __future__ import annotations

import re
from pathlib import Path

from rules.eldritch_horror import dice as D
from rules.eldritch_horror.machine import run
from rules.eldritch_horror.world import TOKENS
from tests.rules.eldritch_horror.helpers import C, choose, game, kind, options, place, quiet, resolve, rig

ROOT = Path(__file__).resolve().parents[3]


def table(names, seats=("a",), ao="Azathoth"):
    s = quiet(game(ao, names=names, seats=seats))
    s.stack.clear()
    run(s, [])
    return s


def test_silas_ship_move_then_extra_action() -> None:
    s = table(("Silas Marsh",))
    s, _ = choose(s, "component:sheet")
    assert kind(s) == "target" and set(options(s)) == {"Antarctica", "Space 18", "Space 20", "Space 3"}
    s, _ = choose(s, "Space 3")
    s, _ = choose(s, "rest")
    assert s.investigators[0]["space"] == "Space 3" and kind(s) == "action"  # a third action is still open


def test_charlie_kane_gives_another_an_extra_action() -> None:
    s = table(("Charlie Kane", "Lily Chen"), seats=("a", "b"))
    s, _ = choose(s, "component:sheet")
    assert kind(s) == "extra_action" and s.stack[-1].seats == ["b"]
    s, _ = choose(s, "prepare:train")
    lily = s.investigators[1]
    assert lily["tickets"]["train"] == 1 and lily["extra"] == 1 and lily["acted"] == ["prepare"]


def test_lily_chen_shifts_health_into_sanity() -> None:
    s = table(("Lily Chen",))
    s.investigators[0]["sanity"] = 3
    s.stack.clear()
    run(s, [])
    s, _ = choose(s, "component:sheet")
    s, _ = choose(s, "health>sanity:2")
    assert (s.investigators[0]["health"], s.investigators[0]["sanity"]) == (4, 5)


def test_lily_chen_improves_twice() -> None:
    s = table(("Lily Chen",))
    resolve(s, [{"op": "improve_skill", "skill": "lore", "n": 1}])
    assert s.investigators[0]["improve"]["lore"] == 2


def test_mark_harrigan_is_never_delayed_or_detained() -> None:
    s = table(("Mark Harrigan",))
    ev = resolve(s, [{"op": "become_delayed"}, {"op": "gain_condition", "name": "Detained"}])
    assert not [e for e in ev if e.type == "delayed"] and not s.investigators[0]["conditions"]


def test_jacqueline_swaps_clues_anywhere() -> None:
    s = table(("Jacqueline Fine", "Lily Chen"), seats=("a", "b"))
    s, _ = choose(s, "component:sheet")
    assert options(s) == ["done", "give:clue"]
    s, _ = choose(s, "give:clue")
    s, _ = choose(s, "done")
    assert len(s.investigators[1]["clues"]) == 1 and not s.investigators[0]["clues"]


def test_akachi_arranges_the_gate_stack() -> None:
    s = table(("Akachi Onyele",))
    top, second = s.gate_stack[-1], s.gate_stack[-2]
    s, _ = choose(s, "component:sheet")
    s, _ = choose(s, f"keep:{second}")
    assert s.gate_stack[-1] == second and s.gate_stack[0] == top


def test_diana_discards_the_monsters_with_a_cultist() -> None:
    s = table(("Diana Stanley",))
    here = s.investigators[0]["space"]
    place(s, "Cultist", here)
    place(s, "Zombie", here)
    s.stack.clear()
    run(s, [])
    s, _ = choose(s, "component:sheet")
    s, _ = choose(s, "discard_all")
    assert not s.monsters


def test_extra_dice_passives() -> None:
    """Jim Culver: +1 die in combat for everyone on his space; Silas Marsh: +1 die at sea."""
    s = table(("Jim Culver", "Silas Marsh"))
    s.investigators[1]["space"] = s.investigators[0]["space"]
    assert D.extra_dice(s, 1, {"combat": True}) == 1 and D.extra_dice(s, 1, {}) == 0
    s.investigators[0]["space"] = s.investigators[1]["space"] = "Space 2"
    assert D.extra_dice(s, 0, {}) == 1


def test_shub_niggurath_cultist_breeds_at_reckoning() -> None:
    s = quiet(game("Shub-Niggurath"))
    cult = place(s, "Cultist", "Space 4")
    resolve(s, [{"op": "reckoning"}], inv=None)
    kinds = sorted(TOKENS[m["id"]] for m in s.monsters if m["space"] == "Space 4")
    assert cult in s.cup and kinds == ["Goat Spawn"]


def test_debt_local_action_for_a_friend() -> None:
    """EH-R18: the visitor takes the test; the debtor's card is discarded."""
    s = table(("Silas Marsh", "Charlie Kane"), seats=("a", "b"))
    s.investigators[1].update(space=s.investigators[0]["space"], conditions=["Debt#0"])
    s.stack.clear()
    run(s, [])
    rig(s, [6, 6, 6])
    ev = []
    s, ev = choose(s, "component:condition:Charlie Kane:Debt")
    assert [e.data["investigator"] for e in ev if e.type == "test"] == ["Silas Marsh"]
    assert not s.investigators[1]["conditions"] and "Debt#0" in s.discards["conditions"]


def test_mythos_icons_resolve_in_printed_order() -> None:
    """EH-R31: a yellow card: omen, reckoning, gates, then its text."""
    s = quiet(game())
    card = next(c for c in s.mythos_deck if C.mythos[c]["color"] == "yellow")
    s.mythos_deck.remove(card)
    s.mythos_deck.append(card)
    ev = resolve(s, [{"op": "mythos_draw"}], inv=None)
    types = [e.type for e in ev]
    assert types.index("omen") < types.index("gate_spawned")


def test_encounters_in_turn_order_from_the_lead() -> None:
    """EH-R20."""
    from rules.eldritch_horror.phases import begin_encounters

    s = table(("Silas Marsh", "Lily Chen", "Jim Culver"), seats=("a", "b", "c"))
    s.lead = 1
    s.stack.clear()
    begin_encounters(s, [])
    run(s, [])
    assert s.stack[-1].params["inv"] == 1


def test_every_error_code_is_translated() -> None:
    import yaml

    sources = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "rules" / "eldritch_horror").glob("*.py"))
    codes = set(re.findall(r'RuleError\(\s*"(eh\.[a-z_]+)"', sources))
    assert codes
    for lang in ("en", "ru"):
        messages = yaml.safe_load((ROOT / "rules" / "eldritch_horror" / "i18n" / f"{lang}.yaml").read_text(encoding="utf-8"))
        assert {f"eh.{k}" for k in messages["rule"]["eh"]} >= codes


def _lily():
    s = quiet(game(names=("Lily Chen",)))
    s.discards["assets"] += s.investigators[0]["assets"]
    s.investigators[0]["assets"] = []
    return s


LORE = {"op": "test", "skill": "lore", "mod": 0, "pass": [{"op": "gain_clue", "n": 1}], "fail": []}


def test_lucky_cigarette_case_adds_one_to_a_die() -> None:
    s = _lily()
    s.investigators[0]["assets"] = ["Lucky Cigarette Case"]
    rig(s, [4, 2])
    resolve(s, [LORE])
    assert options(s) == ["accept", "bump:Lucky Cigarette Case"]
    s, _ = choose(s, "bump:Lucky Cigarette Case")
    assert len(s.investigators[0]["clues"]) == 1


def test_double_barreled_sixes_count_twice() -> None:
    s = _lily()
    s.investigators[0]["assets"] = ["Double-barreled Shotgun"]
    mid = place(s, "Dark Young", s.investigators[0]["space"])  # toughness 5, Strength -3
    rig(s, [6, 6, 6, 6, 6, 1, 1, 1, 1])
    resolve(s, [{"op": "encounter_turn"}], bound=0)
    # Will 3-1 = 2 dice; Strength 4-3+4 = 5 dice (6,6,6,1,1): three sixes count 6 successes >= toughness 5
    assert mid in s.cup


def test_trish_lets_a_clue_reroll_two_dice() -> None:
    s = quiet(game(names=("Trish Scarborough",)))
    s.investigators[0]["clues"] = [s.clue_pool.pop()]
    rig(s, [1, 1, 5, 6])  # Lore 1 + 1 = 2 dice, both failed; one clue rerolls both
    resolve(s, [{**LORE, "mod": 1}])
    assert "reroll:clue@1+1" in options(s)
    s, ev = choose(s, "reroll:clue@1+1")
    assert [e.data["dice"] for e in ev if e.type == "reroll"] == [[5, 6]]


def test_urban_guide_extra_die_in_a_city_not_in_other_worlds() -> None:
    s = _lily()
    s.investigators[0]["assets"] = ["Urban Guide"]
    assert D.extra_dice(s, 0, {}) == 1  # Shanghai is a city
    assert D.extra_dice(s, 0, {"card": "other_world-the-abyss-2"}) == 0


def test_akachi_may_move_after_closing_a_gate() -> None:
    s = quiet(game(names=("Akachi Onyele",)))
    for pile in (s.gate_stack, s.gate_discard):
        if "Rome" in pile:
            pile.remove("Rome")
    s.gates = ["Rome"]
    s.investigators[0]["space"] = "Rome"
    resolve(s, [{"op": "close_gate"}])
    assert kind(s) == "optional"
    s.clue_pool.remove("Tokyo")
    s.clues.append("Tokyo")
    s, _ = choose(s, "yes")
    assert s.investigators[0]["space"] == "Tokyo"


def test_rest_hooks_king_james_bible_and_witch_doctor() -> None:
    s = _lily()
    s.investigators[0].update(assets=["King James Bible", "Witch Doctor"], health=3, sanity=3)
    s.stack.clear()
    run(s, [])
    s, _ = choose(s, "rest")
    assert (s.investigators[0]["health"], s.investigators[0]["sanity"]) == (5, 5)


def test_holy_water_blesses_someone_here() -> None:
    s = _lily()
    s.investigators[0]["assets"] = ["Holy Water"]
    s.stack.clear()
    run(s, [])
    s, _ = choose(s, "component:asset:Holy Water")
    assert s.investigators[0]["conditions"][0].startswith("Blessed") and "Holy Water" in s.discards["assets"]


def test_cat_burglar_steals_from_the_reserve() -> None:
    s = _lily()
    s.investigators[0]["assets"] = ["Cat Burglar"]
    s.reserve = [".38 Revolver", "Arcane Scholar", "Personal Assistant", "Private Care"]
    s.stack.clear()
    run(s, [])
    rig(s, [6])
    s, _ = choose(s, "component:asset:Cat Burglar")
    assert ".38 Revolver" in s.investigators[0]["assets"]


def test_lola_moves_improvements_and_lends_a_die() -> None:
    s = table(("Lola Hayes",))
    s.stack.clear()
    s.investigators[0]["improve"]["will"] = 1
    run(s, [])
    s, _ = choose(s, "component:sheet")
    s, _ = choose(s, "will>lore")
    s, _ = choose(s, "done")
    assert s.investigators[0]["improve"]["lore"] == 1 and s.investigators[0]["improve"]["will"] == 0
    rig(s, [1, 1, 1, 6])
    resolve(s, [LORE])
    assert "add:Lola Hayes" in options(s)
    s, _ = choose(s, "add:Lola Hayes")
    assert len(s.investigators[0]["clues"]) == 1


def test_diana_caps_horror_at_one() -> None:
    s = quiet(game(names=("Diana Stanley",)))
    place(s, "Elder Thing", s.investigators[0]["space"])  # horror 3
    rig(s, [1] * 12)
    resolve(s, [{"op": "encounter_turn"}], bound=0)
    s, _ = choose(s, "fight")  # she starts with Wither: decline to cast it
    while kind(s) == "reroll":
        s, _ = choose(s, "accept")
    assert s.investigators[0]["sanity"] == 5 - 1


def test_jacqueline_peeks_privately_and_gains_a_clue() -> None:
    s = table(("Jacqueline Fine", "Lily Chen"), seats=("a", "b"))
    ev = resolve(s, [{"op": "gain_condition", "name": "Amnesia"}], inv=1)
    peek = [e for e in ev if e.type == "peek"]
    assert peek and peek[0].audience == "a" and len(s.investigators[0]["clues"]) == 2


def test_charlie_kane_buys_for_someone_else() -> None:
    s = table(("Charlie Kane", "Lily Chen"), seats=("a", "b"))
    s.reserve = ["Bandages", "Axe", "Whiskey", "Kerosene"]
    rig(s, [6, 1, 1, 1])
    s, _ = choose(s, "acquire")
    while kind(s) == "reroll":
        s, _ = choose(s, "accept")
    s, _ = choose(s, "buy:Bandages")
    s, _ = choose(s, "Lily Chen")
    assert "Bandages" in s.investigators[1]["assets"]


def test_norman_pays_sanity_for_a_missing_clue() -> None:
    s = quiet(game(names=("Norman Withers",)))
    s.investigators[0]["clues"] = []
    resolve(s, [{"op": "spend", "what": "clue", "n": 1}, {"op": "retreat_doom", "n": 1}])
    assert s.investigators[0]["sanity"] == 6 and s.doom == 16  # the cost was met, so doom retreated


def test_norman_may_pay_sanity_for_a_clue_he_has_once_per_round() -> None:
    """His sheet as written: once per round 1 sanity may stand in for 1 clue, for any clue payment (required or
    optional, short of a clue or not); the second payment that round takes clues only."""
    s = quiet(game(names=("Norman Withers",)))
    s.investigators[0]["clues"] = [s.clue_pool.pop(), s.clue_pool.pop()]
    resolve(s, [{"op": "spend", "what": "clue", "n": 2}, {"op": "retreat_doom", "n": 1}])
    assert options(s) == ["pay", "pay_sanity"]
    s, _ = choose(s, "pay_sanity")
    inv = s.investigators[0]
    assert len(inv["clues"]) == 1 and inv["sanity"] == 6 and s.doom == 16
    resolve(s, [{"op": "spend", "what": "clue", "n": 1, "optional": True}, {"op": "retreat_doom", "n": 1}])
    assert options(s) == ["pay", "decline"]  # used this round: no sanity option now
    s, _ = choose(s, "decline")
    assert len(s.investigators[0]["clues"]) == 1 and s.doom == 16


def test_norman_optional_cost_and_reroll_with_sanity() -> None:
    """The passive covers an optional clue cost he could not otherwise meet, and a clue re-roll (EH-R52)."""
    s = quiet(game(names=("Norman Withers",)))
    s.investigators[0]["clues"] = []
    resolve(s, [{"op": "optional", "cost": [{"op": "spend", "what": "clue", "n": 1}], "then": [{"op": "retreat_doom", "n": 1}]}])
    assert kind(s) == "optional"
    s, _ = choose(s, "yes")
    assert s.investigators[0]["sanity"] == 6 and s.doom == 16
    s = quiet(game(names=("Norman Withers",)))
    s.investigators[0]["clues"] = []
    rig(s, [1, 1, 1, 6])
    resolve(s, [{"op": "test", "skill": "lore", "mod": 0, "pass": [{"op": "retreat_doom", "n": 1}], "fail": []}])
    assert "reroll:sanity@1" in options(s) and not any(o.startswith("reroll:clue") for o in options(s))
    s, _ = choose(s, "reroll:sanity@1")
    assert s.investigators[0]["sanity"] == 6 and s.doom == 16


def test_norman_sheet_action_with_one_clue_and_sanity() -> None:
    """His action costs 2 clues; the passive lets 1 clue and 1 sanity pay it."""
    from rules.eldritch_horror.phases import action_options

    s = quiet(game(names=("Norman Withers",)))
    s.investigators[0]["space"] = here = next(g for g in C.gate_tokens)
    s.gates = [here]
    place(s, "Zombie", here)
    s.investigators[0]["clues"] = [s.clue_pool.pop()]
    assert "component:sheet" in action_options(s, 0)
    s.investigators[0]["sanity"] = 1
    assert "component:sheet" not in action_options(s, 0)


def test_wireless_report_sends_clues_anywhere() -> None:
    s = table(("Silas Marsh", "Lily Chen"), seats=("a", "b"))
    s.investigators[0]["clues"] = [s.clue_pool.pop(), s.clue_pool.pop()]
    s.reserve[0] = "Wireless Report"
    s.decks["assets"] = [c for c in s.decks["assets"] if c != "Wireless Report"]
    resolve(s, [{"op": "gain_asset", "from": "reserve", "n": 1, "trait": "teamwork"}])
    assert options(s) == ["done", "clue"]
    s, _ = choose(s, "clue")
    s, _ = choose(s, "done")
    assert len(s.investigators[1]["clues"]) == 1 and "Wireless Report" in s.discards["assets"]


def test_axe_rerolls_every_failed_die_for_two_sanity() -> None:
    s = _lily()
    s.investigators[0]["assets"] = ["Axe"]
    place(s, "Zombie", s.investigators[0]["space"])
    rig(s, [6, 6, 6] + [1] * 5 + [6] * 5)
    resolve(s, [{"op": "encounter_turn"}], bound=0)
    assert "reroll_all:Axe" in options(s)
    s, _ = choose(s, "reroll_all:Axe")
    assert s.investigators[0]["sanity"] == 4 and not s.monsters


def test_pallid_mask_skips_the_fight() -> None:
    s = _lily()
    s.investigators[0]["artifacts"] = ["Pallid Mask"]
    place(s, "Zombie", s.investigators[0]["space"])
    resolve(s, [{"op": "encounter_turn"}], bound=0)
    s, _ = choose(s, "mask")
    assert kind(s) == "encounter" and s.monsters


def test_gate_box_adds_a_die_in_other_worlds() -> None:
    s = _lily()
    s.investigators[0]["artifacts"] = ["Gate Box"]
    assert D.extra_dice(s, 0, {"card": "other_world-yuggoth-1"}) == 1 and D.extra_dice(s, 0, {}) == 0


def test_ruby_buys_an_extra_action_with_sanity() -> None:
    s = _lily()
    s.investigators[0]["artifacts"] = ["Ruby of R'lyeh"]
    s.stack.clear()
    run(s, [])
    s, _ = choose(s, "free:Ruby of R'lyeh")
    assert s.investigators[0]["sanity"] == 5 and s.investigators[0]["extra"] == 1
    assert "free:Ruby of R'lyeh" not in options(s)


def test_grotesque_statue_cancels_a_whole_sanity_loss() -> None:
    s = _lily()
    s.investigators[0].update(artifacts=["Grotesque Statue"], clues=[s.clue_pool.pop()])
    resolve(s, [{"op": "lose_sanity", "n": 4}])
    s, _ = choose(s, "use:Grotesque Statue@Lily Chen")
    assert s.investigators[0]["sanity"] == 6 and not s.investigators[0]["clues"]


def test_mi_go_brain_case_trades_across_the_world() -> None:
    s = table(("Silas Marsh", "Lily Chen"), seats=("a",))  # one player runs both: no consent needed
    s.investigators[0]["artifacts"] = ["Mi-Go Brain Case"]
    s.stack.clear()
    run(s, [])
    s.investigators[1]["space"] = "London"
    s.stack.clear()
    run(s, [])
    s, _ = choose(s, "component:artifact:Mi-Go Brain Case")
    assert kind(s) == "trade" and "take:asset:Protective Amulet" in options(s)
    s, _ = choose(s, "take:asset:Protective Amulet")
    s, _ = choose(s, "done")
    assert kind(s) == "swap_places"
    here = s.investigators[0]["space"]
    s, _ = choose(s, "swap")
    assert s.investigators[0]["space"] == "London" and s.investigators[1]["space"] == here


def test_clairvoyance_researches_a_distant_clue() -> None:
    from rules.eldritch_horror.phases import encounter_options

    s = _lily()
    s.investigators[0]["spells"] = ["Clairvoyance#0"]
    s.decks["spells"].remove("Clairvoyance#0")
    s.clue_pool.remove("Space 7")
    s.clues.append("Space 7")
    assert "cast:Clairvoyance" in encounter_options(s, 0, False)
    from rules.eldritch_horror.phases import encounter

    events: list = []
    s.stack.clear()
    encounter(s, 0, "cast:Clairvoyance", {"inv": 0, "bound": 0}, events)
    rig(s, [6, 6] + [6] * 10)
    run(s, events)
    while kind(s) in ("reroll", "choose", "optional", "target"):
        s, _ = choose(s, options(s)[0] if kind(s) != "reroll" else "accept")
    assert "Space 7" not in s.clues and "Space 7" in s.investigators[0]["clues"]


def test_feed_the_mind_can_improve_a_friend_here() -> None:
    """EH-R6: "an investigator" includes the caster; here the caster picks a friend on the space."""
    s = table(("Norman Withers", "Lily Chen"), seats=("a", "b"))
    s.investigators[1]["space"] = s.investigators[0]["space"]
    s.stack.clear()
    run(s, [])
    rig(s, [6, 6, 6])
    s, _ = choose(s, "component:spell:Feed the Mind")
    while kind(s) == "reroll":
        s, _ = choose(s, "accept")
    assert options(s) == ["Norman Withers", "Lily Chen"]
    s, _ = choose(s, "Lily Chen")
    s, _ = choose(s, "will")
    assert s.investigators[1]["improve"]["will"] == 2  # Lily improves twice


def test_silver_key_takes_one_clue_off_a_cost_once_per_round() -> None:
    s = _lily()
    s.investigators[0].update(artifacts=["The Silver Key"], clues=[s.clue_pool.pop()])
    resolve(s, [{"op": "spend", "what": "clue", "n": 2}, {"op": "retreat_doom", "n": 1}])
    assert not s.investigators[0]["clues"] and s.doom == 16
    s.investigators[0]["clues"] = [s.clue_pool.pop()]
    resolve(s, [{"op": "spend", "what": "clue", "n": 2}, {"op": "retreat_doom", "n": 1}])
    assert len(s.investigators[0]["clues"]) == 1 and s.doom == 16  # no second discount: unpaid, nothing follows


def test_carbine_once_per_round_and_holy_water_both_skills() -> None:
    s = _lily()
    s.investigators[0]["assets"] = ["Carbine Rifle", "Holy Water"]
    place(s, "Zombie", s.investigators[0]["space"])
    resolve(s, [{"op": "encounter_turn"}], bound=0)
    assert options(s) == ["fight", "use:Carbine Rifle", "use:Holy Water"]
    s, _ = choose(s, "use:Holy Water")
    assert s.combat["bonus"] == {"will": 5, "strength": 5}
    s, _ = choose(s, "use:Carbine Rifle")
    assert "boost:Carbine Rifle" in s.investigators[0]["used"]


def test_gate_box_gives_a_clue_for_a_closed_gate() -> None:
    s = _lily()
    s.investigators[0]["artifacts"] = ["Gate Box"]
    here = s.investigators[0]["space"]
    for pile in (s.gate_stack, s.gate_discard):
        if here in pile:
            pile.remove(here)
    s.gates = [here]
    resolve(s, [{"op": "close_gate"}])
    assert len(s.investigators[0]["clues"]) == 1


def test_leo_anderson_takes_an_ally_from_the_reserve_or_the_discard_pile() -> None:
    """Leo Anderson's sheet action: on a pass, an Ally of his choice from the reserve or the asset discards."""
    s = table(("Leo Anderson",))
    s.decks["assets"] += s.reserve
    s.reserve = [".38 Revolver", "Arcane Scholar", ".18 Derringer", ".45 Automatic"]
    for name in s.reserve:
        s.decks["assets"].remove(name)
    s.decks["assets"].remove("Witch Doctor")
    s.discards["assets"] = ["Witch Doctor", "Arcane Tome"]
    rig(s, [6, 6, 6, 6])
    s.stack.clear()
    run(s, [])
    s, _ = choose(s, "component:sheet")
    while kind(s) == "reroll":
        s, _ = choose(s, "accept")
    assert kind(s) == "target" and options(s) == ["discarded:Witch Doctor", "reserve:Arcane Scholar"]
    s, _ = choose(s, "discarded:Witch Doctor")
    leo = s.investigators[0]
    assert "Witch Doctor" in leo["assets"] and s.discards["assets"] == ["Arcane Tome"]
    assert "Arcane Scholar" in s.reserve

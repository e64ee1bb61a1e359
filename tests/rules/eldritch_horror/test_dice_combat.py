"""Tests and dice (EH-R48..R54) and combat (EH-R66..R72)."""

from __future__ import annotations

from rules.eldritch_horror import dice as D
from rules.eldritch_horror.world import EPIC_IDS, TOKENS
from tests.rules.eldritch_horror.helpers import ENGINE, C, choose, game, kind, options, place, quiet, resolve, rig

TEST = {"op": "test", "skill": "lore", "mod": 0, "pass": [{"op": "gain_clue", "n": 1}], "fail": [{"op": "lose_sanity", "n": 1}]}


def lily():
    s = quiet(game(names=("Lily Chen",)))
    s.discards["assets"] += s.investigators[0]["assets"]
    s.investigators[0]["assets"] = []
    return s


def test_successes_on_five_and_six() -> None:
    """EH-R50: Lily (Lore 2) rolls 2 dice; a 5 passes."""
    s = lily()
    rig(s, [5, 3])
    ev = resolve(s, [TEST])
    assert [e.data for e in ev if e.type == "test"][0]["dice"] == [5, 3]
    assert len(s.investigators[0]["clues"]) == 1


def test_no_success_fails() -> None:
    s = lily()
    rig(s, [4, 1])
    resolve(s, [TEST])
    assert s.investigators[0]["sanity"] == 5


def test_at_least_one_die() -> None:
    """EH-R49: Lore 2 with -5 still rolls one die."""
    s = lily()
    rig(s, [6])
    ev = resolve(s, [{**TEST, "mod": -5}])
    assert [e.data for e in ev if e.type == "test"][0]["dice"] == [6]


def test_clue_reroll() -> None:
    """EH-R53: spend a clue to reroll a failed die of the tester's choice, as often as clues last."""
    s = lily()
    s.investigators[0]["clues"] = ["Space 1", "Space 2"]
    s.clue_pool.remove("Space 1")
    s.clue_pool.remove("Space 2")
    rig(s, [1, 2, 6])
    resolve(s, [TEST])
    assert kind(s) == "reroll" and {"reroll:clue@1", "reroll:clue@2"} <= set(options(s))
    s, _ = choose(s, "reroll:clue@2")  # the 2, not the lowest die
    assert kind(s) == "reroll" and s.stack[-1].params["dice"] == [1, 6]  # the result stands only when accepted
    s, _ = choose(s, "accept")
    assert len(s.investigators[0]["clues"]) == 2  # 1 spent, then 1 gained by passing
    assert "Space 1" in s.clue_pool or "Space 2" in s.clue_pool


def test_possession_reroll_once_per_round() -> None:
    """Lucky Rabbit's Foot: one reroll per round."""
    s = lily()
    s.investigators[0]["assets"] = ["Lucky Rabbit's Foot"]
    rig(s, [1, 1, 1, 1])
    resolve(s, [TEST])
    assert options(s) == ["accept", "reroll:Lucky Rabbit's Foot@1"]
    s, _ = choose(s, "reroll:Lucky Rabbit's Foot@1")
    assert kind(s) == "action"  # test settled, no reroll left
    resolve(s, [TEST])
    assert kind(s) == "action"


def test_skill_value_takes_the_best_single_bonus() -> None:
    """EH-R49/R51: improvement always adds; only the largest possession bonus counts; combat bonuses
    only in combat."""
    s = lily()
    inv = s.investigators[0]
    inv["assets"] = [".38 Revolver", ".45 Automatic", "Hired Muscle"]
    inv["improve"]["strength"] = 1
    assert D.skill_value(s, 0, "strength", {"combat": True}) == 4 + 1 + 3
    assert D.skill_value(s, 0, "strength", {}) == 4 + 1 + 1


def test_improvement_caps_at_two() -> None:
    """EH-R54."""
    s = lily()
    resolve(s, [{"op": "improve_skill", "skill": "will", "n": 1}] * 3)
    assert s.investigators[0]["improve"]["will"] == 2


def test_blessed_and_cursed_change_the_success_threshold() -> None:
    s = lily()
    s.investigators[0]["conditions"] = ["Blessed#0"]
    rig(s, [4, 1])
    resolve(s, [TEST])
    assert len(s.investigators[0]["clues"]) == 1
    s.clue_pool += s.investigators[0]["clues"]
    s.investigators[0].update(clues=[], conditions=["Cursed#0"])
    rig(s, [5, 1])
    resolve(s, [TEST])
    assert s.investigators[0]["sanity"] == 5


def test_min_successes() -> None:
    s = lily()
    rig(s, [5, 1])
    resolve(s, [{**TEST, "min_successes": 2}])
    assert s.investigators[0]["sanity"] == 5


# ---------------------------------------------------------------- combat


def test_combat_example_lily_chen() -> None:
    """EH-R66..R69, the rulebook example: Will 3 vs horror 2 with 1 success -> lose 1 sanity; Strength
    4 - 1 + 2 (.38 Revolver) = 5 dice, 1 success vs damage 1 -> no health lost; the monster keeps 1 damage."""
    s = lily()
    inv = s.investigators[0]
    inv["assets"] = [".38 Revolver"]
    mid = place(s, "Deep One", inv["space"])  # Will +0, horror 2, Strength -1, damage 1, toughness 2
    rig(s, [5, 2, 3, 6, 1, 2, 3, 4])
    ev = resolve(s, [{"op": "encounter_turn"}], bound=0)
    tests = [e.data for e in ev if e.type == "test"]
    assert [len(t["dice"]) for t in tests] == [3, 5]
    inv = s.investigators[0]
    assert inv["sanity"] == 5 and inv["health"] == 6
    assert next(m for m in s.monsters if m["id"] == mid)["damage"] == 1


def test_fishing_net_lowers_the_monsters_damage_before_successes() -> None:
    """Fishing Net (asset text in the rulebook's card list): the monster deals 1 less damage, never below 1,
    and the Strength successes are taken off that lowered damage. Hound of Tindalos (damage 3) against 2
    successes: 3 - 1 = 2 damage, all stopped, so no health is lost (the old order lost 1)."""
    s = lily()
    inv = s.investigators[0]
    inv["assets"] = ["Fishing Net"]
    mid = place(s, "Hound of Tindalos", inv["space"])  # Will +0, horror 2, Strength -1, damage 3, toughness 3
    rig(s, [5, 5, 1, 5, 6, 1])
    resolve(s, [{"op": "encounter_turn"}], bound=0)
    assert kind(s) == "reroll" and "reroll:Fishing Net@1" in options(s)
    s, _ = choose(s, "accept")
    assert s.investigators[0]["health"] == 6 and s.investigators[0]["sanity"] == 6  # 2 Will successes vs horror 2
    assert next(m for m in s.monsters if m["id"] == mid)["damage"] == 2


def test_fishing_net_never_lowers_damage_below_one() -> None:
    """Fishing Net: a damage-1 monster still deals 1 when no success stops it."""
    s = lily()
    inv = s.investigators[0]
    inv["assets"] = ["Fishing Net"]
    place(s, "Deep One", inv["space"])  # damage 1
    rig(s, [5, 5, 1, 1, 1, 1])
    resolve(s, [{"op": "encounter_turn"}], bound=0)
    s, _ = choose(s, "accept")
    assert s.investigators[0]["health"] == 5


def test_monster_defeated_returns_to_cup() -> None:
    """EH-R69/R44."""
    s = lily()
    mid = place(s, "Zombie", s.investigators[0]["space"])  # toughness 2
    rig(s, [6, 6, 6, 6, 6, 6, 6])
    resolve(s, [{"op": "encounter_turn"}], bound=0)
    assert mid in s.cup and not s.monsters
    assert kind(s) == "encounter" and "none" in options(s)  # EH-R22: may have one more encounter


def test_defeat_in_will_test_skips_strength_test() -> None:
    """EH-R70."""
    s = lily()
    s.investigators[0]["sanity"] = 1
    place(s, "Elder Thing", s.investigators[0]["space"])  # horror 3
    rig(s, [1, 1, 1])
    ev = resolve(s, [{"op": "encounter_turn"}], bound=0)
    assert sum(1 for e in ev if e.type == "test") == 1
    assert s.investigators[0]["status"] == "defeated"


def test_choose_order_of_combats() -> None:
    """EH-R21: every monster here is fought, in the order the investigator picks."""
    s = lily()
    here = s.investigators[0]["space"]
    a = place(s, "Zombie", here)
    b = place(s, "Skeleton", here)
    resolve(s, [{"op": "encounter_turn"}], bound=0)
    assert kind(s) == "fight" and sorted(options(s)) == sorted([f"fight:{a}:Zombie", f"fight:{b}:Skeleton"])


def test_ambush_monster_goes_back_to_cup_either_way() -> None:
    """EH-R71."""
    s = lily()
    cup = len(s.cup)
    rig(s, [1, 1, 1, 1, 1, 1, 1, 1])
    resolve(s, [{"op": "monster_ambush", "monster": "Zombie", "if_defeated": [], "if_not_defeated": [{"op": "gain_condition", "name": "Cursed"}]}])
    assert not s.monsters and len(s.cup) == cup
    assert any(c.startswith("Cursed") for c in s.investigators[0]["conditions"])


def test_epic_monster_cannot_be_discarded_and_goes_to_box() -> None:
    """EH-R72."""
    s = lily()
    here = s.investigators[0]["space"]
    mid = place(s, "Nug", here)
    resolve(s, [{"op": "discard_monster", "target": "monster_on_your_space"}])
    assert s.monsters and s.monsters[0]["id"] == mid
    resolve(s, [{"op": "monster_loses_health", "n": 50, "target": "monster_on_your_space"}])
    assert mid in s.box and not s.monsters and mid == EPIC_IDS["Nug"]


def test_epic_toughness_scales_with_investigators() -> None:
    from rules.eldritch_horror.world import toughness

    s = quiet(game(names=("Lily Chen", "Silas Marsh", "Jim Culver"), seats=("a",)))
    mid = place(s, "Nug", "Space 1")
    assert toughness(s, mid) == 3 + 2


def test_cultist_reads_the_ancient_one_sheet() -> None:
    """EH-R75: Azathoth's cultist: Will test, then 1 health lost and it is defeated."""
    s = lily()
    mid = place(s, "Cultist", s.investigators[0]["space"])
    assert TOKENS[mid] == "Cultist"
    rig(s, [6, 6, 6])
    resolve(s, [{"op": "encounter_turn"}], bound=0)
    assert s.investigators[0]["health"] == 5 and mid in s.cup


def test_ghost_takes_damage_from_will_successes() -> None:
    s = lily()
    place(s, "Ghost", s.investigators[0]["space"])  # Will -1: 2 dice; toughness 2
    rig(s, [6, 6])
    resolve(s, [{"op": "encounter_turn"}], bound=0)
    assert not s.monsters


def test_kerosene_readied_before_the_fight() -> None:
    """A one-shot item: discarded for +5 Strength in this combat only."""
    s = lily()
    s.investigators[0]["assets"] = ["Kerosene"]
    place(s, "Zombie", s.investigators[0]["space"])
    resolve(s, [{"op": "encounter_turn"}], bound=0)
    assert kind(s) == "optional" and options(s) == ["fight", "use:Kerosene"]
    rig(s, [1, 1, 1] + [1] * 9)
    s, ev = choose(s, "use:Kerosene")
    assert [len(e.data["dice"]) for e in ev if e.type == "test"] == [3, 4 - 1 + 5]
    assert "Kerosene" in s.discards["assets"]


def test_wither_cast_in_combat_then_flipped() -> None:
    s = lily()
    s.investigators[0]["spells"] = ["Wither#0"]
    s.decks["spells"].remove("Wither#0")
    place(s, "Zombie", s.investigators[0]["space"])
    resolve(s, [{"op": "encounter_turn"}], bound=0)
    rig(s, [6, 1] + [1] * 12)
    s, ev = choose(s, "cast:Wither")
    assert [e.type for e in ev if e.type in ("test", "flipped")][:2] == ["test", "flipped"]
    assert [len(e.data["dice"]) for e in ev if e.type == "test"][2:] == [4 - 1 + 3]


def test_mists_of_releh_lets_you_ignore_monsters() -> None:
    s = lily()
    s.investigators[0]["spells"] = ["Mists of Releh#0"]
    s.decks["spells"].remove("Mists of Releh#0")
    place(s, "Zombie", s.investigators[0]["space"])
    resolve(s, [{"op": "encounter_turn"}], bound=0)
    assert "cast:Mists of Releh" in options(s)
    rig(s, [6, 6])
    s, _ = choose(s, "cast:Mists of Releh")
    assert kind(s) == "encounter" and "none" not in options(s)


def test_tick_tock_men_forbid_clue_rerolls() -> None:
    s = lily()
    s.investigators[0]["clues"] = [s.clue_pool.pop()]
    place(s, "Tick-Tock Men", s.investigators[0]["space"])
    rig(s, [1] * 8)
    resolve(s, [{"op": "encounter_turn"}], bound=0)
    assert kind(s) != "reroll"


def test_pocket_watch_prevents_delay() -> None:
    s = lily()
    s.investigators[0]["assets"] = ["Pocket Watch"]
    ev = resolve(s, [{"op": "become_delayed"}])
    assert not [e for e in ev if e.type == "delayed"]


def _wreck_dive() -> list[dict]:
    """general-05, sea: "you may become Delayed to dive and gain 1 Artifact" (a Delay chosen as a price)."""
    return next(p for p in C.encounters["general-05"]["sections"] if p["section"] == "sea")["effects"]


def test_pocket_watch_does_not_stop_a_delay_chosen_as_a_price() -> None:
    """Pocket Watch ("not Delayed unless you choose to"): diving on the wreck still delays its owner."""
    s = lily()
    s.investigators[0]["assets"] = ["Pocket Watch"]
    resolve(s, _wreck_dive())
    assert kind(s) == "optional"
    s, ev = choose(s, "yes")
    assert [e.type for e in ev][:2] == ["delayed", "gain_artifact"]  # (the Action phase then goes on: she stands up)


def test_mark_harrigan_delayed_when_he_chooses_it() -> None:
    """Mark Harrigan's sheet keeps Delayed off him, except when he picks it himself as a price (EH-R19)."""
    s = quiet(game(names=("Mark Harrigan",)))
    assert "delayed" not in [e.type for e in resolve(s, [{"op": "become_delayed"}])]
    resolve(s, _wreck_dive())
    s, ev = choose(s, "yes")
    assert "delayed" in [e.type for e in ev]


def test_bandages_stop_health_loss_on_the_space() -> None:
    s = lily()
    s.investigators[0]["assets"] = ["Bandages"]
    resolve(s, [{"op": "lose_health", "n": 3}])
    assert kind(s) == "prevent" and options(s) == ["take", "use:Bandages@Lily Chen"]
    s, _ = choose(s, "use:Bandages@Lily Chen")
    assert s.investigators[0]["health"] == 5 and "Bandages" in s.discards["assets"]


def test_anothers_bandages_are_offered_to_their_owner() -> None:
    """EH-R6 and the card ("discard it to stop an investigator on your space…"): Lily's Bandages spare Silas
    only if Lily's player says so; declined, the choice goes back to Silas (who has nothing, so he loses)."""
    s = quiet(game(names=("Silas Marsh", "Lily Chen"), seats=("a", "b")))
    s.investigators[1]["space"] = s.investigators[0]["space"]
    s.investigators[1]["assets"] = ["Bandages"]
    s.investigators[0]["assets"] = []
    resolve(s, [{"op": "lose_health", "n": 3}], inv=0)
    assert kind(s) == "prevent_other" and s.stack[-1].seats == ["b"]
    assert options(s) == ["use:Bandages@Lily Chen", "decline"]
    prompt = ENGINE.pending(s)[0]
    assert prompt.params["investigator"] == "Lily Chen" and prompt.params["partner"] == "Silas Marsh"
    used, _ = choose(s, "use:Bandages@Lily Chen", seat="b")
    assert used.investigators[0]["health"] == 7 and "Bandages" in used.discards["assets"]
    kept, _ = choose(s, "decline", seat="b")
    assert kept.investigators[0]["health"] == 5 and kept.investigators[1]["assets"] == ["Bandages"]


def test_own_whiskey_is_still_your_own_choice_after_a_helper_declines() -> None:
    """The loser decides about their own cards once every other owner has been asked."""
    s = quiet(game(names=("Silas Marsh", "Lily Chen"), seats=("a", "b")))
    s.investigators[1]["space"] = s.investigators[0]["space"]
    s.investigators[1]["assets"] = ["Whiskey"]
    s.investigators[0]["assets"] = ["Whiskey"]
    resolve(s, [{"op": "lose_sanity", "n": 2}], inv=0)
    s, _ = choose(s, "decline", seat="b")
    assert kind(s) == "prevent" and s.stack[-1].seats == ["a"] and options(s) == ["take", "use:Whiskey@Silas Marsh"]
    s, _ = choose(s, "use:Whiskey@Silas Marsh")
    assert s.investigators[0]["sanity"] == C.investigators["Silas Marsh"]["sanity"]
    assert s.investigators[1]["assets"] == ["Whiskey"] and not s.investigators[0]["assets"]


def test_flesh_ward_cast_to_stop_loss_then_flipped() -> None:
    s = lily()
    s.investigators[0]["spells"] = ["Flesh Ward#0"]
    s.decks["spells"].remove("Flesh Ward#0")
    resolve(s, [{"op": "lose_health", "n": 3}])
    rig(s, [6, 1])
    s, ev = choose(s, "cast:Flesh Ward@Lily Chen")
    assert s.investigators[0]["health"] == 5 and [e.type for e in ev if e.type == "flipped"] == ["flipped"]
    resolve(s, [{"op": "lose_health", "n": 1}])
    assert s.investigators[0]["health"] == 4  # once per round: no second offer


def test_maniac_takes_an_ally_instead_of_health() -> None:
    s = lily()
    s.investigators[0]["assets"] = ["Hired Muscle"]
    place(s, "Maniac", s.investigators[0]["space"])  # damage 2, toughness 1
    rig(s, [6, 6, 6, 6] + [1] * 6)
    resolve(s, [{"op": "encounter_turn"}], bound=0)
    while kind(s) == "reroll":
        s, _ = choose(s, "accept")
    assert kind(s) == "choose"
    s, _ = choose(s, next(o for o in options(s) if o.startswith("discard_possession")))
    assert s.investigators[0]["health"] == 6 and "Hired Muscle" in s.discards["assets"]


def test_byakhee_flight_replaces_the_extra_encounter() -> None:
    s = lily()
    place(s, "Byakhee", s.investigators[0]["space"])  # toughness 2
    rig(s, [6, 6, 6] + [6] * 6)
    resolve(s, [{"op": "encounter_turn"}], bound=0)
    s, _ = choose(s, "yes")
    s, _ = choose(s, "Space 20")
    assert s.investigators[0]["space"] == "Space 20" and s.investigators[0]["sanity"] == 5
    assert kind(s) == "action"  # no further encounter was offered

"""Mythos phase, doom and omen (EH-R31..R47); defeat and replacement (EH-R60..R65); mysteries, awakening
and the end of the game (EH-R73..R77)."""

from __future__ import annotations

from rules.eldritch_horror.machine import run
from tests.rules.eldritch_horror.helpers import C, ENGINE, choose, game, kind, options, place, quiet, resolve, rig


def solo(ao: str = "Azathoth", names=("Silas Marsh",), seats=("s1",)):
    return quiet(game(ao, names=names, seats=seats))


def open_gate(s, space: str) -> None:
    for pile in (s.gate_stack, s.gate_discard):
        if space in pile:
            pile.remove(space)
    s.gates.append(space)


def test_advance_omen_adds_doom_per_matching_gate() -> None:
    """EH-R32: green -> blue; each open blue gate advances doom by 1."""
    s = solo("Cthulhu")
    open_gate(s, "London")
    open_gate(s, "Tokyo")
    open_gate(s, "Rome")
    resolve(s, [{"op": "advance_omen"}], inv=None)
    assert s.omen == 1 and s.doom == 12 - 2


def test_azathoth_green_omen_eldritch() -> None:
    """Azathoth's sheet: back on green, doom advances once per Eldritch token there."""
    s = solo("Azathoth")
    s.omen = 3
    resolve(s, [{"op": "advance_omen"}], inv=None)
    assert s.omen == 0 and s.doom == 14


def test_spawning_a_gate_brings_a_monster_but_no_doom() -> None:
    """EH-R41."""
    s = solo()
    resolve(s, [{"op": "spawn_gates_ref"}], inv=None)
    assert len(s.gates) == 1 and len(s.monsters) == 1 and s.doom == 15


def test_monster_surge() -> None:
    """EH-R37: monsters at gates of the current omen; none -> a gate instead."""
    s = solo(names=("Silas Marsh", "Lily Chen", "Jim Culver"), seats=("a",))
    open_gate(s, "San Francisco")  # green
    open_gate(s, "Rome")  # red
    ev = resolve(s, [{"op": "monster_surge"}], inv=None)
    spawned = [e.data["space"] for e in ev if e.type == "monster_spawned"]
    assert spawned == ["San Francisco", "San Francisco"]  # reference card 3-4: surge 2; Rome (red) gets none
    s2 = solo()
    resolve(s2, [{"op": "monster_surge"}], inv=None)
    assert len(s2.gates) == 1


def test_spawn_clues_from_the_pool() -> None:
    """EH-R45: each clue token names its own space."""
    s = solo(names=("Silas Marsh", "Lily Chen", "Jim Culver", "Leo Anderson", "Lola Hayes", "Mark Harrigan", "Charlie Kane"))
    resolve(s, [{"op": "spawn_clues_ref"}], inv=None)
    assert len(s.clues) == 4 and len(set(s.clues)) == 4


def test_empty_mythos_deck_loses() -> None:
    """EH-R40 / EH-R77(d)."""
    s = solo()
    s.mythos_deck = []
    resolve(s, [{"op": "mythos_draw"}], inv=None)
    assert s.phase == "over" and ENGINE.result(s).reason == "mythos_deck_empty" and ENGINE.result(s).winners == []


def test_event_is_discarded_and_ongoing_stays() -> None:
    """EH-R40: Strange Sightings stays in play and forbids Rest until its reckoning discards it."""
    s = solo()
    s.mythos_deck.append("strange-sightings")
    s.decks["mythos_box"].remove("strange-sightings") if "strange-sightings" in s.decks["mythos_box"] else None
    s.investigators[0]["health"] = 3
    resolve(s, [{"op": "mythos_draw"}], inv=None)
    assert [m["id"] for m in s.in_play] == ["strange-sightings"]
    s.stack.clear()
    run(s, [])
    assert "rest" not in options(s)
    resolve(s, [{"op": "reckoning"}], inv=None)
    assert not s.in_play and "strange-sightings" in s.mythos_discard


def test_reckoning_order() -> None:
    """EH-R35: monsters, then the Ancient One sheet, then Mythos cards, then investigators' conditions."""
    s = solo("Shub-Niggurath")
    place(s, "Dark Young", "Space 4")
    s.in_play.append({"id": "fractured-reality", "eldritch": 4, "health": 0})
    s.investigators[0]["conditions"] = ["Cursed#0"]
    ev = resolve(s, [{"op": "reckoning"}], inv=None)
    kinds = [e.type for e in ev if e.type in ("roll", "monster_spawned", "eldritch_on_card")]
    assert kinds.index("roll") < kinds.index("monster_spawned") < kinds.index("eldritch_on_card")
    assert kinds[-1] == "roll"  # Cursed's reckoning die comes last


def test_lead_orders_reckonings_within_a_category() -> None:
    """EH-R35 [REC]: inside the monsters (and the Mythos cards) the lead says which reckoning comes next; a
    single one needs no question, and the categories keep their order."""
    s = solo()
    here = s.investigators[0]["space"]
    deep = place(s, "Deep One", here)
    gnoph = place(s, "Gnoph-Keh", here)
    resolve(s, [{"op": "reckoning"}], inv=None)
    assert kind(s) == "reckoning_order" and s.stack[-1].seats == ["s1"]
    keys = {f"{deep}:Deep One@{here}", f"{gnoph}:Gnoph-Keh@{here}"}
    assert set(options(s)) == keys
    s, ev = choose(s, f"{gnoph}:Gnoph-Keh@{here}")
    losses = [e.type for e in ev if e.type in ("lose_health", "lose_sanity")]
    assert losses == ["lose_health", "lose_sanity"]

    s = solo()
    s.in_play += [{"id": "lost-knowledge", "eldritch": 1, "health": 0}, {"id": "the-wind-walker", "eldritch": 1, "health": 0}]
    place(s, "Deep One", "Space 4")
    resolve(s, [{"op": "reckoning"}], inv=None)  # both Rumors are about to go off: which first matters
    assert kind(s) == "reckoning_order" and options(s) == ["lost-knowledge", "the-wind-walker"]
    s, ev = choose(s, "lost-knowledge")
    assert not [m for m in s.in_play if m["id"] == "lost-knowledge"] and kind(s) != "reckoning_order"


def test_the_lead_is_asked_only_when_the_order_can_matter() -> None:
    """EH-R35 [REC]: reckonings that touch only themselves (Shoggoths healing, a Dark Young's doom die, a
    Rumor losing one of several tokens) or hurt different investigators need no order; two that reach the
    same investigator, or one that moves things around next to anything that reaches someone, do."""
    s = pair()
    s.investigators[1]["space"] = "Space 9"
    place(s, "Shoggoth", "Space 1", damage=2)
    place(s, "Dark Young", "Space 3")
    place(s, "Star Spawn", "Space 2")
    place(s, "Deep One", s.investigators[0]["space"])
    place(s, "Gnoph-Keh", "Space 9")
    s.in_play += [{"id": "lost-knowledge", "eldritch": 3, "health": 0}, {"id": "the-wind-walker", "eldritch": 3, "health": 0}]
    resolve(s, [{"op": "reckoning"}], inv=None)
    assert kind(s) != "reckoning_order"
    assert not any(m["damage"] for m in s.monsters) and [m["eldritch"] for m in s.in_play] == [2, 2]
    silas, lily = s.investigators
    assert silas["sanity"] == C.investigators["Silas Marsh"]["sanity"] - 1  # the Deep One on his space
    assert lily["health"] == C.investigators["Lily Chen"]["health"] - 1  # the Gnoph-Keh on hers

    s = pair()
    s.investigators[1]["space"] = "Space 9"
    place(s, "Gnoph-Keh", "Space 9")
    place(s, "Hound of Tindalos", "Space 20")  # it moves to an investigator and fights
    resolve(s, [{"op": "reckoning"}], inv=None)
    assert kind(s) == "reckoning_order"


def pair():
    return solo(names=("Silas Marsh", "Lily Chen"), seats=("a", "b"))


def test_defeat_steps() -> None:
    """EH-R60: doom advances, nearest city, conditions and improvement tokens discarded, possessions kept
    for a later encounter."""
    s = solo()
    inv = s.investigators[0]
    inv.update(space="Space 2", conditions=["Paranoia#0"], assets=["Axe"], clues=[s.clue_pool.pop()])
    inv["improve"]["lore"] = 2
    resolve(s, [{"op": "lose_health", "n": 8}])
    assert kind(s) == "defeat_city" and options(s) == ["San Francisco", "Tokyo"]  # §11.3: a tie, the player picks
    s, _ = choose(s, "Tokyo")
    inv = s.investigators[0]
    assert inv["status"] == "defeated" and s.doom == 14
    assert inv["space"] == "Tokyo" and not inv["conditions"] and s.corpses[0]["space"] == "Tokyo"
    assert not any(inv["improve"].values())  # step 3: improvement tokens are discarded too
    corpse = s.corpses[0]
    assert corpse["token"] == "health" and corpse["assets"] == ["Axe"] and len(corpse["clues"]) == 1


def test_both_to_zero_is_devoured() -> None:
    """§11.2 / EH-R64: devoured: nothing is left on the board."""
    s = solo()
    s.investigators[0].update(health=1, sanity=1)
    resolve(s, [{"op": "lose_health", "n": 1}, {"op": "lose_sanity", "n": 1}])
    assert s.investigators[0]["status"] == "defeated"
    s2 = solo()
    resolve(s2, [{"op": "devoured"}])
    assert s2.investigators[0]["status"] == "devoured" and not s2.corpses and s2.doom == 14


def test_replacement_at_end_of_mythos() -> None:
    """EH-R63: the player takes a fresh, equipped unused investigator."""
    s = solo()
    resolve(s, [{"op": "devoured"}])
    resolve(s, [{"op": "mythos_replace"}], inv=None)
    assert kind(s) == "replace" and "Silas Marsh" not in options(s)
    s, _ = choose(s, "Jim Culver")
    jim = s.investigators[0]
    assert jim["name"] == "Jim Culver" and jim["space"] == "Space 6" and jim["status"] == "active"
    assert [c.split("#")[0] for c in jim["spells"]] == ["Shriveling"]


def test_corpse_encounter_recovers_possessions() -> None:
    """EH-R62 (house encounter on the sheet back): the visitor takes what the fallen carried."""
    s = solo(names=("Silas Marsh", "Lily Chen"), seats=("a", "b"))
    s.investigators[0].update(assets=["Axe"], space="Sydney")
    resolve(s, [{"op": "lose_sanity", "n": 9}])
    corpse = s.corpses[0]
    s.investigators[1]["space"] = corpse["space"]
    s.stack.clear()
    from rules.eldritch_horror.phases import encounter

    events: list = []
    encounter(s, 1, "corpse:Silas Marsh", {"inv": 1, "bound": 1}, events)
    rig(s, [6, 6, 6])
    run(s, events)
    while kind(s) == "reroll":
        s, _ = choose(s, "accept")
    assert "Axe" in s.investigators[1]["assets"] and not s.corpses


def test_taking_a_fallen_investigators_tickets_keeps_the_two_you_choose() -> None:
    """EH-R16 (ticket limit, owner's choice) with EH-R62: Lily holds 2 train tickets and takes Silas's 2 ship
    tickets; she discards down to 2 herself, so she may keep both ships."""
    s = solo(names=("Silas Marsh", "Lily Chen"), seats=("a", "b"))
    s.investigators[0].update(space="Sydney", tickets={"train": 0, "ship": 2})
    resolve(s, [{"op": "lose_sanity", "n": 9}])
    s.stack.clear()
    s.investigators[1]["tickets"] = {"train": 2, "ship": 0}
    resolve(s, [{"op": "take_corpse_possessions"}], inv=1, corpse="Silas Marsh")
    assert kind(s) == "drop_ticket" and s.stack[-1].seats == ["b"] and options(s) == ["ship", "train"]
    s, _ = choose(s, "train")
    assert kind(s) == "drop_ticket"
    s, _ = choose(s, "train")
    assert s.investigators[1]["tickets"] == {"train": 0, "ship": 2}


def test_elimination_after_awakening_and_all_eliminated_loses() -> None:
    """EH-R65 / EH-R77(b)."""
    s = solo("Cthulhu")
    s.awakened = True
    resolve(s, [{"op": "lose_health", "n": 20}])
    assert s.investigators[0]["status"] == "eliminated"
    assert s.phase == "over" and ENGINE.result(s).reason == "all_eliminated"


def test_a_player_defeated_before_the_awakening_is_not_eliminated() -> None:
    """EH-R65 / EH-R77(b) with EH-R63: only players whose investigator falls after the awakening are out, and
    the game is lost only when every player is. Silas fell before Cthulhu woke; when Lily falls afterwards,
    the game goes on and Silas's player takes a new investigator at the end of the Mythos phase."""
    s = solo("Cthulhu", names=("Silas Marsh", "Lily Chen"), seats=("a", "b"))
    resolve(s, [{"op": "lose_health", "n": 20}], inv=0)
    s.stack.clear()
    assert s.investigators[0]["status"] == "defeated"
    s.awakened = True
    resolve(s, [{"op": "lose_health", "n": 20}], inv=1)
    assert s.investigators[1]["status"] == "eliminated" and s.phase != "over"
    s.stack.clear()
    resolve(s, [{"op": "mythos_replace"}], inv=None)
    assert kind(s) == "replace" and s.stack[-1].seats == ["a"]
    s, _ = choose(s, options(s)[0])
    assert s.investigators[0]["status"] == "active" and s.investigators[1]["status"] == "eliminated"
    assert s.phase != "over" and s.lead == 0


def test_lead_passes_at_end_of_mythos() -> None:
    """EH-R3."""
    s = solo(names=("Silas Marsh", "Lily Chen"), seats=("a", "b"))
    resolve(s, [{"op": "mythos_lead"}], inv=None)
    assert options(s) == ["keep", "pass:Lily Chen"]
    s, _ = choose(s, "pass:Lily Chen", seat="a")
    assert s.lead == 1


def test_defeated_lead_hands_over_the_token() -> None:
    s = solo(names=("Silas Marsh", "Lily Chen"), seats=("a", "b"))
    resolve(s, [{"op": "devoured"}])
    assert s.lead == 1


def test_mystery_solved_draws_the_next_and_third_wins() -> None:
    """EH-R73/R74."""
    s = solo()
    s.mystery = {"name": "Occult Research", "tokens": 0, "space": None}
    s.mystery_deck = ["The True Name", "Omen of Devastation"]
    need = 1  # as many clues as investigators
    resolve(s, [{"op": "place_eldritch", "n": need, "where": "active_mystery"}], inv=None)
    assert not s.solved  # checked at the end of the Mythos phase
    resolve(s, [{"op": "mystery_check"}], inv=None)
    assert s.solved == ["Occult Research"] and s.mystery["name"] == "Omen of Devastation"
    s.solved = ["A", "B"]
    resolve(s, [{"op": "place_eldritch", "n": 5, "where": "active_mystery"}, {"op": "mystery_check"}], inv=None)
    assert s.phase == "over" and ENGINE.result(s).winners == ["s1"]


def test_azathoth_awakening_is_the_loss() -> None:
    """EH-R75 / EH-R77(a)."""
    s = solo()
    resolve(s, [{"op": "advance_doom", "n": 15}], inv=None)
    assert s.phase == "over" and ENGINE.result(s).reason == "awakening"


def test_doom_zero_again_after_awakening_loses() -> None:
    s = solo("Yog-Sothoth")
    resolve(s, [{"op": "advance_doom", "n": 14}], inv=None)
    assert s.awakened and s.doom == C.ancient_ones["Yog-Sothoth"]["awakened"]["doom"]
    resolve(s, [{"op": "advance_doom", "n": 20}], inv=None)
    assert s.phase == "over" and ENGINE.result(s).reason == "doom_after_awakening"


def test_rumor_can_lose_the_game() -> None:
    """EH-R77(c): Dimensions Collide's countdown reaching zero."""
    s = solo()
    s.in_play.append({"id": "dimensions-collide", "eldritch": 1, "health": 0})
    resolve(s, [{"op": "remove_eldritch", "n": 1, "where": "this_card"}], inv=None, card="dimensions-collide", card_kind="mythos")
    assert s.phase == "over" and ENGINE.result(s).reason == "card_effect"


def test_cthulhu_eldritch_space_delays() -> None:
    """Cthulhu's sheet: entering a space with an Eldritch token delays and costs 1 sanity."""
    s = solo("Cthulhu")
    s.space_eldritch["Space 3"] = 1
    s.stack.clear()
    run(s, [])
    s, _ = choose(s, "travel:Space 3")
    assert s.investigators[0]["sanity"] == 3 and s.investigators[0]["delayed"]


def test_yog_reckoning_on_gate_space() -> None:
    s = solo("Yog-Sothoth")
    open_gate(s, s.investigators[0]["space"])
    resolve(s, [{"op": "reckoning"}], inv=None)
    assert s.doom == 13  # no spell to discard: doom advances


def test_returned_mystery_reopens_when_none_is_active() -> None:
    s = solo("Cthulhu")
    s.awakened, s.mystery, s.mystery_deck = True, None, []
    s.solved = list(C.ancient_ones["Cthulhu"]["mysteries"][:3])
    resolve(s, [{"op": "return_solved_mystery_to_deck", "which": "random"}], inv=None)
    assert len(s.solved) == 2 and s.mystery is not None

"""Digest rules no other test cites (EH-R23, R38, R47, R55, R58) and effect ops that used to run only in
random games (or never): each test sets up a position, resolves the card or op and checks the result."""

from __future__ import annotations

from typing import Any

from rules.eldritch_horror.machine import run
from rules.eldritch_horror.phases import encounter
from rules.eldritch_horror.world import TOKENS
from tests.rules.eldritch_horror.helpers import C, ENGINE, choose, game, kind, options, place, quiet, resolve, rig

FLUTE = "Flute of the Outer Gods"


def solo(ao: str = "Azathoth", names=("Silas Marsh",), seats=("s1",)):
    return quiet(game(ao, names=names, seats=seats))


def pair(ao: str = "Azathoth"):
    return solo(ao, names=("Silas Marsh", "Lily Chen"), seats=("a", "b"))


def open_gate(s, space: str) -> None:
    for pile in (s.gate_stack, s.gate_discard):
        if space in pile:
            pile.remove(space)
    s.gates.append(space)


def put_clue(s, space: str) -> None:
    s.clue_pool.remove(space)
    s.clues.append(space)


def take(s, pile: str, name: str) -> str:
    """Take the card ``name`` (a condition or spell copy may be given as ``Name#k``) out of its deck."""
    s.decks[pile].remove(name)
    return name


def settle(s, answer: str = "accept"):
    """Accept every pending reroll offer (the dice were rigged)."""
    while kind(s) == "reroll":
        s, _ = choose(s, answer)
    return s


def on_top(s, deck: str, card_id: str) -> None:
    if card_id in s.decks[deck]:
        s.decks[deck].remove(card_id)
    s.decks[deck].append(card_id)


def meet(s, choice: str, deck: str | None = None, card_id: str | None = None, inv: int = 0) -> list:
    """Investigator ``inv`` has the encounter ``choice`` (with ``card_id`` on top of ``deck``, if given)."""
    if deck and card_id:
        on_top(s, deck, card_id)
    s.stack.clear()
    events: list = []
    encounter(s, inv, choice, {"inv": inv, "bound": inv}, events)
    run(s, events)
    return events


def mythos_text(s, card_id: str, **extra: Any) -> list:
    """Resolve the printed text of Mythos card ``card_id`` (the "resolve_text" icon alone)."""
    return resolve(s, [{"op": "resolve_text"}], inv=None, card=card_id, card_kind="mythos", **extra)


def top_mythos(s, card_id: str) -> None:
    """Put Mythos card ``card_id`` on top of the Mythos deck."""
    if card_id in s.mythos_deck:
        s.mythos_deck.remove(card_id)
    else:
        s.decks["mythos_box"].remove(card_id)
    s.mythos_deck.append(card_id)


def reckon(s) -> list:
    return resolve(s, [{"op": "reckoning"}], inv=None)


def in_play(s, card_id: str, eldritch: int = 0, health: int = 0) -> None:
    if card_id in s.mythos_deck:
        s.mythos_deck.remove(card_id)
    if card_id in s.decks.get("mythos_box", []):
        s.decks["mythos_box"].remove(card_id)
    s.in_play.append({"id": card_id, "eldritch": eldritch, "health": health})
    space = C.mythos[card_id]["rumor_space"]
    if space and space != "active_expedition":
        s.rumors[space] = card_id


# ---------------------------------------------------------------- rules cited by id


def test_r23_exactly_one_encounter_without_monsters() -> None:
    """EH-R23: with no monster on the space the investigator has one encounter, location or token, never
    none and never a second one."""
    s = solo()
    s.investigators[0]["space"] = "Tokyo"
    open_gate(s, "Tokyo")
    put_clue(s, "Tokyo")
    top_mythos(s, "perplexing-stars")
    run(s, [])
    s, _ = choose(s, "end")
    assert kind(s) == "encounter"
    assert options(s) == ["location:general", "location:asia_australia", "research", "other_world"]  # no "none"
    on_top(s, "research", "research_azathoth-01")
    rig(s, [1] * 8)
    s, ev = choose(s, "research")
    s = settle(s)
    encounters = [e for e in ev if e.type == "encounter"]
    assert [e.data["choice"] for e in encounters] == ["research"]
    assert s.round == 2 and kind(s) == "action"  # on to the Mythos phase and the next round: no second encounter
    assert "Tokyo" in s.clues and "Tokyo" in s.gates  # the failed research left the other tokens alone


def test_r38_spawn_clues_takes_the_reference_card_count_from_the_pool() -> None:
    """EH-R38: the Spawn Clues icon spawns as many clues as the reference card says (1 for one or two
    investigators, 2 for three or four), each one drawn from the pool onto the space printed on it."""
    for names, want in ((("Silas Marsh",), 1), (("Silas Marsh", "Lily Chen", "Jim Culver"), 2)):
        s = solo(names=names)
        pool = list(s.clue_pool)
        top_mythos(s, "stars-aligned")  # icons: spawn clues, place a rumor, resolve the text
        ev = resolve(s, [{"op": "mythos_draw"}], inv=None)
        spawned = [e.data["space"] for e in ev if e.type == "clue_spawned"]
        assert len(spawned) == want and sorted(s.clues) == sorted(spawned)
        assert sorted(s.clue_pool + s.clues) == sorted(pool) and not set(spawned) & set(s.clue_pool)
        assert s.rumors == {"Space 7": "stars-aligned"}
    s = solo()
    s.clue_pool = []
    ev = resolve(s, [{"op": "spawn_clues_ref"}], inv=None)
    assert not s.clues and [e.type for e in ev] == ["no_clue_left"]


def test_r47_clues_reroll_a_die_and_pay_for_a_rumor() -> None:
    """EH-R47: a clue rerolls one die of a test, and clues are the price that solves a Rumor (Stars
    Aligned: half the investigators, rounded up). Declined or unaffordable, the Rumor stays."""
    def at_space_7(clues: int):
        s = pair()
        in_play(s, "stars-aligned")
        s.investigators[0]["space"] = "Space 7"
        s.investigators[0]["clues"] = [s.clue_pool.pop() for _ in range(clues)]
        return s

    s = at_space_7(2)
    rig(s, [1, 1, 1, 6])  # three Observation dice fail; the clue's reroll shows a 6
    meet(s, "rumor:stars-aligned")
    assert kind(s) == "reroll" and options(s)[:2] == ["accept", "reroll:clue@1"]
    s, _ = choose(s, "reroll:clue@1")
    assert len(s.investigators[0]["clues"]) == 1 and s.stack[-1].params["dice"].count(6) == 1
    s = settle(s)
    assert options(s) == ["pay", "decline"]
    s, ev = choose(s, "pay")
    assert not s.investigators[0]["clues"] and len(s.clue_pool) == len(pair().clue_pool)  # both clues back in the pool
    assert not s.in_play and not s.rumors and "stars-aligned" in s.mythos_discard
    assert [e.data["n"] for e in ev if e.type == "spent_clues"] == [1]

    s = at_space_7(1)
    rig(s, [6, 6, 6])
    meet(s, "rumor:stars-aligned")
    s, _ = choose(s, "decline")
    assert s.rumors == {"Space 7": "stars-aligned"} and len(s.investigators[0]["clues"]) == 1

    s = at_space_7(0)
    rig(s, [6, 6, 6])
    meet(s, "rumor:stars-aligned")
    assert s.rumors == {"Space 7": "stars-aligned"} and kind(s) != "target"  # nothing to pay with: not solved


def test_r55_conditions_are_never_traded_and_fall_with_their_holder() -> None:
    """EH-R55: clues and tickets are possessions and change hands; conditions are not possessions: no trade
    offers them in either direction, and a defeat discards them instead of leaving them with the sheet."""
    s = pair()
    silas, lily = s.investigators
    lily["space"] = silas["space"]
    silas["conditions"] = [take(s, "conditions", "Debt#0")]
    lily["conditions"] = [take(s, "conditions", "Paranoia#0")]
    silas["clues"] = [s.clue_pool.pop()]
    lily["tickets"] = {"train": 0, "ship": 1}
    s.stack.clear()
    run(s, [])
    s, _ = choose(s, "trade:Lily Chen")
    s, _ = choose(s, "allow")
    offered = options(s)
    assert "give:clue" in offered and "take:ticket:ship" in offered
    assert not [o for o in offered if "Debt" in o or "Paranoia" in o or "condition" in o]
    s, _ = choose(s, "give:clue")
    s, _ = choose(s, "take:ticket:ship")
    s, _ = choose(s, "done")
    silas, lily = s.investigators
    assert len(lily["clues"]) == 1 and silas["tickets"]["ship"] == 1
    assert [c.split("#")[0] for c in silas["conditions"]] == ["Debt"] and [c.split("#")[0] for c in lily["conditions"]] == ["Paranoia"]

    resolve(s, [{"op": "lose_sanity", "n": 6}], inv=1)
    lily = s.investigators[1]
    corpse = next(c for c in s.corpses if c["name"] == "Lily Chen")
    assert lily["status"] == "defeated" and not lily["conditions"] and "conditions" not in corpse
    assert "Paranoia#0" in s.discards["conditions"] and len(corpse["clues"]) == 1


def test_r58_an_artifact_is_traded_and_works_for_its_new_owner() -> None:
    """EH-R58: artifacts are possessions, so a trade moves them; the Flute's action then belongs to the
    investigator who received it."""
    s = pair()
    silas, lily = s.investigators
    lily["space"] = silas["space"]
    silas["artifacts"] = [take(s, "artifacts", FLUTE)]
    zombie = place(s, "Zombie", silas["space"])
    s.stack.clear()
    run(s, [])
    assert f"component:artifact:{FLUTE}" in options(s)
    s, _ = choose(s, "trade:Lily Chen")
    s, _ = choose(s, "allow")
    assert f"give:artifact:{FLUTE}" in options(s)
    s, _ = choose(s, f"give:artifact:{FLUTE}")
    s, _ = choose(s, "done")
    assert s.investigators[0]["artifacts"] == [] and s.investigators[1]["artifacts"] == [FLUTE]
    assert kind(s) == "action" and f"component:artifact:{FLUTE}" not in options(s)
    s, _ = choose(s, "end")
    assert s.stack[-1].params["inv"] == 1 and f"component:artifact:{FLUTE}" in options(s)
    s, _ = choose(s, f"component:artifact:{FLUTE}")
    lily = s.investigators[1]
    assert (lily["health"], lily["sanity"]) == (4, 4) and not s.monsters and zombie in s.cup


# ---------------------------------------------------------------- ops no test used to run


def test_flute_defeats_every_monster_on_your_space_but_not_epics() -> None:
    """Flute of the Outer Gods (``defeat_monsters_on_your_space``): 2 health and 2 sanity, then every
    ordinary monster on the space is defeated; an epic one and monsters elsewhere stay."""
    s = solo()
    silas = s.investigators[0]
    here = silas["space"]
    s.stack.clear()
    silas["artifacts"] = [take(s, "artifacts", FLUTE)]
    run(s, [])
    assert f"component:artifact:{FLUTE}" not in options(s)  # no monster here: nothing to use it on
    zombie, ghoul = place(s, "Zombie", here), place(s, "Ghoul", here)
    spinner = place(s, "Spinner of Webs", here)
    far = place(s, "Cultist", "Tokyo")
    s.stack.clear()
    run(s, [])
    s, ev = choose(s, f"component:artifact:{FLUTE}")
    silas = s.investigators[0]
    assert (silas["health"], silas["sanity"]) == (6, 2)
    assert sorted(m["id"] for m in s.monsters) == sorted([spinner, far])
    assert zombie in s.cup and ghoul in s.cup
    assert sorted(e.data["monster"] for e in ev if e.type == "monster_defeated") == ["Ghoul", "Zombie"]


def test_discard_gate_of_choice_after_a_sea_research() -> None:
    """``discard_gate`` (Yog-Sothoth research 7, sea): a passed Lore test takes the space's clue, and
    giving up a Spell discards a gate the investigator picks anywhere; doom does not move."""
    s = solo("Yog-Sothoth")
    silas = s.investigators[0]
    silas["space"] = "Space 2"
    put_clue(s, "Space 2")
    silas["spells"] = [take(s, "spells", "Flesh Ward#0")]
    open_gate(s, "Tokyo")
    open_gate(s, "Rome")
    doom = s.doom
    rig(s, [6, 6])  # Lore 1 + Silas's die at sea
    meet(s, "research", "research", "research_yog_sothoth-07")
    assert len(silas["clues"]) == 1 and "Space 2" not in s.clues
    assert options(s) == ["yes", "no"]
    s, _ = choose(s, "yes")
    assert options(s) == ["Rome", "Tokyo"]
    s, ev = choose(s, "Tokyo")
    assert s.gates == ["Rome"] and "Tokyo" in s.gate_discard and s.doom == doom
    assert not s.investigators[0]["spells"] and "Flesh Ward#0" in s.discards["spells"]
    assert [e.data["space"] for e in ev if e.type == "gate_discarded"] == ["Tokyo"]


def test_discard_this_clue_on_a_failed_research() -> None:
    """``discard_this_clue`` (Yog-Sothoth research 1, sea): failing, the investigator loses a Spell or the
    clue on the space, which goes back to the pool; with no Spell only the clue can go."""
    s = solo("Yog-Sothoth")
    silas = s.investigators[0]
    silas["space"] = "Space 2"
    put_clue(s, "Space 2")
    rig(s, [1] * 4)  # Observation 3 + 1 at sea, all failing
    meet(s, "research", "research", "research_yog_sothoth-01")
    assert "Space 2" not in s.clues and "Space 2" in s.clue_pool and not silas["clues"]

    s = solo("Yog-Sothoth")
    s.investigators[0]["space"] = "Space 2"
    put_clue(s, "Space 2")
    s.investigators[0]["spells"] = [take(s, "spells", "Flesh Ward#0")]
    rig(s, [1] * 4)
    meet(s, "research", "research", "research_yog_sothoth-01")
    assert options(s) == ["discard_possession 1 kind=spell", "discard_this_clue"]
    s, _ = choose(s, "discard_possession 1 kind=spell")
    assert "Space 2" in s.clues and not s.investigators[0]["spells"]


def test_legitimate_banking_reckons_only_the_leads_old_debt() -> None:
    """``resolve_condition_reckoning`` (Legitimate Banking): the lead's Debt held before the card is
    reckoned (flipped) first, then the lead gains a Debt; another investigator's Debt is not touched."""
    s = pair()
    silas, lily = s.investigators
    silas["conditions"] = [take(s, "conditions", "Debt#1")]  # its back: lose 2 health, discard it
    lily["conditions"] = [take(s, "conditions", "Debt#4")]  # its back: lose 2 sanity
    ev = mythos_text(s, "legitimate-banking")
    silas, lily = s.investigators
    assert silas["health"] == 6 and "Debt#1" in s.discards["conditions"]
    assert [c.split("#")[0] for c in silas["conditions"]] == ["Debt"] and silas["conditions"] != ["Debt#1"]
    assert lily["conditions"] == ["Debt#4"] and lily["sanity"] == 6
    assert [e.data["investigator"] for e in ev if e.type == "flipped"] == ["Silas Marsh"]

    s = pair()
    mythos_text(s, "legitimate-banking")  # no earlier Debt: nothing is reckoned, the lead just gains one
    assert [c.split("#")[0] for c in s.investigators[0]["conditions"]] == ["Debt"] and s.investigators[0]["health"] == 8


def _fight_on_space_19(s, clues: int) -> None:
    """Silas, holding ``clues`` clues, wins his fight on space 19 (rigged dice)."""
    s.investigators[0]["space"] = "Space 19"
    s.investigators[0]["clues"] = [s.clue_pool.pop() for _ in range(clues)]
    rig(s, [6] * 8)
    resolve(s, [{"op": "encounter_turn"}])


def test_return_of_the_ancient_ones_trophies_solve_it() -> None:
    """``rumor_trophy`` (Return of the Ancient Ones): a monster beaten on space 19 may be laid on the card
    for 1 clue; once the toughness there reaches the number of investigators the rumor is solved."""
    s = pair()
    in_play(s, "return-of-the-ancient-ones")
    ghoul = place(s, "Ghoul", "Space 19")  # toughness 1 of the 2 needed
    _fight_on_space_19(s, 1)
    assert ghoul in s.cup and options(s) == ["yes", "no"]
    s, _ = choose(s, "yes")
    card = next(m for m in s.in_play if m["id"] == "return-of-the-ancient-ones")
    assert card["health"] == 1 and not s.investigators[0]["clues"] and s.rumors
    assert kind(s) == "encounter" and "none" in options(s)  # the fight won, one more encounter may follow

    zombie = place(s, "Zombie", "Space 19")  # toughness 2: 1 + 2 >= 2
    _fight_on_space_19(s, 1)
    s, _ = choose(s, "yes")
    assert zombie in s.cup and not s.rumors and "return-of-the-ancient-ones" in s.mythos_discard

    s = pair()
    in_play(s, "return-of-the-ancient-ones")
    place(s, "Zombie", "Space 19")
    _fight_on_space_19(s, 1)
    s, _ = choose(s, "no")
    assert s.in_play[0]["health"] == 0 and len(s.investigators[0]["clues"]) == 1 and s.rumors

    s = pair()
    in_play(s, "return-of-the-ancient-ones")
    place(s, "Zombie", "Space 19")
    _fight_on_space_19(s, 0)  # no clue to pay: not offered
    assert kind(s) == "encounter" and s.in_play[0]["health"] == 0


def test_gug_defeated_in_combat_allows_no_further_encounter() -> None:
    """``skip_additional_encounter`` (Gug): beating it ends the encounter step; beating another monster
    leaves the optional encounter of EH-R22."""
    s = solo()
    here = s.investigators[0]["space"]
    gug = place(s, "Gug", here, damage=3)
    rig(s, [6] * 8)
    ev = resolve(s, [{"op": "encounter_turn"}])
    assert gug in s.cup and kind(s) == "action"  # the turn is over: back to the phase
    assert s.investigators[0]["no_extra_encounter"] and not [e for e in ev if e.type == "encounter"]

    s = solo()
    ghoul = place(s, "Ghoul", here)
    rig(s, [6] * 8)
    resolve(s, [{"op": "encounter_turn"}])
    assert ghoul in s.cup and kind(s) == "encounter" and "none" in options(s)


def test_the_storm_brings_a_rumor_from_the_box_or_costs_clues() -> None:
    """``draw_and_resolve_rumor_from_box`` (The Storm): with no Rumor in play one comes from the box into
    play (its token and Eldritch tokens placed, no clues spawned); with Rumors in play every investigator
    discards a clue per Rumor instead."""
    s = pair()
    box = [c for c in s.decks["mythos_box"] if C.mythos[c]["subtype"] == "rumor"]
    ev = mythos_text(s, "the-storm")
    assert len(s.in_play) == 1
    card = s.in_play[0]["id"]
    data = C.mythos[card]
    assert card in box and card not in s.decks["mythos_box"] and data["subtype"] == "rumor"
    assert s.in_play[0]["eldritch"] == (data["eldritch_tokens"] or 0)
    if data["rumor_space"] not in (None, "active_expedition"):
        assert s.rumors == {data["rumor_space"]: card}
    assert not s.clues and not [e for e in ev if e.type == "clue_spawned"]

    s = pair()
    in_play(s, "stars-aligned")
    in_play(s, "spreading-sickness")
    s.investigators[0]["clues"] = [s.clue_pool.pop() for _ in range(3)]
    s.investigators[1]["clues"] = [s.clue_pool.pop()]
    mythos_text(s, "the-storm")
    assert [len(i["clues"]) for i in s.investigators] == [1, 0] and len(s.in_play) == 2


# ---------------------------------------------------------------- ops seen only in random games: doom and omen


def card_reckoning(s, card_id: str) -> list:
    return resolve(s, list(C.mythos[card_id]["reckoning"]), inv=None, card=card_id, card_kind="mythos")


def only_in_cup(s, name: str) -> None:
    """The cup holds only the tokens of ``name`` (so a random spawn is predictable)."""
    s.cup = [m for m in s.cup if TOKENS[m] == name]


def test_return_of_the_ancient_ones_sets_doom_to_zero_at_four_monsters() -> None:
    """``set_doom`` (Return of the Ancient Ones, reckoning): a monster spawns on space 19; when that makes
    four there, doom drops to 0 and the Ancient One awakens (Azathoth: the investigators lose)."""
    s = solo()
    in_play(s, "return-of-the-ancient-ones")
    place(s, "Cultist", "Space 19")
    place(s, "Cultist", "Space 19")
    only_in_cup(s, "Ghoul")
    card_reckoning(s, "return-of-the-ancient-ones")
    assert len([m for m in s.monsters if m["space"] == "Space 19"]) == 3 and s.doom == 15 and s.phase != "over"

    card_reckoning(s, "return-of-the-ancient-ones")
    assert s.doom == 0 and s.phase == "over" and ENGINE.result(s).reason == "awakening"


def test_perplexing_stars_moves_the_omen_back_then_counts_its_gates() -> None:
    """``move_omen`` and ``advance_doom_per_gate_matching_omen`` (Perplexing Stars): the omen steps back
    from red to blue without the usual advance, then doom advances once per blue gate."""
    s = solo()
    s.omen = 2  # red
    for g in ("London", "Tokyo", "Rome", "Sydney"):  # two blue, two red
        open_gate(s, g)
    mythos_text(s, "perplexing-stars")
    assert s.omen == 1 and s.doom == 15 - 2
    s.omen = 0  # green steps back to the last (blue) space
    mythos_text(s, "perplexing-stars")
    assert s.omen == 3 and s.doom == 13 - 2


def test_fractured_reality_runs_out_doom_per_gate_and_is_discarded() -> None:
    """``advance_doom_per_gate_on_board`` and ``solve_this_rumor`` (Fractured Reality): its last Eldritch
    token gone, doom advances once per gate of any colour and the rumor leaves play."""
    s = solo()
    in_play(s, "fractured-reality", eldritch=2)
    for g in ("London", "Rome", "Istanbul"):
        open_gate(s, g)
    card_reckoning(s, "fractured-reality")
    assert s.doom == 15 and s.in_play[0]["eldritch"] == 1
    card_reckoning(s, "fractured-reality")
    assert s.doom == 12 and not s.in_play and not s.rumors and "fractured-reality" in s.mythos_discard


def test_dimensional_instability_discards_gates_of_the_omen() -> None:
    """``discard_gates_matching_omen``: every gate of the current omen goes, doom advancing one for each."""
    s = solo()
    s.omen = 2  # red
    for g in ("Rome", "Sydney", "Tokyo"):
        open_gate(s, g)
    mythos_text(s, "dimensional-instability")
    assert s.gates == ["Tokyo"] and {"Rome", "Sydney"} <= set(s.gate_discard) and s.doom == 13


def test_that_which_consumes_lead_picks_a_gate() -> None:
    """``group_discard_gate``: the lead picks a gate to discard; doom advances only if its colour is not the
    current omen's."""
    s = pair()
    for g in ("Rome", "Istanbul"):  # red, green
        open_gate(s, g)
    mythos_text(s, "that-which-consumes")
    assert kind(s) == "target" and s.stack[-1].seats == ["a"] and options(s) == ["Istanbul", "Rome"]
    s, _ = choose(s, "Rome")
    assert s.gates == ["Istanbul"] and s.doom == 14
    mythos_text(s, "that-which-consumes")  # a single gate: no question; green is the current omen
    assert not s.gates and s.doom == 14


def test_omen_of_good_fortune_sets_the_omen_without_doom() -> None:
    """``move_omen_any``: the lead may put the omen on any space (or leave it); doom does not advance even
    with gates of the new colour open."""
    s = solo()
    open_gate(s, "Rome")
    mythos_text(s, "omen-of-good-fortune")
    assert options(s) == ["0:green", "1:blue", "2:red", "3:blue", "no"]
    s, ev = choose(s, "2:red")
    assert s.omen == 2 and s.doom == 15 and [e.data["colour"] for e in ev if e.type == "omen"] == ["red"]
    mythos_text(s, "omen-of-good-fortune")
    s, _ = choose(s, "no")
    assert s.omen == 2


def test_rising_terror_resolves_monster_reckonings_twice() -> None:
    """``resolve_monster_reckonings`` (Rising Terror): a Deep One's reckoning costs 1 sanity to each
    investigator on its space, twice; with no monster reckoning doom advances instead."""
    s = solo()
    s.investigators[0]["sanity"] = 4
    place(s, "Deep One", s.investigators[0]["space"])
    mythos_text(s, "rising-terror")
    assert s.investigators[0]["sanity"] == 2 and s.doom == 15
    s = solo()
    place(s, "Ghoul", s.investigators[0]["space"])
    mythos_text(s, "rising-terror")
    assert s.doom == 14 and s.investigators[0]["sanity"] == 4


def test_from_beyond_reckons_mythos_cards_twice_unless_clues_are_paid() -> None:
    """``resolve_mythos_reckonings`` (From Beyond): without clues the Mythos reckonings run twice (Lost
    Knowledge loses two Eldritch tokens); with clues the group may pay instead."""
    s = solo()
    in_play(s, "lost-knowledge", eldritch=3)
    mythos_text(s, "from-beyond")
    assert s.in_play[0]["eldritch"] == 1
    s = solo()
    in_play(s, "lost-knowledge", eldritch=3)
    s.investigators[0]["clues"] = [s.clue_pool.pop()]
    mythos_text(s, "from-beyond")
    assert options(s) == ["spend half_investigators clue group=true", "resolve_mythos_reckonings"]
    s, _ = choose(s, "spend half_investigators clue group=true")
    assert s.in_play[0]["eldritch"] == 3 and not s.investigators[0]["clues"]


def test_tied_to_a_dark_purpose_reads_every_die_as_one() -> None:
    """``resolve_condition_reckonings`` (Tied to a Dark Purpose): every condition's reckoning with dice read
    as 1s: Blessed (discarded on 1-2) goes, Cursed (discarded on 4-6) stays."""
    s = pair()
    s.investigators[0]["conditions"] = [take(s, "conditions", "Blessed#0")]
    s.investigators[1]["conditions"] = [take(s, "conditions", "Cursed#0")]
    rig(s, [6, 6])  # would keep Blessed and shed Cursed if they were really rolled
    ev = mythos_text(s, "tied-to-a-dark-purpose")
    assert not s.investigators[0]["conditions"] and s.investigators[1]["conditions"] == ["Cursed#0"]
    assert [e.data["die"] for e in ev if e.type == "roll"] == [1, 1]


# ---------------------------------------------------------------- ops seen only in random games: monsters


def monster(s, mid: int) -> dict:
    return next(m for m in s.monsters if m["id"] == mid)


def test_a_dark_power_heals_monsters_then_each_investigator_fights_those_here() -> None:
    """``all_monsters_recover_health`` and ``encounter_each_monster_on_space`` (A Dark Power): every monster
    on the board loses its damage, then each investigator fights every monster on their own space."""
    s = pair()
    here = s.investigators[0]["space"]
    shoggoth = place(s, "Shoggoth", here, damage=3)  # toughness 4: one more hit would have beaten it
    ghoul = place(s, "Ghoul", here)
    ghost = place(s, "Ghost", "Space 12", damage=1)
    rig(s, [6] * 40)
    ev = mythos_text(s, "a-dark-power")
    fights = [(e.data["investigator"], e.data["monster"]) for e in ev if e.type == "combat"]
    assert sorted(fights) == [("Silas Marsh", "Ghoul"), ("Silas Marsh", "Shoggoth")]
    assert monster(s, shoggoth)["damage"] == 1 and ghoul in s.cup and monster(s, ghost)["damage"] == 0


def test_shoggoth_reckoning_recovers_all_its_health() -> None:
    """``this_monster_recovers_all_health``: only the Shoggoth heals; a Goat Spawn beside it keeps its damage."""
    s = solo()
    shoggoth = place(s, "Shoggoth", "Space 12", damage=3)
    other = place(s, "Goat Spawn", "Space 12", damage=1)
    reckon(s)
    assert monster(s, shoggoth)["damage"] == 0 and monster(s, other)["damage"] == 1


def test_vampire_skips_strength_on_a_failed_will_and_heals_on_a_hit() -> None:
    """``skip_strength_test`` and ``this_monster_recovers_health`` (Vampire): failing its Will test means
    no Strength test at all; a Strength test that hurts you but leaves it alive heals it by 2."""
    s = solo()
    here = s.investigators[0]["space"]
    vampire = place(s, "Vampire", here, damage=1)
    rig(s, [1, 1])  # Will 3 - 1: both dice fail
    ev = resolve(s, [{"op": "encounter_turn"}])
    assert [e.data["skill"] for e in ev if e.type == "test"] == ["will"]
    assert s.investigators[0]["health"] == 8 and s.investigators[0]["sanity"] == 3 and monster(s, vampire)["damage"] == 1

    s = solo()
    s.investigators[0]["assets"] = []  # Silas's Fishing Net would cut the Vampire's damage to 1, all stopped
    vampire = place(s, "Vampire", here, damage=1)
    rig(s, [6, 6, 6])  # Will passes; Strength 3 - 2 = 1 die, one hit: 2 damage of its 3, 1 health lost
    ev = resolve(s, [{"op": "encounter_turn"}])
    assert [e.data["skill"] for e in ev if e.type == "test"] == ["will", "strength"]
    assert s.investigators[0]["health"] == 7 and monster(s, vampire)["damage"] == 0


def test_zombie_reckoning_makes_way_for_the_horde() -> None:
    """``discard_this_monster`` (Zombie): the token goes back to the cup and the Zombie Horde epic monster
    appears on its space."""
    s = solo()
    zombie = place(s, "Zombie", "Space 12")
    reckon(s)
    assert zombie in s.cup
    assert [(TOKENS[m["id"]], m["space"]) for m in s.monsters] == [("Zombie Horde", "Space 12")]


def test_hound_of_tindalos_leaps_to_the_nearest_investigator_and_fights() -> None:
    """``move_this_monster`` (to the nearest investigator) and ``investigator_on_space_encounters_this_monster``."""
    s = pair()
    s.investigators[1]["space"] = "Tokyo"
    hound = place(s, "Hound of Tindalos", "Space 12")  # Sydney is 2 away, Tokyo further
    rig(s, [6] * 10)
    ev = reckon(s)
    assert monster(s, hound)["space"] == "Sydney"
    assert [(e.data["investigator"], e.data["monster"]) for e in ev if e.type == "combat"] == [("Silas Marsh", "Hound of Tindalos")]


def test_mi_go_takes_the_nearest_clue() -> None:
    """``discard_nearest_clue_and_move_there`` (Mi-Go)."""
    s = solo()
    mi_go = place(s, "Mi-Go", "Sydney")
    put_clue(s, "Space 3")  # 1 step away
    put_clue(s, "Tokyo")
    reckon(s)
    assert monster(s, mi_go)["space"] == "Space 3" and s.clues == ["Tokyo"] and "Space 3" in s.clue_pool


def test_serpent_people_drag_the_nearest_investigator_on_a_low_roll() -> None:
    """``move_investigator`` (Serpent People): on 1-2 the nearest investigator moves one step toward them."""
    s = solo()
    place(s, "Serpent People", "Space 12")  # two steps from Sydney
    rig(s, [3])
    reckon(s)
    assert s.investigators[0]["space"] == "Sydney"
    rig(s, [1])
    reckon(s)
    here = s.investigators[0]["space"]
    assert here in C.spaces["Sydney"].routes and C.distances[here]["Space 12"] == 1


def test_nightgaunt_carries_its_victim_or_flies_toward_one() -> None:
    """``move_this_monster_with_investigator`` (Nightgaunt): with an investigator on its space the lead
    picks a neighbouring space, both go there and the investigator is Delayed; otherwise it flies two steps
    toward the nearest investigator."""
    s = pair()
    s.investigators[1]["space"] = "Tokyo"
    gaunt = place(s, "Nightgaunt", "Sydney")
    reckon(s)
    assert kind(s) == "target" and s.stack[-1].seats == ["a"] and options(s) == sorted(C.spaces["Sydney"].routes)
    s, ev = choose(s, "Space 3")
    assert monster(s, gaunt)["space"] == "Space 3" and s.investigators[0]["space"] == "Space 3"
    # Delayed (the test runs outside the Mythos phase, so the next Action phase stands Silas up at once)
    assert [e.data["investigator"] for e in ev if e.type == "delayed"] == ["Silas Marsh"]

    s = solo()
    s.investigators[0]["space"] = "Istanbul"
    gaunt = place(s, "Nightgaunt", "Sydney")  # Istanbul is 3 steps away
    assert C.distances["Sydney"]["Istanbul"] == 3
    reckon(s)
    there = monster(s, gaunt)["space"]
    assert C.distances[there]["Istanbul"] == 1 and C.distances["Sydney"][there] == 2


# ---------------------------------------------------------------- ops seen only in random games: encounters


def test_tokyo_encounter_moves_a_monster_anywhere() -> None:
    """``move_monster`` (Asia/Australia 8, Tokyo): a passed Influence test moves a non-epic monster of the
    investigator's choice to any space."""
    s = solo()
    s.investigators[0]["space"] = "Tokyo"
    ghoul = place(s, "Ghoul", "Space 12")
    zombie = place(s, "Zombie", "Rome")
    place(s, "Spinner of Webs", "Rome")
    rig(s, [6, 6, 6])
    meet(s, "location:asia_australia", "asia_australia", "asia_australia-08")
    assert options(s) == sorted([f"{ghoul}:Ghoul@Space 12", f"{zombie}:Zombie@Rome"])
    s, _ = choose(s, f"{ghoul}:Ghoul@Space 12")
    assert "Antarctica" in options(s) and len(options(s)) == len(C.spaces)
    s, _ = choose(s, "Antarctica")
    assert monster(s, ghoul)["space"] == "Antarctica" and monster(s, zombie)["space"] == "Rome"


def test_the_hound_called_by_the_radio_is_the_one_that_ambushes() -> None:
    """``move_monster`` to your space, then ``monster_ambush`` (Yog-Sothoth research 3, sea): the Hound of
    Tindalos on the board comes to the investigator and fights them, then goes to the cup (EH-R71); no other
    monster is drawn. Without a Hound the investigator loses 1 sanity."""
    s = solo("Yog-Sothoth")
    s.investigators[0]["space"] = "Space 2"
    put_clue(s, "Space 2")
    hound = place(s, "Hound of Tindalos", "Rome")
    cup = len(s.cup)
    rig(s, [6] * 20)
    ev = meet(s, "research", "research", "research_yog_sothoth-03")
    assert [e.data["monster"] for e in ev if e.type == "combat"] == ["Hound of Tindalos"]
    assert not s.monsters and hound in s.cup and len(s.cup) == cup + 1
    assert s.investigators[0]["clues"] == ["Space 2"] and s.investigators[0]["sanity"] == 4

    s = solo("Yog-Sothoth")
    s.investigators[0]["space"] = "Space 2"
    meet(s, "research", "research", "research_yog_sothoth-03")
    assert s.investigators[0]["sanity"] == 3 and not s.monsters


def test_tokyo_gem_pulls_a_chosen_monster_to_fight() -> None:
    """``pull_monster_and_encounter`` (Asia/Australia 3, Tokyo): the investigator picks any non-epic monster
    on the board; it moves to Tokyo and they fight it."""
    s = solo()
    s.investigators[0]["space"] = "Tokyo"
    near = place(s, "Ghoul", "Space 2")
    far = place(s, "Zombie", "Sydney")
    place(s, "Spinner of Webs", "Space 2")
    meet(s, "location:asia_australia", "asia_australia", "asia_australia-03")
    assert options(s) == sorted([f"{near}:Ghoul@Space 2", f"{far}:Zombie@Sydney"])
    rig(s, [6] * 10)
    s, ev = choose(s, f"{far}:Zombie@Sydney")
    assert [e.data["monster"] for e in ev if e.type == "combat"] == ["Zombie"]
    assert far in s.cup and monster(s, near)["space"] == "Space 2"  # beaten; the nearer Ghoul stayed put


def test_failed_research_moves_the_clue_to_the_nearest_sea() -> None:
    """``move_this_clue`` (Cthulhu research 1, city): on a failure the space's clue goes to the nearest sea
    space whose clue token is still in the pool."""
    s = solo("Cthulhu")
    put_clue(s, "Sydney")
    rig(s, [1, 1, 1])
    meet(s, "research", "research", "research_cthulhu-01")
    assert "Sydney" not in s.clues and "Sydney" in s.clue_pool and len(s.clues) == 1
    dest = s.clues[0]
    assert C.spaces[dest].type == "sea"
    assert C.distances["Sydney"][dest] == min(d for sp, d in C.distances["Sydney"].items() if C.spaces[sp].type == "sea")


def test_healing_lake_can_wash_away_a_madness() -> None:
    """``discard_condition`` (General 11, wilderness): becoming Delayed discards a Madness condition."""
    s = solo()
    s.investigators[0]["space"] = "Space 4"
    s.investigators[0]["conditions"] = [take(s, "conditions", "Paranoia#0"), take(s, "conditions", "Debt#0")]
    meet(s, "location:general", "general", "general-11")
    assert "become_delayed + discard_condition Madness" in options(s)
    s, ev = choose(s, "become_delayed + discard_condition Madness")
    assert s.investigators[0]["conditions"] == ["Debt#0"] and "Paranoia#0" in s.discards["conditions"]
    assert [e.type for e in ev if e.type in ("delayed", "discard_condition")] == ["delayed", "discard_condition"]


# ---------------------------------------------------------------- ops seen only in random games: mythos cards


def test_lost_knowledge_running_out_wipes_every_clue() -> None:
    """``discard_clue`` (all), ``discard_all_clues_on_board`` and ``solve_this_rumor`` (Lost Knowledge)."""
    s = pair()
    in_play(s, "lost-knowledge", eldritch=1)
    put_clue(s, "Tokyo")
    put_clue(s, "Rome")
    s.investigators[0]["clues"] = [s.clue_pool.pop() for _ in range(2)]
    s.investigators[1]["clues"] = [s.clue_pool.pop()]
    card_reckoning(s, "lost-knowledge")
    assert not s.investigators[0]["clues"] and not s.investigators[1]["clues"] and not s.clues
    assert len(s.clue_pool) == len(pair().clue_pool) and not s.in_play and "lost-knowledge" in s.mythos_discard


def test_from_bad_to_worse_costs_per_condition() -> None:
    """``lose_health_per``, ``lose_sanity_per`` and ``discard_clue_per`` (From Bad to Worse): 1 health per
    Injury, 1 sanity per Madness, 1 clue per Deal."""
    s = pair()
    silas = s.investigators[0]
    silas["conditions"] = [take(s, "conditions", c) for c in ("Leg Injury#0", "Internal Injury#0", "Paranoia#0", "Debt#0", "Dark Pact#0")]
    silas["clues"] = [s.clue_pool.pop() for _ in range(3)]
    mythos_text(s, "from-bad-to-worse")
    silas, lily = s.investigators
    assert (silas["health"], silas["sanity"], len(silas["clues"])) == (6, 3, 1)
    assert (lily["health"], lily["sanity"]) == (6, 6)


def test_burden_of_greed_costs_health_per_item_kept() -> None:
    """``lose_health_per`` items (Burden of Greed): items discarded first cost nothing."""
    s = solo()
    s.investigators[0]["artifacts"] = [take(s, "artifacts", FLUTE)]  # an Item too, besides the Fishing Net
    mythos_text(s, "burden-of-greed")
    s, _ = choose(s, "no")
    assert s.investigators[0]["health"] == 6  # Fishing Net and the Flute

    s = solo()
    s.investigators[0]["artifacts"] = [take(s, "artifacts", FLUTE)]
    mythos_text(s, "burden-of-greed")
    s, _ = choose(s, "yes")
    assert options(s) == [f"artifact:{FLUTE}", "asset:Fishing Net", "done"]
    s, _ = choose(s, f"artifact:{FLUTE}")
    s, _ = choose(s, "done")
    assert s.investigators[0]["health"] == 7 and FLUTE in s.discards["artifacts"]


def test_patrolling_the_border_lead_chooses_who_is_delayed() -> None:
    """``lead_chooses_investigator``: the lead's player names the investigator who becomes Delayed."""
    s = pair()
    mythos_text(s, "patrolling-the-border")
    assert kind(s) == "target" and s.stack[-1].seats == ["a"] and options(s) == ["Silas Marsh", "Lily Chen"]
    s, ev = choose(s, "Lily Chen")
    assert [e.data["investigator"] for e in ev if e.type == "delayed"] == ["Lily Chen"]
    assert any(m["id"] == "patrolling-the-border" for m in s.in_play)


def test_buying_information_pays_a_clue_per_success() -> None:
    """``test_and_gain_clues_equal_successes`` (Buying Information): the lead's Influence successes."""
    s = pair()
    rig(s, [6, 5, 2])
    mythos_text(s, "buying-information")
    assert len(s.investigators[0]["clues"]) == 2 and not s.investigators[1]["clues"]
    s = pair()
    rig(s, [1, 2, 3])
    mythos_text(s, "buying-information")
    assert not s.investigators[0]["clues"]


def test_spreading_sickness_grows_and_gets_cheaper_to_solve() -> None:
    """``place_token`` and ``lose_health_per`` (Spreading Sickness): each reckoning adds a health token and
    everyone loses a health per token; solving costs the number of investigators less the tokens."""
    s = pair()
    in_play(s, "spreading-sickness")
    card_reckoning(s, "spreading-sickness")
    assert s.in_play[0]["health"] == 1 and [i["health"] for i in s.investigators] == [7, 5]
    card_reckoning(s, "spreading-sickness")
    assert s.in_play[0]["health"] == 2 and [i["health"] for i in s.investigators] == [5, 3]

    s = pair()
    in_play(s, "spreading-sickness", health=1)
    s.investigators[0].update(space="Space 17", clues=[s.clue_pool.pop() for _ in range(2)])
    meet(s, "rumor:spreading-sickness")
    assert len(s.investigators[0]["clues"]) == 1 and not s.rumors and not s.in_play


def test_a_proposition_solves_a_rumor_of_the_leads_choice() -> None:
    """``solve_rumor_in_play`` (A Proposition): the lead may take a Dark Pact to solve one Rumor."""
    s = pair()
    in_play(s, "stars-aligned")
    in_play(s, "spreading-sickness")
    mythos_text(s, "a-proposition")
    s, _ = choose(s, "yes")
    assert options(s) == ["spreading-sickness", "stars-aligned"] and s.stack[-1].seats == ["a"]
    s, _ = choose(s, "spreading-sickness")
    assert [m["id"] for m in s.in_play] == ["stars-aligned"] and s.rumors == {"Space 7": "stars-aligned"}
    assert [c.split("#")[0] for c in s.investigators[0]["conditions"]] == ["Dark Pact"]


def test_no_peace_for_the_fallen_clears_the_corpses() -> None:
    """``clear_defeated_investigators``: what lay with a defeated investigator is discarded; the lead is Cursed."""
    s = solo(names=("Silas Marsh", "Lily Chen", "Jim Culver"), seats=("a", "b", "c"))
    s.investigators[1]["clues"] = [s.clue_pool.pop()]
    resolve(s, [{"op": "lose_sanity", "n": 6}], inv=1)
    s.stack.clear()
    assert s.corpses and s.corpses[0]["assets"]
    assets = list(s.corpses[0]["assets"])
    pool = len(s.clue_pool) + len(s.corpses[0]["clues"])
    mythos_text(s, "no-peace-for-the-fallen")
    assert not s.corpses and set(assets) <= set(s.discards["assets"]) and len(s.clue_pool) == pool
    assert [c.split("#")[0] for c in s.investigators[0]["conditions"]] == ["Cursed"]


def test_the_world_shakes_removes_the_active_expedition() -> None:
    """``remove_expedition_cards_of_active_location`` and ``shuffle_deck`` (The World Shakes): investigators on
    or beside the active expedition lose 2 health and are Delayed; its cards leave the expedition deck, the
    discards are shuffled back in, and the token moves to the new top card's space."""
    s = pair()
    where = s.expedition
    s.investigators[0]["space"] = sorted(C.spaces[where].routes)[0]
    s.investigators[1]["space"] = next(sp for sp, d in sorted(C.distances[where].items()) if d == 2)
    s.discards["expedition"] = [s.decks["expedition"].pop(0) for _ in range(3)]
    total = len(s.decks["expedition"]) + 3
    gone = sum(1 for c in s.decks["expedition"] + s.discards["expedition"] if C.encounters[c]["location"] == where)
    ev = mythos_text(s, "the-world-shakes")
    assert [i["health"] for i in s.investigators] == [6, 6]
    assert [e.data["investigator"] for e in ev if e.type == "delayed"] == ["Silas Marsh"]
    deck = s.decks["expedition"]
    assert len(deck) == total - gone and not s.discards["expedition"]
    assert where not in {C.encounters[c]["location"] for c in deck}
    assert s.expedition == C.encounters[deck[-1]]["location"] != where


def test_secrets_of_the_past_loses_when_no_expedition_is_left() -> None:
    """``remove_expedition_cards_of_active_location`` with its losing clause (Secrets of the Past)."""
    s = solo()
    in_play(s, "secrets-of-the-past")
    s.decks["expedition"] = [c for c in s.decks["expedition"] if C.encounters[c]["location"] in ("Antarctica", "Tunguska")]
    s.discards["expedition"] = []
    card_reckoning(s, "secrets-of-the-past")
    assert s.phase != "over" and {C.encounters[c]["location"] for c in s.decks["expedition"]} == {"Tunguska"}
    assert s.expedition == "Tunguska"
    card_reckoning(s, "secrets-of-the-past")
    assert s.phase == "over" and ENGINE.result(s).reason == "card_effect"


def test_faded_from_society_removes_costly_assets() -> None:
    """``remove_assets_from_game`` (Faded From Society): assets costing at least the card's Eldritch tokens
    leave the deck, the discards and the reserve (which refills); then a token comes off."""
    s = solo()
    in_play(s, "faded-from-society", eldritch=4)
    held = list(s.investigators[0]["assets"])
    card_reckoning(s, "faded-from-society")
    pool = s.decks["assets"] + s.discards["assets"] + s.reserve
    assert pool and all(C.assets[a]["cost"] < 4 for a in pool) and len(s.reserve) == 4
    assert s.discards["removed"] and all(C.assets[a]["cost"] >= 4 for a in s.discards["removed"])
    assert s.investigators[0]["assets"] == held and s.in_play[0]["eldritch"] == 3

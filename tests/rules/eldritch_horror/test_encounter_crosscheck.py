"""Encounter cards settled against a second source (Ancient Terror's full card text, see
shared/games/eldritch_horror/found/encounters_crosscheck_ancient_terror.json): where the two sources disagree
the clearer one wins and the data says so."""

from __future__ import annotations

from rules.eldritch_horror.machine import run
from rules.eldritch_horror.phases import draw_encounter
from rules.eldritch_horror.state import EhState
from tests.rules.eldritch_horror.helpers import C, choose, game, kind, options, quiet, rig


def meet(card_id: str, space: str, deck: str, gate: bool = False, dice: int = 6) -> EhState:
    """Silas Marsh, without clues, on ``space`` draws ``card_id`` from ``deck`` with every die showing ``dice``."""
    s = quiet(game("Yog-Sothoth", names=("Silas Marsh",)))
    s.investigators[0]["space"] = space
    s.clue_pool += s.investigators[0]["clues"]
    s.investigators[0]["clues"] = []
    if gate:
        (s.gate_stack if space in s.gate_stack else s.gate_discard).remove(space)
        s.gates.append(space)
    s.decks[deck] = [card_id]
    rig(s, [dice] * 30)
    events: list = []
    draw_encounter(s, deck, space, {"inv": 0, "bound": 0, "space": space, "combat": False}, events)
    run(s, events)
    while kind(s) in ("reroll", "choose"):  # keep the dice; the first of any reward
        s, _ = choose(s, "accept" if kind(s) == "reroll" else options(s)[0])
    return s


def first_test(card_id: str, section: str | None = None) -> tuple[str, int]:
    part = next(p for p in C.encounters[card_id]["sections"] if section in (None, p["section"]))
    op = part["effects"][0] if part["effects"][0]["op"] == "test" else part["effects"][1]["then"][0]
    return op["skill"], op["mod"]


def test_other_world_1_a_pass_closes_the_gate_now_confirmed() -> None:
    """Great Hall of Celaeno: the pass closes the gate (the project's guess, now in a second source)."""
    s = meet("other_world-great-hall-of-celaeno-1", "Rome", "other_world", gate=True)
    assert "Rome" not in s.gates
    part = C.encounters["other_world-great-hall-of-celaeno-1"]["sections"][0]
    assert not part.get("house") and part["cross_checked"]


def test_other_world_2_opens_with_lore() -> None:
    """The Future: Lore -1, not Will -1."""
    assert first_test("other_world-the-future-2") == ("lore", -1)


def test_other_world_14_both_ways_can_close_the_gate() -> None:
    """City of the Great Race: without a Clue, the Strength test's pass also closes the gate."""
    s = meet("other_world-city-of-the-great-race-14", "Rome", "other_world", gate=True)
    assert "Rome" not in s.gates


def test_other_world_15_without_a_clue_is_a_will_test_that_can_close() -> None:
    """Yuggoth: declining (or lacking) the Clue leads to a Will test: pass closes, fail costs 1 Health."""
    s = meet("other_world-yuggoth-15", "Rome", "other_world", gate=True)
    assert "Rome" not in s.gates and not s.investigators[0]["conditions"]
    s = meet("other_world-yuggoth-15", "Rome", "other_world", gate=True, dice=1)
    health = C.investigators["Silas Marsh"]["health"]
    assert "Rome" in s.gates and s.investigators[0]["health"] == health - 1


def test_expeditions_amazon_1_and_pyramids_3() -> None:
    """The Amazon 1 opens with Strength -1; The Pyramids 3 keeps Influence (two sources against one) and
    records the disagreement."""
    assert first_test("expedition-the-amazon-1") == ("strength", -1)
    part = C.encounters["expedition-the-pyramids-3"]["sections"][0]
    assert part["effects"][0]["fail"][1]["skill"] == "influence" and "Strength" in part["disagreement"]


def test_yog_sothoth_research_sections_follow_the_full_text_source() -> None:
    """Research 2 (wilderness): a Will test for Spell holders; research 6 (sea): Observation +0."""
    assert first_test("research_yog_sothoth-02", "wilderness") == ("will", 0)
    assert first_test("research_yog_sothoth-06", "sea") == ("observation", 0)


def test_yog_sothoth_research_8_sea_is_no_longer_designed() -> None:
    """Research 8 (sea), once the project's design: take the Clue, a step towards the nearest gate, then
    2 Sanity or a Spell."""
    s = quiet(game("Yog-Sothoth", names=("Silas Marsh",)))
    s.clue_pool += s.investigators[0]["clues"]
    s.investigators[0]["clues"] = []
    s.investigators[0]["space"] = "Space 2"
    s.clue_pool.remove("Space 2")
    s.clues.append("Space 2")
    target = min(C.gate_tokens, key=lambda g: (C.distances["Space 2"][g], g))
    (s.gate_stack if target in s.gate_stack else s.gate_discard).remove(target)
    s.gates.append(target)
    s.decks["research"] = ["research_yog_sothoth-08"]
    sanity = s.investigators[0]["sanity"]
    events: list = []
    draw_encounter(s, "research", "Space 2", {"inv": 0, "bound": 0, "space": "Space 2", "combat": False}, events)
    run(s, events)
    inv = s.investigators[0]
    assert "Space 2" in inv["clues"]
    assert C.distances[inv["space"]][target] == C.distances["Space 2"][target] - 1
    if kind(s) == "choose":  # a Spell could be discarded instead
        s, _ = choose(s, next(o for o in options(s) if o.startswith("lose_sanity")))
    assert s.investigators[0]["sanity"] == sanity - 2
    part = next(p for p in C.encounters["research_yog_sothoth-08"]["sections"] if p["section"] == "sea")
    assert not part.get("house")

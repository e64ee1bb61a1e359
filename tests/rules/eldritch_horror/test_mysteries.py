"""The 16 core Mystery cards (EH-R73) as the found sources describe them, each checked at the end of the
Mythos phase; and the awakened sides with their Final Mysteries (EH-R75)."""

from __future__ import annotations

import pytest

from rules.eldritch_horror import world as W
from rules.eldritch_horror.combat import fight
from rules.eldritch_horror.machine import run
from rules.eldritch_horror.phases import encounter, encounter_options
from rules.eldritch_horror.progress import enter_mystery
from rules.eldritch_horror.state import EhState
from rules.eldritch_horror.world import TOKENS
from tests.rules.eldritch_horror.helpers import C, ENGINE, choose, game, kind, options, place, quiet, resolve, rig

SIXES = [6] * 40


def start(name: str, names: tuple[str, ...] = ("Silas Marsh",), clues: list[str] | None = None) -> EhState:
    """A quiet game of the mystery's Ancient One with ``name`` just entered (board clues on ``clues``)."""
    s = quiet(game(C.mysteries[name]["ancient_one"], names=names, seats=tuple(f"s{k}" for k in range(1, len(names) + 1))))
    for space in clues or []:
        s.clue_pool.remove(space)
        s.clues.append(space)
    s.mystery, s.mystery_deck, s.solved, s.space_eldritch = None, [name], [], {}  # forget setup's own mystery
    events: list = []
    enter_mystery(s, events)
    run(s, events)
    return s


def give_clues(s: EhState, n: int, i: int = 0) -> None:
    s.investigators[i]["clues"] += [s.clue_pool.pop() for _ in range(n)]


def check(s: EhState) -> None:
    """The end of the Mythos phase, where a mystery is solved."""
    resolve(s, [{"op": "mystery_check"}], inv=None)


def meet(s: EhState, choice: str, space: str, i: int = 0) -> None:
    """Investigator ``i`` on ``space`` chooses the encounter ``choice`` (which must be offered)."""
    s.investigators[i]["space"] = space
    assert choice in encounter_options(s, i, False)
    s.stack.clear()
    events: list = []
    encounter(s, i, choice, {"inv": i, "bound": i}, events)
    run(s, events)


def research_clue(s: EhState) -> EhState:
    """A Research encounter in a city whose card gains a clue, then the mystery's offer accepted."""
    deck = next(d for d in C.decks if d == "research_" + s.ancient_one.lower().replace("-", "_"))
    gains = [c for c in C.decks[deck] if "gain_clue" in str(C.encounters[c]["sections"][0]["effects"])
             and C.encounters[c]["sections"][0]["section"] == "city"]
    s.decks["research"] = [gains[0]]
    s.clue_pool.remove("Arkham")
    s.clues.append("Arkham")
    rig(s, SIXES)
    meet(s, "research", "Arkham")
    while kind(s) != "optional" or s.stack[-1].params.get("effect") != "mystery_clue":
        s, _ = choose(s, options(s)[0]) if kind(s) != "reroll" else choose(s, "accept")
    held = len(s.investigators[0]["clues"])
    s, _ = choose(s, "yes")
    assert len(s.investigators[0]["clues"]) == held - 1
    return s


def accept(s: EhState) -> EhState:
    """Say yes to the optional offer on top of the stack."""
    assert kind(s) == "optional", (kind(s), options(s))
    s2, _ = choose(s, "yes")
    return s2


# ---------------------------------------------------------------- Azathoth


def test_occult_research_takes_a_clue_from_a_research_encounter() -> None:
    """Occult Research: a clue gained in a Research encounter goes on the card; investigators' count solves it."""
    s = start("Occult Research")
    s = research_clue(s)
    assert s.mystery["tokens"] == 1 and len(s.mystery["clues"]) == 1
    pool = len(s.clue_pool)
    check(s)
    assert s.solved == ["Occult Research"] and len(s.clue_pool) == pool + 1  # the clue left the card


def test_omen_of_devastation_needs_a_gate_of_the_current_omen() -> None:
    """Omen of Devastation: only a gate of the omen's colour, and only for 1 clue."""
    s = start("Omen of Devastation")
    colour = W.omen_colour(s)
    same = next(g for g in sorted(C.gate_tokens) if C.gate_tokens[g] == colour)
    other = next(g for g in sorted(C.gate_tokens) if C.gate_tokens[g] != colour)
    give_clues(s, 1)
    for g in (same, other):
        s.gate_stack.remove(g)
        s.gates.append(g)
    s.investigators[0]["space"] = other
    resolve(s, [{"op": "close_gate"}])
    assert kind(s) != "optional" and s.mystery["tokens"] == 0
    s.investigators[0]["space"] = same
    resolve(s, [{"op": "close_gate"}])
    s = accept(s)
    assert s.mystery["tokens"] == 1 and not s.investigators[0]["clues"]
    check(s)
    assert s.solved == ["Omen of Devastation"]


def test_seed_of_the_daemon_sultan_is_worked_at_tunguska() -> None:
    """Seed of the Daemon Sultan: the mystery token on Tunguska; Observation test there, then 2 clues."""
    s = start("Seed of the Daemon Sultan", names=("Silas Marsh", "Lily Chen", "Jim Culver"))
    assert s.mystery["space"] == "Tunguska"
    s.investigators[0]["space"] = "Arkham"
    assert "mystery" not in encounter_options(s, 0, False)
    give_clues(s, 2)
    rig(s, SIXES)
    meet(s, "mystery", "Tunguska")
    s = accept(s)
    assert s.mystery["tokens"] == 1 and not s.investigators[0]["clues"]
    check(s)
    assert not s.solved  # three investigators: two tokens needed
    s.mystery["tokens"] = 2
    check(s)
    assert s.solved == ["Seed of the Daemon Sultan"]


def test_the_true_name_moves_board_tokens_onto_the_card() -> None:
    """The True Name: half the investigators' Eldritch tokens on random spaces; 2 clues move one."""
    s = start("The True Name", names=("Silas Marsh", "Lily Chen", "Jim Culver"))
    assert sum(s.space_eldritch.values()) == 2
    space = sorted(s.space_eldritch)[0]
    give_clues(s, 2)
    meet(s, "mystery", space)
    s = accept(s)
    assert s.mystery["tokens"] == 1 and sum(s.space_eldritch.values()) == 1
    s.mystery["tokens"] = 2
    check(s)
    assert s.solved == ["The True Name"]


# ---------------------------------------------------------------- Cthulhu


def test_rlyeh_risen_special_encounters_on_space_3() -> None:
    """R'lyeh Risen: special encounters on Space 3 put Eldritch tokens on the card."""
    s = start("R'lyeh Risen")
    assert s.mystery["space"] == "Space 3"
    s.decks["special"] = ["special-r-lyeh-risen-1"]
    rig(s, SIXES)
    meet(s, "special", "Space 3")
    while kind(s) == "reroll":
        s, _ = choose(s, "accept")
    assert s.mystery["tokens"] == 1
    check(s)
    assert s.solved == ["R'lyeh Risen"]


def test_the_deep_ones_attack_ambush_then_a_clue_moves_the_token() -> None:
    """The Deep Ones Attack!: a token per investigator on the nearest free sea; beat the Deep One, pay 1 clue."""
    s = start("The Deep Ones Attack!", names=("Silas Marsh", "Lily Chen"))
    seas = sorted(s.space_eldritch)
    assert len(seas) == 2 and all(C.spaces[x].type == "sea" for x in seas)
    give_clues(s, 1)
    rig(s, SIXES)
    meet(s, "mystery", seas[0])
    while kind(s) != "optional":
        s, _ = choose(s, "accept" if kind(s) == "reroll" else options(s)[0])
    s = accept(s)
    assert s.mystery["tokens"] == 1 and seas[0] not in s.space_eldritch
    s.mystery["tokens"] = 2
    check(s)
    assert s.solved == ["The Deep Ones Attack!"] and s.space_eldritch == {seas[1]: 1}  # the rest stays


def test_the_stars_are_right_moves_clues_to_sea_and_takes_research_clues() -> None:
    """The Stars Are Right!: every board clue moves to the nearest sea space; research clues solve it."""
    s = start("The Stars Are Right!", clues=["Arkham", "Tokyo"])
    assert len(s.clues) == 2 and all(C.spaces[x].type == "sea" for x in s.clues)
    s = research_clue(s)
    check(s)
    assert s.solved == ["The Stars Are Right!"]


def test_watching_the_stars_waits_for_the_end_of_the_mythos_phase() -> None:
    """Watching the Stars: Cthylla on Space 12; her defeat is checked at the end of the Mythos phase."""
    s = start("Watching the Stars")
    cthylla = next(m for m in s.monsters if TOKENS[m["id"]] == "Cthylla")
    assert cthylla["space"] == "Space 12"
    resolve(s, [{"op": "monster_loses_health", "n": 99, "target": "Cthylla"}])
    assert not s.solved and s.mystery["defeated"]
    check(s)
    assert s.solved == ["Watching the Stars"]


# ---------------------------------------------------------------- Shub-Niggurath


def test_hunting_the_thousand_banks_defeated_monsters_by_toughness() -> None:
    """Hunting the Thousand: 2 clues put a defeated monster on the card; toughness totals 2 x investigators."""
    s = start("Hunting the Thousand")
    mid = place(s, "Ghoul", s.investigators[0]["space"])
    give_clues(s, 2)
    resolve(s, [{"op": "monster_loses_health", "n": 99, "target": "Ghoul"}])
    s = accept(s)
    tough = W.toughness(s, mid)
    assert s.mystery["monsters"] == [mid] and s.mystery["tokens"] == tough and mid not in s.cup
    s.mystery["tokens"] = 2
    check(s)
    assert s.solved == ["Hunting the Thousand"] and mid in s.cup


def test_nature_of_the_all_mother_moves_clues_and_takes_research_clues() -> None:
    """Nature of the All-Mother: board clues move to wilderness or sea; research clues solve it."""
    s = start("Nature of the All-Mother", clues=["Arkham", "Space 4"])
    assert "Space 4" in s.clues and all(C.spaces[x].type in ("wilderness", "sea") for x in s.clues)
    s = research_clue(s)
    check(s)
    assert s.solved == ["Nature of the All-Mother"]


def test_rituals_in_the_wild_tokens_on_four_spaces_cleared_when_solved() -> None:
    """Rituals in the Wild: tokens on Spaces 4, 10, 21 and Tunguska; Observation, 2 clues; the rest removed."""
    s = start("Rituals in the Wild")
    assert s.space_eldritch == {"Space 4": 1, "Space 10": 1, "Space 21": 1, "Tunguska": 1}
    give_clues(s, 2)
    rig(s, SIXES)
    meet(s, "mystery", "Space 10")
    s = accept(s)
    assert s.mystery["tokens"] == 1
    check(s)
    assert s.solved == ["Rituals in the Wild"] and not s.space_eldritch


def test_spawn_of_the_black_goat_nug_on_the_amazon() -> None:
    """Spawn of the Black Goat: Nug appears on The Amazon (not The Heart of Africa)."""
    s = start("Spawn of the Black Goat")
    nug = next(m for m in s.monsters if TOKENS[m["id"]] == "Nug")
    assert nug["space"] == "The Amazon"
    resolve(s, [{"op": "monster_loses_health", "n": 99, "target": "Nug"}])
    check(s)
    assert s.solved == ["Spawn of the Black Goat"] and nug["id"] in s.box


# ---------------------------------------------------------------- Yog-Sothoth


def test_arcane_understanding_after_a_lore_test_while_casting() -> None:
    """Arcane Understanding: a passed Lore test of a Spell; 1 clue and that Spell put a token on the card."""
    s = start("Arcane Understanding", names=("Jim Culver",))
    spell = s.investigators[0]["spells"][0]
    give_clues(s, 1)
    clues = len(s.investigators[0]["clues"])
    rig(s, SIXES)
    resolve(s, [{"op": "test", "skill": "influence", "pass": [], "fail": []}], card=spell, card_kind="spell", spell=True)
    assert kind(s) != "optional"  # not a Lore test
    rig(s, SIXES)
    resolve(s, [{"op": "test", "skill": "lore", "pass": [], "fail": []}], card=spell, card_kind="spell", spell=True)
    s = accept(s)
    assert s.mystery["tokens"] == 1 and spell not in s.investigators[0]["spells"]
    assert len(s.investigators[0]["clues"]) == clues - 1
    check(s)
    assert s.solved == ["Arcane Understanding"]


def test_spawn_of_yog_sothoth_dunwich_horror_in_arkham() -> None:
    """Spawn of Yog-Sothoth: the Dunwich Horror appears in Arkham."""
    s = start("Spawn of Yog-Sothoth")
    dh = next(m for m in s.monsters if TOKENS[m["id"]] == "Dunwich Horror")
    assert dh["space"] == "Arkham"
    resolve(s, [{"op": "monster_loses_health", "n": 99, "target": "Dunwich Horror"}])
    check(s)
    assert s.solved == ["Spawn of Yog-Sothoth"]


def test_the_beyond_one_takes_research_clues() -> None:
    """The Beyond One: research clues, as many as investigators (no epic monster: that is Spawn of Yog-Sothoth)."""
    s = start("The Beyond One")
    assert not s.monsters
    s = research_clue(s)
    check(s)
    assert s.solved == ["The Beyond One"]


def test_where_the_old_ones_broke_through_banks_closed_gates_for_two_spells() -> None:
    """Where the Old Ones Broke Through: discard 2 spells to put the closed gate on the card."""
    s = start("Where the Old Ones Broke Through")
    here = "Rome" if "Rome" in C.gate_tokens else sorted(C.gate_tokens)[0]
    s.gate_stack.remove(here)
    s.gates.append(here)
    s.investigators[0]["space"] = here
    s.investigators[0]["spells"] = [s.decks["spells"].pop(), s.decks["spells"].pop()]
    resolve(s, [{"op": "close_gate"}])
    s = accept(s)
    while kind(s) == "target":
        s, _ = choose(s, options(s)[0])
    assert s.mystery["gates"] == [here] and here not in s.gate_discard and not s.investigators[0]["spells"]
    check(s)
    assert s.solved == ["Where the Old Ones Broke Through"] and here not in s.gate_stack + s.gate_discard


def test_a_token_alone_does_not_solve_before_the_mythos_phase_ends() -> None:
    """The cards are checked at the end of the Mythos phase: the draw ends with that check."""
    s = start("Occult Research")
    s.mystery["tokens"] = 1
    s.mythos_deck.append(s.mythos_deck[-1])
    assert not s.solved
    resolve(s, [{"op": "mythos_draw"}], inv=None)
    while s.stack and s.phase != "over":
        s, _ = choose(s, options(s)[0])
    assert "Occult Research" in s.solved


# ---------------------------------------------------------------- awakened sides (EH-R75)


def awake(ao: str, names: tuple[str, ...] = ("Silas Marsh",)) -> EhState:
    s = quiet(game(ao, names=names, seats=tuple(f"s{k}" for k in range(1, len(names) + 1))))
    resolve(s, [{"op": "advance_doom", "n": s.doom}], inv=None)
    assert s.awakened and s.phase != "over"
    return s


def test_cthulhu_rises_and_sanity_lost_to_him_goes_on_the_sheet() -> None:
    """Cthulhu's back: epic on Space 3, Final Mystery Risen from the Sea; his Will test feeds the sheet's
    Sanity tokens and the awakened reckoning costs everyone that much Sanity."""
    s = awake("Cthulhu", names=("Silas Marsh", "Lily Chen"))
    assert s.final["name"] == "Risen from the Sea"
    cthulhu = next(m for m in s.monsters if TOKENS[m["id"]] == "Cthulhu")
    assert cthulhu["space"] == "Space 3"
    rig(s, [1] * 40)  # every test fails
    sanity = s.investigators[0]["sanity"]
    s.stack.clear()
    fight(s, 0, cthulhu["id"])
    events: list = []
    run(s, events)
    while s.stack and kind(s) == "reroll":
        s, _ = choose(s, "accept")
    assert s.final["sanity"] == min(5, sanity)  # horror 5 and no success: all he loses goes on the sheet
    before = s.investigators[1]["sanity"]
    resolve(s, C.ancient_ones["Cthulhu"]["awakened"]["reckoning"], inv=None)
    assert s.investigators[1]["sanity"] == max(0, before - s.final["sanity"])


def test_cthulhu_final_mystery_won_by_defeating_him() -> None:
    s = awake("Cthulhu")
    s.solved = ["A", "B", "C"]
    resolve(s, [{"op": "monster_loses_health", "n": 99, "target": "Cthulhu"}])
    assert s.phase == "over" and ENGINE.result(s).winners == ["s1"]


def test_shub_niggurath_awakens_in_africa_and_gathers_her_brood() -> None:
    """Shub-Niggurath's back: epic on The Heart of Africa, Ghouls/Goat Spawn/Dark Young move there; the
    reckoning makes each investigator on her space fight her; Battle in the Woods needs her defeat."""
    s = quiet(game("Shub-Niggurath"))
    ghoul = place(s, "Ghoul", "Tokyo")
    other = place(s, "Cultist", "Tokyo")
    resolve(s, [{"op": "advance_doom", "n": s.doom}], inv=None)
    assert s.final["name"] == "Battle in the Woods"
    shub = next(m for m in s.monsters if TOKENS[m["id"]] == "Shub-Niggurath")
    assert shub["space"] == "The Heart of Africa"
    assert W.monster_at(s, ghoul)["space"] == "The Heart of Africa" and W.monster_at(s, other)["space"] == "Tokyo"
    s.investigators[0]["space"] = "The Heart of Africa"
    resolve(s, C.ancient_ones["Shub-Niggurath"]["awakened"]["reckoning"], inv=None)
    assert s.combat is not None and s.combat["monster"] == shub["id"] and s.combat["inv"] == 0


def test_yog_sothoth_final_mystery_the_key_and_the_gate() -> None:
    """Yog-Sothoth's back: no gates at once; special encounters at a gate put tokens on the sheet, checked
    at the end of the Mythos phase (half the investigators)."""
    s = quiet(game("Yog-Sothoth"))
    resolve(s, [{"op": "advance_doom", "n": s.doom}], inv=None)
    assert s.final["name"] == "The Key and the Gate" and not s.gates
    gate = sorted(C.gate_tokens)[0]
    s.gate_stack.remove(gate)
    s.gates.append(gate)
    s.decks["special"] = ["special-the-key-and-the-gate-4"]
    rig(s, SIXES)
    meet(s, "special", gate)
    while kind(s) == "reroll":
        s, _ = choose(s, "accept")
    if kind(s) == "optional":  # this card trades an Amnesia for the progress
        s = accept(s)
    assert s.final["tokens"] == 1 and (s.mystery is None or s.mystery["tokens"] == 0)
    s.solved = ["A", "B", "C"]
    check(s)
    assert s.phase == "over" and ENGINE.result(s).winners == ["s1"]


@pytest.mark.parametrize("ao", ["Cthulhu", "Shub-Niggurath", "Yog-Sothoth"])
def test_awakened_sides_come_from_the_sources(ao: str) -> None:
    """Only the doom restart (and Yog-Sothoth's reckoning) is still the project's own; the Final Mystery is not."""
    back = C.ancient_ones[ao]["awakened"]
    assert back["final_mystery"]["house"] is False and back["sources"]
    assert set(back["house_parts"]) <= {"doom", "reckoning"} and back["house"]


def test_where_the_old_ones_broke_through_needs_two_spells_in_hand() -> None:
    """One Spell is not enough to bank the gate: nothing is offered."""
    s = start("Where the Old Ones Broke Through")
    here = sorted(C.gate_tokens)[0]
    (s.gate_stack if here in s.gate_stack else s.gate_discard).remove(here)
    s.gates.append(here)
    s.investigators[0]["space"] = here
    s.investigators[0]["spells"] = [s.decks["spells"].pop()]
    resolve(s, [{"op": "close_gate"}])
    assert kind(s) != "optional" and here in s.gate_discard and s.mystery["tokens"] == 0


def test_arcane_understanding_offers_once_the_spell_is_over() -> None:
    """The offer comes after the rest of the spell's effect (here a sanity cost after its test)."""
    s = start("Arcane Understanding", names=("Jim Culver",))
    spell = s.investigators[0]["spells"][0]
    give_clues(s, 1)
    sanity = s.investigators[0]["sanity"]
    rig(s, SIXES)
    resolve(s, [{"op": "test", "skill": "lore", "pass": [], "fail": []}, {"op": "lose_sanity", "n": 1}],
            card=spell, card_kind="spell", spell=True)
    assert kind(s) == "optional" and s.investigators[0]["sanity"] == sanity - 1

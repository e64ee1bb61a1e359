"""The round as a whole and the general rules (EH-R1..R7, R30, R34, R43, R46, R61)."""

from __future__ import annotations

from rules.eldritch_horror import world as W
from rules.eldritch_horror.machine import run
from rules.eldritch_horror.world import TOKENS
from tests.rules.eldritch_horror.helpers import C, ENGINE, choose, game, kind, options, quiet, resolve


def test_round_runs_action_encounter_mythos_then_next_round() -> None:
    """EH-R2/R3: both investigators act, both encounter, the lead resolves one Mythos card."""
    s = quiet(game(names=("Silas Marsh", "Lily Chen"), seats=("a", "b")))
    run(s, [])
    deck = len(s.mythos_deck)
    s, _ = choose(s, "end")
    s, _ = choose(s, "end")
    assert s.phase == "encounter"
    while s.round == 1 and s.phase != "over":
        opts = options(s)
        pick = next((o for o in ("location:general", "accept", "keep", "no", "fight", "take") if o in opts), opts[0])
        s, _ = choose(s, pick)
    assert s.round == 2 and s.phase == "action" and len(s.mythos_deck) == deck - 1


def test_halves_round_up() -> None:
    """EH-R5."""
    s = quiet(game(names=("Silas Marsh", "Lily Chen", "Jim Culver")))
    assert W.amount(s, "half_investigators") == 2


def test_win_is_immediate() -> None:
    """EH-R7: solving the third mystery ends the game on the spot, mid-phase."""
    s = quiet(game())
    s.solved = ["A", "B"]
    s.mystery = {"name": "Occult Research", "tokens": 0, "space": None}
    resolve(s, [{"op": "place_eldritch", "n": 9, "where": "active_mystery"}, {"op": "mystery_check"},
                {"op": "advance_doom", "n": 30}])
    assert ENGINE.result(s).winners == ["s1"] and s.doom == 15


def test_exhausted_encounter_deck_reshuffles_its_discards() -> None:
    """EH-R30 / §11.6."""
    from rules.eldritch_horror.phases import draw

    s = quiet(game())
    s.discards["general"] = s.decks["general"]
    s.decks["general"] = []
    assert draw(s, "general") is not None and len(s.decks["general"]) == 11 and not s.discards["general"]


def test_doom_zero_awakens_at_once() -> None:
    """EH-R34."""
    s = quiet(game("Cthulhu"))
    ev = resolve(s, [{"op": "advance_doom", "n": 12}], inv=None)
    assert s.awakened and [e.type for e in ev].count("awakened") == 1


def test_spawn_effect_moves_the_monster() -> None:
    """EH-R43: a token with a spawn effect goes where its back says (Cthonian: The Heart of Africa)."""
    s = quiet(game())
    cthonian = next(m for m in s.cup if TOKENS[m] == "Cthonian")
    s.cup = [cthonian]
    W.spawn_monster(s, "Rome", [])
    assert s.monsters[0]["space"] == "The Heart of Africa"


def test_random_space_comes_from_the_clue_pool() -> None:
    """EH-R46: drawn like a clue, the token goes back to the pool."""
    s = quiet(game())
    s.clue_pool = ["Space 7"]
    assert W.random_space(s) == "Space 7" and s.clue_pool == ["Space 7"]


def test_defeated_investigator_stays_until_encountered() -> None:
    """EH-R61: the token and its possessions wait on the board; the player sits out until replaced."""
    s = quiet(game(names=("Silas Marsh", "Lily Chen"), seats=("a", "b")))
    resolve(s, [{"op": "lose_sanity", "n": 9}])
    assert s.corpses and s.investigators[0]["status"] == "defeated"
    run(s, [])
    assert kind(s) == "action" and s.stack[-1].params["inv"] == 1
    assert ENGINE.legal_actions(s, "a") == []


def test_every_space_has_an_encounter_section() -> None:
    """EH-R24: every General and research card has a section for each space type; regional cards one per city."""
    for deck in ("general", "research_azathoth", "research_cthulhu", "research_shub_niggurath", "research_yog_sothoth"):
        for cid in C.decks[deck]:
            assert {s["section"] for s in C.encounters[cid]["sections"]} == {"city", "wilderness", "sea"}
    for deck in ("america", "europe", "asia_australia"):
        for cid in C.decks[deck]:
            cities = {s["section"] for s in C.encounters[cid]["sections"]}
            assert cities == {n for n, sp in C.spaces.items() if sp.region == deck}

"""Data validation and setup (digest §2, §3, §7; EH-R41, EH-R45)."""

from __future__ import annotations

from collections import Counter

import pytest
from pydantic import ValidationError

from bot.i18n import catalog
from bot.sessions import parse_option_text
from rules import registry

from rules.core import RuleError
from rules.eldritch_horror import data as D
from rules.eldritch_horror.options import EhOptions
from rules.eldritch_horror.setup import mythos_pool
from rules.eldritch_horror.world import TOKENS
from tests.rules.eldritch_horror.helpers import C, ENGINE, game


def test_board_is_36_spaces_and_58_typed_routes() -> None:
    assert len(C.spaces) == 36
    kinds = Counter(k for s in C.spaces.values() for k in s.routes.values())
    assert {k: v // 2 for k, v in kinds.items()} == {"ship": 33, "train": 15, "uncharted": 10}
    assert Counter(s.type for s in C.spaces.values()) == {"city": 18, "wilderness": 10, "sea": 8}
    # the rulebook's travel example: San Francisco -> 5 -> Arkham by train
    assert C.spaces["San Francisco"].routes["Space 5"] == "train" and C.spaces["Space 5"].routes["Arkham"] == "train"


def test_routes_are_symmetric_and_board_connected() -> None:
    for name, s in C.spaces.items():
        for other, kind in s.routes.items():
            assert C.spaces[other].routes[name] == kind
    assert all(len(d) == 36 for d in C.distances.values())


def test_bad_route_fails_validation() -> None:
    raw = D._read("board.json")
    raw["routes"].append(["Arkham", "Atlantis", "ship"])
    with pytest.raises(D.DataError):
        D._board(raw)


def test_gate_tokens_are_the_nine_named_cities() -> None:
    """EH-R42: nine gate tokens, each with a space and an omen colour."""
    assert sorted(C.gate_tokens) == sorted(s.name for s in C.spaces.values() if s.region)
    assert Counter(C.gate_tokens.values()) == {"red": 4, "blue": 3, "green": 2}


def test_content_counts() -> None:
    assert len(C.investigators) == 12 and len(C.ancient_ones) == 4
    assert sum(m["count"] for m in C.monsters.values()) == 34 and len(C.epics) == 9
    assert len(C.mythos) == 51 and len(C.encounters) == 122
    assert Counter(m["color"] for m in C.mythos.values()) == {"yellow": 21, "green": 18, "blue": 12}


@pytest.mark.parametrize("ao,doom,size", [("Azathoth", 15, 16), ("Cthulhu", 12, 15), ("Shub-Niggurath", 13, 16),
                                          ("Yog-Sothoth", 14, 16)])
def test_setup_per_ancient_one(ao: str, doom: int, size: int) -> None:
    """Setup steps 8-9: doom start, mythos deck size, omen on green, reserve of 4."""
    s = game(ao, names=("Lily Chen", "Silas Marsh"), seats=("a", "b"))
    assert s.doom == doom and len(s.mythos_deck) == size
    assert s.omen == 0 and len(s.reserve) == 4
    assert s.mystery is not None and s.mystery["name"] in C.ancient_ones[ao]["mysteries"]
    assert s.expedition in {C.encounters[c]["location"] for c in C.decks["expedition"]}
    assert len(s.decks["research"]) == 8


def test_azathoth_setup_puts_eldritch_on_green_omen() -> None:
    assert game("Azathoth").omen_eldritch == 1


@pytest.mark.parametrize("ao,aside", [("Cthulhu", ["Deep One", "Star Spawn"]),
                                      ("Shub-Niggurath", ["Dark Young", "Ghoul", "Ghoul", "Goat Spawn", "Goat Spawn"])])
def test_set_aside_monsters_leave_the_cup(ao: str, aside: list[str]) -> None:
    s = game(ao)
    assert sorted(TOKENS[m] for m in s.set_aside) == aside
    assert len(s.cup) + len(s.set_aside) + len([m for m in s.monsters if m["id"] < 100]) == 34


def test_special_decks_only_for_their_ancient_one() -> None:
    assert game("Azathoth").decks["special"] == []
    assert len(game("Cthulhu").decks["special"]) == 6 and len(game("Yog-Sothoth").decks["special"]) == 6


def test_mythos_stages_stack_in_order() -> None:
    """Setup step 8: stage I is drawn first; its colours match the sheet (Azathoth 1 green, 2 yellow, 1 blue)."""
    s = game("Azathoth")
    first = [C.mythos[c]["color"] for c in s.mythos_deck[-4:]]
    assert Counter(first) == {"green": 1, "yellow": 2, "blue": 1}
    last = [C.mythos[c]["color"] for c in s.mythos_deck[:6]]
    assert Counter(last) == {"green": 2, "yellow": 4}


def test_the_view_counts_what_is_left_of_each_mythos_stage() -> None:
    """Setup step 8: stages I/II/III hold 4/6/6 cards for Azathoth; drawing from the top empties stage I
    first, so the public view can tell which stage the next card comes from without showing any card."""
    s = game("Azathoth")
    assert ENGINE.view(s, None).mythos_stages == [4, 6, 6]
    s = s.clone()  # a new state for each position: the engine keeps the last state's view
    for _ in range(5):
        s.mythos_deck.pop()
    assert ENGINE.view(s, None).mythos_stages == [0, 5, 6]
    s = s.clone()
    s.mythos_deck[:] = s.mythos_deck[:2]
    assert ENGINE.view(s, "s1").mythos_stages == [0, 0, 2]


def test_difficulty_filters_the_mythos_pool() -> None:
    easy, hard = mythos_pool("easy"), mythos_pool("hard")
    assert all(C.mythos[c]["difficulty"] != "hard" for p in easy.values() for c in p)
    assert all(C.mythos[c]["difficulty"] != "easy" for p in hard.values() for c in p)
    s = game("Cthulhu", difficulty="hard")
    assert all(C.mythos[c]["difficulty"] != "easy" for c in s.mythos_deck)


def test_reference_card_spawns_gates_and_clues() -> None:
    """Setup 9E/9G with the reference card: 5 investigators -> 2 gates (each with a monster), 3 clues."""
    names = ("Lily Chen", "Silas Marsh", "Jim Culver", "Leo Anderson", "Trish Scarborough")
    s = game("Azathoth", seats=("a", "b"), names=names)
    assert len(s.gates) == 2 and len(s.clues) == 3 and len(s.monsters) == 2
    assert C.reference_for(5) == {"spawn_gates": 2, "monster_surge": 2, "spawn_clues": 3}


def test_investigators_start_equipped() -> None:
    """Setup steps 3-4: starting space, starting possessions, full health and sanity."""
    s = game(names=("Lily Chen", "Jim Culver"), seats=("a", "b"))
    lily, jim = s.investigators
    assert lily["space"] == "Shanghai" and sorted(lily["assets"]) == ["Lucky Rabbit's Foot", "Protective Amulet"]
    assert jim["space"] == "Space 6" and [c.split("#")[0] for c in jim["spells"]] == ["Shriveling"]
    assert len(jim["clues"]) == 1 and lily["health"] == 6 and lily["sanity"] == 6


def test_seats_share_out_investigators() -> None:
    s = game(names=("Lily Chen", "Jim Culver", "Silas Marsh"), seats=("a", "b"))
    assert [i["seat"] for i in s.investigators] == ["a", "b", "a"]


def test_players_pick_investigators_in_turn_from_the_lead() -> None:
    """Setup step 3: starting with the lead and going round, each player picks an investigator (or leaves it to
    chance); the board is set up (steps 4 and 9) only once all are known. Nothing is shown for a slot not yet
    picked."""
    s = ENGINE.new_game(["a", "b", "c"], {"lead": "random"}, 3)
    assert s.phase == "setup" and not s.gates and not s.reserve
    first = ENGINE.pending(s)[0]
    lead_seat = s.investigators[s.lead]["seat"]
    assert first.kind == "pick_investigator" and first.seat == lead_seat and "random" in first.params["options"]
    assert len(first.params["options"]) == len(C.investigators) + 1 and not ENGINE.view(s, "a").investigators
    s, ev = ENGINE.apply(s, lead_seat, {"type": "choose", "option": "Lily Chen"})
    second = ENGINE.pending(s)[0]
    assert second.seat == s.investigators[(s.lead + 1) % 3]["seat"] and "Lily Chen" not in second.params["options"]
    s, _ = ENGINE.apply(s, second.seat, {"type": "choose", "option": "random"})
    third = ENGINE.pending(s)[0]
    s, ev = ENGINE.apply(s, third.seat, {"type": "choose", "option": "Jim Culver"})
    names = [i["name"] for i in s.investigators]
    assert names[s.lead] == "Lily Chen" and names[(s.lead + 2) % 3] == "Jim Culver" and len(set(names)) == 3
    assert s.phase == "action" and s.gates and len(s.reserve) == 4 and s.mystery is not None
    assert all(i["status"] == "active" for i in s.investigators)
    assert set(s.unused) == set(C.investigators) - set(names)
    assert [i.name for i in ENGINE.view(s, "a").investigators] == names
    lily = s.investigators[s.lead]
    assert lily["space"] == "Shanghai" and sorted(lily["assets"]) == ["Lucky Rabbit's Foot", "Protective Amulet"]


def test_named_investigators_and_random_pick_skip_the_choice() -> None:
    """Setup step 3: names given at ``/game new`` are taken as picked; ``pick=random`` draws the rest."""
    s = ENGINE.new_game(["a", "b"], {"chosen": ["Lily Chen"]}, 1)
    assert ENGINE.pending(s)[0].kind == "pick_investigator" and ENGINE.pending(s)[0].seat == "b"
    s = ENGINE.new_game(["a", "b"], {"pick": "random"}, 1)
    assert s.phase == "action" and all(i["status"] == "active" for i in s.investigators)


def test_lola_improves_a_skill_at_setup() -> None:
    s = game(names=("Lola Hayes",))
    assert s.stack[-1].kind == "target" and "will" in s.stack[-1].params["options"]


def test_bad_options_are_refused() -> None:
    with pytest.raises(RuleError) as e:
        ENGINE.new_game(["a", "b"], {"investigators": 1}, 1)
    assert e.value.code == "eh.too_few_investigators"
    with pytest.raises(RuleError) as e:
        ENGINE.new_game(["a"], {"chosen": ["Lily Chen", "Jim Culver"], "investigators": 1}, 1)
    assert e.value.code == "eh.bad_investigators"
    with pytest.raises(RuleError) as e:  # options built without validation still meet the engine's own check
        ENGINE.new_game(["a"], EhOptions.model_construct(chosen=("Nobody",)), 1)
    assert e.value.code == "eh.bad_investigators"
    with pytest.raises(RuleError) as e:
        ENGINE.new_game([], {}, 1)
    assert e.value.code == "seat_count"
    with pytest.raises(RuleError):
        ENGINE.new_game(["a", "a"], {}, 1)


def test_chosen_investigators_typed_as_text() -> None:
    """Setup step 3 (EH-R63 picks from the same names): ``/game new … options: chosen=…`` arrives as one string;
    ids and names in either language, any case, joined by ``+`` (or commas) name the investigators in order."""
    spec = registry.get("eldritch_horror")
    opts = spec.parse_options(parse_option_text(spec, "chosen=lily-chen+NORMAN_WITHERS"))
    assert opts.chosen == ("Lily Chen", "Norman Withers")
    assert EhOptions(chosen="Чарли_Кейн+jacquelinefine").chosen == ("Charlie Kane", "Jacqueline Fine")
    assert EhOptions(chosen="Diana Stanley, jim-culver").chosen == ("Diana Stanley", "Jim Culver")
    assert EhOptions(chosen=("Lily Chen",)).chosen == ("Lily Chen",)  # the stored form reads back unchanged
    s = ENGINE.new_game(["a", "b"], EhOptions(chosen="norman-withers+Лили_Чен"), 1)
    assert [i["name"] for i in s.investigators] == ["Norman Withers", "Lily Chen"]
    for text, code in (("chosen=bob+lily-chen", "eh_unknown_investigator"), ("chosen=lily-chen+Лили_Чен", "eh_repeated_investigator")):
        with pytest.raises(ValidationError) as e:
            spec.parse_options(parse_option_text(spec, text))
        assert e.value.errors()[0]["type"] == code
        for locale in ("en", "ru"):
            assert catalog().has(locale, f"err.bad_options.{code}")


def test_random_ancient_one_is_seeded() -> None:
    picks = {ENGINE.new_game(["a"], {"ancient_one": "random"}, seed).ancient_one for seed in range(20)}
    assert len(picks) > 1
    assert ENGINE.new_game(["a"], {"ancient_one": "random"}, 5) == ENGINE.new_game(["a"], {"ancient_one": "random"}, 5)


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
@pytest.mark.parametrize("ao", sorted(C.ancient_ones))
def test_every_ancient_one_and_difficulty_deals_a_full_mythos_deck(ao: str, difficulty: str) -> None:
    s = game(ao, difficulty=difficulty)
    want = sum(sum(C.ancient_ones[ao]["mythos"][st]) for st in ("stage1", "stage2", "stage3"))
    assert len(s.mythos_deck) == want and len(set(s.mythos_deck)) == want
    assert not set(s.mythos_deck) & set(s.decks["mythos_box"])

"""The Encounter phase (EH-R20..R30) and the effect vocabulary, one kind of op at a time."""

from __future__ import annotations

from rules.eldritch_horror.machine import run
from tests.rules.eldritch_horror.helpers import C, choose, game, kind, options, quiet, resolve, rig


def solo(name: str = "Silas Marsh", ao: str = "Azathoth"):
    s = quiet(game(ao, names=(name,)))
    s.discards["assets"] += s.investigators[0]["assets"]
    s.investigators[0]["assets"] = []
    return s


def encounter_phase(s):
    from rules.eldritch_horror.phases import begin_encounters

    s.stack.clear()
    events: list = []
    begin_encounters(s, events)
    run(s, events)
    return events


def test_location_options_in_a_named_city() -> None:
    """EH-R24: a named city offers its region's deck besides the General deck."""
    s = solo()
    encounter_phase(s)
    assert kind(s) == "encounter" and options(s) == ["location:general", "location:asia_australia"]


def test_token_encounters_are_offered() -> None:
    """EH-R25/R26: clue, gate, expedition and rumor tokens each add an option."""
    s = solo()
    here = s.investigators[0]["space"]
    s.clue_pool.remove(here)
    s.clues.append(here)
    s.gates.append(here)
    s.gate_stack.remove(here) if here in s.gate_stack else s.gate_discard.remove(here)
    s.expedition = here
    encounter_phase(s)
    assert {"research", "other_world", "expedition"} <= set(options(s))


def test_general_encounter_reads_the_space_type_section() -> None:
    """EH-R24: General card, section by space type; the card is discarded afterwards (EH-R30)."""
    s = solo()
    s.investigators[0]["space"] = "Space 2"  # a sea space
    card = "general-02"  # sea: move 1 space, lose 1 sanity
    s.decks["general"].remove(card)
    s.decks["general"].append(card)
    events = encounter_phase(s)
    assert kind(s) == "target"  # choose where the fog takes you
    s, more = choose(s, options(s)[0])
    events += more
    assert s.investigators[0]["sanity"] == 3 and card in s.discards["general"]
    drawn = [e.data for e in events if e.type == "encounter_card"]
    assert drawn == [{"deck": "general", "card": card, "section": "sea"}], "the event names the part read"


def test_other_world_encounter_can_close_the_gate() -> None:
    """EH-R27/R28: pass the complex encounter and the gate goes to the gate discard."""
    s = solo()
    here = s.investigators[0]["space"]
    s.gates.append(here)
    s.gate_stack.remove(here) if here in s.gate_stack else s.gate_discard.remove(here)
    card = next(c for c in C.decks["other_world"] if "close_gate" in str(C.encounters[c]["sections"][0]["effects"][0].get("pass")))
    s.decks["other_world"].remove(card)
    s.decks["other_world"].append(card)
    encounter_phase(s)
    rig(s, [6] * 12)
    s, _ = choose(s, "other_world")
    while kind(s) not in ("action", None) and s.phase == "encounter":
        s, _ = choose(s, options(s)[0])
    assert here not in s.gates and here in s.gate_discard


def test_expedition_token_moves_to_the_next_card() -> None:
    """EH-R29."""
    s = solo()
    s.investigators[0]["space"] = s.expedition
    top = s.decks["expedition"][-1]
    encounter_phase(s)
    rig(s, [1] * 12)
    s, _ = choose(s, "expedition")
    while s.phase == "encounter":
        s, _ = choose(s, options(s)[0])
    assert top in s.discards["expedition"]
    assert s.expedition == C.encounters[s.decks["expedition"][-1]]["location"]


def test_research_takes_the_clue_on_the_space() -> None:
    s = solo()
    here = s.investigators[0]["space"]
    s.clue_pool.remove(here)
    s.clues.append(here)
    resolve(s, [{"op": "gain_clue", "n": 1, "source": "this_space_clue_first"}])
    assert s.investigators[0]["clues"] == [here] and here not in s.clues


# ---------------------------------------------------------------- the vocabulary, op by op


def test_lose_and_recover_cap_at_maximum() -> None:
    """EH-R59."""
    s = solo()
    resolve(s, [{"op": "lose_health", "n": 3}, {"op": "recover_health", "n": 5}, {"op": "lose_sanity", "n": 1}])
    assert s.investigators[0]["health"] == 8 and s.investigators[0]["sanity"] == 3


def test_gain_condition_no_duplicates_and_blessed_cancels_cursed() -> None:
    s = solo()
    resolve(s, [{"op": "gain_condition", "name": "Paranoia"}, {"op": "gain_condition", "name": "Paranoia"}])
    assert [c.split("#")[0] for c in s.investigators[0]["conditions"]] == ["Paranoia"]
    resolve(s, [{"op": "gain_condition", "name": "Cursed"}, {"op": "gain_condition", "name": "Blessed"}])
    assert [c.split("#")[0] for c in s.investigators[0]["conditions"]] == ["Paranoia"]
    ev = resolve(s, [{"op": "gain_condition", "name": "Blessed"}, {"op": "gain_condition", "name": "Blessed"}])
    assert [e.data["card"] for e in ev if e.type == "flipped"] == ["Blessed"]  # the second one flips the first


def test_gain_condition_by_trait_lets_the_player_pick() -> None:
    s = solo()
    resolve(s, [{"op": "gain_condition", "trait": "Injury"}])
    assert options(s) == ["Back Injury", "Internal Injury", "Leg Injury"]
    s, _ = choose(s, "Leg Injury")
    assert s.investigators[0]["conditions"][0].startswith("Leg Injury#")


def test_gain_asset_from_reserve_and_service_on_gain() -> None:
    s = solo()
    s.reserve = ["Silver Twilight Ritual", "Axe", ".38 Revolver", "Bandages"]
    doom = s.doom
    resolve(s, [{"op": "gain_asset", "from": "reserve", "n": 1, "trait": "service"}])
    assert s.doom == doom + 1 and "Silver Twilight Ritual" in s.discards["assets"] and len(s.reserve) == 4


def test_gain_spell_artifact_and_clue() -> None:
    s = solo()
    resolve(s, [{"op": "gain_spell", "n": 1, "trait": "Ritual"}, {"op": "gain_artifact", "n": 1}, {"op": "gain_clue", "n": 2}])
    inv = s.investigators[0]
    assert C.spells[inv["spells"][0].split("#")[0]]["type"] == "Ritual"
    assert len(inv["artifacts"]) == 1 and len(inv["clues"]) == 2


def test_test_branches() -> None:
    """EH-R27: the pass or the fail part follows the opening test."""
    s = solo()
    rig(s, [6, 6, 6])
    resolve(s, [{"op": "test", "skill": "strength", "mod": 0, "pass": [{"op": "improve_skill", "skill": "strength", "n": 1}],
                 "fail": [{"op": "lose_health", "n": 2}]}])
    assert s.investigators[0]["improve"]["strength"] == 1 and s.investigators[0]["health"] == 8


def test_choose_one_offers_only_feasible_options() -> None:
    s = solo()
    resolve(s, [{"op": "choose_one", "options": [[{"op": "spend", "what": "clue", "n": 1}], [{"op": "lose_sanity", "n": 3}]]}])
    assert s.investigators[0]["sanity"] == 1  # no clue: the only option was taken without asking


def test_choose_one_keys_name_where_an_asset_comes_from() -> None:
    """EH-R56/EH-R17: an item from the face-up reserve and one drawn from the deck are different choices, so
    their option keys differ by the source (not by a bare ``(2)``), and each key does what it says."""
    from rules.eldritch_horror.people import traits

    choice = {"op": "choose_one", "options": [[{"op": "gain_asset", "from": "reserve", "n": 1, "trait": "item"}],
                                              [{"op": "gain_asset", "from": "deck", "n": 1, "trait": "item"}]]}
    s = solo()
    item = next(a for a in s.reserve if "item" in traits(C.assets[a]))
    resolve(s, [choice])
    assert options(s) == ["gain_asset 1 item from=reserve", "gain_asset 1 item from=deck"]
    s, _ = choose(s, "gain_asset 1 item from=reserve")
    s, _ = choose(s, item)
    assert s.investigators[0]["assets"] == [item] and item not in s.reserve

    s = solo()
    reserve, deck = list(s.reserve), len(s.decks["assets"])
    resolve(s, [choice])
    s, _ = choose(s, "gain_asset 1 item from=deck")
    assert s.reserve == reserve and len(s.investigators[0]["assets"]) == 1
    assert "item" in traits(C.assets[s.investigators[0]["assets"][0]]) and len(s.decks["assets"]) < deck


def test_choose_one_keys_are_deterministic_and_distinct() -> None:
    """Every choose-one in the data gives each of its options its own key, the same every time."""
    from rules.eldritch_horror.effects import _label

    def walk(x, out):
        if isinstance(x, dict):
            if x.get("op") == "choose_one":
                out.append(x)
            for v in x.values():
                walk(v, out)
        elif isinstance(x, list):
            for v in x:
                walk(v, out)

    found: list = []
    for table in (C.encounters, C.mythos, C.monsters, C.ancient_ones, C.mysteries, C.assets, C.artifacts, C.spells,
                  C.conditions, C.investigators):
        walk(list(table.values()), found)
    assert found
    for o in found:
        labels = [_label(opts) for opts in o["options"]]
        assert len(set(labels)) == len(labels), labels
        assert labels == [_label(opts) for opts in o["options"]]


def test_optional_cost_then_benefit() -> None:
    s = solo()
    s.investigators[0]["clues"] = [s.clue_pool.pop()]
    resolve(s, [{"op": "optional", "cost": [{"op": "spend", "what": "clue", "n": 1}], "then": [{"op": "gain_artifact", "n": 1}]}])
    assert kind(s) == "optional"
    s, _ = choose(s, "yes")
    assert not s.investigators[0]["clues"] and len(s.investigators[0]["artifacts"]) == 1


def test_unpaid_spend_cancels_the_rest() -> None:
    s = solo()
    resolve(s, [{"op": "spend", "what": "clue", "n": 1}, {"op": "retreat_doom", "n": 1}])
    assert s.doom == 15


def test_doom_advance_and_retreat_capped() -> None:
    """EH-R33."""
    s = solo()
    resolve(s, [{"op": "advance_doom", "n": 2}, {"op": "retreat_doom", "n": 50}])
    assert s.doom == C.doom_max


def test_move_to_nearest_city_and_delay() -> None:
    s = solo()
    s.investigators[0]["space"] = "Space 2"
    ev = resolve(s, [{"op": "move", "spaces": None, "to": "nearest_city"}, {"op": "become_delayed"}])
    assert s.investigators[0]["space"] in ("San Francisco", "Tokyo")
    # delayed, so the action phase that follows is spent standing up (EH-R19)
    assert [e.type for e in ev if e.type in ("delayed", "stood_up")] == ["delayed", "stood_up"]


def test_spawn_ops_and_close_gate() -> None:
    s = solo()
    resolve(s, [{"op": "spawn_monster", "n": 1, "where": "this_space"}, {"op": "spawn_clue", "n": 1}, {"op": "spawn_gate"}])
    assert len(s.monsters) >= 2 and len(s.clues) == 1 and len(s.gates) == 1
    gate = s.gates[0]
    s.investigators[0]["space"] = gate
    resolve(s, [{"op": "close_gate"}])
    assert not s.gates and gate in s.gate_discard


def test_discard_possession_asks_which() -> None:
    s = solo()
    s.investigators[0]["assets"] = ["Axe", ".38 Revolver"]
    resolve(s, [{"op": "discard_possession", "kind": "possession", "n": 1, "trait": "Item"}])
    assert options(s) == ["asset:.38 Revolver", "asset:Axe"]
    s, _ = choose(s, "asset:Axe")
    assert s.investigators[0]["assets"] == [".38 Revolver"] and "Axe" in s.discards["assets"]


def test_condition_back_is_hidden_until_flipped() -> None:
    """EH-R57: the view names the condition only; its back shows up once a rule flips it."""
    from rules.eldritch_horror.engine import EldritchHorrorEngine

    s = solo()
    resolve(s, [{"op": "gain_condition", "name": "Debt"}])
    card = s.investigators[0]["conditions"][0]
    view = EldritchHorrorEngine().view(s, None).model_dump_json()
    assert card not in view and '"Debt"' in view
    ev = resolve(s, [{"op": "flip_this_card"}], card=card, card_kind="condition")
    flipped = [e for e in ev if e.type == "flipped"]
    assert flipped and flipped[0].data["back"] == C.conditions["Debt"]["backs"][int(card.split("#")[1])]["effects"]


def test_rumor_countdown_and_solve() -> None:
    """EH-R39/R76: a rumor's Eldritch tokens count down at reckoning; its encounter can solve it."""
    s = solo()
    card = "fractured-reality"
    s.mythos_deck.append(card)
    s.decks["mythos_box"] = [c for c in s.decks["mythos_box"] if c != card]
    resolve(s, [{"op": "mythos_draw"}], inv=None)
    assert s.rumors == {"Space 2": card} and s.in_play[0]["eldritch"] == 4
    resolve(s, [{"op": "reckoning"}], inv=None)
    assert s.in_play[0]["eldritch"] == 3
    s.investigators[0]["space"] = "Space 2"
    encounter_phase(s)
    assert f"rumor:{card}" in options(s)


def test_driven_to_bankruptcy_empties_the_reserve_until_its_reckoning() -> None:
    """An ongoing Mythos card's rule stays in force while the card is in play (EH-R40)."""
    s = solo()
    s.mythos_deck.append("driven-to-bankruptcy")
    resolve(s, [{"op": "resolve_text"}], inv=None, card="driven-to-bankruptcy", card_kind="mythos")
    assert s.reserve == []
    resolve(s, [{"op": "gain_asset", "from": "deck", "n": 1}])
    assert s.reserve == []
    resolve(s, [{"op": "reckoning"}], inv=None)
    assert len(s.reserve) == 4 and not s.in_play


def test_group_clue_payment_the_lead_names_each_payer() -> None:
    """All For Nothing / From Beyond: the group pays; the lead picks who gives each clue."""
    s = quiet(game(names=("Silas Marsh", "Lily Chen", "Jim Culver"), seats=("a", "b")))
    s.investigators[0]["clues"] = [s.clue_pool.pop()]
    s.investigators[1]["clues"] = [s.clue_pool.pop()]
    s.investigators[2]["clues"] = []
    resolve(s, [{"op": "spend", "what": "clue", "n": "half_investigators", "group": True}, {"op": "retreat_doom", "n": 1}], inv=None)
    assert kind(s) == "target" and s.stack[-1].seats == ["a"] and options(s) == ["Silas Marsh", "Lily Chen"]
    s, _ = choose(s, "Lily Chen")
    assert not s.investigators[0]["clues"] and not s.investigators[1]["clues"] and s.doom == 16

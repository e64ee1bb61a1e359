"""The Action phase (EH-R8..R19)."""

from __future__ import annotations

import pytest

from rules.core import RuleError
from rules.eldritch_horror.actions import Choose
from rules.eldritch_horror.machine import run
from tests.rules.eldritch_horror.helpers import ENGINE, choose, game, kind, options, place, quiet, rig


def fresh(names=("Silas Marsh",), seats=("s1",), **kw):
    s = quiet(game(names=names, seats=seats, **kw))
    run(s, [])
    return s


def test_lead_acts_first_then_clockwise() -> None:
    """EH-R4/R8: the lead takes both actions, then the next investigator."""
    s = fresh(names=("Silas Marsh", "Lily Chen"), seats=("a", "b"))
    assert kind(s) == "action" and s.stack[-1].seats == ["a"]
    s, _ = choose(s, "end")
    assert s.stack[-1].seats == ["b"] and s.stack[-1].params["inv"] == 1


def test_travel_example_san_francisco_to_arkham() -> None:
    """EH-R11: the rulebook's Silas: one step to space 5, then a train ticket on to Arkham."""
    s = fresh()
    s.investigators[0]["space"] = "San Francisco"
    s.investigators[0]["tickets"] = {"train": 1, "ship": 0}
    s.stack.clear()
    run(s, [])
    assert "travel:Space 5>Arkham" in options(s)
    s, _ = choose(s, "travel:Space 5>Arkham")
    inv = s.investigators[0]
    assert inv["space"] == "Arkham" and inv["tickets"]["train"] == 0 and inv["acted"] == ["travel"]


def test_tickets_only_on_matching_routes() -> None:
    """EH-R12: a ship ticket cannot carry you along a railway; uncharted routes take no ticket."""
    s = fresh()
    s.investigators[0].update(space="San Francisco", tickets={"train": 0, "ship": 1})
    s.stack.clear()
    run(s, [])
    opts = [o for o in options(s) if o.startswith("travel:")]
    assert "travel:Space 5>Arkham" not in opts
    assert "travel:Space 2>Tokyo" in opts
    assert "travel:Space 1>Space 4" not in opts  # uncharted


def test_travel_offers_no_round_trips_and_no_costlier_way_to_the_same_place() -> None:
    """EH-R11/R12: every offered journey is one worth making: none comes back to the start or passes a space
    twice, none spends tickets to reach a space a cheaper way reaches, and each destination is offered once
    per way of paying for it."""
    s = fresh()
    s.investigators[0].update(space="Buenos Aires", tickets={"train": 0, "ship": 2})
    s.stack.clear()
    run(s, [])
    paths = [o[len("travel:"):].split(">") for o in options(s) if o.startswith("travel:")]
    assert paths and all("Buenos Aires" not in p and len(set(p)) == len(p) for p in paths)
    adjacent = {p[0] for p in paths if len(p) == 1}
    assert not [p for p in paths if len(p) > 1 and p[-1] in adjacent]
    ends = [(p[-1], len(p)) for p in paths]
    assert len(ends) == len(set(ends)), "one way per destination and number of tickets"
    assert len(paths) <= 25  # fits one menu, where every path and revisit once made 70


def test_no_action_twice_in_a_round() -> None:
    """EH-R9."""
    s = fresh()
    s.investigators[0]["health"] = 3
    s, _ = choose(s, "rest")
    assert "rest" not in options(s) and kind(s) == "action"


def test_sea_space_travel_then_no_second_travel() -> None:
    """EH-R8/R9/R11, checking a random-play report: an investigator who sailed onto a sea space as the first
    action is rightly offered no travel as the second (rest, the sheet action and ending remain); one who
    starts the turn on a sea space travels along every route from it, a ticket carrying it further."""
    s = fresh()
    s.investigators[0].update(space="San Francisco", tickets={"train": 0, "ship": 0}, health=3)
    s.stack.clear()
    run(s, [])
    s, _ = choose(s, "travel:Space 2")
    assert s.investigators[0]["space"] == "Space 2" and kind(s) == "action"
    second = options(s)
    assert not [o for o in second if o.startswith("travel:")]
    assert "rest" in second and "end" in second

    s = fresh()
    s.investigators[0].update(space="Space 7", tickets={"train": 0, "ship": 1})
    s.stack.clear()
    run(s, [])
    travel = {o for o in options(s) if o.startswith("travel:")}
    first = {"travel:Buenos Aires", "travel:San Francisco", "travel:Space 6", "travel:Space 8", "travel:The Amazon"}
    assert first <= travel  # railway and uncharted routes too: the first step needs no ticket
    assert "travel:Buenos Aires>Space 11" in travel and not [o for o in travel if o.startswith("travel:The Amazon>")]


def test_rest_recovers_one_each_up_to_maximum() -> None:
    """EH-R13: Silas at full sanity only regains health."""
    s = fresh()
    s.investigators[0]["health"] = 5
    s, _ = choose(s, "rest")
    assert s.investigators[0]["health"] == 6 and s.investigators[0]["sanity"] == 4


def test_no_rest_with_a_monster_here() -> None:
    s = fresh()
    place(s, "Zombie", s.investigators[0]["space"])
    s.stack.clear()
    run(s, [])
    assert "rest" not in options(s) and "acquire" not in options(s)


def test_prepare_for_travel_needs_a_city_and_a_route_kind() -> None:
    """EH-R15: Sydney has ship routes only."""
    s = fresh()
    assert s.investigators[0]["space"] == "Sydney"
    assert "prepare:ship" in options(s) and "prepare:train" not in options(s)
    s.investigators[0]["space"] = "Space 2"  # sea
    s.stack.clear()
    run(s, [])
    assert not [o for o in options(s) if o.startswith("prepare")]


def test_ticket_limit_two() -> None:
    """EH-R16: a third ticket means discarding one of your choice."""
    s = fresh()
    s.investigators[0]["tickets"] = {"train": 1, "ship": 1}
    s, _ = choose(s, "prepare:ship")
    assert kind(s) == "drop_ticket" and options(s) == ["ship", "train"]
    s, _ = choose(s, "train")
    assert s.investigators[0]["tickets"] == {"train": 0, "ship": 2}


def test_trade_moves_possessions_both_ways() -> None:
    """EH-R14: any possessions, with an investigator on your space; conditions never."""
    s = fresh(names=("Silas Marsh", "Lily Chen"), seats=("a", "b"))
    s.investigators[1]["space"] = "Sydney"
    s.investigators[0]["conditions"] = ["Paranoia#0"]
    s.stack.clear()
    run(s, [])
    s, _ = choose(s, "trade:Lily Chen")
    assert kind(s) == "trade_consent" and s.stack[-1].seats == ["b"]  # the partner's player agrees first
    s, _ = choose(s, "allow")
    assert kind(s) == "trade" and "give:asset:Fishing Net" in options(s)
    assert not [o for o in options(s) if "Paranoia" in o]
    s, _ = choose(s, "give:asset:Fishing Net")
    s, _ = choose(s, "take:asset:Protective Amulet")
    s, _ = choose(s, "done")
    assert s.investigators[0]["assets"] == ["Protective Amulet"]
    assert "Fishing Net" in s.investigators[1]["assets"]


def test_acquire_assets_within_successes() -> None:
    """EH-R17: buy reserve cards whose total cost is at most the successes; the reserve refills."""
    s = fresh()
    s.reserve = [".38 Revolver", "Axe", "Bandages", ".45 Automatic"]
    for name in s.reserve:
        if name in s.decks["assets"]:
            s.decks["assets"].remove(name)
    rig(s, [5, 6, 2])  # Silas: Influence 3 -> 3 dice, 2 successes
    s, _ = choose(s, "acquire")
    assert kind(s) == "buy"
    opts = options(s)
    assert "buy:.38 Revolver+Bandages" in opts and "buy:.45 Automatic" in opts
    assert "buy:.38 Revolver+Axe" not in opts and "discard:Axe" in opts
    s, _ = choose(s, "buy:.38 Revolver+Bandages")
    inv = s.investigators[0]
    assert ".38 Revolver" in inv["assets"] and "Bandages" in inv["assets"] and len(s.reserve) == 4


def test_acquire_with_no_success_may_discard_one() -> None:
    s = fresh()
    s.investigators[0]["clues"] = []
    rig(s, [1, 2, 3])
    s, _ = choose(s, "acquire")
    assert not [o for o in options(s) if o.startswith("buy:")]
    target = options(s)[0]
    assert target.startswith("discard:")
    s, _ = choose(s, target)
    assert target.split(":", 1)[1] in s.discards["assets"] and len(s.reserve) == 4


def test_delayed_investigator_stands_up_instead_of_acting() -> None:
    """EH-R19."""
    s = fresh(names=("Silas Marsh", "Lily Chen"), seats=("a", "b"))
    s.investigators[0]["delayed"] = True
    s.stack.clear()
    run(s, [])
    assert s.stack[-1].params["inv"] == 1 and not s.investigators[0]["delayed"]


def test_detained_allows_only_its_own_action() -> None:
    s = fresh()
    s.investigators[0]["conditions"] = ["Detained#0"]
    s.stack.clear()
    run(s, [])
    assert options(s) == ["component:condition:Silas Marsh:Detained", "end"]


def test_component_action_once_per_round() -> None:
    """EH-R10: Trish's sheet action, usable once; a second component could still be used."""
    s = fresh(names=("Trish Scarborough",))
    s.investigators[0]["clues"] = []
    s.stack.clear()
    run(s, [])
    s, _ = choose(s, "component:sheet")
    assert len(s.investigators[0]["clues"]) == 1
    assert "component:sheet" not in options(s)


def test_local_action_on_another_investigators_condition() -> None:
    """EH-R18: Debt's Local Action can be used by someone on the same space."""
    s = fresh(names=("Silas Marsh", "Lily Chen"), seats=("a", "b"))
    s.investigators[1].update(space="Sydney", conditions=["Debt#0"])
    s.stack.clear()
    run(s, [])
    assert "component:condition:Lily Chen:Debt" in options(s)


def test_refused_action_changes_nothing() -> None:
    s = fresh()
    before = s.model_dump_json()
    for bad in (Choose(option="fly:Mars"), {"type": "nope"}, {"type": "choose", "option": ""}):
        with pytest.raises(RuleError):
            ENGINE.apply(s, "s1", bad)
    with pytest.raises(RuleError) as e:
        ENGINE.apply(s, "intruder", Choose(option="end"))
    assert e.value.code == "unknown_seat"
    assert s.model_dump_json() == before


def test_not_your_turn() -> None:
    s = fresh(names=("Silas Marsh", "Lily Chen"), seats=("a", "b"))
    with pytest.raises(RuleError) as e:
        ENGINE.apply(s, "b", Choose(option="end"))
    assert e.value.code == "not_your_turn"
    assert ENGINE.legal_actions(s, "b") == []


def test_refused_trade_costs_no_action() -> None:
    s = fresh(names=("Silas Marsh", "Lily Chen"), seats=("a", "b"))
    s.investigators[1]["space"] = "Sydney"
    s.stack.clear()
    run(s, [])
    s, _ = choose(s, "trade:Lily Chen")
    s, _ = choose(s, "refuse")
    assert s.investigators[0]["acted"] == [] and kind(s) == "action"


def test_random_lead_option() -> None:
    leads = {game(names=("Silas Marsh", "Lily Chen", "Jim Culver"), seats=("a", "b", "c"), seed=k, lead="random").lead
             for k in range(12)}
    assert len(leads) > 1

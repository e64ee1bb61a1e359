"""CTG-V1 Imperial Tasks and CTG-V2 Ninja Power, with the book's examples."""

from __future__ import annotations

import pytest

from rules.call_to_glory.cards import catalog
from rules.core import RuleError
from tests.rules.call_to_glory.helpers import (
    EMPEROR,
    EMPRESS,
    ENGINE,
    FARMER,
    MONK,
    NINJA,
    SAMURAI,
    act,
    arrange,
    new,
    to_act_phase,
    types,
)

# ---------------------------------------------------------------- CTG-V1


def test_ctg_v1_task_decks_come_from_data() -> None:
    cat = catalog()
    assert {d: [cat.tasks[t].character for t in ids] for d, ids in cat.decks.items()} == {
        "A": [6, 7, 8, 9],
        "B": [12, 14, 16, 18],
        "C": [20, 18, 16, 12],
    }
    assert {cat.tasks[t].bonus for t in cat.decks["A"]} == {5}
    assert {cat.tasks[t].bonus for t in cat.decks["B"]} == {4}
    assert {cat.tasks[t].bonus for t in cat.decks["C"]} == {3}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_ctg_v1_each_player_gets_one_task_from_each_deck(n: int) -> None:
    s = new(n, imperial_tasks=True)
    cat = catalog()
    dealt = [t for p in s.players for t in p.tasks]
    assert len(dealt) == len(set(dealt)) == 3 * n
    for p in s.players:
        assert sorted(cat.tasks[t].deck for t in p.tasks) == ["A", "B", "C"]


def _end_round(s):
    seat = s.players[s.current].seat
    arrange(s, decks=([FARMER] * 5, [EMPEROR]))
    s.players[s.current].hand = [MONK]
    s, _ = act(s, seat, {"type": "draw", "pile": "deck1"})
    s, _ = act(s, seat, {"type": "draw", "pile": "deck2"})
    return act(s, seat, {"type": "discard", "character": MONK})


def test_ctg_v1_book_example_task_seven_two_empresses_score_ten() -> None:
    s = new(3, imperial_tasks=True)
    s.players[0].tasks = ["task-a-empress", "task-b-monk", "task-c-farmer"]
    arrange(s, sets={0: {MONK: 2}, 2: {EMPRESS: 2}})
    s, events = _end_round(s)
    # Reveals start with the round's first player (p0), who has a choice of three.
    assert [(p.seat, p.kind) for p in ENGINE.pending(s)] == [("p0", "reveal_task")]
    assert ENGINE.legal_actions(s, "p1") == []
    s, events = act(s, "p0", {"type": "reveal_task", "task": "task-a-empress"})
    revealed = next(e for e in events if e.type == "task_revealed")
    assert revealed.gains == {"p2": 10} and revealed.bonus == 5
    assert ENGINE.pending(s)[0].seat == "p1"
    assert "task-a-empress" in s.players[0].revealed_tasks and "task-a-empress" not in s.players[0].tasks


def test_ctg_v1_bonus_goes_to_every_holder_per_card_then_sets_score() -> None:
    s = new(2, imperial_tasks=True)
    s.players[0].tasks = ["task-c-farmer", "task-a-emperor", "task-b-samurai"]
    s.players[1].tasks = ["task-c-monk", "task-a-daimyo", "task-b-ninja"]
    arrange(s, sets={0: {FARMER: 3}, 1: {MONK: 4}})
    s, _ = _end_round(s)
    s, _ = act(s, "p0", {"type": "reveal_task", "task": "task-c-farmer"})
    s, events = act(s, "p1", {"type": "reveal_task", "task": "task-c-monk"})
    ended = next(e for e in events if e.type == "round_ended")
    assert ended.task_bonus == {"p0": 9, "p1": 12}
    assert ended.set_points == {"p0": 20, "p1": 18}
    assert [p.round_scores for p in s.players] == [[29], [30]]
    assert s.rounds[-1].revealed == [("p0", "task-c-farmer"), ("p1", "task-c-monk")]


def test_ctg_v1_last_task_is_revealed_automatically_and_game_lasts_three_rounds() -> None:
    s = new(2, imperial_tasks=True)
    for _r in range(3):
        s, events = _end_round(s)
        while ENGINE.pending(s) and ENGINE.pending(s)[0].kind == "reveal_task":
            prompt = ENGINE.pending(s)[0]
            task = s.players[s.seat_index(prompt.seat)].tasks[0]
            s, events = act(s, prompt.seat, {"type": "reveal_task", "task": task})
    assert s.phase == "over" and len(s.rounds) == 3
    assert all(len(p.revealed_tasks) == 3 and p.tasks == [] for p in s.players)
    assert "game_ended" in types(events)


def test_ctg_v1_cannot_reveal_a_task_not_held() -> None:
    s = new(2, imperial_tasks=True)
    s, _ = _end_round(s)
    seat = ENGINE.pending(s)[0].seat
    other = next(p for p in s.players if p.seat != seat).tasks[0]
    with pytest.raises(RuleError) as err:
        act(s, seat, {"type": "reveal_task", "task": other})
    assert err.value.code == "ctg.task_not_held"


def test_ctg_v1_tasks_are_secret_in_views() -> None:
    s = new(3, imperial_tasks=True)
    public = ENGINE.view(s, None)
    assert all(p.tasks is None and p.task_count == 3 for p in public.players)
    mine = ENGINE.view(s, "p1")
    assert [p.tasks is not None for p in mine.players] == [False, True, False]
    text = public.model_dump_json()
    assert not any(t in text for p in s.players for t in p.tasks)


# ---------------------------------------------------------------- CTG-V2


def test_ctg_v2_book_example_ninja_figures() -> None:
    # A lays two Ninja and takes a figure; B holds four Monks and five Samurai.
    s = arrange(
        new(2, ninja_power=True),
        hands={0: [NINJA, NINJA, FARMER], 1: [NINJA] * 3 + [FARMER]},
        sets={1: {MONK: 4, SAMURAI: 5}},
        decks=([EMPEROR] * 9, [EMPEROR] * 9),
        discards=([FARMER], [FARMER]),
    )
    s = to_act_phase(s, "p0")
    s, events = act(s, "p0", {"type": "lay_out", "character": NINJA, "count": 2})
    assert s.players[0].ninjas == 1 and s.ninja_supply == 3
    assert "ninja_taken" in types(events)
    # A may still use the figure after laying out, so the turn waits for an explicit end.
    assert ENGINE.pending(s)[0].kind == "after_action"
    s, _ = act(s, "p0", {"type": "end_turn"})
    s = to_act_phase(s, "p1")
    s, _ = act(s, "p1", {"type": "discard", "character": EMPEROR, "pile": 1})
    # Next turn A returns the figure and picks which of B's sets loses a card: A offers both.
    ninja = {(a.target, a.character) for a in ENGINE.legal_actions(s, "p0") if a.type == "use_ninja"}
    assert ninja == {("p1", MONK), ("p1", SAMURAI)}
    s, events = act(s, "p0", {"type": "use_ninja", "target": "p1", "character": SAMURAI})
    assert s.players[0].ninjas == 0 and s.ninja_supply == 4
    # B only chooses the discard pile the Samurai goes to.
    assert [(p.seat, p.kind, p.params["character"]) for p in ENGINE.pending(s)] == [("p1", "ninja_victim", SAMURAI)]
    assert {a.pile for a in ENGINE.legal_actions(s, "p1")} == {1, 2}
    s, events = act(s, "p1", {"type": "give_up_card", "pile": 2})
    assert s.players[1].sets == {MONK: 4, SAMURAI: 4} and s.piles[3][-1] == SAMURAI
    # A goes on with the turn: the figure was used before the first draw.
    assert ENGINE.pending(s)[0].seat == "p0" and ENGINE.pending(s)[0].kind == "draw"
    s = to_act_phase(s, "p0")
    s, _ = act(s, "p0", {"type": "discard", "character": FARMER, "pile": 1})
    # Later B lays three Ninja, beats A's two and takes a figure.
    s = to_act_phase(s, "p1")
    s, events = act(s, "p1", {"type": "lay_out", "character": NINJA, "count": 3})
    assert NINJA not in s.players[0].sets and s.players[1].ninjas == 1 and s.ninja_supply == 3
    assert [(p.seat, p.kind) for p in ENGINE.pending(s)] == [("p0", "beaten_set")]
    s, _ = act(s, "p0", {"type": "place_beaten_set", "pile": 1})
    assert s.piles[2][-2:] == [NINJA, NINJA]


def test_ctg_v2_figure_usable_between_draws() -> None:
    s = arrange(new(2, ninja_power=True), sets={1: {MONK: 3}}, decks=([EMPEROR] * 5, [EMPEROR] * 5))
    s.players[0].ninjas = 2
    s.ninja_supply = 2
    s, _ = act(s, "p0", {"type": "draw", "pile": "deck1"})
    s, events = act(s, "p0", {"type": "use_ninja", "target": "p1", "character": MONK})
    # The empty pile 1 must be started (CTG-R11): resolved without asking the victim.
    assert "card_given_up" in types(events) and s.players[1].sets == {MONK: 2}
    assert s.piles[2] == [MONK]
    s, _ = act(s, "p0", {"type": "use_ninja", "target": "p1", "character": MONK})  # several in one turn
    assert s.players[0].ninjas == 0 and s.players[1].sets == {MONK: 1} and s.piles[3] == [MONK]
    assert ENGINE.pending(s)[0].kind == "draw"


def test_ctg_v2_set_reduced_to_nothing_is_gone() -> None:
    s = arrange(new(2, ninja_power=True), sets={1: {EMPEROR: 1}})
    s.players[0].ninjas = 1
    s, events = act(s, "p0", {"type": "use_ninja", "target": "p1", "character": EMPEROR})
    assert s.players[1].sets == {}
    assert next(e for e in events if e.type == "card_given_up").remaining == 0


def test_ctg_v2_refusals() -> None:
    s = arrange(new(2, ninja_power=True), sets={1: {MONK: 2}})
    with pytest.raises(RuleError) as err:
        act(s, "p0", {"type": "use_ninja", "target": "p1", "character": MONK})
    assert err.value.code == "ctg.no_ninja"
    s.players[0].ninjas = 1
    with pytest.raises(RuleError) as err:
        act(s, "p0", {"type": "use_ninja", "target": "p0", "character": MONK})
    assert err.value.code == "ctg.bad_target"
    with pytest.raises(RuleError) as err:
        act(s, "p0", {"type": "use_ninja", "target": "p1", "character": FARMER})
    assert err.value.code == "ctg.target_has_no_set" and err.value.params["owner"] == "p1"
    s.players[1].sets = {}
    with pytest.raises(RuleError) as err:
        act(s, "p0", {"type": "use_ninja", "target": "p1", "character": MONK})
    assert err.value.code == "ctg.no_sets"
    plain = new(2)
    with pytest.raises(RuleError) as err:
        act(plain, "p0", {"type": "use_ninja", "target": "p1", "character": MONK})
    assert err.value.code == "ctg.variant_off"


def test_ctg_v2_figures_only_while_supply_lasts_and_kept_across_rounds() -> None:
    s = arrange(
        new(2, ninja_power=True),
        hands={0: [NINJA] * 2},
        decks=([FARMER] * 5, [EMPEROR]),
    )
    s.ninja_supply = 0
    s.players[1].ninjas = 4
    s = to_act_phase(s)
    s, events = act(s, "p0", {"type": "lay_out", "character": NINJA, "count": 2})
    assert s.players[0].ninjas == 0 and "ninja_taken" not in types(events)
    # The round ended (deck2 ran out); figures stay with their owners.
    assert s.round == 2 and s.players[1].ninjas == 4


def test_ctg_v2_no_after_phase_without_a_usable_figure() -> None:
    s = to_act_phase(arrange(new(2, ninja_power=True), hands={0: [MONK]}, decks=([EMPEROR] * 5, [EMPEROR] * 5)))
    s, _ = act(s, "p0", {"type": "discard", "character": MONK})
    assert ENGINE.pending(s)[0].seat == "p1"

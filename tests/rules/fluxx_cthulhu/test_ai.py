"""The Cthulhu Fluxx AI in constructed positions: the plays it must find (a winning goal; not ending the
game under an Ungoal), and its estimate's shape (shares of the wins, lowered by a near Ungoal)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from pydantic import BaseModel

from rules.ai import choose_action
from rules.fluxx_cthulhu.actions import Play
from rules.fluxx_cthulhu.ai import budget, evaluate, meets_ungoal, prune
from rules.fluxx_cthulhu.table import table_doom
from tests.rules.fluxx_cthulhu.helpers import SPEC, arrange, new


def test_ai_plays_the_goal_it_meets() -> None:
    # FLX-R20: meeting the goal one puts out wins at once.
    s = arrange(new(2), keepers={0: ["librarian", "professor"]},
                hands={0: ["tomb", "miskatonic_university", "farm", "draw_2"]}, current=0)
    assert choose_action(SPEC, s, "p0", seed=3, level="normal") == Play(card="miskatonic_university")


def test_ai_does_not_end_the_game_under_an_ungoal() -> None:
    # The Shadow out of Time is met at 8 Doom on the table (FLX-R14: everyone loses); the Necronomicon
    # would bring the table from 7 to 9, so any other card is better.
    s = arrange(new(2), keepers={1: ["cultist"]}, creepers={0: ["cthulhu"], 1: ["yog_sothoth", "mi_go"]},
                goals=["shadow_out_of_time"], hands={0: ["necronomicon", "tomb", "farm"]}, current=0)
    assert table_doom(s) == 7
    for seed in range(8):  # a player choosing at random would pass all eight 1 time in 25
        assert choose_action(SPEC, s, "p0", seed=seed, level="normal") != Play(card="necronomicon")


def test_ai_does_not_play_an_ungoal_already_met() -> None:
    # FLX-R25: Madness Takes Hold is met as soon as one player has Nightmares and Insanity; put out, it
    # ends the game with everyone losing, so the AI plays its other card.
    s = arrange(new(2), creepers={1: ["nightmares", "insanity"]}, hands={0: ["madness_takes_hold", "tomb"]},
                current=0)
    assert meets_ungoal(s, "p0", "madness_takes_hold") and not meets_ungoal(s, "p0", "tomb")
    assert prune(s, "p0", [Play(card="madness_takes_hold"), Play(card="tomb")]) == [Play(card="tomb")]
    for seed in range(4):
        assert choose_action(SPEC, s, "p0", seed=seed, level="normal") == Play(card="tomb")


def test_prune_keeps_an_ungoal_that_makes_the_seat_win() -> None:
    # The Secret Cultist wins when an Ungoal is met (its off-turn power), so holding it the Ungoal is a
    # way to win, not a loss.
    s = arrange(new(2), creepers={1: ["nightmares", "insanity"]},
                hands={0: ["madness_takes_hold", "tomb", "secret_cultist"]}, current=0, quiet=False)
    moves: list[BaseModel] = [Play(card="madness_takes_hold"), Play(card="tomb")]
    assert prune(s, "p0", moves) == moves


def test_prune_never_empties_the_moves() -> None:
    s = arrange(new(2), creepers={1: ["nightmares", "insanity"]}, hands={0: ["madness_takes_hold"]}, current=0)
    assert prune(s, "p0", [Play(card="madness_takes_hold")]) == [Play(card="madness_takes_hold")]


def test_keeper_doom_meets_an_ungoal() -> None:
    # The Cthulhu Ungoal needs Cthulhu out and 6 Doom on the table (FLX-R18); Cthulhu (3) and Yog-Sothoth
    # (2) make 5, so the Cultist's 1 Doom meets it while the Cat's blessing does not.
    s = arrange(new(2), creepers={0: ["cthulhu"], 1: ["yog_sothoth"]}, goals=["cthulhu_ungoal"],
                hands={0: ["cultist", "cat"]}, current=0)
    assert table_doom(s) == 5
    assert meets_ungoal(s, "p0", "cultist") and not meets_ungoal(s, "p0", "cat")


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_estimate_shares_sum_to_at_most_one(n: int) -> None:
    # Every seat's estimate is its share of the wins: a softmax over the seats' closeness, times the chance
    # no Ungoal ends the game (FLX-R25), plus who that ending would crown, so the shares never add up to
    # more than one game's worth.
    rnd = random.Random(n)
    for seed in range(6):
        s = new(n, seed=seed)
        while SPEC.engine.pending(s) and s.turn < 40:
            seat = SPEC.engine.pending(s)[0].seat
            moves = SPEC.engine.legal_actions(s, seat)
            s, _ = SPEC.engine.apply(s, seat, moves[rnd.randrange(len(moves))])
            if SPEC.engine.pending(s):
                values = evaluate(s)
                assert set(values) == {p.seat for p in s.players}
                assert all(0.0 <= v <= 1.0 for v in values.values())
                assert sum(values.values()) <= 1.0 + 1e-9


def test_estimate_falls_as_an_ungoal_nears() -> None:
    # The same table with the Cthulhu Ungoal in play is worth less to both players than with a goal
    # nobody is near, and the nearer the Ungoal (more Doom), the less (FLX-R25: everyone loses).
    base: dict[str, Any] = {"keepers": {0: ["librarian"]}, "creepers": {1: ["cthulhu"]}, "current": 0}
    calm = evaluate(arrange(new(2), goals=["meat_market"], **base))
    near = evaluate(arrange(new(2), goals=["cthulhu_ungoal"], **base))
    nearer = evaluate(arrange(new(2), goals=["cthulhu_ungoal"], **{**base, "creepers": {1: ["cthulhu", "mi_go"]}}))
    for seat in ("p0", "p1"):
        assert calm[seat] > near[seat] > nearer[seat]


def test_normal_searches_more_at_a_table_of_two() -> None:
    # Measured on the ledger's games against random (see ``budget``): 500 iterations won more two-player
    # games than 250, fewer four-player ones; easy and thorough do not depend on the table.
    assert budget(new(2), "normal") == 500
    assert budget(new(3), "normal") == budget(new(4), "normal") == 250
    for level in ("easy", "hard"):
        assert budget(new(2), level) == budget(new(4), level)

"""The Cthulhu Fluxx AI's judgement in constructed positions: how near it finds goals and Ungoals, how
it scores them, and the plays it must find (a winning goal; not ending the game under an Ungoal)."""

from __future__ import annotations

from rules.ai import choose_action
from rules.fluxx_cthulhu.actions import Play
from rules.fluxx_cthulhu.ai import closeness, evaluate, ungoal_closeness
from rules.fluxx_cthulhu.table import table_doom, visible
from tests.rules.fluxx_cthulhu.helpers import SPEC, arrange, new


def test_doom_goal_closeness_counts_own_doom_only() -> None:
    # FLX-R18/R19: Prophet of Doom asks 4 Doom of the player's own; the Necronomicon carries 2 of them,
    # and the Cat's blessing cancels none of another player's.
    s = arrange(new(2), keepers={0: ["necronomicon"], 1: ["cat"]})
    p0, p1 = s.players
    assert closeness(s, p0, "prophet_of_doom", visible(s, p0)) == 0.5
    assert closeness(s, p1, "prophet_of_doom", visible(s, p1)) == 0.0


def test_a_spoiling_creeper_counts_as_a_missing_part() -> None:
    # FLX-R12: a creeper the goal does not name keeps its player from winning it.
    s = arrange(new(2), keepers={0: ["librarian"], 1: ["professor"]},
                creepers={1: ["cthulhu"]})
    p0, p1 = s.players
    assert closeness(s, p0, "miskatonic_university", visible(s, p0)) == 0.5
    assert closeness(s, p1, "miskatonic_university", visible(s, p1)) == 1 / 3


def test_ungoal_closeness_is_creeper_share_times_doom_share() -> None:
    # Dunwich Horror: someone has Yog-Sothoth and the table has 6 Doom (FLX-R14/R18).
    s = arrange(new(2), keepers={0: ["necronomicon"]}, creepers={1: ["yog_sothoth"]})
    assert table_doom(s) == 4
    assert ungoal_closeness(s, "dunwich_horror") == 4 / 6
    assert ungoal_closeness(s, "cthulhu_ungoal") == 0.0


def test_a_met_ungoal_in_a_hand_lowers_everyones_outlook() -> None:
    calm = arrange(new(2), keepers={0: ["necronomicon"]}, creepers={1: ["yog_sothoth", "deep_ones"]},
                   hands={1: ["cat", "tomb"]})
    doomed = arrange(new(2), keepers={0: ["necronomicon", "cultist"]},
                     creepers={1: ["yog_sothoth", "deep_ones"]}, hands={1: ["dunwich_horror", "tomb"]})
    assert table_doom(doomed) == 6
    before, after = evaluate(calm), evaluate(doomed)
    assert all(after[seat] < before[seat] for seat in before)


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
    for seed in range(3):
        assert choose_action(SPEC, s, "p0", seed=seed, level="normal") != Play(card="necronomicon")

"""The Cthulhu Fluxx AI in constructed positions: the plays it must find (a winning goal; not ending the
game under an Ungoal)."""

from __future__ import annotations

from rules.ai import choose_action
from rules.fluxx_cthulhu.actions import Play
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

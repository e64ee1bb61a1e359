"""Folding the table's recent moves and the "since your last move" recap (issue 24: in the LCG over half
the lines were automatic bookkeeping, and a DM bringing a decision never said what the others did)."""

from __future__ import annotations

import random
from collections import deque

from bot.table.recap import Folded, Line, fold_automatic, fold_tail, since_last_move

ANN, BOB = "1", "2"


def test_a_run_of_automatic_steps_folds_into_one_line_and_players_moves_stay() -> None:
    lines = [Line("Ann plays a card", ANN), Line("domain readied", ANN, True), Line("domain readied", BOB, True),
             Line("domain readied", BOB, True), Line("Bob attacks", BOB), Line("drawn", BOB, True)]
    assert fold_automatic(lines) == [Folded(lines[0]), Folded(lines[3], 3), Folded(lines[4]), Folded(lines[5])]


def test_the_recap_starts_after_the_players_own_last_move_and_leaves_their_moves_out() -> None:
    lines = [Line("Bob draws", BOB), Line("Ann plays", ANN), Line("refill", ANN, True), Line("Bob attacks", BOB),
             Line("Bob draws", BOB)]
    assert since_last_move(lines, ANN) == [Folded(lines[2]), Folded(lines[3]), Folded(lines[4])]
    assert since_last_move(lines, BOB) == []
    assert since_last_move(lines[:1], ANN) == [Folded(lines[0])], "no own move known: all that is known"


def test_the_tables_last_moves_fold_as_the_whole_log_would() -> None:
    """The table folds only the tail it shows; on random logs that tail equals the whole log's folded tail,
    a run of automatic steps cut by the tail's start counted whole."""
    rnd = random.Random(5)
    for _ in range(300):
        lines = deque(Line(f"line {i}", rnd.choice((ANN, BOB)), rnd.random() < 0.6)
                      for i in range(rnd.randrange(0, 30)))
        for count in (1, 3, 8, 40):
            assert fold_tail(lines, count) == fold_automatic(lines)[-count:]

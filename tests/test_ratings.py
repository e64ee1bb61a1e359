"""Ratings (issue "What players ask for next", item 2): who gains, who loses, and which games count."""

from __future__ import annotations

import pytest

from bot.ratings import Rating, Unrated, game_places, places, record, unrated_reason


def test_the_winner_gains_and_the_loser_drops() -> None:
    after = record({}, [[1], [2]], winners={1})
    assert after[1].mu > Rating().mu > after[2].mu
    assert after[1].shown > after[2].shown
    assert (after[1].games, after[1].wins, after[2].games, after[2].wins) == (1, 1, 1, 0)


def test_tied_players_move_alike() -> None:
    after = record({}, [[1], [2, 3]], winners={1})
    assert after[2] == after[3]


def test_beating_a_strong_player_is_worth_more_than_beating_a_newcomer() -> None:
    strong = Rating(mu=35.0, sigma=3.0, games=40, wins=30)
    over_strong = record({1: Rating(), 2: strong}, [[1], [2]], winners={1})[1].mu
    over_newcomer = record({}, [[1], [2]], winners={1})[1].mu
    assert over_strong > over_newcomer


def test_a_player_who_left_ranks_last_even_if_the_ai_won_their_seat() -> None:
    """The player who left records a loss, whatever the AI that finished the seat made of it."""
    placed = places([[1], [2], [3]], {1: "ai_finished", 2: "lost", 3: "lost"})
    assert placed == [[2], [3], [1]]
    assert record({}, placed, winners=set())[1].mu < Rating().mu


@pytest.mark.parametrize("ending", ["left", "forfeited", "voted_out"])
def test_every_way_of_dropping_out_is_a_loss(ending: str) -> None:
    assert places([[5, 6], [7]], {5: ending, 6: "won", 7: "lost"}) == [[6], [7], [5]]


def test_a_cooperative_game_counts_wins_alone() -> None:
    after = record({1: Rating(mu=26.0)}, [[1, 2]], winners={1, 2}, cooperative=True)
    assert after[1].mu == 26.0 and after[2].mu == Rating().mu
    assert (after[1].games, after[1].wins) == (1, 1)


def test_games_with_ai_hints_or_an_unrated_lobby_change_no_rating() -> None:
    base = {"ai_seats": False, "hints_used": False, "lobby_unrated": False, "finished": True}
    assert unrated_reason(**base) is None
    assert unrated_reason(**{**base, "ai_seats": True}) is Unrated.AI_SEAT
    assert unrated_reason(**{**base, "hints_used": True}) is Unrated.HINTS
    assert unrated_reason(**{**base, "lobby_unrated": True}) is Unrated.LOBBY
    assert unrated_reason(**{**base, "finished": False}) is Unrated.ABANDONED


def test_places_name_members_and_put_a_seat_the_ranking_lost_last() -> None:
    """A seat handed to another member counts for them; a member who walked out of a game that went on
    without them (absent from the engine's ranking) ranks with the leavers; AI seats rank nobody."""
    players = {"10": 10, "20": 99, "30": 30}
    placed = game_places([["20"], ["-1"], ["10"]], {"10": "lost", "20": "won", "30": "left", "-1": "lost"}, players)
    assert placed == [[99], [10], [30]]

"""The leaderboard's pages (issue 28, ratings): sorted by the shown rating, a co-operative game by wins,
paged within Discord's limits, members by name."""

from __future__ import annotations

from bot.storage import RatingRow
from cogs.games.records import LEADERS_PER_PAGE, fitting, leaders_message, ranked


def row(user: int, mu: float, wins: int = 0, games: int = 3, game: str = "call_to_glory") -> RatingRow:
    return RatingRow(guild_id=1, game_id=game, user_id=user, mu=mu, sigma=4.0, games=games, wins=wins,
                     name=f"Player {user}")


def test_the_board_is_paged_best_first_with_names() -> None:
    rows = [row(u, 20.0 + u / 10) for u in range(1, 46)]
    last = leaders_message(rows, "call_to_glory", "en", page=9)  # past the end: the last page
    lines = last["embed"].description.splitlines()
    assert len(lines) == 45 - 2 * LEADERS_PER_PAGE and lines[0].startswith(f"**{2 * LEADERS_PER_PAGE + 1}.** ")
    assert lines[-1].startswith("**45.** Player 1 — ")
    buttons = [(item.item.custom_id, item.item.disabled) for item in last["view"].children]
    assert buttons == [("grt:call_to_glory:1", False), ("grt:call_to_glory:2", True)]
    first = leaders_message(rows, "call_to_glory", "ru", page=0)
    assert first["embed"].description.splitlines()[0].startswith("**1.** Player 45 — ")
    assert "таблица лидеров" in first["embed"].title and "страница 1/3" in first["embed"].footer.text


def test_a_cooperative_game_ranks_by_wins_and_shows_no_rating() -> None:
    rows = [row(1, 40.0, wins=1, game="eldritch_horror"), row(2, 10.0, wins=3, game="eldritch_horror")]
    assert [r.user_id for r in ranked(rows, cooperative=True)] == [2, 1]
    board = leaders_message(rows, "eldritch_horror", "en", page=0)
    assert board["embed"].description.splitlines()[0] == "**1.** Player 2 — won 3 of 3"
    assert not board["view"].children, "one page: no buttons"


def test_a_long_list_keeps_whole_lines_and_says_how_many_more() -> None:
    lines = [f"game {i} " + "x" * 90 for i in range(30)]
    text = fitting(lines, 1024, "…and {count} more")
    kept = text.splitlines()
    assert len(text) <= 1024 and kept[:-1] == lines[:len(kept) - 1]
    assert kept[-1] == f"…and {30 - (len(kept) - 1)} more"
    assert fitting(lines[:3], 1024, "…and {count} more") == "\n".join(lines[:3])

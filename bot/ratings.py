"""Ratings per server and game: openskill's Plackett-Luce model, made for rankings of any number of players.

A game counts only when every seat was a person deciding alone: a game with an AI seat, one where someone
asked for hints, or one its lobby marked unrated leaves every rating as it was, since a rating won against
a bot or with a bot's help says nothing about the player. A seat that left, ran out its clock or was voted
out ranks below everyone who stayed, whatever the engine's result made of its seat afterwards. A
co-operative game ranks nobody: it counts wins alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()


class Unrated(StrEnum):
    """Why a finished game changes no rating: a stable code, for the catalogs to explain."""

    AI_SEAT = "ai_seat"
    HINTS = "hints"
    LOBBY = "lobby"
    ABANDONED = "abandoned"


@dataclass(frozen=True)
class Rating:
    """One member's standing in one game on one server."""

    mu: float = _MODEL.mu
    sigma: float = _MODEL.sigma
    games: int = 0
    wins: int = 0

    @property
    def shown(self) -> int:
        """The conservative estimate leaderboards sort by (mu less three sigma), so a newcomer with one lucky
        win does not top the table; scaled to a familiar range."""
        return round((self.mu - 3 * self.sigma) * 40 + 1000)


Ending = Literal["won", "lost", "left", "forfeited", "voted_out", "ai_finished"]
GONE: frozenset[str] = frozenset({"left", "forfeited", "voted_out", "ai_finished"})


def unrated_reason(*, ai_seats: bool, hints_used: bool, lobby_unrated: bool, finished: bool) -> Unrated | None:
    """Why this game leaves ratings alone, or ``None`` when it counts."""
    if not finished:
        return Unrated.ABANDONED
    if lobby_unrated:
        return Unrated.LOBBY
    if ai_seats:
        return Unrated.AI_SEAT
    return Unrated.HINTS if hints_used else None


def places(ranking: Sequence[Sequence[int]], endings: Mapping[int, Ending]) -> list[list[int]]:
    """The engine's ranking with every player who did not see the game out moved, together, to the last
    place: a forfeit is a loss even where the game let an AI finish the seat and win."""
    stayed = [[p for p in group if endings.get(p) not in GONE] for group in ranking]
    out = [group for group in stayed if group]
    gone = sorted(p for group in ranking for p in group if endings.get(p) in GONE)
    if gone:
        out.append(gone)
    return out


def game_places(ranking: Sequence[Sequence[str]], endings: Mapping[str, Ending],
                players: Mapping[str, int]) -> list[list[int]]:
    """``places`` of one finished game in members rather than seats (``players``: seat -> the member who
    played it last; AI seats absent). A member whose seat the engine's ranking leaves out (one who walked
    out of a game that went on without them) joins those who did not see the game out."""
    ranked = [[players[s] for s in group if s in players] for group in ranking]
    seen = {p for group in ranked for p in group}
    unranked = sorted(p for p in players.values() if p not in seen)
    ending: dict[int, Ending] = {players[s]: e for s, e in endings.items() if s in players}
    ending.update({p: "left" for p in unranked if ending.get(p) not in GONE})
    return places([*ranked, unranked], ending)


def record(current: Mapping[int, Rating], placed: Sequence[Sequence[int]], winners: set[int], *,
           cooperative: bool = False) -> dict[int, Rating]:
    """Every player's rating after one counted game. ``placed`` is best first (ties share a group)."""
    players = [p for group in placed for p in group]
    if cooperative or len(placed) < 2:
        return {p: _counted(current.get(p, Rating()), p in winners) for p in players}
    teams = [[_MODEL.rating(mu=current.get(p, Rating()).mu, sigma=current.get(p, Rating()).sigma)]
             for p in players]
    ranks = [float(i + 1) for i, group in enumerate(placed) for _ in group]
    rated = _MODEL.rate(teams, ranks=ranks)
    out = {}
    for p, (new,) in zip(players, rated, strict=True):
        before = _counted(current.get(p, Rating()), p in winners)
        out[p] = Rating(mu=new.mu, sigma=new.sigma, games=before.games, wins=before.wins)
    return out


def _counted(rating: Rating, won: bool) -> Rating:
    return Rating(mu=rating.mu, sigma=rating.sigma, games=rating.games + 1, wins=rating.wins + int(won))

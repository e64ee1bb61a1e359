"""How a commit left the table, worked out once: who owed a decision before and after, who newly owes
one, and, when the game is over, how each seat ended. Every surface (DMs, the table, the channel post,
the stats) reads it from here, so they cannot disagree about who won.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from rules.core import GameResult, Prompt

SeatEnd = Literal["won", "lost", "left", "forfeited", "voted_out", "ai_finished"]
"""How one seat's game ended: by the game's result, or by leaving it (``left``: ``/game leave``;
``forfeited``: a turn deadline; ``voted_out``: the other players' vote); ``ai_finished``: its player left
and the AI played the seat to the end (the player records a loss, whatever the AI made of it)."""
Departure = Literal["left", "forfeited", "voted_out"]
DEPARTURES: tuple[Departure, ...] = ("left", "forfeited", "voted_out")
WINS: frozenset[SeatEnd] = frozenset({"won"})


def seat_endings(
    seats: Iterable[str], result: GameResult | None, *, departed: Mapping[str, Departure],
    handed_to_ai: Iterable[str] = (),
) -> dict[str, SeatEnd]:
    """Each seat's ending. A seat that left is never a winner, even where the game's own result still
    ranks it (a duel concession scored as a tie); a seat the AI finished keeps that mark, and ``won_by_ai``
    says what the AI made of it. Empty while the game runs (``result`` None)."""
    if result is None:
        return {}
    winners, ai = set(result.winners), set(handed_to_ai)
    out: dict[str, SeatEnd] = {}
    for seat in seats:
        gone = departed.get(seat)
        if gone is not None and seat not in ai:
            out[seat] = gone
        elif seat in ai and gone is not None:
            out[seat] = "ai_finished"
        else:
            out[seat] = "won" if seat in winners else "lost"
    return out


def counted_winners(result: GameResult | None, endings: Mapping[str, SeatEnd]) -> list[str]:
    """The seats every surface names as winners: the game's, less any seat that left it."""
    if result is None:
        return []
    return [s for s in result.winners if endings.get(s, "won") == "won"]


@dataclass(frozen=True)
class TableOutcome:
    """One commit seen from the table. ``humans``: seats a person plays after the commit, with their
    player; ``mover``: the seat whose click (or departure) made the commit, None for the bot's own steps."""

    status: str
    version: int
    owing_before: frozenset[str]
    owing_after: frozenset[str]
    humans: Mapping[str, int]
    ai: Mapping[str, str]
    mover: str | None = None
    result: GameResult | None = None
    endings: Mapping[str, SeatEnd] = field(default_factory=dict)
    departed: int | None = None
    """The player this commit took out of the game: their live DM goes while the game runs on; if it
    ended, they hear how like everyone else."""
    prompts_before: tuple[Prompt, ...] = ()
    prompts_after: tuple[Prompt, ...] = ()
    """The decisions owed before and after, as the engine worded them (a ping names what is asked)."""

    @property
    def over(self) -> bool:
        return self.status in ("finished", "abandoned")

    @property
    def newly_owing(self) -> tuple[str, ...]:
        """Seats a decision arrived to: they owe one now and did not before (not the mover, who is
        looking at its own answer)."""
        return tuple(sorted(s for s in self.owing_after - self.owing_before if s != self.mover))

    @property
    def winners(self) -> list[str]:
        return counted_winners(self.result, self.endings)

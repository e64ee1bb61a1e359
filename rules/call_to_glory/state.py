"""The whole game as one JSON-able model: hands, piles, sets, scores, the generator and pending decisions."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.call_to_glory.options import CtgOptions
from rules.core import Decision, Rng
from rules.core.fastmodel import builder

# Pile indices inside ``CtgState.piles``; the top of a pile is its last element.
DECK1, DECK2, DISCARD1, DISCARD2 = 0, 1, 2, 3
PILE_NAMES = ("deck1", "deck2", "discard1", "discard2")
PILE_INDEX = {name: i for i, name in enumerate(PILE_NAMES)}

Phase = Literal["draw", "act", "after", "reveal", "over"]


class PlayerState(BaseModel):
    seat: str
    hand: list[int] = Field(default_factory=list)
    sets: dict[int, int] = Field(default_factory=dict)  # character value -> cards in the set
    round_scores: list[int] = Field(default_factory=list)  # per finished round, task bonuses included
    round_bonus: int = 0  # task bonus earned in the round being scored
    tasks: list[str] = Field(default_factory=list)  # unrevealed Imperial Tasks (secret)
    revealed_tasks: list[str] = Field(default_factory=list)
    ninjas: int = 0

    @property
    def total(self) -> int:
        return sum(self.round_scores)


class RoundRecord(BaseModel):
    """What a finished round left behind: public, kept for the table and for CTG-R14 tie-breaks."""

    model_config = ConfigDict(frozen=True)

    round: int
    first_seat: str
    reason: Literal["characters_per_player", "all_characters", "deck_empty"]
    set_points: dict[str, int]
    task_bonus: dict[str, int]
    revealed: list[tuple[str, str]] = Field(default_factory=list)  # (seat, task id) in reveal order


class CtgState(BaseModel):
    game: Literal["call_to_glory"] = "call_to_glory"
    options: CtgOptions
    rng: Rng
    round: int
    rounds_total: int
    first: int  # index of the round's first player
    current: int  # index of the player on turn
    phase: Phase
    drawn_from: list[int] = Field(default_factory=list)  # pile indices already drawn from this turn
    piles: list[list[int]]
    players: list[PlayerState]
    ninja_supply: int = 0
    stack: list[Decision] = Field(default_factory=list)
    reveal_queue: list[int] = Field(default_factory=list)  # player indices still to reveal a task
    round_reveals: list[tuple[str, str]] = Field(default_factory=list)  # (seat, task) this round
    rounds: list[RoundRecord] = Field(default_factory=list)
    turn: int = 1
    conceded: str | None = None  # the seat whose player left and ended the game (bot ruling)

    def seat_index(self, seat: str) -> int | None:
        """Where ``seat`` sits; the player on turn is tried first, being the one who acts most often."""
        players = self.players
        if players[self.current].seat == seat:  # seats are unique (new_game checks)
            return self.current
        for i, p in enumerate(players):
            if p.seat == seat:
                return i
        return None

    def successor(self) -> CtgState:
        """The state ``apply`` builds the next one in: a new field dict, every value shared with ``self``.

        Copying players, piles and lists on each action dominated random play, so nothing is copied up
        front. Code writing the successor treats every container it finds there as read-only: it assigns
        a new one to the field (``fields["piles"] = ...``, ``own_player``) and never edits one in place.
        Writes go straight to ``__dict__``: no field validates on assignment, and pydantic's
        ``__setattr__`` cost as much as the write it guards.
        """
        return _state(self.__dict__.copy())


def own_player(fields: dict[str, Any], idx: int) -> dict[str, Any]:
    """Put a fresh copy of player ``idx`` into the state whose field dict is ``fields`` and return the copy's
    own field dict: the caller may assign its fields, but its lists and dicts are still shared (see
    ``CtgState.successor``) and must be replaced, not edited."""
    players = fields["players"][:]
    player = players[idx].__dict__.copy()
    players[idx] = _player(player)
    fields["players"] = players
    return player


_state = builder(CtgState)
_player = builder(PlayerState)
# For the engine's hottest moves, which build the successor and the changed player without the calls.
build_state, build_player = _state, _player

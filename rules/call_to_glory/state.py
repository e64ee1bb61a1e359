"""The whole game as one JSON-able model: hands, piles, sets, scores, the generator and pending decisions."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.call_to_glory.options import CtgOptions
from rules.core import Decision, Rng
from rules.core.fastmodel import build

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

    def clone(self) -> PlayerState:
        """A deep copy (every field is a scalar or a container of scalars) the engine may change."""
        d = self.__dict__
        return build(
            PlayerState,
            {
                "seat": d["seat"],
                "hand": d["hand"][:],
                "sets": d["sets"].copy(),
                "round_scores": d["round_scores"][:],
                "round_bonus": d["round_bonus"],
                "tasks": d["tasks"][:],
                "revealed_tasks": d["revealed_tasks"][:],
                "ninjas": d["ninjas"],
            },
        )


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
        """The state ``apply`` builds the next one in, sharing everything an action may leave alone.

        Copying every player and pile on each action dominated random play, so only the containers are
        new: the top-level lists (so a handler may append to ``drawn_from``, pop ``stack`` or assign
        ``piles[i]``), never their contents. PlayerStates, the pile lists inside ``piles``, Decision
        frames and the Rng stay shared with ``self``; code writing the successor therefore replaces
        them (``own_player``, ``piles[i] = ...``, ``rng.clone()``) and never changes one in place.
        """
        d = self.__dict__.copy()
        d["drawn_from"] = d["drawn_from"][:]
        d["piles"] = d["piles"][:]
        d["players"] = d["players"][:]
        d["stack"] = d["stack"][:]
        d["reveal_queue"] = d["reveal_queue"][:]
        d["round_reveals"] = d["round_reveals"][:]
        d["rounds"] = d["rounds"][:]
        return build(CtgState, d)

    def own_player(self, idx: int) -> PlayerState:
        """Player ``idx`` as a copy only this state holds, ready to change (see ``successor``)."""
        player = self.players[idx].clone()
        self.players[idx] = player
        return player

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
        d = self.__dict__
        return build(
            PlayerState,
            {
                "seat": d["seat"],
                "hand": list(d["hand"]),
                "sets": dict(d["sets"]),
                "round_scores": list(d["round_scores"]),
                "round_bonus": d["round_bonus"],
                "tasks": list(d["tasks"]),
                "revealed_tasks": list(d["revealed_tasks"]),
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
        for i, p in enumerate(self.players):
            if p.seat == seat:
                return i
        return None

    def clone(self) -> CtgState:
        """A copy the engine may mutate freely; ``apply`` works on one so a rejected action costs nothing."""
        d = dict(self.__dict__)
        d["rng"] = d["rng"].clone()
        d["drawn_from"] = list(d["drawn_from"])
        d["piles"] = [list(p) for p in d["piles"]]
        d["players"] = [p.clone() for p in d["players"]]
        d["stack"] = [f.clone() for f in d["stack"]]
        d["reveal_queue"] = list(d["reveal_queue"])
        d["round_reveals"] = list(d["round_reveals"])
        d["rounds"] = list(d["rounds"])
        return build(CtgState, d)

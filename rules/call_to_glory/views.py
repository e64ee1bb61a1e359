"""What one seat (or the public) may see. Hands, deck order and unrevealed tasks stay with their owner."""

from __future__ import annotations

from pydantic import BaseModel

from rules.call_to_glory.state import DISCARD1, DISCARD2, PILE_NAMES, CtgState, RoundRecord
from rules.core import GameResult, Prompt
from rules.core.fastmodel import builder


class PlayerView(BaseModel):
    seat: str
    hand: list[int] | None  # only in the owner's own view
    hand_count: int
    sets: dict[int, int]
    ninjas: int
    round_scores: list[int]
    total: int
    tasks: list[str] | None  # only in the owner's own view
    task_count: int
    revealed_tasks: list[str]


class CtgView(BaseModel):
    game: str
    viewer: str | None
    round: int
    rounds_total: int
    first_seat: str
    current_seat: str
    phase: str
    turn: int
    drawn_from: list[str]
    deck_counts: list[int]
    discard_tops: list[int | None]
    discard_counts: list[int]
    ninja_supply: int
    imperial_tasks: bool
    ninja_power: bool
    players: list[PlayerView]
    pending: list[Prompt]
    rounds: list[RoundRecord]
    result: GameResult | None


def build_view(
    state: CtgState, seat: str | None, pending: list[Prompt], result: GameResult | None
) -> CtgView:
    """The view of ``state`` for ``seat`` (None: the public one). Built without validation (``fastmodel``):
    every part is made here, fresh, from the engine's own valid state, and the bot builds a view for every
    message after a move (validating them cost about a twelfth of a click)."""
    players = [
        _player({
            "seat": p.seat,
            "hand": list(p.hand) if p.seat == seat else None,
            "hand_count": len(p.hand),
            "sets": dict(sorted(p.sets.items())),
            "ninjas": p.ninjas,
            "round_scores": list(p.round_scores),
            "total": p.total,
            "tasks": list(p.tasks) if p.seat == seat else None,
            "task_count": len(p.tasks),
            "revealed_tasks": list(p.revealed_tasks),
        })
        for p in state.players
    ]
    piles = state.piles
    discards = (piles[DISCARD1], piles[DISCARD2])
    options = state.options
    return _view({
        "game": state.game,
        "viewer": seat,
        "round": state.round,
        "rounds_total": state.rounds_total,
        "first_seat": state.players[state.first].seat,
        "current_seat": state.players[state.current].seat,
        "phase": state.phase,
        "turn": state.turn,
        "drawn_from": [PILE_NAMES[i] for i in state.drawn_from],
        "deck_counts": [len(piles[0]), len(piles[1])],
        "discard_tops": [d[-1] if d else None for d in discards],
        "discard_counts": [len(d) for d in discards],
        "ninja_supply": state.ninja_supply,
        "imperial_tasks": options.imperial_tasks,
        "ninja_power": options.ninja_power,
        "players": players,
        "pending": list(pending),
        "rounds": list(state.rounds),
        "result": result,
    })


_view = builder(CtgView)
_player = builder(PlayerView)

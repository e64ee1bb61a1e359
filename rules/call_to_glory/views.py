"""What one seat (or the public) may see. Hands, deck order and unrevealed tasks stay with their owner."""

from __future__ import annotations

from pydantic import BaseModel

from rules.call_to_glory.state import DISCARD1, DISCARD2, PILE_NAMES, CtgState, RoundRecord
from rules.core import GameResult, Prompt


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
    players = [
        PlayerView(
            seat=p.seat,
            hand=list(p.hand) if p.seat == seat else None,
            hand_count=len(p.hand),
            sets=dict(sorted(p.sets.items())),
            ninjas=p.ninjas,
            round_scores=list(p.round_scores),
            total=p.total,
            tasks=list(p.tasks) if p.seat == seat else None,
            task_count=len(p.tasks),
            revealed_tasks=list(p.revealed_tasks),
        )
        for p in state.players
    ]
    discards = (state.piles[DISCARD1], state.piles[DISCARD2])
    return CtgView(
        game=state.game,
        viewer=seat,
        round=state.round,
        rounds_total=state.rounds_total,
        first_seat=state.players[state.first].seat,
        current_seat=state.players[state.current].seat,
        phase=state.phase,
        turn=state.turn,
        drawn_from=[PILE_NAMES[i] for i in state.drawn_from],
        deck_counts=[len(state.piles[0]), len(state.piles[1])],
        discard_tops=[d[-1] if d else None for d in discards],
        discard_counts=[len(d) for d in discards],
        ninja_supply=state.ninja_supply,
        imperial_tasks=state.options.imperial_tasks,
        ninja_power=state.options.ninja_power,
        players=players,
        pending=pending,
        rounds=list(state.rounds),
        result=result,
    )

"""``rules.ai.hint``: the engine side of a player's 💡 Hint (issue 27), asked of every registered game.

The hint must never peek (two states the seat cannot tell apart, drawn with ``determinize``, get the
same hint), never suggest an illegal move, never change the state it is asked about, and be the AI
seat's own search (its best move is the move an AI seat with the same seed would make). The "easy"
budget keeps the suite quick; the search is the same at every level."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules import registry
from rules.ai import HintMove, choose_action, hint
from rules.ai.hooks import hooks_for
from rules.core import GameSpec, Rng

GAMES = sorted(spec.id for spec in registry.all())


def _position(spec: GameSpec, moves: int) -> tuple[Any, str]:
    """A state ``moves`` random actions into a game at the smallest table, and the seat that must act,
    picked among positions with a real choice."""
    engine = spec.engine
    seats = [f"s{i}" for i in range(max(2, spec.min_seats))]
    rnd = random.Random(moves)
    state = engine.new_game(seats, spec.options_model(), 7)
    chosen: tuple[Any, str] | None = None
    for _ in range(moves):
        prompts = engine.pending(state)
        if not prompts:
            break
        seat = prompts[0].seat
        legal = engine.legal_actions(state, seat)
        if len(legal) > 1:
            chosen = (state, seat)
        state, _ = engine.apply(state, seat, rnd.choice(legal))
    assert chosen is not None, f"{spec.id}: no choice in {moves} moves"
    return chosen


def _same(a: list[HintMove], b: list[HintMove]) -> bool:
    return [(m.action.model_dump_json(), m.win_share, m.simulations) for m in a] == [
        (m.action.model_dump_json(), m.win_share, m.simulations) for m in b
    ]


def test_every_registered_game_is_covered() -> None:
    assert len(GAMES) >= 5


@pytest.mark.parametrize("game", GAMES)
def test_hint_is_legal_ranked_and_leaves_the_state_alone(game: str) -> None:
    spec = registry.get(game)
    state, seat = _position(spec, 25)
    before = state.model_dump_json()
    moves = hint(spec, state, seat, seed=3, level="easy")
    assert state.model_dump_json() == before
    legal = spec.engine.legal_actions(state, seat)
    assert 1 <= len(moves) <= 3
    assert all(m.action in legal for m in moves)
    assert all(m.simulations > 0 and 0.0 <= m.win_share <= 1.0 for m in moves)
    assert [m.simulations for m in moves] == sorted((m.simulations for m in moves), reverse=True)
    assert len({m.action.model_dump_json() for m in moves}) == len(moves)
    assert sum(m.simulations for m in moves) <= hooks_for(spec).iterations["easy"]


@pytest.mark.parametrize("game", GAMES)
def test_hint_depends_only_on_what_the_seat_sees(game: str) -> None:
    spec = registry.get(game)
    state, seat = _position(spec, 40)
    twin = spec.engine.determinize(state, seat, Rng.from_seed(12345))
    assert spec.engine.view(twin, seat) == spec.engine.view(state, seat)
    # The twin must really differ where the seat cannot look (another deal of the face-down piles), or the
    # equality below would prove nothing.
    assert spec.engine.hidden_piles(twin) != spec.engine.hidden_piles(state)
    assert _same(hint(spec, state, seat, seed=9, level="easy"), hint(spec, twin, seat, seed=9, level="easy"))


@pytest.mark.parametrize("game", GAMES)
def test_the_best_hint_is_the_ai_seats_move(game: str) -> None:
    """Same search, same seed: an AI seat in the player's place would make the hint's first move (at a
    level where the game searches rather than plays its hand-written policy)."""
    spec = registry.get(game)
    state, seat = _position(spec, 30)
    assert "easy" not in hooks_for(spec).policy_levels
    assert hint(spec, state, seat, seed=4, level="easy")[0].action == choose_action(
        spec, state, seat, seed=4, level="easy"
    )


def test_top_limits_the_list_and_bad_requests_are_refused() -> None:
    spec = registry.get("call_to_glory")
    state, seat = _position(spec, 25)
    assert len(hint(spec, state, seat, seed=1, level="easy", top=1)) == 1
    idle = next(s for s in state.model_dump()["players"] if s["seat"] != seat)["seat"]
    with pytest.raises(ValueError):
        hint(spec, state, idle, seed=1, level="easy")
    with pytest.raises(ValueError):
        hint(spec, state, seat, seed=1, level="insane")
    with pytest.raises(ValueError):
        hint(spec, state, seat, seed=1, level="easy", top=0)

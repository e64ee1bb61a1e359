"""Free moves that undo themselves must not let a seat keep a game from ending: the searcher and the
greedy baseline of ``benchmarks/greedy.py`` both weigh only what the game's ``prune`` hook keeps. Before
it, a greedy Cthulhu Wars: Duel seat opened and cancelled Moves for ever and a greedy Fluxx seat cycled
the Necronomicon under Play All, and lines of ``benchmarks/ai.py`` against greedy never finished."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from benchmarks import ai as ai_bench
from benchmarks.greedy import greedy_action
from rules import registry
from rules.ai.hooks import hooks_for
from rules.cthulhu_wars_duel.actions import CancelMove, Move
from rules.fluxx_cthulhu.actions import UsePower


def _play_out(game: str, seed: int, greedy_seats: set[str], cap: int) -> int:
    """Moves until the game ended (greedy seats against uniform random ones); fails past ``cap``."""
    spec = registry.get(game)
    engine = spec.engine
    rnd = random.Random(seed)
    state = engine.new_game(["seat0", "seat1"], spec.options_model(), seed)
    moves = 0
    while prompts := engine.pending(state):
        assert moves < cap, f"{game} game {seed} still running after {cap} moves"
        seat = prompts[0].seat
        legal = engine.legal_actions(state, seat)
        act = greedy_action(spec, state, seat, rnd) if seat in greedy_seats else rnd.choice(legal)
        state, _ = engine.apply(state, seat, act)
        moves += 1
    return moves


def test_cwd_search_and_baseline_never_back_out_of_a_move() -> None:
    """CWD-R34: a Move opened with nothing moved yet may be cancelled for free; the hooks leave that out."""
    spec = registry.get("cthulhu_wars_duel")
    engine = spec.engine
    rnd = random.Random(1)
    state = engine.new_game(["a", "b"], spec.options_model(), 1)
    for _ in range(400):
        seat = engine.pending(state)[0].seat
        legal = engine.legal_actions(state, seat)
        if any(isinstance(a, Move) for a in legal):
            state, _ = engine.apply(state, seat, next(a for a in legal if isinstance(a, Move)))
            break
        state, _ = engine.apply(state, seat, rnd.choice(legal))
    else:
        pytest.fail("no Move came up")
    legal = engine.legal_actions(state, seat)
    assert any(isinstance(a, CancelMove) for a in legal)
    kept = hooks_for(spec).prune(state, seat, legal)  # type: ignore[misc]
    assert kept and not any(isinstance(a, CancelMove) for a in kept)
    assert [a for a in legal if not isinstance(a, CancelMove)] == kept


@pytest.mark.parametrize("seed", range(4))
def test_cwd_games_with_a_greedy_seat_end(seed: int) -> None:
    assert _play_out("cthulhu_wars_duel", seed, {"seat0", "seat1"}, 1500) > 0


def test_fluxx_necronomicon_is_dropped_only_late_in_a_turn() -> None:
    """FLX-R6 (Play All plays the whole hand) with card K01 (the Necronomicon's free power sends it back
    to hand): without a bound the turn can go on for ever; the hooks stop offering the power after a dozen
    plays in one turn."""
    spec = registry.get("fluxx_cthulhu")
    state = spec.engine.new_game(["a", "b"], spec.options_model(), 3)
    me, rival = state.players[state.current], state.players[1 - state.current]
    for card in ("necronomicon", "the_body"):
        for zone in (state.deck, state.discard, *(p.hand for p in state.players)):
            if card in zone:
                zone.remove(card)
    me.keepers.append("necronomicon")
    rival.creepers.append("the_body")
    state.rules = ["play_all"]
    state.phase = "play"
    legal = spec.engine.legal_actions(state, me.seat)
    necro = [a for a in legal if isinstance(a, UsePower) and a.card == "necronomicon"]
    assert necro, legal
    prune = hooks_for(spec).prune
    assert prune is not None
    assert prune(state, me.seat, legal) == legal
    state.played = 12
    assert prune(state, me.seat, legal) == [a for a in legal if a not in necro]


def test_fluxx_game_that_cycled_the_necronomicon_ends() -> None:
    """Game 5 of a greedy seat against a random one cycled the Necronomicon for thousands of moves."""
    assert _play_out("fluxx_cthulhu", 5, {"seat1"}, 1500) > 0


def test_a_game_past_the_move_cap_is_recorded_not_waited_for(tmp_path: Path) -> None:
    """benchmarks/ai.py stops a game at its move cap and records it as nobody's win (a loss for the AI),
    so a pair of players that keeps a game going can no longer hang a line; the summary counts it."""
    spec = registry.get("cthulhu_wars_duel")
    ledger = tmp_path / "ledger.jsonl"
    out = ai_bench.versus(
        spec, 2, 1, "easy", "random", spec.options_model(), 0, ledger=ledger, move_cap=12
    )
    (row,) = ai_bench.read_ledger(ledger)
    assert row["reason"] == "move_cap" and row["winners"] == [] and row["capped"] == 12
    assert out["capped"] == 1 and out["ai_wins"] == 0 and out["outcomes"] == {"nobody_won:move_cap": 1}
    assert ai_bench.check(ledger, 1, 0)[0]["same"]  # a capped game replays to the same cap


def test_wilson_interval_matches_the_textbook_figures() -> None:
    assert ai_bench.wilson(9, 10) == (0.596, 0.982)
    assert ai_bench.wilson(0, 10) == (0.0, 0.278)
    assert ai_bench.wilson(0, 0) == (0.0, 1.0)

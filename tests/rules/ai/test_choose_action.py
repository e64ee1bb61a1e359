"""``rules.ai.choose_action`` on every game: a legal action, the same one for states a seat cannot tell
apart (its view is equal), the same one for the same seed, and legal all along games against random
seats. Budgets are the "easy" level to keep the suite quick; the search code is the same at every level."""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import random
from typing import Any

import pytest

from rules import registry
from rules.ai import LEVELS, choose_action, hint
from rules.ai.hooks import GameAI, hooks_for
from rules.ai.search import Searcher
from rules.core import RuleError
from tests.rules.ai.checks import check_choices, play_with_ai

# game id -> (seats, random actions between checked positions, steps per game at most)
GAMES = {
    "call_to_glory": (["a", "b", "c"], 53, 200),
    "fluxx_cthulhu": (["a", "b", "c"], 7, 120),
    "cthulhu_wars_duel": (["a", "b"], 9, 150),
    "coc_lcg": (["a", "b"], 41, 500),
    "eldritch_horror": (["a", "b"], 9, 80),
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_same_view_same_action(game: str) -> None:
    spec = registry.get(game)
    seats, every, limit = GAMES[game]
    assert check_choices(spec, seats, spec.options_model(), games=1, every=every, limit=limit) >= 5


@pytest.mark.parametrize("game", sorted(GAMES))
def test_ai_actions_are_legal_in_play(game: str) -> None:
    spec = registry.get(game)
    seats, _, limit = GAMES[game]
    assert play_with_ai(spec, seats, spec.options_model(), seats[-1], seed=3, limit=limit) >= 5


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_brings_its_own_hooks(game: str) -> None:
    ai = hooks_for(registry.get(game))
    assert ai.evaluate is not None and set(ai.iterations) == set(LEVELS)
    assert ai.iterations["easy"] < ai.iterations["normal"] < ai.iterations["hard"]


def test_same_seed_same_action_and_seeds_matter() -> None:
    spec = registry.get("fluxx_cthulhu")
    state = spec.engine.new_game(["a", "b"], spec.options_model(), 11)
    seat = spec.engine.pending(state)[0].seat
    first = choose_action(spec, state, seat, seed=5, level="easy")
    assert choose_action(spec, state, seat, seed=5, level="easy") == first
    assert first in spec.engine.legal_actions(state, seat)


def test_a_single_legal_action_is_returned_without_search(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = registry.get("call_to_glory")
    state = spec.engine.new_game(["a", "b"], spec.options_model(), 1)
    seat = spec.engine.pending(state)[0].seat
    only = spec.engine.legal_actions(state, seat)[:1]
    monkeypatch.setattr(type(spec.engine), "legal_actions", lambda self, s, who: list(only))
    monkeypatch.setattr("rules.ai.hooks_for", lambda _: pytest.fail("searched a forced move"))
    assert choose_action(spec, state, seat, seed=0) == only[0]


def test_unknown_level_and_idle_seat_are_refused() -> None:
    spec = registry.get("call_to_glory")
    state = spec.engine.new_game(["a", "b"], spec.options_model(), 1)
    seat = spec.engine.pending(state)[0].seat
    other = "b" if seat == "a" else "a"
    with pytest.raises(ValueError):
        choose_action(spec, state, seat, seed=0, level="insane")
    with pytest.raises(ValueError):
        choose_action(spec, state, other, seed=0)


def test_a_budget_hook_sizes_every_search_of_a_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    # A game may size a decision's search by the table (GameAI.budget); an AI seat's move and a player's
    # hint are the same search, so both ask it, with the level they run at.
    spec = registry.get("fluxx_cthulhu")
    state = spec.engine.new_game(["a", "b", "c"], spec.options_model(), 11)
    seat = spec.engine.pending(state)[0].seat
    asked: list[str] = []
    hooks = dataclasses.replace(hooks_for(spec), budget=lambda s, level: asked.append(level) or 9)
    monkeypatch.setattr("rules.ai.hooks_for", lambda _: hooks)
    monkeypatch.setattr(importlib.import_module("rules.ai.hint"), "hooks_for", lambda _: hooks)
    searched: list[int] = []
    ranked = Searcher.ranked

    def counted(self: Searcher, st: Any, who: str, acts: list[Any], n: int) -> Any:
        searched.append(n)
        return ranked(self, st, who, acts, n)

    monkeypatch.setattr(Searcher, "ranked", counted)
    choose_action(spec, state, seat, seed=1, level="easy")
    assert sum(m.simulations for m in hint(spec, state, seat, seed=1, level="hard", top=50)) <= 9
    assert searched == [9, 9] and asked == ["easy", "hard"]
    assert GameAI().iterations_for(state, "normal") == GameAI().iterations["normal"]


def test_a_game_without_hooks_gets_working_defaults() -> None:
    ai = GameAI()
    assert ai.evaluate is None and ai.rollout is None and ai.iterations["normal"] > 0
    assert ai.policy is None and not ai.policy_levels  # every level searches unless a game opts out


def test_a_move_illegal_in_some_samples_leaves_no_unvisited_node(monkeypatch: pytest.MonkeyPatch) -> None:
    """A move some determinizations do not allow drops its iteration, and the node that iteration added
    goes with it: UCB1 divides by a node's visits (an LCG game of benchmarks/ai.py stopped on exactly this
    with a ZeroDivisionError)."""
    spec = registry.get("call_to_glory")
    state = spec.engine.new_game(["a", "b"], spec.options_model(), 1)
    seat = spec.engine.pending(state)[0].seat
    legal = spec.engine.legal_actions(state, seat)
    assert len(legal) > 1
    engine_type = type(spec.engine)
    picky, real_apply, real_sample = legal[0], engine_type.apply, engine_type.determinize
    samples: dict[int, Any] = {}  # id -> the sample, kept alive so that no later state reuses its id
    tries = itertools.count()

    def determinize(engine: Any, s: Any, who: str, rng: Any) -> Any:
        sample = real_sample(engine, s, who, rng)
        samples[id(sample)] = sample
        return sample

    def apply(engine: Any, s: Any, who: str, action: Any) -> Any:
        if id(s) in samples and action == picky and next(tries) % 2 == 0:  # every other sample refuses it
            raise RuleError("not_in_this_sample")
        return real_apply(engine, s, who, action)

    monkeypatch.setattr(engine_type, "determinize", determinize)
    monkeypatch.setattr(engine_type, "apply", apply)
    searcher = Searcher(spec, hooks_for(spec), random.Random(0))
    root_choice = searcher.run(state, seat, legal, 4 * len(legal))
    assert root_choice in legal
    assert next(tries) > 2  # the picky move was tried again after being refused


def test_hard_reads_the_best_lines_deeper_than_normal() -> None:
    """Hard's lower exploration constant puts more of the same budget into the move that looks best (at
    0.7 the visits of moves whose rewards differ by hundredths come out almost even), and every game
    keeps hard's constant at or below normal's."""
    spec = registry.get("cthulhu_wars_duel")
    state = spec.engine.new_game(["a", "b"], spec.options_model(), 3)
    seat = spec.engine.pending(state)[0].seat
    legal = Searcher(spec, hooks_for(spec), random.Random(0)).legal(state, seat)
    assert len(legal) > 2
    top = {
        level: Searcher(spec, hooks_for(spec), random.Random(0), level).ranked(state, seat, legal, 200)[0][1]
        for level in ("normal", "hard")
    }
    assert top["hard"] > top["normal"]
    for game in GAMES:
        exploration = hooks_for(registry.get(game)).exploration
        assert set(exploration) == set(LEVELS) and exploration["hard"] <= exploration["normal"]

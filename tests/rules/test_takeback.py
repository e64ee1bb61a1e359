"""The take-back barrier (issue "What players ask for next", item 1): the engines mark every step that
shows something hidden or draws on chance, and the pure rule finds the decision a seat may take back.

The marks are checked against sampling, for every game in the registry: a step reveals something to a
viewer when, over states that viewer cannot tell apart from the real one (``determinize``) and in which the
action unfolds the same way (the same kinds of events), the action leaves that viewer's view different.
Every such step must be marked (a mark without a reveal is allowed: it only refuses a take-back that would
have been harmless). Worlds where the action unfolds otherwise (another seat's card forced out of its hand)
are their own steps, marked when they happen.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from rules import registry
from rules.core import Event, GameSpec, Rng, RuleError
from rules.core.takeback import LoggedStep, replay_marked, takeback_point

SAMPLES = 4
STEPS = 160


def _seats(spec) -> list[str]:
    return [str(i) for i in range(1, max(2, spec.min_seats) + 1)]


def _shows_something(spec, before, seat, action, kinds, viewers, seed: int) -> bool:
    engine = spec.engine
    for viewer in viewers:
        rng = Rng.from_seed(seed)
        seen: set[str] = set()
        for _ in range(SAMPLES):
            sample = engine.determinize(before, viewer, rng)
            try:
                after, events = engine.apply(sample, seat, action)
            except RuleError:
                continue  # the action is only possible in some of the worlds the viewer imagines
            if [e.type for e in events] != kinds:
                continue
            seen.add(engine.view(after, viewer).model_dump_json())
            if len(seen) > 1:
                return True
    return False


@dataclass(frozen=True)
class Walked:
    """One step of a random game: the state before, who moved, what, and what it led to."""

    before: Any
    seat: str
    action: Any
    after: Any
    events: list[Event]


def _random_steps(spec: GameSpec, seats: list[str], seed: int, steps: int) -> Iterator[Walked]:
    rnd = random.Random(seed)
    state = spec.engine.new_game(seats, spec.options_model(), seed)
    for _ in range(steps):
        prompts = spec.engine.pending(state)
        if not prompts:
            return
        seat = prompts[0].seat
        action = rnd.choice(spec.engine.legal_actions(state, seat))
        after, events = spec.engine.apply(state, seat, action)
        yield Walked(state, seat, action, after, events)
        state = after


@pytest.mark.parametrize("game_id", [spec.id for spec in registry.all()])
def test_every_reveal_is_marked(game_id: str) -> None:
    spec = registry.get(game_id)
    seats = _seats(spec)
    marked = 0
    for step, w in enumerate(_random_steps(spec, seats, 7, STEPS)):
        if spec.engine.reveals(w.before, w.after, w.events):
            marked += 1
        elif _shows_something(spec, w.before, w.seat, w.action, [e.type for e in w.events], seats, seed=step):
            pytest.fail(f"{game_id}: step {step} ({w.action!r}) shows something hidden but is not marked")
    assert marked > 0, "a random game draws or shows something at least once"


def test_a_seat_takes_back_its_last_decision_with_its_own_automatic_steps() -> None:
    steps = [LoggedStep("a", auto=False, reveals=False), LoggedStep("b", auto=False, reveals=False),
             LoggedStep("b", auto=True, reveals=False)]
    assert takeback_point(steps, "b") == 1


def test_another_seats_move_is_a_barrier_even_an_automatic_one() -> None:
    steps = [LoggedStep("a", auto=False, reveals=False), LoggedStep("b", auto=True, reveals=False)]
    assert takeback_point(steps, "a") is None


def test_a_reveal_after_the_decision_or_in_it_is_a_barrier() -> None:
    assert takeback_point([LoggedStep("a", False, False), LoggedStep("a", True, True)], "a") is None
    assert takeback_point([LoggedStep("a", False, True)], "a") is None


def test_nothing_to_take_back_without_a_decision() -> None:
    assert takeback_point([], "a") is None
    assert takeback_point([LoggedStep("a", auto=True, reveals=False)], "a") is None


def test_ctg_a_draw_is_a_barrier_and_laying_a_set_is_not() -> None:
    """CTG-R4, CTG-R5: a turn opens with a draw (from a face-down pile, or a discard top, which shows the
    card under it), so only what a player does after drawing can be taken back."""
    spec = registry.get("call_to_glory")
    kinds: dict[str, set[bool]] = {}
    face_down = {"deck1", "deck2"}
    for w in _random_steps(spec, ["1", "2"], 3, 300):
        kind = "draw_face_down" if w.action.type == "draw" and w.action.pile in face_down else w.action.type
        kinds.setdefault(kind, set()).add(spec.engine.reveals(w.before, w.after, w.events))
    assert kinds["draw_face_down"] == {True}
    assert False in kinds["lay_out"]


def test_replay_marked_rebuilds_the_state_to_rewind_to() -> None:
    spec = registry.get("fluxx_cthulhu")
    seats = ["1", "2"]
    walked = list(_random_steps(spec, seats, 11, 40))
    log = [(w.seat, spec.dump_action(w.action), False) for w in walked]
    states = [w.before for w in walked]
    replayed = list(replay_marked(spec, seats, spec.options_model(), 11, log))
    assert [before for before, _ in replayed] == states
    marks = [step for _, step in replayed]
    found = 0
    for end in range(1, len(marks) + 1):
        point = takeback_point(marks[:end], marks[end - 1].seat)
        if point is not None:
            found += 1
            assert {m.seat for m in marks[point:end]} == {marks[end - 1].seat}
            assert not marks[point].auto and not any(m.reveals for m in marks[point:end])
    assert found > 0, "some decision in forty steps of Fluxx can be taken back"

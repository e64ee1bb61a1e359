"""The glance: the engine's answers about one version of a game, each asked once however many surfaces
read them, and the session service handing every reader of a version the same glance."""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, cast

import pytest

from bot.sessions import SessionService
from bot.storage import open_store
from bot.table.glance import Glance
from rules import registry
from rules.core import GameSpec

COUNTED = ("pending", "legal_actions", "view", "result")


class Counting:
    """An engine that counts what it is asked (and answers as the real one does)."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.engine, name)
        if name not in COUNTED:
            return method

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return method(*args, **kwargs)
        return counted


class CountingSpec:
    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.engine = Counting(spec.engine)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.spec, name)


def test_every_answer_is_asked_of_the_engine_once() -> None:
    real = registry.get("call_to_glory")
    spec = CountingSpec(real)
    state = real.engine.new_game(["1", "2"], real.options_model(), 7)
    glance = Glance(cast(GameSpec, spec), state)
    seat = real.engine.pending(state)[0].seat
    for _ in range(3):
        assert glance.prompts == tuple(real.engine.pending(state))
        assert glance.owing == {seat} and glance.waiting() == [seat]
        assert glance.view(seat) == real.engine.view(state, seat)
        assert glance.view(None) == real.engine.view(state, None)
        assert glance.legal(seat) == real.engine.legal_actions(state, seat)
        assert glance.result is None
    assert spec.engine.calls == {"pending": 1, "view": 2, "legal_actions": 1, "result": 1}


def test_a_caller_that_changes_its_legal_actions_changes_no_one_elses() -> None:
    spec = registry.get("call_to_glory")
    state = spec.engine.new_game(["1", "2"], spec.options_model(), 7)
    glance = Glance(spec, state)
    seat = glance.waiting()[0]
    mine = glance.legal(seat)
    mine.clear()
    assert glance.legal(seat) == spec.engine.legal_actions(state, seat) != []


def test_prompts_the_caller_already_has_are_not_asked_again() -> None:
    real = registry.get("call_to_glory")
    spec = CountingSpec(real)
    state = real.engine.new_game(["1", "2"], real.options_model(), 7)
    glance = Glance(cast(GameSpec, spec), state, prompts=real.engine.pending(state))
    assert glance.owing and spec.engine.calls["pending"] == 0


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[SessionService]:
    store = await open_store(f"sqlite:///{tmp_path / 's.sqlite3'}")
    yield SessionService(store)
    await store.close()


async def test_a_commit_asks_for_the_prompts_once_and_hands_its_readers_the_same_answers(
        service: SessionService, monkeypatch: pytest.MonkeyPatch) -> None:
    rec = await service.open_lobby(guild_id=1, channel_id=10, game_id="eldritch_horror", host_id=1,
                                   options={"pick": "random"}, locale="en", host_name="Ann")
    await service.join(rec.id, 2, "Bob")
    rec, _state = await service.start(rec.id, 1)
    spec = registry.get("eldritch_horror")
    calls: Counter[str] = Counter()
    pending = type(spec.engine).pending

    def counted(engine: Any, state: Any) -> Any:
        calls["pending"] += 1
        return pending(engine, state)
    monkeypatch.setattr(type(spec.engine), "pending", counted)
    for _ in range(6):
        rec, spec, state = await service.load(rec.id)
        assert state is not None
        before = service.glance(rec, state)
        seat = before.waiting()[0]
        calls.clear()
        outcome = await service.act(rec.id, int(seat), rec.version, before.legal(seat)[0])
        # One look at the new state: the one before is the last commit's.
        assert calls["pending"] == 1
        assert outcome.table.prompts_before == before.prompts
        assert outcome.table.owing_after == {p.seat for p in outcome.table.prompts_after}
        assert outcome.table.prompts_after == outcome.glance.prompts
        rec, spec, state = await service.load(rec.id)
        assert state is not None
        assert service.glance(rec, state) is outcome.glance, "the readers of this version share its answers"


async def test_a_change_that_commits_no_move_has_the_outcome_a_move_would_have_left(service: SessionService) -> None:
    """A start, an abandoned game: the same TableOutcome every surface reads after a move."""
    rec = await service.open_lobby(guild_id=1, channel_id=10, game_id="call_to_glory", host_id=1,
                                   options={}, locale="en", host_name="Ann")
    await service.join(rec.id, 2, "Bob")
    rec, state = await service.start(rec.id, 1)
    standing = await service.standing(rec, state)
    assert standing.owing_after == service.glance(rec, state).owing and standing.owing_before == frozenset()
    assert standing.humans == {"1": 1, "2": 2} and not standing.over and standing.endings == {}
    ended = await service.abandon(rec.id, 1, can_manage=False)
    after = await service.standing(ended, state)
    assert after.over and after.owing_after == frozenset() and after.endings == {} and after.result is None

"""Durable timers, on every backend: add, move, cancel by (session, kind, seat); the next due time; claims
that hand each due timer to exactly one of several processes; the session version each timer carries; a
firing that fails is tried again with backoff (``TimerService``, its clock injected)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.storage import SessionNotFound, Store, Timer
from bot.timers import TimerService

from .conftest import Backend
from .helpers import CHANNEL, running

T0 = datetime(2026, 11, 24, 20, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


async def test_add_move_cancel(store: Store) -> None:
    game = await running(store)
    turn = await store.set_timer(game.id, "turn", "0", at(30), game.version)
    assert turn == Timer(session_id=game.id, kind="turn", seat="0", due_at=at(30), version=game.version)
    idle = await store.set_timer(game.id, "idle", None, at(3600), game.version)
    assert idle.seat is None
    moved = await store.set_timer(game.id, "turn", "0", at(45), game.version + 1)  # same key: moved
    assert (moved.due_at, moved.version) == (at(45), game.version + 1)
    assert await store.timers(game.id) == [moved, idle]
    assert await store.cancel_timer(game.id, "turn", "0") is True
    assert await store.cancel_timer(game.id, "turn", "0") is False
    assert await store.timers(game.id) == [idle]


async def test_a_timer_needs_its_session(store: Store) -> None:
    with pytest.raises(SessionNotFound):
        await store.set_timer(999, "turn", "0", at(1), 1)


async def test_next_due_and_claiming(store: Store) -> None:
    assert await store.next_timer_at() is None
    game = await running(store)
    other = await running(store, CHANNEL + 1)
    await store.set_timer(game.id, "turn", "0", at(10), 5)
    await store.set_timer(other.id, "turn", "1", at(5), 7)
    await store.set_timer(game.id, "idle", None, at(100), 5)
    assert await store.next_timer_at() == at(5)
    assert await store.claim_due_timers(at(4)) == []  # nothing due yet
    claimed = await store.claim_due_timers(at(10), lease=30)
    assert [(t.session_id, t.kind, t.version) for t in claimed] == [(other.id, "turn", 7), (game.id, "turn", 5)]
    assert all(t.claimed_until == at(40) for t in claimed)
    assert await store.claim_due_timers(at(20)) == []  # held: nobody else gets them
    assert await store.next_timer_at() == at(40)  # a lapsed claim is the next thing claimable
    assert await store.complete_timer(claimed[0]) is True
    # its holder died: after the lease another process claims the other one again, same version
    again = await store.claim_due_timers(at(41), lease=30)
    assert [(t.session_id, t.kind, t.version) for t in again] == [(game.id, "turn", 5)]
    assert await store.next_timer_at() == at(71)


async def test_a_timer_moved_after_its_claim_is_not_completed_away(store: Store) -> None:
    game = await running(store)
    await store.set_timer(game.id, "turn", "0", at(1), game.version)
    (claimed,) = await store.claim_due_timers(at(2))
    moved = await store.set_timer(game.id, "turn", "0", at(60), game.version + 1)  # a move re-armed it
    assert moved.claimed_until is None  # moving drops the claim
    assert await store.complete_timer(claimed) is False
    assert await store.timers(game.id) == [moved]


async def test_claim_limit_takes_the_soonest(store: Store) -> None:
    game = await running(store)
    for seat in range(5):
        await store.set_timer(game.id, "turn", str(seat), at(10 - seat), game.version)
    first = await store.claim_due_timers(at(100), limit=2)
    assert [t.seat for t in first] == ["4", "3"]
    assert len(await store.claim_due_timers(at(100), limit=10)) == 3


async def test_moving_a_timer_keeps_one_row(store: Store) -> None:
    """A turn clock re-armed after every move stays one row per key, however often it moves."""
    game = await running(store)
    for i in range(20):
        await store.set_timer(game.id, "turn", "0", at(i), game.version + i)
    assert len(await store.timers(game.id)) == 1


async def test_concurrent_processes_claim_each_due_timer_exactly_once(backend: Backend) -> None:
    """Four stores (four bot processes) claim in a loop while timers fall due: every timer is handed out
    once in all, never twice."""
    stores = [backend.new_store() for _ in range(4)]
    for s in stores:
        await s.open()
    try:
        games = [await running(stores[0], CHANNEL + i) for i in range(10)]
        for g in games:
            for seat in range(6):
                await stores[0].set_timer(g.id, "turn", str(seat), at(seat), g.version)
        got: list[tuple[int, str | None]] = []

        async def claimer(store: Store) -> None:
            for step in range(12):
                for t in await store.claim_due_timers(at(step), limit=7, lease=3600):
                    got.append((t.session_id, t.seat))
                await asyncio.sleep(0)

        await asyncio.gather(*(claimer(s) for s in stores))
        assert sorted(got) == sorted((g.id, str(seat)) for g in games for seat in range(6))
    finally:
        for s in stores:
            await s.close()


async def test_timers_survive_a_restart(backend: Backend) -> None:
    async with backend.new_store() as first:
        game = await running(first)
        timer = await first.set_timer(game.id, "idle", None, at(600), game.version)
    async with backend.new_store() as second:
        assert await second.timers(game.id) == [timer]
        assert await second.next_timer_at() == at(600)


class FlakyFire:
    """A timer action that raises its first ``failures`` times (Discord unreachable), then succeeds."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.calls: list[Timer] = []

    async def __call__(self, timer: Timer) -> None:
        self.calls.append(timer)
        if len(self.calls) <= self.failures:
            raise ConnectionError("Discord is unreachable")


def service(store: Store, fire: FlakyFire, now: list[float]) -> TimerService:
    return TimerService(store, fire, clock=lambda: now[0])


async def test_a_timer_that_fails_twice_fires_the_third_time(store: Store) -> None:
    game = await running(store)
    fire, now = FlakyFire(2), [T0.timestamp()]
    timers = service(store, fire, now)
    await timers.set(game.id, "remind", "0", 10, game.version)
    now[0] += 10
    assert await timers.run_due() == 1 and len(fire.calls) == 1  # failed: kept, back in RETRY_FIRST seconds
    assert await store.next_timer_at() == at(10 + TimerService.RETRY_FIRST)
    now[0] += TimerService.RETRY_FIRST - 1
    assert await timers.run_due() == 0  # not yet
    now[0] += 1
    assert await timers.run_due() == 1 and len(fire.calls) == 2  # failed again: the pause doubles
    assert await store.next_timer_at() == at(10 + 3 * TimerService.RETRY_FIRST)
    now[0] += 2 * TimerService.RETRY_FIRST
    assert await timers.run_due() == 1 and len(fire.calls) == 3  # fired
    assert await store.timers(game.id) == []
    assert {t.due_at for t in fire.calls} == {at(10)}, "each try sees the time it was due, to tell how late it is"


async def test_the_pause_between_tries_is_capped(store: Store) -> None:
    game = await running(store)
    fire, now = FlakyFire(100), [T0.timestamp()]
    timers = service(store, fire, now)
    await timers.set(game.id, "remind", "0", 0, game.version)
    pauses = []
    for _ in range(10):
        await timers.run_due()
        nxt = await store.next_timer_at()
        assert nxt is not None
        pauses.append(nxt.timestamp() - now[0])
        now[0] = nxt.timestamp()
    assert pauses[:3] == [5, 10, 20] and max(pauses) == TimerService.RETRY_MAX == pauses[-1]


async def test_a_failing_timer_of_a_game_that_ended_is_dropped(store: Store) -> None:
    game = await running(store)
    fire, now = FlakyFire(1), [T0.timestamp()]
    timers = service(store, fire, now)
    await timers.set(game.id, "deadline", "0", 0, game.version)
    await store.set_status(game.id, game.version, "finished")
    assert await timers.run_due() == 1
    assert await store.timers(game.id) == []


async def test_a_retry_keeps_only_the_timer_it_claimed(store: Store) -> None:
    game = await running(store)
    await store.set_timer(game.id, "turn", "0", at(0), game.version)
    claimed = (await store.claim_due_timers(at(0)))[0]
    assert await store.retry_timer(claimed, at(5)) is True
    assert await store.claim_due_timers(at(4)) == []
    await store.set_timer(game.id, "turn", "0", at(30), game.version + 1)  # moved by a move meanwhile
    assert await store.retry_timer(claimed, at(9)) is False
    assert await store.next_timer_at() == at(30)

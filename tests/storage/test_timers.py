"""Durable timers, on every backend: add, move, cancel by (session, kind, seat); the next due time; claims
that hand each due timer to exactly one of several processes; the session version each timer carries."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.storage import SessionNotFound, Store, Timer

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

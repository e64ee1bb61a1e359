"""Requests gathered per pass of the event loop (``bot.storage.pass_batch``) and, on PostgreSQL, the pass's
delivery rows, timers and version reads sent together: each caller still gets the answer it would have
got alone, in the order the calls were made, and a refused item refuses only its own caller."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.storage import Delivery, SessionNotFound, Store, Timer
from bot.storage.pass_batch import PassBatch

from .conftest import Backend, needs_postgres
from .helpers import running

T0 = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)


class Recorder:
    """A batch runner that keeps every batch it was given; an item 'bad' is refused, 'boom' fails the batch."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []
        self.gate: asyncio.Event | None = None

    async def __call__(self, items: list[str]) -> list[str | Exception]:
        self.batches.append(list(items))
        if self.gate is not None:
            await self.gate.wait()
        if "boom" in items:
            raise RuntimeError("the database went away")
        return [ValueError(i) if i == "bad" else i.upper() for i in items]


async def passes(n: int) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


async def test_one_pass_makes_one_batch_and_each_caller_gets_its_answer() -> None:
    run = Recorder()
    batch: PassBatch[str, str] = PassBatch(run)
    answers = await asyncio.gather(*(batch.submit(x) for x in ("a", "b", "c")))
    assert answers == ["A", "B", "C"]
    assert run.batches == [["a", "b", "c"]]
    assert await batch.submit("d") == "D"  # a lone request goes at once, alone
    assert run.batches[-1] == ["d"]


async def test_a_refused_item_refuses_only_its_caller() -> None:
    batch: PassBatch[str, str] = PassBatch(Recorder())
    answers = await asyncio.gather(batch.submit("a"), batch.submit("bad"), batch.submit("c"), return_exceptions=True)
    assert answers[0] == "A" and answers[2] == "C"
    assert isinstance(answers[1], ValueError)


async def test_a_failed_batch_tells_every_caller() -> None:
    batch: PassBatch[str, str] = PassBatch(Recorder())
    answers = await asyncio.gather(batch.submit("a"), batch.submit("boom"), return_exceptions=True)
    assert all(isinstance(a, RuntimeError) for a in answers)
    assert await batch.submit("e") == "E"  # and the next pass works again


async def test_requests_made_while_a_batch_is_out_wait_for_the_next_and_drain_waits_for_all() -> None:
    run = Recorder()
    run.gate = asyncio.Event()
    batch: PassBatch[str, str] = PassBatch(run)
    first = asyncio.ensure_future(batch.submit("a"))
    await passes(3)  # the caller submits, the pass ends, the batch's task starts
    assert run.batches == [["a"]]  # out, and held at the gate
    later = [asyncio.ensure_future(batch.submit(x)) for x in ("b", "c")]
    await passes(3)
    assert run.batches == [["a"]]  # nothing overtakes the batch in flight
    run.gate.set()
    await batch.drain()
    assert run.batches == [["a"], ["b", "c"]]
    assert [first.result(), *(f.result() for f in later)] == ["A", "B", "C"]


async def test_a_cancelled_caller_leaves_the_others_their_answers() -> None:
    run = Recorder()
    run.gate = asyncio.Event()
    batch: PassBatch[str, str] = PassBatch(run)
    gone = asyncio.ensure_future(batch.submit("a"))
    kept = asyncio.ensure_future(batch.submit("b"))
    await asyncio.sleep(0)
    gone.cancel()
    run.gate.set()
    assert await kept == "B"
    assert gone.cancelled()


# --- on every backend: the same answers as one call after another --------------------------------------------


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


async def test_timer_changes_made_in_one_pass_keep_their_order(store: Store) -> None:
    game = await running(store)
    answers = await asyncio.gather(
        store.set_timer(game.id, "turn", "0", at(30), game.version),
        store.cancel_timer(game.id, "turn", "0"),
        store.set_timer(game.id, "turn", "0", at(60), game.version),
        store.cancel_timer(game.id, "turn", "1"),  # never set
        store.set_timer(game.id, "idle", None, at(3600), game.version),
        store.cancel_timer(game.id, "idle", None),
        store.cancel_timer(game.id, "idle", None),
    )
    first = Timer(session_id=game.id, kind="turn", seat="0", due_at=at(30), version=game.version)
    second = Timer(session_id=game.id, kind="turn", seat="0", due_at=at(60), version=game.version)
    idle = Timer(session_id=game.id, kind="idle", seat=None, due_at=at(3600), version=game.version)
    assert answers == [first, True, second, False, idle, True, False]
    assert await store.timers(game.id) == [second]


async def test_delivery_rows_saved_in_one_pass_keep_the_newest(store: Store) -> None:
    game = await running(store)
    rows = [Delivery(session_id=game.id, user_id=user, channel_id=9, message_id=user * 10 + n, version=n)
            for n in range(3) for user in (1, 2)]
    await asyncio.gather(*(store.save_delivery(r) for r in rows))
    assert await store.deliveries(game.id) == {1: rows[4], 2: rows[5]}


async def test_a_write_for_a_missing_game_refuses_only_its_caller(store: Store) -> None:
    game = await running(store)
    answers = await asyncio.gather(
        store.set_timer(game.id + 100, "turn", "0", at(30), 1),
        store.set_timer(game.id, "turn", "0", at(30), game.version),
        store.save_delivery(Delivery(session_id=game.id, user_id=1, version=2)),
        return_exceptions=True,
    )
    assert isinstance(answers[0], SessionNotFound)
    assert answers[1] == Timer(session_id=game.id, kind="turn", seat="0", due_at=at(30), version=game.version)
    assert [t.kind for t in await store.timers(game.id)] == ["turn"]
    assert (await store.deliveries(game.id))[1].version == 2


async def test_versions_asked_in_one_pass(store: Store) -> None:
    a = await running(store, channel_id=1)
    b = await running(store, channel_id=2)
    answers = await asyncio.gather(store.version(a.id), store.version(b.id), store.version(a.id),
                                   store.version(999), return_exceptions=True)
    assert answers[:3] == [a.version, b.version, a.version]
    assert isinstance(answers[3], SessionNotFound)


@needs_postgres
@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_postgres_sends_a_pass_of_small_requests_as_one_batch(backend: Backend) -> None:
    from bot.storage.postgres import PostgresStore

    async with backend.new_store() as store:
        assert isinstance(store, PostgresStore)
        game = await running(store)
        batches: list[int] = []
        for batch in (store._writes, store._versions):  # count the batches each pass hands to the database
            run = batch._run

            async def counted(items: list[object], run: object = run) -> object:
                batches.append(len(items))
                return await run(items)  # type: ignore[operator]

            batch._run = counted  # type: ignore[assignment]
        await asyncio.gather(
            *(store.save_delivery(Delivery(session_id=game.id, user_id=u, version=1)) for u in range(20)),
            *(store.set_timer(game.id, "turn", str(s), at(s), 1) for s in range(5)),
        )
        await asyncio.gather(*(store.version(game.id) for _ in range(10)))
        assert batches == [25, 10]
        assert len(await store.deliveries(game.id)) == 20


async def test_closing_waits_for_the_writes_already_asked_for(backend: Backend) -> None:
    store = backend.new_store()
    await store.open()
    game = await running(store)
    writes = [asyncio.ensure_future(store.save_delivery(Delivery(session_id=game.id, user_id=u, version=3)))
              for u in range(5)]
    await passes(1)  # every write has been asked for; none is answered yet
    await store.close()
    assert all(w.done() and w.exception() is None for w in writes)
    async with backend.new_store() as again:
        assert sorted(await again.deliveries(game.id)) == list(range(5))


@needs_postgres
@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_postgres_writes_a_mixed_pass_in_one_go_without_falling_back(
        backend: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    """The batch itself keeps order and answers: writing one by one (the fallback for a refused batch,
    which would give the same answers) is made to fail, so only ``write_together`` can pass this."""
    import bot.storage.postgres as postgres

    async def no_fallback(*_args: object) -> None:
        raise AssertionError("the batch fell back to writing one by one")

    async with backend.new_store() as store:
        game = await running(store)
        monkeypatch.setattr(postgres, "write_one", no_fallback)
        answers = await asyncio.gather(
            store.set_timer(game.id, "turn", "0", at(30), game.version),
            store.cancel_timer(game.id, "turn", "0"),
            store.set_timer(game.id, "turn", "0", at(60), game.version),
            store.cancel_timer(game.id, "turn", "1"),
            *(store.save_delivery(Delivery(session_id=game.id, user_id=1, version=n)) for n in range(3)),
        )
        second = Timer(session_id=game.id, kind="turn", seat="0", due_at=at(60), version=game.version)
        assert answers[:4] == [Timer(session_id=game.id, kind="turn", seat="0", due_at=at(30),
                                     version=game.version), True, second, False]
        assert await store.timers(game.id) == [second]
        assert (await store.deliveries(game.id))[1].version == 2

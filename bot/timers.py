"""Durable timers: one table of rows due later and one task that sleeps until the earliest.

The way RoboDanny's reminders work: nothing sleeps per table. The task reads the next due time from the
store's index, sleeps until then (or until a sooner timer is set), claims what is due and fires it.
Claims carry a lease, so with several processes each row fires in exactly one of them, and a process that
dies mid-fire lets the lease run out for another to take the row. A firing that raises is retried with
backoff until it succeeds or its game ends. The clock is injectable: tests move
time and call ``run_due`` instead of sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from bot.storage import ACTIVE_STATUSES, SessionNotFound, StorageError, Store, Timer

log = logging.getLogger(__name__)
Fire = Callable[[Timer], Awaitable[None]]


def _key(timer: Timer) -> tuple[object, ...]:
    """What makes a timer the same one across tries: moving or re-setting it makes a new one."""
    return timer.session_id, timer.kind, timer.seat, timer.due_at, timer.version


class TimerService:
    LEASE = 60.0
    """Seconds a claimed row is ours; also the longest the task sleeps, so an expired lease is retaken."""
    RETRY_FIRST = 5.0
    """Seconds before a failed timer is tried again the first time; each further failure doubles it."""
    RETRY_MAX = 600.0
    """The longest pause between two tries of a failing timer."""

    def __init__(self, store: Store, fire: Fire, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.fire = fire
        self.clock = clock
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._sleeping_until = 0.0  # when the task wakes on its own next
        self._failures: dict[tuple[object, ...], int] = {}  # failed tries of a timer, by its identity

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run_timers(), name="timers")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), UTC)

    async def set(self, session_id: int, kind: str, seat: str | None, after: float, version: int) -> Timer:
        """Set (or move) the timer of (session, kind, seat) to fire ``after`` seconds from now."""
        timer = await self.store.set_timer(session_id, kind, seat, datetime.fromtimestamp(self.clock() + after, UTC),
                                           version)
        if self.clock() + after < self._sleeping_until:
            self._wake.set()  # due before the task would wake: wake it now (most timers are not)
        return timer

    async def cancel(self, session_id: int, kind: str | None = None, seat: str | None = None) -> None:
        """Drop a session's timers: all of them, those of one kind, or one seat's of one kind."""
        for timer in await self.store.timers(session_id):
            if (kind is None or timer.kind == kind) and (seat is None or timer.seat == seat):
                await self.store.cancel_timer(session_id, timer.kind, timer.seat)

    async def run_due(self) -> int:
        """Fire every timer due now that this process could claim; how many were tried (fired or failed)."""
        due = await self.store.claim_due_timers(self.now(), lease=self.LEASE)
        for timer in due:
            key = _key(timer)
            try:
                await self.fire(timer)
            except Exception as exc:  # noqa: BLE001 - any failure keeps the timer for a retry; _retry_later logs it
                await self._retry_later(timer, exc)
                continue
            self._failures.pop(key, None)
            await self.store.complete_timer(timer)
        return len(due)

    async def _retry_later(self, timer: Timer, failure: Exception) -> None:
        """A firing raised (Discord unreachable, say): keep the timer and try again after a pause that
        doubles with each failure, up to ``RETRY_MAX``, for as long as its game is open. Dropping it would
        lose the reminder or the deadline for good; retrying at once would hammer a service that is down."""
        key = _key(timer)
        failures = self._failures.get(key, 0) + 1
        if await self._game_over(timer.session_id):
            log.warning("timer %s of session %s failed; its game is over, so it is dropped", timer.kind,
                        timer.session_id, exc_info=failure)
            self._failures.pop(key, None)
            await self.store.complete_timer(timer)
            return
        delay = min(self.RETRY_FIRST * 2 ** (failures - 1), self.RETRY_MAX)
        log.warning("timer %s of session %s failed (%d time(s)); retrying in %.0f s", timer.kind,
                    timer.session_id, failures, delay, exc_info=failure)
        if await self.store.retry_timer(timer, datetime.fromtimestamp(self.clock() + delay, UTC)):
            self._failures[key] = failures
        else:
            self._failures.pop(key, None)  # moved or re-set meanwhile: the new one starts afresh

    async def _game_over(self, session_id: int) -> bool:
        """Whether the timer's game has ended (or is gone). A session that cannot be read now (damaged, the
        database unreachable) counts as open: its timer waits for a person to repair it."""
        try:
            rec = await self.store.get(session_id)
        except SessionNotFound:
            return True
        except StorageError:
            return False
        return rec.status not in ACTIVE_STATUSES

    async def _run_timers(self) -> None:
        while True:
            try:
                await self.run_due()
                self._wake.clear()
                nxt = await self.store.next_timer_at()
            except Exception:
                log.exception("the timer task failed a round; retrying")
                nxt = None
            delay = self.LEASE if nxt is None else min(max(0.0, nxt.timestamp() - self.clock()), self.LEASE)
            self._sleeping_until = self.clock() + delay
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(delay):  # no helper task, unlike wait_for on 3.11
                    await self._wake.wait()

"""Requests made during one pass of the event loop, sent to the database together.

A wave of clicks reaches the bot in one pass of the event loop: every table's follow-up then asks for the
same small things at once (is my cached copy current, save this player's delivery row, move this timer).
Sent one by one, each is a round trip with a pooled connection's acquire and release around it, which on
PostgreSQL costs the bot more CPU than the statement costs the server. Gathered per pass they become one
statement (or one transaction) for the lot.

A lone request waits for nothing but the end of the pass it was made in. While a batch is at the
database, new requests gather for the next one, so there is at most one batch in flight per kind and a
busy second batch is as large as the load makes it. Every caller still awaits its own answer, given
after the batch's statement (or its COMMIT) returned: nothing is acknowledged before it is stored.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

Item = TypeVar("Item")
Answer = TypeVar("Answer")

Run = Callable[[list[Item]], Awaitable[Sequence[Answer | Exception]]]
"""Carries out a batch: one answer per item, in order; an exception in a slot is that item's refusal."""


class PassBatch(Generic[Item, Answer]):
    """Gathers the items submitted in one pass and hands them to ``run`` together."""

    def __init__(self, run: Run[Item, Answer]) -> None:
        self._run = run
        self._pending: list[tuple[Item, asyncio.Future[Answer]]] = []
        self._scheduled = False
        self._in_flight: asyncio.Task[None] | None = None

    async def submit(self, item: Item) -> Answer:
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Answer] = loop.create_future()
        self._pending.append((item, answer))
        if not self._scheduled and self._in_flight is None:
            self._scheduled = True
            loop.call_soon(self._start)  # after every callback already due in this pass has submitted
        return await answer

    def _start(self) -> None:
        self._scheduled = False
        if self._in_flight is not None:
            return  # the batch in flight starts the next one when it is done
        batch, self._pending = self._pending, []
        if batch:
            self._in_flight = asyncio.get_running_loop().create_task(self._carry_out(batch))

    async def _carry_out(self, batch: list[tuple[Item, asyncio.Future[Answer]]]) -> None:
        try:
            answers: Sequence[Answer | Exception] = await self._run([item for item, _ in batch])
        except Exception as exc:  # noqa: BLE001 - the batch as a whole failed: every caller is told why
            answers = [exc] * len(batch)
        except BaseException:  # cancelled with the loop: nobody is left waiting on an answer
            for _, future in batch:
                future.cancel()
            self._in_flight = None
            raise
        for (_, future), answer in zip(batch, answers, strict=True):
            if future.done():  # its caller was cancelled; the item was carried out all the same
                continue
            if isinstance(answer, Exception):
                future.set_exception(answer)
            else:
                future.set_result(answer)
        self._in_flight = None
        if self._pending:
            self._start()

    async def drain(self) -> None:
        """Wait until every submitted item was carried out (before the connections close)."""
        while self._in_flight is not None or self._pending:
            if self._in_flight is None:
                self._start()
            task = self._in_flight
            if task is not None:
                await asyncio.shield(task)

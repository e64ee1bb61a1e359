"""The small writes a PostgreSQL store gathers per pass of the event loop: delivery rows and timers.

Every move rewrites a player's delivery row or two and moves a timer or two; with a wave of moves in one
pass these come to hundreds of one-row statements. Here a pass's writes become a few statements in one
transaction: one upsert of every delivery row, and per round of timer changes one DELETE and one upsert
(a round holds at most one change per timer, so changes to one timer keep their order). Each item can
also be written alone, which is how a batch is retried when the database refuses it as a whole (one
game deleted meanwhile, a deadlock with another process): then each caller learns its own answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.storage.models import Delivery, SessionNotFound, Timer

_DELIVERY_COLUMNS: Final = "session_id, user_id, channel_id, message_id, ping_id, dm_closed, owed, version"
_DELIVERY_UPDATE: Final = (
    " ON CONFLICT (session_id, user_id) DO UPDATE SET channel_id = excluded.channel_id,"
    " message_id = excluded.message_id, ping_id = excluded.ping_id, dm_closed = excluded.dm_closed,"
    " owed = excluded.owed, version = excluded.version"
)
_SAVE_DELIVERY: Final = (
    f"INSERT INTO deliveries ({_DELIVERY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8){_DELIVERY_UPDATE}"
)
_SAVE_DELIVERIES: Final = (
    f"INSERT INTO deliveries ({_DELIVERY_COLUMNS}) SELECT * FROM unnest($1::bigint[], $2::bigint[],"
    f" $3::bigint[], $4::bigint[], $5::bigint[], $6::boolean[], $7::boolean[], $8::integer[]){_DELIVERY_UPDATE}"
)
_TIMER_UPDATE: Final = (
    " ON CONFLICT (session_id, kind, seat) DO UPDATE SET"
    " due_at = excluded.due_at, ready_at = excluded.ready_at, version = excluded.version"
)
_SET_TIMER: Final = (
    f"INSERT INTO timers (session_id, kind, seat, due_at, ready_at, version) VALUES ($1, $2, $3, $4, $4, $5)"
    f"{_TIMER_UPDATE}"
)
_SET_TIMERS: Final = (
    "INSERT INTO timers (session_id, kind, seat, due_at, ready_at, version) SELECT s, k, t, d, d, v"
    " FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::integer[]) AS u (s, k, t, d, v)"
    f"{_TIMER_UPDATE}"
)
_CANCEL_TIMER: Final = "DELETE FROM timers WHERE session_id = $1 AND kind = $2 AND seat = $3"
_CANCEL_TIMERS: Final = (
    "DELETE FROM timers USING unnest($1::bigint[], $2::text[], $3::text[]) AS u (s, k, t)"
    " WHERE session_id = u.s AND kind = u.k AND seat = u.t RETURNING session_id, kind, seat"
)


@dataclass(frozen=True, slots=True)
class SaveDelivery:
    delivery: Delivery

    def key(self) -> tuple[object, ...]:
        return ("delivery", self.delivery.session_id, self.delivery.user_id)


@dataclass(frozen=True, slots=True)
class SetTimer:
    session_id: int
    kind: str
    seat: str
    """'' for a timer of the whole table, as stored."""
    due: int
    """Epoch milliseconds."""
    version: int

    def key(self) -> tuple[object, ...]:
        return ("timer", self.session_id, self.kind, self.seat)

    def timer(self) -> Timer:
        """The row the write leaves: due and ready at ``due``, unclaimed."""
        return Timer.from_row(self.session_id, self.kind, self.seat, self.due, self.due, self.version)


@dataclass(frozen=True, slots=True)
class CancelTimer:
    session_id: int
    kind: str
    seat: str

    def key(self) -> tuple[object, ...]:
        return ("timer", self.session_id, self.kind, self.seat)


Write = SaveDelivery | SetTimer | CancelTimer
Written = None | Timer | bool
"""What a write answers: nothing for a delivery row, the timer set, whether a timer was there to cancel."""


async def write_one(conn: PoolConnectionProxy, write: Write) -> Written:
    """One write in a statement of its own."""
    match write:
        case SaveDelivery(delivery=d):
            await conn.execute(_SAVE_DELIVERY, d.session_id, d.user_id, d.channel_id, d.message_id, d.ping_id,
                               d.dm_closed, d.owed, d.version)
            return None
        case SetTimer():
            try:
                await conn.execute(_SET_TIMER, write.session_id, write.kind, write.seat, write.due, write.version)
            except asyncpg.ForeignKeyViolationError as exc:
                raise SessionNotFound(write.session_id) from exc
            return write.timer()
        case CancelTimer():
            status = await conn.execute(_CANCEL_TIMER, write.session_id, write.kind, write.seat)
            return bool(status != "DELETE 0")


def _rounds(writes: Sequence[Write]) -> list[list[int]]:
    """The writes' indexes in rounds: the n-th write to any one row goes in round n, so a round touches
    each row once and the rounds, run in order, keep every row's writes in the order they were made."""
    seen: dict[tuple[object, ...], int] = {}
    rounds: list[list[int]] = []
    for i, write in enumerate(writes):
        n = seen.get(write.key(), 0)
        seen[write.key()] = n + 1
        if n == len(rounds):
            rounds.append([])
        rounds[n].append(i)
    return rounds


async def write_together(conn: PoolConnectionProxy, writes: Sequence[Write]) -> list[Written]:
    """All the writes, in as few statements as their rows allow; the caller holds them in one transaction.
    Within a statement the rows go in key order, so two processes' batches lock shared rows in the same
    order and do not deadlock on each other."""
    answers: list[Written] = [None] * len(writes)
    for indexes in _rounds(writes):
        deliveries: list[Delivery] = []
        sets: list[tuple[int, SetTimer]] = []
        cancels: list[tuple[int, CancelTimer]] = []
        for i in indexes:
            match writes[i]:
                case SaveDelivery(delivery=d):
                    deliveries.append(d)
                case SetTimer() as timer:
                    sets.append((i, timer))
                case CancelTimer() as cancel:
                    cancels.append((i, cancel))
        if deliveries:
            await conn.execute(_SAVE_DELIVERIES, *_columns(sorted(
                (d.session_id, d.user_id, d.channel_id, d.message_id, d.ping_id, d.dm_closed, d.owed, d.version)
                for d in deliveries)))
        if sets:
            await conn.execute(_SET_TIMERS, *_columns(sorted(
                (t.session_id, t.kind, t.seat, t.due, t.version) for _, t in sets)))
            for i, t in sets:
                answers[i] = t.timer()
        if cancels:
            rows = await conn.fetch(_CANCEL_TIMERS, *_columns(sorted(
                (c.session_id, c.kind, c.seat) for _, c in cancels)))
            gone = {(r[0], r[1], r[2]) for r in rows}
            for i, c in cancels:
                answers[i] = (c.session_id, c.kind, c.seat) in gone
    return answers


def _columns(rows: list[tuple[object, ...]]) -> list[list[object]]:
    """Rows (at least one) turned into one list per column, as ``unnest`` takes them."""
    return [list(column) for column in zip(*rows, strict=True)]

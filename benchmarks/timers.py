"""Durable timers at scale: 100,000 timers across 10,000 games, on either backend.

    python benchmarks/timers.py [--games 10000] [--per-game 10] [--backend sqlite|postgresql]
    scripts/pg_test_cluster.sh python benchmarks/timers.py --backend postgresql

Prints the stored size per timer (table and indexes, the sessions excluded), the time to add or move one
timer, to read the next due time, and to claim the next due timer(s), each as a median over many calls
with the table full. Times are spread over a day so claims find only the few that are due.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.storage import SqliteStore, Store, open_store  # noqa: E402

T0 = datetime(2026, 11, 24, tzinfo=UTC)


async def fill_sessions(store: Store, games: int) -> list[int]:
    """``games`` running sessions, inserted in bulk (the timers are what is measured)."""
    ids = []
    for channel in range(games):
        rec = await store.create_session(1, 10_000_000 + channel, "call_to_glory", 1, {}, channel, "en")
        rec = await store.start(rec.id, rec.version, "{}", [1, 2])
        ids.append(rec.id)
    return ids


async def timed(calls: int, make: Any) -> float:
    """Median milliseconds of ``calls`` awaits of ``make(i)``."""
    times = []
    for i in range(calls):
        t = time.perf_counter()
        await make(i)
        times.append((time.perf_counter() - t) * 1000)
    return round(statistics.median(times), 3)


async def table_bytes(store: Store) -> int:
    if isinstance(store, SqliteStore):
        conn = store._connection()
        rows = list(await conn.execute_fetchall(
            "SELECT SUM(pgsize) FROM dbstat WHERE name IN ('timers', 'timers_ready')"))
        return int(rows[0][0])
    import asyncpg

    conn = await asyncpg.connect(store.dsn)  # type: ignore[attr-defined]
    try:
        await conn.execute("VACUUM ANALYZE timers")
        return int(await conn.fetchval("SELECT pg_total_relation_size('timers')"))
    finally:
        await conn.close()


async def run(store: Store, games: int, per_game: int) -> dict[str, Any]:
    rnd = random.Random(3)
    t = time.perf_counter()
    sessions = await fill_sessions(store, games)
    setup_s = time.perf_counter() - t
    t = time.perf_counter()
    for sid in sessions:
        for seat in range(per_game):
            await store.set_timer(sid, "turn", str(seat), T0 + timedelta(seconds=rnd.uniform(0, 86_400)), 1)
    add_s = time.perf_counter() - t
    n = games * per_game
    size = await table_bytes(store)
    move_ms = await timed(500, lambda i: store.set_timer(
        sessions[i % games], "turn", "0", T0 + timedelta(seconds=rnd.uniform(0, 86_400)), 2))
    next_ms = await timed(500, lambda i: store.next_timer_at())
    # claim the next due one, moving "now" forward so each call finds a timer or two due
    now = [T0]

    async def claim_next(_i: int) -> None:
        when = await store.next_timer_at()
        assert when is not None
        now[0] = max(now[0], when)
        claimed = await store.claim_due_timers(now[0], limit=10, lease=3600)
        for timer in claimed:
            await store.complete_timer(timer)

    claim_ms = await timed(500, claim_next)
    claim_none_ms = await timed(500, lambda i: store.claim_due_timers(T0 - timedelta(days=1)))
    return {
        "games": games,
        "timers": n,
        "bytes_per_timer": round(size / n, 1),
        "add_timer_ms_mean": round(add_s * 1000 / n, 3),
        "move_timer_ms_p50": move_ms,
        "next_due_ms_p50": next_ms,
        "claim_and_complete_next_due_ms_p50": claim_ms,
        "claim_when_nothing_due_ms_p50": claim_none_ms,
        "setup_sessions_s": round(setup_s, 1),
    }


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    if args.backend == "sqlite":
        with tempfile.TemporaryDirectory(prefix="timers-") as d:
            store = await open_store(f"sqlite:///{Path(d) / 'timers.sqlite3'}")
            try:
                return {"backend": "sqlite", **await run(store, args.games, args.per_game)}
            finally:
                await store.close()
    if not args.database_url:
        raise SystemExit("--backend postgresql needs --database-url or TEST_DATABASE_URL")
    import asyncpg

    schema = f"timers_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(args.database_url)
    await admin.execute(f"CREATE SCHEMA {schema}")
    try:
        sep = "&" if "?" in args.database_url else "?"
        store = await open_store(f"{args.database_url}{sep}search_path={schema}")
        try:
            return {"backend": "postgresql", **await run(store, args.games, args.per_game)}
        finally:
            await store.close()
    finally:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--per-game", type=int, default=10, help="timers per game")
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--database-url", default=os.environ.get("TEST_DATABASE_URL", ""))
    args = parser.parse_args()
    print(json.dumps(asyncio.run(main_async(args)), indent=2))


if __name__ == "__main__":
    main()

"""Many concurrent games of one kind through the real bot, its store and discord.py's dispatch.

    python benchmarks/bot_latency.py [--game call_to_glory] [--games 200] [--moves 30] [--validate]
                                     [--backend sqlite|postgresql]
    scripts/pg_test_cluster.sh python benchmarks/bot_latency.py --backend postgresql --processes 2

``--backend postgresql`` uses ``--database-url`` (default: ``$TEST_DATABASE_URL``, which
``scripts/pg_test_cluster.sh`` sets) in a fresh schema. ``--processes N`` (PostgreSQL) first runs one bot
process alone, then N bot processes at once on the same database, each with its own games, started
together once all are set up, and reports the total throughput against the single process and the
actions lost or doubled over all of them. With SQLite, ``--processes N`` runs the same with a file per
process: nothing is shared but the machine, so the CPU per action it adds is the machine's (two busy
processes on two cores share caches and the memory bus), the baseline for the PostgreSQL figure.

Phase 1 (throughput): every game gets one click per wave and each wave's clicks reach discord.py at once;
sustained actions/s and the (queueing-dominated) burst latency come from it. A wave waits for what the next
click needs (the moves' private messages), not for the table pictures, which the bot draws in another
process and coalesces per table; the time they take to catch up after the last wave counts in the rate
(``tables_caught_up_after_s``). ``--profile FILE`` writes a cProfile of phase 1. Phase 2 (latency): clicks
arrive one at a time at a steady rate spread over all games, and interaction → first response latency
p50/p99 is measured there. Also printed: stored bytes per game and per action, a bare aiosqlite commit of
the same state row as the floor (in a tight loop, and spaced like the paced clicks), and whether any action
was lost or applied twice. The fake Discord answers at once; a response is timed when the bot hands it to
HTTP, so latency is the bot's own cost, while throughput also pays the fake's bookkeeping (it records every
request and message version, frozen as bytes).
Schema validation of every request is off by default (it measures the test fake, not the bot).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import functools
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import subprocess  # noqa: E402
import uuid  # noqa: E402

import aiosqlite  # noqa: E402

from benchmarks.apart import (  # noqa: E402
    TOGGLE_ENV,
    Collection,
    CpuApart,
    callgrind_prefix,
    callgrind_total,
    toggle_library,
)
from bot.client import GameBot  # noqa: E402
from bot.collector import tune_collector  # noqa: E402
from bot.settings import Settings  # noqa: E402
from tests.discord import payloads as P  # noqa: E402
from tests.discord.fake_discord import FakeDiscord, load_spec  # noqa: E402
from tests.discord.harness import Harness  # noqa: E402
from tests.discord.payloads import BASE_TIME_MS, Snowflakes  # noqa: E402


def table_edit(task: asyncio.Task[Any]) -> bool:
    """A table message's edit after a move, which the bot runs in a task of its own (``Tables._refresh_later``)."""
    return task.get_name().startswith("table-")


async def settle(baseline: set[asyncio.Task[Any]], tables: bool = True) -> None:
    """Wait for every task the dispatched clicks started (cheaper than the test harness's drain, which
    re-scans all tasks after each completion); with ``tables=False``, not for the table edits: the next
    click needs the private message the move sent, not the table's picture."""
    me = asyncio.current_task()
    while True:
        pending = [t for t in asyncio.all_tasks() if t is not me and t not in baseline and not t.done()
                   and (tables or not table_edit(t))]
        if not pending:
            return
        await asyncio.wait(pending)


def machine_cpu() -> tuple[float, float] | None:
    """(busy, total) CPU seconds of the whole machine so far, from /proc/stat (Linux; None elsewhere): the
    drawing process and the database server work for the bot too, and a process's own CPU time misses them."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return None
    user, nice, system, idle, iowait, irq, softirq, steal = (int(v) for v in fields[:8])
    hz = os.sysconf("SC_CLK_TCK")
    busy = user + nice + system + irq + softirq + steal
    return busy / hz, (busy + idle + iowait) / hz


class StatementCounter:
    """Database statements the bot's store sends, counted where it sends them: on SQLite the loop's writer
    connection (wrapped) and the aiosqlite connection's methods (a statement that fires a trigger is one
    statement; SQLite's own trace callback would report it again for every trigger it runs), on PostgreSQL
    asyncpg's two paths to the server (the extended protocol's execution and the simple protocol's query).
    ``counting`` limits the count to phase 1."""

    def __init__(self) -> None:
        self.count = 0
        self.counting = False

    def seen(self, *_args: Any) -> None:
        if self.counting:
            self.count += 1

    def counted(self, method: Any) -> Any:
        @functools.wraps(method)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            self.seen()
            return method(*args, **kwargs)
        return wrapper

    async def attach(self, store: Any) -> None:
        if hasattr(store, "_writer"):  # SQLite
            if store._writer is not None:
                store._writer = _CountingConnection(store._writer, self)
            for name in ("execute", "executemany", "execute_fetchall", "execute_insert"):
                setattr(aiosqlite.Connection, name, self.counted(getattr(aiosqlite.Connection, name)))
            return
        import asyncpg.connection

        conn_class = asyncpg.connection.Connection
        do_execute, execute = conn_class._do_execute, conn_class.execute
        counter = self

        async def counted_do_execute(conn: Any, *args: Any, **kwargs: Any) -> Any:
            counter.seen()  # every extended-protocol query (fetch, fetchrow, fetchval, executemany, ...)
            return await do_execute(conn, *args, **kwargs)

        async def counted_execute(conn: Any, query: str, *args: Any, **kwargs: Any) -> Any:
            if not args:
                counter.seen()  # the simple protocol (BEGIN, COMMIT); with arguments it is counted above
            return await execute(conn, query, *args, **kwargs)

        conn_class._do_execute = counted_do_execute  # type: ignore[method-assign]
        conn_class.execute = counted_execute  # type: ignore[method-assign]


class _CountingConnection:
    """A sqlite3 connection that counts the statements run through ``execute``/``executemany``."""

    def __init__(self, conn: Any, counter: StatementCounter) -> None:
        self._conn, self._counter = conn, counter

    def execute(self, *args: Any) -> Any:
        self._counter.seen()
        return self._conn.execute(*args)

    def executemany(self, sql: str, rows: Any) -> Any:
        rows = list(rows)
        for _ in rows:
            self._counter.seen()
        return self._conn.executemany(sql, rows)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def private_message(fake: FakeDiscord, user: P.User, sid: int, version: int) -> dict[str, Any] | None:
    """The user's newest DM with buttons for ``version`` (read without the fake's defensive copies)."""
    prefix = (f"gb:{sid}:{version}:", f"gs:{sid}:{version}:")
    best = None
    channel = fake.dm_channel_id(user.id)
    for mid in reversed(fake._channel_log.get(channel, [])[-3:]):
        msg = fake._messages[mid]
        ids = [c.get("custom_id", "") for row in msg.get("components", []) for c in row.get("components", [])]
        if any(i.startswith(prefix) for i in ids) and (best is None or int(msg["id"]) > int(best["id"])):
            best = msg
    return best


def click_payload(h: Harness, user: P.User, message: dict[str, Any], sid: int, version: int, index: int) -> dict[str, Any]:
    button = f"gb:{sid}:{version}:{index}"
    for row in message["components"]:
        for comp in row["components"]:
            if comp.get("custom_id") == button:
                data = P.button_click_data(button)
                break
            if comp.get("type") == 3 and any(o["value"] == str(index) for o in comp["options"]):
                data = P.select_data(comp["custom_id"], [str(index)], component_type=3)
                break
        else:
            continue
        break
    else:
        raise RuntimeError(f"no component for action {index}")
    channel = h.channel_by_id(int(message["channel_id"]))
    return P.interaction_payload(
        snowflakes=h.snowflakes, application_id=h.fake.application_id, type=P.MESSAGE_COMPONENT,
        ctx=h._context(user, channel), data=data, message=message,
    )


async def bare_commit_floor(state_json: str, rounds: int = 1000, interval: float = 0.0, warmup: int = 100) -> float:
    """The cheapest possible durable write of the same row: one UPDATE and COMMIT in WAL mode.

    With ``interval`` the commits are spaced like the paced clicks. A process that sleeps between requests
    wakes with cold caches, so a commit then costs several times what it does in a tight loop; the paced
    floor compares the paced latency with a commit made under the same conditions."""
    with tempfile.TemporaryDirectory() as d:
        async with aiosqlite.connect(Path(d) / "floor.sqlite3") as db:
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute("PRAGMA synchronous=NORMAL")
            await db.execute("CREATE TABLE s (id INTEGER PRIMARY KEY, state TEXT, version INTEGER)")
            await db.execute("INSERT INTO s VALUES (1, ?, 0)", (state_json,))
            await db.commit()
            times = []
            for _ in range(warmup + rounds):  # the first commits (page cache, WAL growth) are not the floor
                if interval:
                    await asyncio.sleep(interval)
                t0 = time.perf_counter()
                await db.execute("UPDATE s SET state = ?, version = version + 1 WHERE id = 1", (state_json,))
                await db.commit()
                times.append(time.perf_counter() - t0)
    return statistics.median(times[warmup:])


async def bare_pg_commit_floor(url: str, state_json: str, rounds: int = 1000, interval: float = 0.0,
                               warmup: int = 100) -> float:
    """The same floor on PostgreSQL: one UPDATE of the same row in its own transaction, in a table of its
    own in the run's schema, so the ratio compares the bot with the backend it ran on."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute("CREATE TABLE floor_s (id INTEGER PRIMARY KEY, state TEXT, version INTEGER)")
        await conn.execute("INSERT INTO floor_s VALUES (1, $1, 0)", state_json)
        times = []
        for _ in range(warmup + rounds):
            if interval:
                await asyncio.sleep(interval)
            t0 = time.perf_counter()
            await conn.execute("UPDATE floor_s SET state = $1, version = version + 1 WHERE id = 1", state_json)
            times.append(time.perf_counter() - t0)
        await conn.execute("DROP TABLE floor_s")
    finally:
        await conn.close()
    return statistics.median(times[warmup:])


def with_search_path(url: str, schema: str) -> str:
    """``url`` with PostgreSQL's ``search_path`` set (asyncpg passes unknown query parameters to the server)."""
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


async def new_schema(url: str) -> str:
    import asyncpg

    schema = f"bench_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
    finally:
        await conn.close()
    return schema


async def drop_schema(url: str, schema: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await conn.close()


async def storage_sizes(url: str, workdir: str, games: int) -> dict[str, Any]:
    """Stored bytes per game and per action, from whichever backend ``url`` names."""
    if url.startswith("sqlite:///"):
        db_file = Path(url[len("sqlite:///"):])
        async with aiosqlite.connect(db_file) as db:
            state_bytes = (await (await db.execute("SELECT SUM(LENGTH(state_json)) FROM sessions")).fetchone())[0]
            action_bytes, n_actions = await (await db.execute(
                "SELECT SUM(LENGTH(action_json)) + COUNT(*) * 40, COUNT(*) FROM action_log")).fetchone()
        disk = sum(os.path.getsize(p) for p in Path(workdir).glob("bench.sqlite3*"))
    else:
        import asyncpg

        conn = await asyncpg.connect(url)
        try:
            state_bytes = await conn.fetchval("SELECT SUM(OCTET_LENGTH(state_json)) FROM sessions")
            action_bytes, n_actions = await conn.fetchrow(
                "SELECT SUM(OCTET_LENGTH(action_json)) + COUNT(*) * 40, COUNT(*) FROM action_log")
            disk = await conn.fetchval(
                "SELECT pg_total_relation_size('sessions') + pg_total_relation_size('action_log')")
        finally:
            await conn.close()
    return {
        "state_bytes_per_game": round((state_bytes or 0) / games),
        "log_bytes_per_action": round((action_bytes or 0) / max(1, n_actions), 1),
        "db_bytes_per_game": round(disk / games),
    }


async def run(games: int, moves: int, validate: bool, rate: float = 100.0, paced_clicks: int = 1000,
              url: str | None = None, worker: int = 0, barrier: bool = False,
              game: str = "call_to_glory", ai_tables: int = 0, edit_interval: float = 0.0,
              profile: str | None = None) -> dict[str, Any]:
    """One bot process's run. ``url`` (default: a SQLite file in a temporary directory) is the database;
    ``worker`` keeps this process's Discord ids apart from other processes on the same database; with
    ``barrier`` it prints ``started`` once its bot runs and sets up its games on a line from stdin (so
    that no bot's start-up catch-up meets another process's games half set up, in channels its fake
    Discord does not know), then prints ``ready`` and starts phase 1 on the next line;
    ``profile`` names a file for a cProfile of phase 1 alone (the setup of the games is not the hot path)."""
    workdir = tempfile.mkdtemp(prefix="bot-bench-")
    url = url or f"sqlite:///{Path(workdir) / 'bench.sqlite3'}"
    fake = FakeDiscord(spec=load_spec(), validate=validate,
                       snowflakes=Snowflakes(BASE_TIME_MS + worker * 10**10))
    first_response: dict[str, float] = {}
    apart = CpuApart()  # the fake's side of each request is Discord's servers' work, not the bot's
    collection = Collection.from_env()  # under ``--instructions``: callgrind counts the bot's work only
    original = apart.wrap(fake._dispatch if collection is None else collection.quiet(fake._dispatch))
    wait = settle if collection is None else collection.quiet(settle)  # the driver's waiting is not the bot's

    async def timed_dispatch(route: Any, **kwargs: Any) -> Any:
        # The response counts from the moment the bot hands it to HTTP: what the fake then does to record
        # it, and discord.py's parsing of what comes back, are the network's share in production.
        token = getattr(route, "webhook_token", None)
        if token and token not in first_response:
            first_response[token] = time.perf_counter()
        return await original(route, **kwargs)

    fake._dispatch = timed_dispatch  # type: ignore[method-assign]
    rnd = random.Random(7)
    settings = Settings(database_url=url, discord_token=None, table_edit_interval=edit_interval, rate_limit_per_second=0,
                        ai_processes=1, ai_move_delay=0)
    async with Harness(lambda: GameBot(settings), fake=fake, drain_timeout=600) as h:
        h.ignore_tasks(lambda task: task.get_name().startswith("ai-"))  # AI tables play on in the background
        if barrier:
            print("started", flush=True)
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        tables = []
        for g in range(games):
            channel = h.text_channel(f"table-{g}")
            players = [h.user(f"g{g}p{i}") for i in range(2)]
            await h.slash(players[0], channel, "game new", game=game)
            rec = await h.bot.store.active_in_channel(channel.id)
            assert rec is not None and rec.table_message_id is not None
            await h.click(players[1], rec.table_message_id, f"gl:{rec.id}:join")
            await h.click(players[0], rec.table_message_id, f"gl:{rec.id}:start")
            tables.append((rec.id, {str(u.id): u for u in players}))
        start_versions = {sid: (await h.bot.store.get(sid)).version for sid, _ in tables}
        ai_sids = []
        for g in range(ai_tables):  # tables where AI players play each other the whole time, beside
            channel = h.text_channel(f"ai-table-{g}")
            host = h.user(f"ai{g}host")
            await h.slash(host, channel, "game new", game=game)
            rec = await h.bot.store.active_in_channel(channel.id)
            assert rec is not None and rec.table_message_id is not None
            await h.click(host, rec.table_message_id, f"gl:{rec.id}:ai_add")
            await h.click(host, rec.table_message_id, f"gl:{rec.id}:start")
            ai = await h.bot.sessions.ai_seats(rec.id)
            await h.bot.sessions._set_ai_seats(rec.id, {**ai, str(host.id): "normal"})  # the host too
            h.bot.ai_players.poke(rec.id)
            ai_sids.append(rec.id)

        async def next_click(sid: int, users: dict[str, P.User]) -> dict[str, Any] | None:
            rec, spec, state = await h.bot.sessions.load(sid)
            if rec.status != "running":
                return None
            seat = spec.engine.pending(state)[0].seat
            legal = spec.engine.legal_actions(state, seat)
            message = private_message(h.fake, users[seat], sid, rec.version)
            if message is None:
                return None
            payload = click_payload(h, users[seat], message, sid, rec.version, rnd.randrange(len(legal)))
            h.fake.register_interaction(payload)
            return payload

        if collection is not None:
            next_click = collection.quiet(next_click)  # type: ignore[assignment]

        # Phase 1, throughput: every game clicks at once, wave after wave. The driver's own work of picking
        # the next clicks (reading the engine and the fake's messages) runs between waves and is timed apart:
        # real players bring their clicks for free, so the bot's rate counts only the time it is busy.
        sent: dict[str, float] = {}
        applied = 0
        baseline = set(asyncio.all_tasks())
        if barrier:
            print("ready", flush=True)
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        uploads_before = len(h.fake.attachments)
        statements = StatementCounter()
        await statements.attach(h.bot.store)
        requests_before = len(h.fake.requests)
        profiler = cProfile.Profile() if profile else None
        if profiler:
            profiler.enable()
        wall_start = time.time()
        machine_start = machine_cpu()
        cpu_start = time.process_time()
        apart.cpu = 0.0
        t_start = time.perf_counter()
        busy = 0.0
        driver_cpu = 0.0
        statements.counting = True
        if collection is not None:
            collection.set(True)
        for _wave in range(moves):
            statements.counting = False  # the driver's own reads are not the bot's
            cpu_driver = time.process_time()
            batch = [p for sid, users in tables if (p := await next_click(sid, users)) is not None]
            driver_cpu += time.process_time() - cpu_driver
            statements.counting = True
            t_wave = time.perf_counter()
            for p in batch:
                sent[p["token"]] = time.perf_counter()
                h.bot._connection.parse_interaction_create(p)
            await wait(baseline, tables=False)
            busy += time.perf_counter() - t_wave
            applied += len(batch)
        # The table edits still under way (coalesced: at most the newest state of each table is left to
        # draw) are the phase's work too: the rate counts the time until every table shows its last move.
        t_tables = time.perf_counter()
        await wait(baseline)
        if collection is not None:
            collection.set(False)
        tables_behind = time.perf_counter() - t_tables
        pictures = len(h.fake.attachments) - uploads_before  # table pictures: the moves' only uploads
        busy += tables_behind
        elapsed = time.perf_counter() - t_start
        cpu_used = time.process_time() - cpu_start
        fake_cpu = apart.cpu
        statements.counting = False
        requests = len(h.fake.requests) - requests_before  # Discord requests of phase 1 (the moves' work)
        machine_end = machine_cpu()
        if profiler:
            profiler.disable()
            profiler.dump_stats(str(profile))
        wall_end = time.time()
        burst = [(first_response[tok] - t0) * 1000 for tok, t0 in sent.items() if tok in first_response]

        # Phase 2, latency: clicks arrive one at a time at a steady rate across all games.
        paced: dict[str, float] = {}
        interval = 1.0 / rate
        t_next = time.perf_counter()
        for i in range(paced_clicks):
            sid, users = tables[i % len(tables)]
            payload = await next_click(sid, users)
            if payload is None:
                continue
            delay = t_next - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            paced[payload["token"]] = time.perf_counter()
            h.bot._connection.parse_interaction_create(payload)
            t_next += interval
            if i % len(tables) == len(tables) - 1:
                await settle(baseline)  # the next click of a game needs the previous one applied
        await settle(baseline)
        sent.update(paced)
        applied_paced = len(paced)
        end_versions = {sid: (await h.bot.store.get(sid)).version for sid, _ in tables}
        logged = clicked = since_start = 0
        for sid, _ in tables:
            entries = await h.bot.store.actions(sid)
            logged += len(entries)
            since_start += sum(e.seq > start_versions[sid] for e in entries)
            # each click is one entry not marked automatic; the rest are steps the bot took for a lone move
            clicked += sum(not e.auto for e in entries if e.seq > start_versions[sid])
        sample_state = (await h.bot.store.get(tables[0][0])).state_json or ""
        ai_moves = 0
        for sid in ai_sids:
            ai_moves += len(await h.bot.store.actions(sid))
        h.bot.ai_players.close()
    latencies = [(first_response[tok] - t0) * 1000 for tok, t0 in paced.items() if tok in first_response]
    advanced = sum(end_versions[s] - start_versions[s] for s in end_versions)
    sizes = await storage_sizes(url, workdir, games) if worker == 0 and not barrier else {}
    shutil.rmtree(workdir, ignore_errors=True)
    out: dict[str, Any] = {
        "backend": "sqlite" if url.startswith("sqlite") else "postgresql",
        "games": games,
        "waves": moves,
        "clicks_sent": len(sent),
        "actions_applied": advanced,
        "log_entries": logged,
        "game": game,
        "ai_tables": ai_tables,
        "ai_table_actions": ai_moves,
        "clicks_applied": clicked,
        # every click stored once (as one entry not marked automatic) and the log matches the versions
        "lost_or_doubled": abs(len(sent) - clicked) + abs(since_start - advanced),
        "phase1_actions": applied,
        "phase1_wall": [wall_start, wall_end],
        "sustained_actions_per_s": round(applied / busy, 1),
        "sustained_incl_driver_per_s": round(applied / elapsed, 1),
        # what one core sustains: a machine with cores to spare scales processes by this, not by wall time;
        # the bot's CPU alone (the driver's picking of the next clicks between waves is left out: real
        # players bring their clicks for free), then the process's whole CPU as the earlier figure was
        "actions_per_cpu_s": round(applied / (cpu_used - driver_cpu), 1),
        "actions_per_cpu_s_incl_driver": round(applied / cpu_used, 1),
        # the bot's CPU without the fake Discord's own side of each request either (recording it, freezing
        # its body, answering): that is Discord's servers' work in production
        "actions_per_cpu_s_without_fake": round(applied / (cpu_used - driver_cpu - fake_cpu), 1),
        "statements_per_action": round(statements.count / max(1, applied), 2),
        "discord_requests_per_action": round(requests / max(1, applied), 2),
        # every process on the machine, the drawing process and the database server included: cores kept
        # busy during phase 1, and actions per busy CPU-second (the cost of an action all told)
        **({"machine_busy_cores": round((machine_end[0] - machine_start[0]) / elapsed, 2),
            "actions_per_machine_cpu_s": round(applied / (machine_end[0] - machine_start[0]), 1)}
           if machine_start and machine_end else {}),
        "tables_caught_up_after_s": round(tables_behind, 2),
        # drawn in the drawing process (about 10 ms each for Call to Glory): coalescing draws fewer
        "phase1_pictures_per_action": round(pictures / max(1, applied), 3),
        "burst_latency_ms_p50": round(statistics.median(burst), 2),
        "burst_latency_ms_p99": round(percentile(burst, 0.99), 2),
        **sizes,
    }
    if not latencies:
        return out
    measure = bare_commit_floor if url.startswith("sqlite") else functools.partial(bare_pg_commit_floor, url)
    floor = await measure(sample_state)
    paced_floor = await measure(sample_state, rounds=300, interval=1.0 / rate, warmup=20)
    p50 = statistics.median(latencies)
    return out | {
        "paced_rate_per_s": rate,
        "paced_clicks": applied_paced,
        "latency_ms_p50": round(p50, 2),
        "latency_ms_p99": round(percentile(latencies, 0.99), 2),
        "bare_commit_ms": round(floor * 1000, 3),
        "p50_over_bare_commit": round(p50 / (floor * 1000), 1),
        "p99_over_bare_commit": round(percentile(latencies, 0.99) / (floor * 1000), 1),
        "bare_commit_paced_ms": round(paced_floor * 1000, 3),
        "p50_over_paced_commit": round(p50 / (paced_floor * 1000), 1),
        "schema_validation": validate,
    }


def several_processes(args: argparse.Namespace, url: str) -> dict[str, Any]:
    """One process alone, then ``args.processes`` at once on the same database: total throughput and
    actions lost or doubled. Each child is this script with ``--worker``; phase 1 starts in all of them
    together (after each printed ``ready``), so their busy periods overlap. With ``--instructions`` each
    child runs under callgrind, counting its phase 1 as ``click_cost.py --instructions`` counts a click."""
    tmp = Path(tempfile.mkdtemp(prefix="bot-bench-callgrind-"))
    env = {**os.environ, TOGGLE_ENV: str(toggle_library(tmp))} if args.instructions else None

    def spawn(n: int, first_worker: int) -> list[dict[str, Any]]:
        outs = [tmp / f"worker-{first_worker + w}.out" for w in range(n)]
        children = [
            subprocess.Popen(
                [*(callgrind_prefix(outs[w]) if args.instructions else []), sys.executable, __file__,
                 "--backend", args.backend, "--game", args.game, "--database-url", url, "--games",
                 str(args.games), "--moves", str(args.moves), "--paced", "0", "--worker", str(first_worker + w),
                 "--edit-interval", str(args.edit_interval)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
                stderr=(tmp / f"worker-{first_worker + w}.err").open("w") if args.instructions else None,
            )
            for w in range(n)
        ]
        for step in ("started", "ready"):  # every bot runs before any sets up games; all set up, all go
            for c in children:
                assert c.stdout is not None and c.stdout.readline().strip() == step
            for c in children:
                assert c.stdin is not None
                c.stdin.write("go\n")
                c.stdin.flush()
        results = []
        for c in children:
            out, _ = c.communicate()
            if c.returncode != 0:
                raise SystemExit(f"benchmark worker failed with status {c.returncode} (see {tmp})")
            results.append(json.loads(out))
        if args.instructions:
            for r, out_file in zip(results, outs, strict=True):
                r["instructions_per_action"] = callgrind_total(out_file) // r["phase1_actions"]
        return results

    def total(results: list[dict[str, Any]]) -> dict[str, Any]:
        start = min(r["phase1_wall"][0] for r in results)
        end = max(r["phase1_wall"][1] for r in results)
        actions = sum(r["phase1_actions"] for r in results)
        return {"processes": len(results), "games_per_process": args.games,
                "actions": actions, "wall_s": round(end - start, 2),
                "total_actions_per_s": round(actions / (end - start), 1),
                "per_process_actions_per_s": [r["sustained_incl_driver_per_s"] for r in results],
                # each process's rate over its own busy time (without the driver's picking of clicks), summed
                "busy_sum_actions_per_s": round(sum(r["sustained_actions_per_s"] for r in results), 1),
                "actions_per_cpu_s": [r["actions_per_cpu_s"] for r in results],
                "statements_per_action": [r["statements_per_action"] for r in results],
                **({"instructions_per_action": [r["instructions_per_action"] for r in results]}
                   if args.instructions else {}),
                "machine_busy_cores": [r.get("machine_busy_cores") for r in results],
                "lost_or_doubled": sum(r["lost_or_doubled"] for r in results)}

    alone = total(spawn(1, 1))
    if args.processes == 1:  # ``--instructions`` of one process alone
        shutil.rmtree(tmp, ignore_errors=True)
        return {"backend": args.backend, "one_process": alone}
    together = total(spawn(args.processes, 2))  # other worker numbers: other channels, no busy clashes
    shutil.rmtree(tmp, ignore_errors=True)
    return {"backend": "postgresql", "one_process": alone, "together": together,
            "speedup": round(together["total_actions_per_s"] / alone["total_actions_per_s"], 2),
            "busy_speedup": round(together["busy_sum_actions_per_s"] / alone["busy_sum_actions_per_s"], 2),
            "load_average_1min": os.getloadavg()[0], "cpus": os.cpu_count()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="call_to_glory", help="which game every table plays")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--ai-tables", type=int, default=0, help="tables of AI players playing beside, meanwhile")
    parser.add_argument("--edit-interval", type=float, default=0.0,
                        help="TABLE_EDIT_INTERVAL: seconds between two edits of one table (the bot's default is 1)")
    parser.add_argument("--moves", type=int, default=30, help="clicks per game")
    parser.add_argument("--validate", action="store_true", help="check every request against Discord's schema")
    parser.add_argument("--rate", type=float, default=100.0, help="clicks per second in the paced phase")
    parser.add_argument("--paced", type=int, default=1000, help="clicks in the paced phase (0: none)")
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--database-url", default=os.environ.get("TEST_DATABASE_URL", ""),
                        help="PostgreSQL server for --backend postgresql (default: $TEST_DATABASE_URL)")
    parser.add_argument("--processes", type=int, default=1,
                        help="bot processes sharing one PostgreSQL; with SQLite, processes on files of their own: the "
                             "control that shows what running side by side costs on this machine without a shared "
                             "database")
    parser.add_argument("--instructions", action="store_true",
                        help="each bot process under callgrind (one alone without --processes), reporting the CPU "
                             "instructions of its phase 1 per action (the driver, its waiting and the fake's side "
                             "left out), which the machine's load does not move")
    parser.add_argument("--profile", metavar="FILE", help="write a cProfile of phase 1 to FILE")
    parser.add_argument("--worker", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--default-gc", action="store_true",
                        help="keep the interpreter's collector thresholds (the bot process sets its own at start)")
    args = parser.parse_args()
    if not args.default_gc:
        tune_collector()  # as ``python -m bot`` does before it connects
    if args.backend == "sqlite" and args.worker:  # a child of several_processes, on its own SQLite file
        result = asyncio.run(run(args.games, args.moves, args.validate, args.rate, 0, worker=args.worker,
                                 barrier=True, game=args.game, edit_interval=args.edit_interval))
    elif args.backend == "sqlite" and (args.processes > 1 or args.instructions):
        result = several_processes(args, "")
        if args.processes > 1:
            result["backend"] = "sqlite, one file per process (the control)"
    elif args.backend == "sqlite":
        result = asyncio.run(run(args.games, args.moves, args.validate, args.rate, args.paced, game=args.game,
                                 ai_tables=args.ai_tables, edit_interval=args.edit_interval, profile=args.profile))
    elif not args.database_url:
        parser.error("--backend postgresql needs --database-url or TEST_DATABASE_URL "
                     "(scripts/pg_test_cluster.sh starts a server and sets it)")
    elif args.worker:  # a child of several_processes: the parent made the schema
        result = asyncio.run(run(args.games, args.moves, args.validate, args.rate, 0, url=args.database_url,
                                 worker=args.worker, barrier=True, game=args.game, edit_interval=args.edit_interval))
    else:
        schema = asyncio.run(new_schema(args.database_url))
        url = with_search_path(args.database_url, schema)
        try:
            if args.processes > 1 or args.instructions:
                result = several_processes(args, url)
            else:
                result = asyncio.run(run(args.games, args.moves, args.validate, args.rate, args.paced, url=url,
                                         game=args.game, edit_interval=args.edit_interval, profile=args.profile))
        finally:
            asyncio.run(drop_schema(args.database_url, schema))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()

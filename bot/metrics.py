"""What an operator watches: ``/healthz`` (is the gateway connected, does the database answer) and a
Prometheus ``/metrics``, served on a local port when ``METRICS_PORT`` is set (off by default).

Counting costs a few dictionary lookups, so it is always on and done at few places: ``guarded`` times
every interaction and counts its refusals and failures, the follow-up of a move counts the actions, and
everything else (open games, timers due, gateway latency per shard, worker queues) is read only when
someone scrapes. The game a count belongs to comes from ``GAME``, set where an interaction's session is
looked up.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Iterator
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Protocol

from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

from bot.storage import StorageError
from bot.workers import POOLS

if TYPE_CHECKING:
    from bot.storage import Store

log = logging.getLogger(__name__)

GAME: ContextVar[str] = ContextVar("game", default="")
"""The game of the session the current interaction acts on ("" until one is looked up)."""

DATABASE_TIMEOUT = 5.0
"""Seconds the health check waits for the database before calling it unreachable."""


class Watched(Protocol):
    """What the endpoints read from the bot (``GameBot`` provides it)."""

    store: Store

    def gateway_connected(self) -> bool: ...

    def gateway_latencies(self) -> Iterator[tuple[int, float]]: ...


class Metrics:
    """One bot's counters, in a registry of its own (several bots may share a process in tests)."""

    def __init__(self) -> None:
        self.registry = r = CollectorRegistry()
        self.actions = Counter("gamebot_actions", "Actions committed: clicks, AI moves and the bot's automatic steps",
                               ["game"], registry=r)
        self.refusals = Counter("gamebot_refusals", "Interactions answered with a refusal (nothing was changed)",
                                ["game", "reason"], registry=r)
        self.errors = Counter("gamebot_errors", "Interactions that failed on a bug (logged with a traceback)",
                              ["game"], registry=r)
        self.latency = Histogram("gamebot_interaction_seconds",
                                 "From an interaction's arrival to the end of its handling",
                                 buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0), registry=r)
        self.gateway = Gauge("gamebot_gateway_latency_seconds", "Heartbeat latency of each shard's gateway connection",
                             ["shard"], registry=r)
        self.open_games = Gauge("gamebot_open_games", "Sessions in the lobby or running", ["game", "status"],
                                registry=r)
        self.timers_due = Gauge("gamebot_timers_due", "Timers due and not yet claimed", registry=r)
        self.queue = Gauge("gamebot_worker_queue", "Jobs submitted to a worker pool and not yet done", ["pool"],
                           registry=r)

    def refused(self, reason: str) -> None:
        self.refusals.labels(GAME.get() or "-", reason).inc()

    def failed(self) -> None:
        self.errors.labels(GAME.get() or "-").inc()

    async def scrape(self, bot: Watched) -> bytes:
        """The text Prometheus reads, with the values only a scrape looks up filled in first."""
        counts = await asyncio.wait_for(bot.store.counts(datetime.now(UTC)), DATABASE_TIMEOUT)
        self.open_games.clear()
        for (game, status), n in counts.open_games.items():
            self.open_games.labels(game, status).set(n)
        self.timers_due.set(counts.timers_due)
        self.gateway.clear()
        for shard, latency in bot.gateway_latencies():
            self.gateway.labels(str(shard)).set(latency)
        self.queue.clear()
        for name, pool in list(POOLS.items()):
            self.queue.labels(name).set(pool.queued)
        return generate_latest(self.registry)


class Timed:
    """``with Timed(metrics):`` around an interaction's handling, into the latency histogram."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self.start = 0.0

    def __enter__(self) -> None:
        GAME.set("")
        self.start = time.perf_counter()

    def __exit__(self, *_exc: object) -> None:
        self.metrics.latency.observe(time.perf_counter() - self.start)


async def health(bot: Watched) -> tuple[bool, dict[str, bool]]:
    """Healthy when the gateway is connected and the database answers a query in time."""
    try:
        await asyncio.wait_for(bot.store.counts(datetime.now(UTC)), DATABASE_TIMEOUT)
        database = True
    except (StorageError, TimeoutError) as exc:  # what this check reports, not a crash
        log.warning("health check: the database did not answer (%s)", type(exc).__name__)
        database = False
    checks = {"gateway": bot.gateway_connected(), "database": database}
    return all(checks.values()), checks


async def serve(bot: Watched, metrics: Metrics, host: str, port: int) -> web.AppRunner:
    """Start the endpoints on ``host:port`` (0: a free port; ``runner.addresses`` says which)."""

    async def healthz(_request: web.Request) -> web.Response:
        ok, checks = await health(bot)
        return web.Response(status=200 if ok else 503, text=json.dumps(checks), content_type="application/json")

    async def scrape(_request: web.Request) -> web.Response:
        try:
            body = await metrics.scrape(bot)
        except (StorageError, TimeoutError) as exc:  # the database is down: say so, not half the figures
            log.warning("metrics: could not read the database (%s)", type(exc).__name__)
            return web.Response(status=503, text="database unreachable\n")
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", scrape)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    log.info("health and metrics on %s", ", ".join(f"http://{h}:{p}" for h, p, *_ in runner.addresses))
    return runner

"""Suite-wide setup: under pytest-xdist, each worker gets a PostgreSQL database of its own.

Why a database rather than the per-test schemas alone (tests/storage/conftest.py): schemas keep rows
apart, but LISTEN/NOTIFY channels, advisory locks and ``pg_stat_activity`` are shared by a whole
database, so two workers testing cache invalidation or locking at the same moment would see each
other. A database per worker makes ``-n 2`` as isolated as one process.

This runs when the module is imported: the earliest point a conftest has, before any test module or
nested conftest reads ``TEST_DATABASE_URL`` (xdist sets ``PYTEST_XDIST_WORKER`` before the worker
loads conftests). Without xdist or without ``TEST_DATABASE_URL`` it does nothing.
"""

from __future__ import annotations

import asyncio
import os
from urllib.parse import urlsplit, urlunsplit


def worker_database_url(url: str, worker: str) -> str:
    """``url`` pointed at the database ``test_<worker>`` on the same server, other parts kept."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/test_{worker}"))


async def _recreate_database(admin_url: str, name: str) -> None:
    """Drop what a previous run left under ``name`` and create it empty."""
    import asyncpg

    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()


def _give_this_worker_its_database() -> None:
    url = os.environ.get("TEST_DATABASE_URL", "").strip()
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not url or not worker.isidentifier():
        return
    asyncio.run(_recreate_database(url, f"test_{worker}"))
    os.environ["TEST_DATABASE_URL"] = worker_database_url(url, worker)


_give_this_worker_its_database()

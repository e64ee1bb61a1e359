"""Storage fixtures: every contract test runs once per backend.

The SQLite case uses a file in ``tmp_path``. The PostgreSQL case needs a server: ``TEST_DATABASE_URL``
names one (``scripts/pg_test_cluster.sh`` and ``.ci/run`` start a throw-away cluster and set it); without
it those cases skip. Each PostgreSQL test gets a schema of its own (``search_path`` in the URL), dropped
afterwards, so tests never see each other's rows and need no database of their own.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.storage import SqliteStore, Store

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "").strip()

needs_postgres = pytest.mark.skipif(
    not TEST_DATABASE_URL, reason="TEST_DATABASE_URL is not set (scripts/pg_test_cluster.sh starts a server)"
)


def with_search_path(url: str, schema: str) -> str:
    """``url`` with PostgreSQL's ``search_path`` set to ``schema`` (asyncpg passes unknown query
    parameters to the server as settings)."""
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


@dataclass
class Backend:
    """One database for one test: ``url`` opens it through ``open_store``; ``new_store`` is what another
    bot process would open on it; ``execute`` runs raw SQL as an outside writer (to break things on purpose)."""

    name: str
    url: str
    new_store: Callable[[], Store]
    execute: Callable[[str, tuple[object, ...]], Awaitable[None]]


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    """A PostgreSQL URL whose ``search_path`` is a fresh schema, dropped when the test ends."""
    if not TEST_DATABASE_URL:
        pytest.skip("TEST_DATABASE_URL is not set (scripts/pg_test_cluster.sh starts a server)")
    import asyncpg

    schema = f"t_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(TEST_DATABASE_URL)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        yield with_search_path(TEST_DATABASE_URL, schema)
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await admin.close()


def _sqlite_backend(path: Path) -> Backend:
    import sqlite3

    async def execute(sql: str, params: tuple[object, ...]) -> None:
        with sqlite3.connect(path) as conn:
            conn.execute(sql, params)

    return Backend("sqlite", f"sqlite:///{path}", lambda: SqliteStore(path), execute)


def _postgres_backend(url: str) -> Backend:
    import asyncpg

    from bot.storage.postgres import PostgresStore

    async def execute(sql: str, params: tuple[object, ...]) -> None:
        parts = sql.split("?")  # the tests write SQLite's placeholders; PostgreSQL numbers them
        numbered = parts[0] + "".join(f"${i}{part}" for i, part in enumerate(parts[1:], start=1))
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(numbered, *params)
        finally:
            await conn.close()

    return Backend("postgres", url, lambda: PostgresStore(url), execute)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=needs_postgres)])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    """The test's database, on each backend in turn (test ids end in ``[sqlite]`` / ``[postgres]``)."""
    if request.param == "sqlite":
        return _sqlite_backend(tmp_path / "data" / "bot.sqlite3")
    return _postgres_backend(request.getfixturevalue("pg_url"))


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[Store]:
    async with backend.new_store() as s:
        yield s

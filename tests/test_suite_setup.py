"""The suite's own setup (tests/conftest.py): each xdist worker's PostgreSQL URL."""

from __future__ import annotations

from tests.conftest import worker_database_url


def test_a_worker_gets_its_own_database_on_the_same_server() -> None:
    url = "postgresql://postgres:pw@/postgres?host=/tmp/pg-test.abc/sock"
    assert worker_database_url(url, "gw1") == "postgresql://postgres:pw@/test_gw1?host=/tmp/pg-test.abc/sock"
    assert worker_database_url("postgresql://bot@db:5432/bot", "gw0") == "postgresql://bot@db:5432/test_gw0"

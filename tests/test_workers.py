"""Worker processes end with the bot: a bot killed with SIGKILL runs no shutdown, and its picture and AI
workers must not stay behind as orphans."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
from pathlib import Path

from bot.settings import Settings
from bot.workers import WorkerPool

ROOT = Path(__file__).resolve().parents[1]
PARENT = """
import multiprocessing, os, sys
from bot.workers import WorkerPool

pool = WorkerPool("test", 2)
assert sorted(f.result() for f in [pool.submit(os.getppid) for _ in range(2)]) == [os.getpid()] * 2
print(" ".join(str(p.pid) for p in multiprocessing.active_children()), flush=True)
sys.stdin.read()  # until the test kills this process
"""


def wait_gone(pid: int, timeout: float) -> bool:
    """Whether process ``pid`` ended within ``timeout`` seconds (a pidfd turns readable when it ends,
    zombie or reaped; no polling loop)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        ready, _, _ = select.select([fd], [], [], timeout)
        return bool(ready)
    finally:
        os.close(fd)


def test_workers_end_when_their_parent_is_killed() -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT], cwd=ROOT, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert parent.stdout is not None
    workers = [int(p) for p in parent.stdout.readline().split()]
    assert len(workers) == 2 and all(not wait_gone(pid, 0) for pid in workers), "both workers run"
    parent.send_signal(signal.SIGKILL)
    parent.wait(timeout=30)
    assert [pid for pid in workers if not wait_gone(pid, 30)] == [], "no worker outlived the bot"


def test_both_pools_of_the_bot_are_worker_pools(tmp_path: Path) -> None:
    """The picture pool and the AI pool are built by ``WorkerPool`` (no process starts before a job)."""
    from cogs.games.ai_seats import AISeats
    from cogs.games.common import drawing_pool

    class Bot:
        settings = Settings(database_url=f"sqlite:///{tmp_path / 'bot.sqlite3'}", ai_processes=1)

    ai = AISeats(Bot())  # type: ignore[arg-type]
    try:
        assert isinstance(ai.pool(), WorkerPool) and isinstance(drawing_pool(1), WorkerPool)
    finally:
        ai.close()

"""Worker process pools (table pictures, AI searches) that end with the bot and report their queues.

A bot killed with SIGKILL never runs its shutdown, and its ``spawn`` workers would go on as orphans, each
holding its memory (99 of them, 8 GB, after 60 kills). So every worker watches its parent from the start:
a daemon thread compares ``os.getppid()`` with the parent it was started by and ends the process the moment
it changes. A thread rather than Linux's ``PR_SET_PDEATHSIG``: that signal fires when the *thread* that
spawned the worker ends, not the process, and it exists on Linux only.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

PARENT_POLL_SECONDS = 0.25
"""How often a worker looks at its parent: the longest an orphan outlives the bot, at the cost of a wake-up
that does nothing else."""


def _watch_parent(parent: int) -> None:
    """In the worker, first thing: end this process as soon as ``parent`` is no longer its parent."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(1)  # the bot is gone: nothing here is worth finishing, and no exit handler may block

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


class WorkerPool(ProcessPoolExecutor):
    """A ``spawn`` process pool whose workers end with the bot, counting the jobs submitted and not yet
    done (what ``/metrics`` reports as its queue)."""

    def __init__(self, name: str, processes: int) -> None:
        super().__init__(max_workers=processes, mp_context=get_context("spawn"), initializer=_watch_parent,
                         initargs=(os.getpid(),))
        self.name = name
        self._lock = threading.Lock()
        self.queued = 0
        POOLS[name] = self

    def submit(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> Future[R]:
        future = super().submit(fn, *args, **kwargs)
        with self._lock:
            self.queued += 1
        future.add_done_callback(self._done)
        return future

    def _done(self, _future: Future[Any]) -> None:
        with self._lock:
            self.queued -= 1

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if POOLS.get(self.name) is self:
            del POOLS[self.name]
        super().shutdown(wait=wait, cancel_futures=cancel_futures)


POOLS: dict[str, WorkerPool] = {}
"""The pools alive in this process, by name: what ``/metrics`` reads their queues from."""


def close_pools() -> None:
    """At the end of the process: every pool's workers finish what they hold and exit."""
    for pool in list(POOLS.values()):
        pool.shutdown(wait=True, cancel_futures=True)

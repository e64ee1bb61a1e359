"""Per-session ``asyncio.Lock`` objects for the session service.

Holding the lock around load → engine.apply → ``commit_action`` → render makes two clicks on the same
session take turns in this process, so the second sees the first's result instead of failing its
version check. The store's compare-and-swap still guards against other processes and stale views.

Locks are held in a ``WeakValueDictionary``: one exists while some coroutine holds or awaits it, and is
dropped afterwards, so a bot that runs thousands of games does not keep thousands of locks. The caller
must keep the lock referenced for as long as it needs it, which ``async with locks.lock_for(id):`` does.
"""

from __future__ import annotations

import asyncio
import weakref


class SessionLocks:
    """A registry handing out one shared lock per session id."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def lock_for(self, session_id: int) -> asyncio.Lock:
        """The lock every coroutine working on ``session_id`` shares while any of them holds a reference."""
        lock = self._locks.get(session_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[session_id] = lock
        return lock

    def __len__(self) -> int:
        """How many locks are alive; lets tests and diagnostics see that unused ones are dropped."""
        return len(self._locks)

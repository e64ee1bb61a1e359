"""Guards every interaction passes before any work: one per user rate, and one delivery per interaction."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable


class RateLimit:
    """A token bucket per user: ``burst`` clicks at once, then ``rate`` a second. Polite, not punitive:
    the answer says to slow down and nothing is applied. The clock is injectable for tests."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic,
                 max_users: int = 10_000) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._buckets: OrderedDict[int, tuple[float, float]] = OrderedDict()
        self._max_users = max_users

    def allow(self, user_id: int) -> bool:
        if self.rate <= 0:
            return True
        now = self.clock()
        tokens, then = self._buckets.pop(user_id, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        allowed = tokens >= 1
        self._buckets[user_id] = (tokens - 1 if allowed else tokens, now)
        while len(self._buckets) > self._max_users:
            self._buckets.popitem(last=False)
        return allowed


class SeenInteractions:
    """Ids of interactions already handled. Discord may deliver one twice (a gateway resume); the second
    delivery must change nothing and say nothing."""

    def __init__(self, size: int = 4096) -> None:
        self._ids: OrderedDict[int, None] = OrderedDict()
        self._size = size

    def first_time(self, interaction_id: int) -> bool:
        if interaction_id in self._ids:
            return False
        self._ids[interaction_id] = None
        while len(self._ids) > self._size:
            self._ids.popitem(last=False)
        return True

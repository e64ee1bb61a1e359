"""The bot's front gate: interactions in flight are counted, and a stopping bot closes the gate, waits for
them to finish and only then closes its stores, so a stop (SIGTERM from Docker or systemd, Ctrl-C) never
cuts a move between its commit and its answer."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator


class Gate:
    """Open while the bot takes interactions; ``close`` turns new ones away and waits for the rest."""

    def __init__(self) -> None:
        self.closed = False
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()

    @property
    def in_flight(self) -> int:
        return self._busy

    @contextlib.contextmanager
    def passing(self) -> Iterator[None]:
        """Held around one interaction's handling."""
        self._busy += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._busy -= 1
            if self._busy == 0:
                self._idle.set()

    async def close(self, grace: float) -> bool:
        """Turn new interactions away and wait up to ``grace`` seconds for those in flight; False if some
        were still running then (the stop goes on: a service manager would kill the process soon after)."""
        self.closed = True
        try:
            await asyncio.wait_for(self._idle.wait(), grace)
        except TimeoutError:
            return False
        return True

"""Work in the benchmark's process that is not the bot's, set apart step by step.

The fake Discord (``tests/discord``) runs in the bot's process, but what it does for a request (recording it,
freezing its body as bytes, checking it against Discord's schema) is what Discord's servers do in
production. ``stepwise`` wraps a coroutine method so that each step of its coroutine (each stretch between two
awaits) runs between ``enter`` and ``leave``, while whatever the event loop runs during its awaits (the bot's
other tasks) stays outside: so a CPU clock (``CpuApart``) or callgrind's collection (``click_cost.py``) can
leave exactly that work out.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Generator
from typing import Any


def stepwise(method: Callable[..., Awaitable[Any]], enter: Callable[[], Any],
             leave: Callable[[Any], None]) -> Callable[..., Awaitable[Any]]:
    """``method`` with ``enter()`` before and ``leave(token)`` after each step of its coroutine (``token``:
    what that ``enter`` returned)."""

    class Stepped:
        def __init__(self, coro: Any) -> None:
            self.coro = coro

        def __await__(self) -> Generator[Any, Any, Any]:
            sent: Any = None
            thrown: BaseException | None = None
            while True:
                token = enter()
                try:
                    yielded = self.coro.throw(thrown) if thrown is not None else self.coro.send(sent)
                except StopIteration as stop:
                    return stop.value
                finally:
                    leave(token)
                try:
                    sent, thrown = (yield yielded), None
                except BaseException as exc:  # noqa: BLE001 - handed on to the coroutine
                    sent, thrown = None, exc

    def wrapped(*args: Any, **kwargs: Any) -> Stepped:
        return Stepped(method(*args, **kwargs))
    return wrapped


class CpuApart:
    """The CPU seconds spent in the steps of the methods it wraps."""

    def __init__(self) -> None:
        self.cpu = 0.0

    def wrap(self, method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        return stepwise(method, time.process_time, self._leave)

    def _leave(self, started: float) -> None:
        self.cpu += time.process_time() - started

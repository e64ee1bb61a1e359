"""Work in the benchmark's process that is not the bot's, set apart step by step, by a CPU clock or by
callgrind.

The fake Discord (``tests/discord``) runs in the bot's process, but what it does for a request (recording it,
freezing its body as bytes, checking it against Discord's schema) is what Discord's servers do in
production. ``stepwise`` wraps a coroutine method so that each step of its coroutine (each stretch between two
awaits) runs between ``enter`` and ``leave``, while whatever the event loop runs during its awaits (the bot's
other tasks) stays outside: so a CPU clock (``CpuApart``) or callgrind's collection (``click_cost.py``) can
leave exactly that work out.
"""

from __future__ import annotations

import ctypes
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Generator
from pathlib import Path
from typing import Any

TOGGLE_C = ("#include <valgrind/callgrind.h>\nvoid toggle(void) { CALLGRIND_TOGGLE_COLLECT; }\n"
            "void instrument(void) { CALLGRIND_START_INSTRUMENTATION; }\n")
TOGGLE_ENV = "BENCH_CALLGRIND_TOGGLE"
"""Set (to the helper library's path) in a script that ``under_callgrind`` runs: ``Collection.from_env``."""


def stepwise(method: Callable[..., Awaitable[Any]], enter: Callable[[], Any],
             leave: Callable[[Any], None]) -> Callable[..., Awaitable[Any]]:
    """``method`` with ``enter()`` before and ``leave(token)`` after each step of its coroutine (``token``:
    what that ``enter`` returned)."""

    class Stepped:
        def __init__(self, coro: Any) -> None:
            self.coro = coro

        def __await__(self) -> Generator[Any, Any, Any]:
            steps = self.coro.__await__()  # a coroutine's, or another wrapper's (they nest)
            sent: Any = None
            thrown: BaseException | None = None
            while True:
                token = enter()
                try:
                    yielded = steps.throw(thrown) if thrown is not None else steps.send(sent)
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


class Collection:
    """Callgrind's collection, on only while the bot works (a no-op outside callgrind). The switch is a
    three-line C helper built with the machine's compiler against valgrind's own header."""

    def __init__(self, library: str | None) -> None:
        helper = ctypes.CDLL(library) if library else None
        self._toggle = helper.toggle if helper is not None else None
        self._instrument = helper.instrument if helper is not None else None
        self.on = False

    @classmethod
    def from_env(cls) -> Collection | None:
        library = os.environ.get(TOGGLE_ENV)
        return cls(library) if library else None

    def set(self, on: bool) -> None:
        if self._toggle is not None and on != self.on:
            if self._instrument is not None:  # start-up ran uninstrumented (fast); from here on it counts
                self._instrument()
                self._instrument = None
            self._toggle()
            self.on = on

    def quiet(self, method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        """``method`` with every step of its coroutine uncounted; whatever runs while it waits (the bot's
        other tasks) is counted as before."""
        return stepwise(method, self._pause, self.set)

    def _pause(self) -> bool:
        was = self.on
        self.set(False)
        return was


def toggle_library(folder: Path) -> Path:
    """Build the collection switch (``TOGGLE_C``) in ``folder``; its path goes in ``TOGGLE_ENV``."""
    source, library = folder / "toggle.c", folder / "toggle.so"
    source.write_text(TOGGLE_C)
    subprocess.run(["cc", "-shared", "-fPIC", "-O1", "-o", str(library), str(source)], check=True)
    return library


def callgrind_prefix(out: Path) -> list[str]:
    """The command line's start that runs a program under callgrind with collection (and instrumentation,
    which makes start-up slow) off until the program's ``Collection`` switches it on."""
    return ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--instr-atstart=no",
            f"--callgrind-out-file={out}"]


def callgrind_total(out: Path) -> int:
    """The collected instructions callgrind wrote to ``out``."""
    found = re.search(r"^(?:summary|totals):\s*(\d+)", out.read_text(), re.MULTILINE)
    assert found, "no total in callgrind's output"
    return int(found.group(1))


def under_callgrind(script: str, args: list[str], out: Path) -> tuple[int, str]:
    """Run ``script args`` under callgrind with collection off until the script's ``Collection`` switches
    it on; callgrind's total of collected instructions and the script's standard output."""
    with tempfile.TemporaryDirectory() as tmp:
        library = toggle_library(Path(tmp))
        done = subprocess.run([*callgrind_prefix(out), sys.executable, script, *args],
                              check=True, capture_output=True, text=True, env={**os.environ, TOGGLE_ENV: str(library)})
    return callgrind_total(out), done.stdout

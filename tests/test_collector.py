"""The bot process sets the garbage collector for many short-lived objects (bot.collector)."""

from __future__ import annotations

import gc

from bot.collector import THRESHOLDS, tune_collector


def test_the_process_collects_young_objects_in_large_batches() -> None:
    before = gc.get_threshold()
    try:
        tune_collector()
        assert gc.get_threshold() == THRESHOLDS
        assert THRESHOLDS[0] >= 50 * 700, "young collections far rarer than the interpreter's every 700"
        assert gc.isenabled(), "cycles are still collected"
    finally:
        gc.set_threshold(*before)

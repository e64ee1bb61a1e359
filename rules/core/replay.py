"""Rebuild a game from its seed, options and action log: how tests check determinism and how the bot
recovers a session whose snapshot is missing or doubtful."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel

from rules.core.spec import GameSpec


def replay(
    spec: GameSpec,
    seats: Sequence[str],
    options: BaseModel | dict[str, Any] | None,
    seed: int,
    log: Iterable[tuple[str, BaseModel | dict[str, Any] | str]],
) -> BaseModel:
    opts = options if isinstance(options, BaseModel) else spec.parse_options(options)
    state = spec.engine.new_game(seats=list(seats), options=opts, seed=seed)
    for seat, raw in log:
        state, _ = spec.engine.apply(state, seat, spec.parse_action(raw))
    return state

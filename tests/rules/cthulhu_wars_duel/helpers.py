"""Building exact Cthulhu Wars: Duel positions for rule tests."""

from __future__ import annotations

from typing import Any

from rules import registry
from rules.core import Decision
from rules.cthulhu_wars_duel.common import held, on_map
from rules.cthulhu_wars_duel.factions import UNITS
from rules.cthulhu_wars_duel.state import CwdState

SPEC = registry.get("cthulhu_wars_duel")
ENGINE = SPEC.engine
SL, WW = "sl", "ww"


def new(seed: int = 1, start: str = "arctic", **options: Any) -> CwdState:
    """A game past setup: the Windwalker has chosen ``start``; the Sleeper is on turn with 8 Power."""
    s = ENGINE.new_game([SL, WW], SPEC.options_model(**options), seed)
    s, _ = ENGINE.apply(s, WW, {"type": "decide", "choice": "start", "area": start})
    return s


def act(s: CwdState, seat: str, **action: Any) -> tuple[CwdState, list]:
    return ENGINE.apply(s, seat, action)


def place(s: CwdState, units: dict[int, dict[str, dict[str, int]]], gates: dict[str, int] | None = None) -> CwdState:
    """Replace the board: units[player][area][kind] = n; gates area -> controller (-1 abandoned)."""
    s = s.clone()
    for p, areas in units.items():
        s.units[p] = {a: dict(k) for a, k in areas.items()}
    if gates is not None:
        s.gates = dict(gates)
    return s


def set_turn(s: CwdState, p: int, power: dict[int, int] | None = None) -> CwdState:
    s = s.clone()
    s.turn = p
    s.acted = False
    s.stack = []
    if power:
        for i, v in power.items():
            s.players[i]["power"] = v
    return s


def conserved(s: CwdState) -> bool:
    """No unit made or lost: the pool is what the box count leaves (``common.pool``), so what can go wrong
    is a kind over its count, an empty or negative entry left in an area, or a unit under the wrong owner."""
    for p in (0, 1):
        for units in s.units[p].values():
            if not units or any(n <= 0 or UNITS[kind][0] != p for kind, n in units.items()):
                return False
    return all(on_map(s, p, kind) + held(s, p, kind) <= n for kind, (p, _t, n, _c, _d) in UNITS.items())


def top(s: CwdState) -> Decision | None:
    return s.stack[-1] if s.stack else None

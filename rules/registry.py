"""Every playable game, found by looking for a ``SPEC`` in each package under ``rules/``.

Adding a game means adding its package; nothing here or in other games changes.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from rules.core.spec import GameSpec

_SPECS: dict[str, GameSpec] = {}
_loaded = False


def _discover() -> None:
    global _loaded
    if _loaded:
        return
    root = Path(__file__).parent
    for info in sorted(pkgutil.iter_modules([str(root)]), key=lambda i: i.name):
        if not info.ispkg or info.name == "core":
            continue
        module = importlib.import_module(f"rules.{info.name}")
        spec = getattr(module, "SPEC", None)
        if isinstance(spec, GameSpec):
            _SPECS[spec.id] = spec
    _loaded = True


def get(game_id: str) -> GameSpec:
    """The spec for ``game_id``; KeyError names the known games."""
    _discover()
    try:
        return _SPECS[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; known: {sorted(_SPECS)}") from None


def all() -> list[GameSpec]:
    _discover()
    return [_SPECS[k] for k in sorted(_SPECS)]

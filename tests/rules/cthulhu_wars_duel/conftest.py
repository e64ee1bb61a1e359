"""Shared fixtures for the Cthulhu Wars: Duel rule tests."""

from __future__ import annotations

import pytest

from rules.core import rng as rng_mod


@pytest.fixture
def dice(monkeypatch):
    """Feed chosen die faces to the battle (the state's Rng is bypassed only for ``die``)."""
    faces: list[int] = []

    def die(self, sides=6):
        return faces.pop(0)

    monkeypatch.setattr(rng_mod.Rng, "die", die)
    return faces

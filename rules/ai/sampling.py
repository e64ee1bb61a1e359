"""Helpers every game's ``determinize`` uses to re-draw what a seat cannot see.

The rule that keeps an AI honest: a re-drawn part may depend only on what the seat can see and on the
generator. Pooling the hidden cards, sorting the pool (so the real hidden order is forgotten) and dealing
it again from the generator gives exactly that whenever the pool's contents follow from the view (the
whole card set minus everything visible), which is the case for every hidden zone in these games.
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence, Sequence
from typing import Any, TypeVar

from rules.core import Rng

T = TypeVar("T")


def redeal(rng: Rng, zones: Sequence[MutableSequence[T]], key: Callable[[T], Any] | None = None) -> None:
    """Pool the contents of ``zones``, forget their order, shuffle and refill each zone in place with as
    many items as it held."""
    pool: list[T] = sorted((x for z in zones for x in z), key=key)  # type: ignore[type-var, arg-type]
    rng.shuffle(pool)
    start = 0
    for zone in zones:
        n = len(zone)
        zone[:] = pool[start : start + n]
        start += n


def reshuffled(rng: Rng, items: Sequence[T], key: Callable[[T], Any] | None = None) -> list[T]:
    """``items`` in a fresh random order that does not depend on the order they came in."""
    out: list[T] = sorted(items, key=key)  # type: ignore[type-var, arg-type]
    rng.shuffle(out)
    return out


def fresh_rng(rng: Rng) -> Rng:
    """A new generator for the sampled state: the real one's state would tell the future draws."""
    return Rng(state=rng.next_u64())

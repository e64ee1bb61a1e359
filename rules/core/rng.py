"""A seeded generator whose whole state is one 64-bit integer kept inside the game state.

``random.Random`` would put a 625-word Mersenne state into every saved game; SplitMix64 needs one number,
is fast in pure Python and passes BigCrush, which is plenty for shuffles and dice.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, MutableSequence, Sequence
from functools import lru_cache
from operator import mod
from typing import TypeVar

from pydantic import BaseModel, ConfigDict

from rules.core.fastmodel import build

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15

T = TypeVar("T")


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Rng(BaseModel):
    """Mutable on purpose: engines clone the state before an action, then draw from the clone's Rng."""

    model_config = ConfigDict(validate_assignment=False)

    state: int

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        """Mix the seed once so nearby seeds (1, 2, 3 …) start far apart."""
        return cls(state=_mix((seed * _GOLDEN) & _MASK))

    def clone(self) -> Rng:
        return build(Rng, {"state": self.state})

    def next_u64(self) -> int:
        self.state = (self.state + _GOLDEN) & _MASK
        return _mix(self.state)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) without modulo bias (rejection of the short last bucket)."""
        if n <= 0:
            raise ValueError("n must be positive")
        self.state, x = _below(self.state, n)
        return x

    def die(self, sides: int = 6) -> int:
        return self.below(sides) + 1

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates in place; the order depends only on this generator's state.

        Draws exactly as ``below(i + 1)`` for i = len - 1 … 1 would (test_rng_draws pins it). A list of at
        least ``_BATCH_MIN`` items takes its draws from ``_next_draws`` all at once: 110 cards cost about a
        third of the one-at-a-time loop, and Call to Glory shuffles 110 cards every round. That loop stays
        for short lists, where the batch's set-up costs more than it saves, and for the batch that holds a
        draw ``below`` would reject (about once in 10¹⁵ deals of 110 cards).
        """
        size = len(items)
        if size >= _BATCH_MIN:
            draws = _next_draws(self.state, size - 1)
            # below(n) rejects only a draw above _MASK - (_MASK + 1) % n, and that bound is at least
            # _MASK - size for every n <= size: below this, every draw of the batch is accepted.
            if max(draws) <= _MASK - size:
                for i, j in zip(range(size - 1, 0, -1), map(mod, draws, range(size, 1, -1)), strict=True):
                    items[i], items[j] = items[j], items[i]
                self.state = (self.state + (size - 1) * _GOLDEN) & _MASK
                return
        # One draw at a time: keeps the state in a local until the end (assigning a model field per draw
        # made a 110-card shuffle cost about 100 µs) and spells ``_below`` out (without the call and its
        # returned pair, about 10 % fewer instructions).
        state = self.state
        for i in range(size - 1, 0, -1):
            n = i + 1
            limit = _MASK - (_MASK + 1) % n
            while True:
                state = (state + _GOLDEN) & _MASK
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                x = z ^ (z >> 31)
                if x <= limit:
                    break
            j = x % n
            items[i], items[j] = items[j], items[i]
        self.state = state


# Shorter lists shuffle faster one draw at a time (measured: the two cost the same at about 5 items).
_BATCH_MIN = 6


@lru_cache(maxsize=64)
def _lanes(count: int) -> tuple[int, int, int, Callable[[bytes], tuple[int, ...]]]:
    """Constants for ``_next_draws`` of ``count`` draws, one 128-bit lane per draw (lane k is bits
    128k … 128k + 127): 1 in every lane, k·_GOLDEN mod 2⁶⁴ in lane k - 1, 2⁶⁴ - 1 in every lane, and the
    unpacker of the lanes' 64-bit halves."""
    ones = int.from_bytes((b"\x01" + bytes(15)) * count, "little")
    steps = b"".join(((k * _GOLDEN) & _MASK).to_bytes(16, "little") for k in range(1, count + 1))
    return ones, int.from_bytes(steps, "little"), ones * _MASK, struct.Struct(f"<{2 * count}Q").unpack


def _next_draws(state: int, count: int) -> tuple[int, ...]:
    """The next ``count`` outputs of ``next_u64`` from ``state``, computed side by side.

    SplitMix64 state k is state + k·_GOLDEN, so all of them are one multiply-add on lanes of one big
    integer, and the mix's shifts, xors and multiplies then act on every lane at once: a lane is 128 bits
    wide so a 64 × 64-bit product never reaches its neighbour, and masking with ``low`` after each step
    keeps each lane's value below 2⁶⁴ (after a shift, it drops the bits that came down from the lane
    above). A dozen operations on one integer replace a dozen per draw in the interpreter.
    """
    ones, steps, low, unpack = _lanes(count)
    s = (state * ones + steps) & low
    z = ((s ^ (s >> 30) & low) * 0xBF58476D1CE4E5B9) & low
    z = ((z ^ (z >> 27) & low) * 0x94D049BB133111EB) & low
    x = z ^ (z >> 31) & low
    return unpack(x.to_bytes(16 * count, "little"))[::2]  # each lane's low half; the high half is 0


def _below(state: int, n: int) -> tuple[int, int]:
    """``Rng.below`` on a bare state (``n`` > 0): the advanced state and the draw."""
    limit = _MASK - (_MASK + 1) % n
    while True:
        state = (state + _GOLDEN) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK  # _mix, inlined: this is the hot loop
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        x = z ^ (z >> 31)
        if x <= limit:
            return state, x % n

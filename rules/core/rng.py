"""A seeded generator whose whole state is one 64-bit integer kept inside the game state.

``random.Random`` would put a 625-word Mersenne state into every saved game; SplitMix64 needs one number,
is fast in pure Python and passes BigCrush, which is plenty for shuffles and dice.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
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
        limit = _MASK - (_MASK + 1) % n
        while True:
            x = self.next_u64()
            if x <= limit:
                return x % n

    def die(self, sides: int = 6) -> int:
        return self.below(sides) + 1

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates in place; the order depends only on this generator's state."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

"""``Rng.shuffle`` and ``Rng.below`` share ``_below``, which keeps the generator state in a local: they must
draw exactly the sequence the one-draw-at-a-time definition gives, or every saved game would deal anew."""

from __future__ import annotations

from rules.core import Rng
from rules.core.rng import _GOLDEN, _MASK, _mix


def _reference_below(state: int, n: int) -> tuple[int, int]:
    """The definition: next_u64 until the draw falls outside the short last bucket."""
    limit = _MASK - (_MASK + 1) % n
    while True:
        state = (state + _GOLDEN) & _MASK
        x = _mix(state)
        if x <= limit:
            return state, x % n


def test_below_matches_the_reference_including_heavy_rejection() -> None:
    for seed in range(50):
        rng = Rng.from_seed(seed)
        state = rng.state
        # 3·2⁶² rejects a quarter of all draws, so the retry path runs too.
        for n in (1, 2, 3, 6, 110, 3 * 2**62, 2**64 - 1, 2**64):
            state, expected = _reference_below(state, n)
            assert rng.below(n) == expected and rng.state == state


def test_shuffle_is_fisher_yates_over_below() -> None:
    for seed in range(50):
        items = list(range(seed % 120))
        fast, slow = Rng.from_seed(seed), Rng.from_seed(seed)
        expected = items[:]
        for i in range(len(expected) - 1, 0, -1):
            j = slow.below(i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        fast.shuffle(items)
        assert items == expected and fast.state == slow.state

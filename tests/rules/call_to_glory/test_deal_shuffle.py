"""Every round deals from a 110-card shuffle (CTG-R2), which ``Rng.shuffle`` draws in one batch: the deal
must be the one-draw-at-a-time Fisher–Yates over ``Rng.below``, or every saved game would deal anew. The
batch's rare way out, a draw that ``below`` rejects, is forced here by running SplitMix64's mix backwards."""

from __future__ import annotations

from rules.call_to_glory.cards import full_deck
from rules.core import Rng
from rules.core.rng import _GOLDEN, _MASK, _mix


def _fisher_yates(rng: Rng, items: list[int]) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]


def _undo_xorshift(y: int, shift: int) -> int:
    x = y
    for _ in range(64 // shift + 1):
        x = y ^ (x >> shift)
    return x


def _unmix(x: int) -> int:
    """The state whose mix is ``x``: each of the mix's steps is a bijection on 64-bit numbers."""
    z = _undo_xorshift(x, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & _MASK
    z = _undo_xorshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & _MASK
    return _undo_xorshift(z, 30)


def test_a_deal_is_fisher_yates_over_below() -> None:
    for seed in range(20):
        batched, single = Rng.from_seed(seed), Rng.from_seed(seed)
        deck, expected = full_deck(), full_deck()
        batched.shuffle(deck)
        _fisher_yates(single, expected)
        assert deck == expected and batched.state == single.state


def test_a_deal_whose_draws_hold_a_rejected_one_draws_again_as_below_does() -> None:
    assert _mix(_unmix(0x0123456789ABCDEF)) == 0x0123456789ABCDEF
    # The fifth draw of a 110-card shuffle is below(106); 2⁶⁴ - 1 lies in its short last bucket.
    start = (_unmix(_MASK) - 5 * _GOLDEN) & _MASK
    batched, single = Rng(state=start), Rng(state=start)
    deck, expected = full_deck(), full_deck()
    batched.shuffle(deck)
    _fisher_yates(single, expected)
    assert deck == expected and batched.state == single.state
    assert single.state == (start + 110 * _GOLDEN) & _MASK  # 109 draws and the one rejected

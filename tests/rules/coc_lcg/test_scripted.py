"""Which cards are scripted, and that each one has a card test naming it."""

from __future__ import annotations

from pathlib import Path

from rules.coc_lcg.cards import catalog
from rules.coc_lcg.script import SCRIPTS

HERE = Path(__file__).parent


def test_every_core_card_is_scripted() -> None:
    assert sorted(SCRIPTS) == sorted(catalog())


def test_every_scripted_card_has_a_test() -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in HERE.glob("test_cards_*.py"))
    missing = sorted(c for c in SCRIPTS if f'"{c}"' not in text)
    assert not missing, f"scripted cards without a card test: {missing}"

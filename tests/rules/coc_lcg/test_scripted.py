"""Which cards are scripted, and that each one has a card test naming it."""

from __future__ import annotations

import json
import re
from pathlib import Path

from rules.coc_lcg.cards import catalog
from rules.coc_lcg.script import SCRIPTS

HERE = Path(__file__).parent
CARDS = Path(__file__).parents[3] / "rules" / "coc_lcg" / "data" / "cards.json"


def test_every_core_card_is_scripted() -> None:
    assert sorted(SCRIPTS) == sorted(catalog())


def test_every_scripted_card_has_a_test() -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in HERE.glob("test_cards_*.py"))
    missing = sorted(c for c in SCRIPTS if f'"{c}"' not in text)
    assert not missing, f"scripted cards without a card test: {missing}"


def test_a_scripted_response_is_labelled_one_on_the_card() -> None:
    """CoC-R116/R118: what makes an ability a Response is its bold label, and cards that cancel responses
    (Power Drain) go by it; the card text a player reads must say so wherever the engine plays one."""
    cards = {c["id"]: c for c in json.loads((CARDS).read_text(encoding="utf-8"))["cards"]}
    unlabelled = sorted(
        cid for cid, sc in SCRIPTS.items() if any(a.kind == "response" for a in sc.abilities)
        and not (re.search(r"(?<!Forced )Response", cards[cid]["text"]["en"])
                 and re.search(r"(?<![Пп]ринудительный )[Оо]твет", cards[cid]["text"]["ru"])))
    assert not unlabelled

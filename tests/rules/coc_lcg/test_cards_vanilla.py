"""Cards whose text is only keywords: their stats and keywords, and that they carry no abilities."""

from __future__ import annotations

import pytest

from rules.coc_lcg.cards import catalog
from rules.coc_lcg.script import SCRIPTS

EXPECTED = {
    "agency-undercover-security": ({"heroic", "willpower"}, 0, 2),
    "agency-hired-muscle": (set(), 1, 0),
    "agency-freelance-occultist": ({"fast"}, 0, 0),
    "agency-blackwood-file-clerk": (set(), 0, 0),
    "agency-g-men": ({"heroic", "willpower"}, 3, 0),
    "miskatonic-laboratory-assistant": (set(), 0, 0),
    "cthulhu-keeper-of-the-golden-path": ({"villainous"}, 0, 0),
    "cthulhu-guardian-shoggoth": (set(), 2, 0),
    "cthulhu-innsmouth-troublemaker": (set(), 1, 0),
    "cthulhu-young-deep-one": (set(), 0, 0),
    "syndicate-dr-marinus-bicknell-willett": ({"fast", "willpower"}, 0, 0),
    "syndicate-bag-man": ({"fast"}, 0, 0),
    "syndicate-triggerman": ({"loyal", "willpower"}, 0, 0),
    "hastur-byakhee-servant": ({"fast"}, 0, 0),
    "hastur-mad-artist": (set(), 0, 0),
    "yog-sothoth-arcane-initiate": ({"villainous", "willpower"}, 0, 0),
    "yog-sothoth-servant-of-nodens": (set(), 0, 0),
    "shub-niggurath-degenerate-ghoul": (set(), 0, 0),
}


@pytest.mark.parametrize("card", sorted(EXPECTED))
def test_keywords_only_card(card: str) -> None:
    kws, tough, steadfast = EXPECTED[card]
    d = catalog()[card]
    assert set(d.keywords) == kws and d.toughness == tough and d.steadfast == steadfast
    assert SCRIPTS[card].keywords_only and SCRIPTS[card].abilities == ()

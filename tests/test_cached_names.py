"""The heavy games cache the names and texts they look up in fixed data (cards, maps, the message catalog)
by name and language: a cached answer must be the one the lookup itself gives, in each language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cogs import coc_lcg, cthulhu_wars_duel, eldritch_horror
from cogs.cthulhu_wars_duel.map import unit_code
from cogs.eldritch_horror.map import space_name
from rules.cthulhu_wars_duel.factions import KINDS, SPELLBOOKS
from rules.cthulhu_wars_duel.maps import MAP_IDS, load

EH_NAMES = ["Akachi Onyele", "Charlie Kane", "Diana Stanley", "no such card"]
CASES: list[tuple[Callable[..., str], tuple[Any, ...]]] = [
    *[(eldritch_horror.card, (n,)) for n in EH_NAMES],
    *[(eldritch_horror.sheet_text, (n,)) for n in EH_NAMES],
    *[(space_name, (s,)) for s in ("Space 1", "Space 15", "Tokyo", "nowhere")],
    *[(eldritch_horror.skill, (s,)) for s in ("lore", "will", "health", "nothing")],
    *[(eldritch_horror.mythos_name, (m,)) for m in ("a-proposition", "buying-information", "no such card")],
    *[(eldritch_horror.mythos_text, (m,)) for m in ("a-proposition", "no such card")],
    *[(eldritch_horror.mystery_name, (m,)) for m in ("Occult Research", "no such mystery")],
    *[(eldritch_horror.option_label, k) for k in (("action", "travel:London>Rome"), ("action", "rest"),
                                                  ("buy", "buy:Axe"), ("choose", "nothing"), ("target", "lore>will"))],
    *[(cthulhu_wars_duel.area_name, (m, a)) for m in MAP_IDS for a in [*load(m).names][:4]],
    (cthulhu_wars_duel.area_name, ("earth", None)),
    *[(cthulhu_wars_duel.unit_name, (k,)) for k in KINDS[0][:3]],
    *[(unit_code, (k,)) for k in KINDS[1][:3]],
    *[(cthulhu_wars_duel.book_name, (b,)) for b in SPELLBOOKS[1][:3]],
    (cthulhu_wars_duel.faction_name, ("windwalker",)),
    (coc_lcg.card_name, ("0:agency-local-sheriff:2",)),
    (coc_lcg.card_name, (None,)),
    (coc_lcg.faction_legend, ()),
]


@pytest.mark.parametrize(("lookup", "args"), CASES, ids=lambda v: getattr(v, "__name__", repr(v)))
def test_a_cached_name_is_the_lookup_s_own_answer_in_each_language(lookup: Callable[..., str],
                                                                    args: tuple[Any, ...]) -> None:
    uncached = lookup.__wrapped__  # type: ignore[attr-defined]
    for locale in ("en", "ru", "ru", "en-US", "en"):  # each asked twice: the second answer comes from the cache
        assert lookup(*args, locale) == uncached(*args, locale)


def test_the_cache_keeps_the_languages_apart() -> None:
    assert eldritch_horror.card("Charlie Kane", "en") == "Charlie Kane"
    assert eldritch_horror.card("Charlie Kane", "ru") == "Чарли Кейн"
    assert eldritch_horror.card("Charlie Kane", "en") == "Charlie Kane"
    assert coc_lcg.card_name("0:agency-local-sheriff:1", "ru") == "Местный шериф"
    assert coc_lcg.card_name("0:agency-local-sheriff:1", "en") == "Local Sheriff"
    earth = [*load("earth").names][0]
    assert cthulhu_wars_duel.area_name("earth", earth, "en") != cthulhu_wars_duel.area_name("earth", earth, "ru")

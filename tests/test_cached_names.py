"""Every game's cog caches the names and texts it looks up in fixed data (cards, maps, piles, the message
catalog) by name and language: a cached answer must be the one the lookup itself gives, in each language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cogs import call_to_glory, coc_lcg, cthulhu_wars_duel, eldritch_horror, fluxx_cthulhu
from cogs.cthulhu_wars_duel.map import unit_code
from cogs.eldritch_horror.map import space_name
from rules.call_to_glory.cards import catalog as ctg_catalog
from rules.cthulhu_wars_duel.factions import KINDS, SPELLBOOKS
from rules.cthulhu_wars_duel.maps import MAP_IDS, load
from rules.fluxx_cthulhu.cards import catalog as flx_catalog

EH_NAMES = ["Akachi Onyele", "Charlie Kane", "Diana Stanley", "no such card"]
FLX_CARDS = [*list(flx_catalog())[:6], "no_such_card", None]
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
    *[(call_to_glory.char_name, (v,)) for v in ctg_catalog().characters],
    *[(call_to_glory.char_label, (v,)) for v in ctg_catalog().characters],
    *[(call_to_glory.pile_label, (p,)) for p in ("deck1", "deck2", "discard1", "discard2", 1, 2)],
    *[(call_to_glory.pile_from, (p,)) for p in ("deck1", "deck2", "discard1", "discard2")],
    *[(call_to_glory.task_label, (x,)) for x in list(ctg_catalog().tasks)[:4]],
    *[(fluxx_cthulhu.card_name, (c,)) for c in FLX_CARDS],
    *[(fluxx_cthulhu.quoted, (c,)) for c in FLX_CARDS],
    *[(fluxx_cthulhu.card_text, (c,)) for c in FLX_CARDS if c is not None],
    *[(fluxx_cthulhu.FluxxUI._type, (c,)) for c in FLX_CARDS if c is not None],
    *[(fluxx_cthulhu.described, (c,)) for c in FLX_CARDS if c is not None],
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
    assert call_to_glory.char_name(6, "en") != call_to_glory.char_name(6, "ru")
    assert call_to_glory.char_name(6, "en") == ctg_catalog().names[6]["en"]
    first = next(iter(flx_catalog().values()))
    assert fluxx_cthulhu.card_name(first.id, "ru") == first.name_ru
    assert fluxx_cthulhu.card_name(first.id, "en") == first.name_en
    assert fluxx_cthulhu.quoted(first.id, "ru") == f"«{first.name_ru}»"

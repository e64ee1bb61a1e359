"""Call to Glory and Cthulhu Fluxx cache the names and texts they look up in fixed data (cards, piles, the
message catalog) by card and language: a cached answer must be the one the lookup itself gives, in each
language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cogs import call_to_glory, fluxx_cthulhu
from rules.call_to_glory.cards import catalog as ctg_catalog
from rules.fluxx_cthulhu.cards import catalog as flx_catalog

FLX_CARDS = [*list(flx_catalog())[:6], "no_such_card", None]
CASES: list[tuple[Callable[..., str], tuple[Any, ...]]] = [
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
    assert call_to_glory.char_name(6, "en") != call_to_glory.char_name(6, "ru")
    assert call_to_glory.char_name(6, "en") == ctg_catalog().names[6]["en"]
    first = next(iter(flx_catalog().values()))
    assert fluxx_cthulhu.card_name(first.id, "ru") == first.name_ru
    assert fluxx_cthulhu.card_name(first.id, "en") == first.name_en
    assert fluxx_cthulhu.quoted(first.id, "ru") == f"«{first.name_ru}»"

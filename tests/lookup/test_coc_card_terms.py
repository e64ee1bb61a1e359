"""Call of Cthulhu LCG's /card shows its facts in the reader's language: in Russian the faction, subtypes
and keywords use the Russian edition's terms (rules/coc_lcg/data/cards.json ``stats_ru``)."""

from __future__ import annotations

from bot.lookup.corpus import CARDS_PATH, RULES_DIR, Corpus, GameCorpus, load_cards
from bot.lookup.search import LookupIndex
from cogs.rules_lookup import card_embed

GAME = "coc_lcg"


def _fields(lang: str, card_id: str) -> dict[str, str]:
    index = LookupIndex.build(Corpus({GAME: GameCorpus(GAME, cards=load_cards(RULES_DIR / GAME / CARDS_PATH, GAME))}))
    card = index.card(GAME, card_id)
    assert card is not None
    embed = card_embed(index, GAME, card, lang, lang)
    return {f.name: f.value for f in embed.fields}


def test_card_shows_faction_subtypes_and_keywords_in_russian() -> None:
    ru = _fields("ru", "agency-g-men")
    assert ru["Фракция"] == "Агентство" and ru["Подтипы"] == "Правительство"
    assert ru["Ключевые слова"] == "Героический, Крутизна +3, Сила воли"
    en = _fields("en", "agency-g-men")
    assert en["Faction"] == "The Agency" and en["Keywords"] == "Heroic, Toughness +3, Willpower"

"""Rules and card lookup: the corpus models, text processing and the ranked search index.

The ``/rules`` and ``/card`` commands call :class:`LookupIndex` (or the module-level helpers, which
share one lazily built index). Nothing here touches Discord.
"""

from bot.lookup.corpus import (
    Card,
    CardsFile,
    Corpus,
    CorpusError,
    GameCorpus,
    Section,
    SectionsFile,
    SectionText,
    load_corpus,
)
from bot.lookup.search import (
    MAX_CHOICES,
    MAX_LABEL,
    CardHit,
    LookupIndex,
    RuleAnswer,
    RuleHit,
    UnknownGameError,
    answer_rules,
    autocomplete_cards,
    autocomplete_games,
    autocomplete_topics,
    closest_cards,
    closest_topics,
    get_index,
    search_cards,
    search_rules,
)

__all__ = [
    "MAX_CHOICES",
    "MAX_LABEL",
    "Card",
    "CardHit",
    "CardsFile",
    "Corpus",
    "CorpusError",
    "GameCorpus",
    "LookupIndex",
    "RuleAnswer",
    "RuleHit",
    "Section",
    "SectionText",
    "SectionsFile",
    "UnknownGameError",
    "answer_rules",
    "autocomplete_cards",
    "autocomplete_games",
    "autocomplete_topics",
    "closest_cards",
    "closest_topics",
    "get_index",
    "load_corpus",
    "search_cards",
    "search_rules",
]

"""Search behaviour on a small corpus of our own (no dependence on the real corpus being finished)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
import yaml

from bot.lookup import (
    MAX_CHOICES,
    MAX_LABEL,
    CorpusError,
    LookupIndex,
    UnknownGameError,
    load_corpus,
)
from bot.lookup.text import detect_lang, normalize, stem, stems

GAME = "toy_game"


def _section(sid, en_title, en_kw, en_text, ru_title, ru_kw, ru_text, rules=()):
    return {
        "id": sid,
        "rules": list(rules),
        "en": {"title": en_title, "keywords": en_kw, "text": en_text},
        "ru": {"title": ru_title, "keywords": ru_kw, "text": ru_text},
    }


SECTIONS = [
    _section(
        "overview", "What the game is about", ["overview", "goal", "how to win"],
        "A card game for two to four players. Collect sets of matching cards and score points.",
        "О чём игра", ["обзор", "цель", "как победить"],
        "Карточная игра для двух–четырёх игроков. Собирайте наборы одинаковых карт и набирайте очки.",
        ["TOY-R1"],
    ),
    _section(
        "draw", "Drawing cards", ["draw", "take cards", "deck", "same pile"],
        "Take two cards, each from a different pile. Never two cards from the same pile.",
        "Взять карты", ["тянуть", "взять", "колода", "одна стопка"],
        "Возьмите две карты из разных стопок. Брать две карты из одной стопки нельзя.",
        ["TOY-R2"],
    ),
    _section(
        "discard", "Discarding a card", ["discard", "throw away", "get rid of a card"],
        "If you do not lay out a set, put one card from your hand face up on a discard pile.",
        "Сбросить карту", ["сброс", "выбросить", "избавиться от карты"],
        "Если вы не выложили набор, положите одну карту с руки в открытую стопку сброса.",
        ["TOY-R3"],
    ),
    _section(
        "scoring", "Scoring", ["score", "points", "count points"],
        "At the end of a round every character you have out scores its value once.",
        "Подсчёт очков", ["очки", "подсчёт", "считать очки"],
        "В конце раунда каждый ваш персонаж на столе приносит своё значение один раз.",
        ["TOY-R4"],
    ),
    _section(
        "ninja", "Ninja figures", ["ninja", "figure", "steal"],
        "A ninja figure lets you remove one card from an opponent's set before you draw.",
        "Фигурки ниндзя", ["ниндзя", "фигурка", "украсть"],
        "Фигурка ниндзя позволяет убрать одну карту из набора соперника перед тем, как брать карты.",
        ["TOY-V1"],
    ),
]

TYPES = {"keeper": {"en": "Keeper", "ru": "Хранитель"}, "action": {"en": "Action", "ru": "Действие"}}
CARDS = [
    {"id": "necronomicon", "type": "keeper", "name": {"en": "The Necronomicon", "ru": "Некрономикон"},
     "text": {"en": "A book.", "ru": "Книга."}, "aliases": ["necro", "book of the dead"],
     "stats": {"cost": 2}},
    {"id": "mi_go", "type": "keeper", "name": {"en": "Mi-Go", "ru": "Ми-Го"},
     "text": {"en": "A fungus from Yuggoth.", "ru": "Грибок с Юггота."}},
    {"id": "draw_2", "type": "action", "name": {"en": "Draw 2", "ru": "Возьми 2"},
     "text": {"en": "Draw two cards.", "ru": "Возьмите две карты."}, "confidence": "high"},
]


def _write(root: Path, game: str, sections=None, cards=None, names=None) -> None:
    if sections is not None:
        path = root / "rules" / game / "reference" / "sections.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {"game": game, "sections": sections}
        if names:
            data["names"] = names
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    if cards is not None:
        path = root / "rules" / game / "data" / "cards.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {"game": game, "types": TYPES, "stat_labels": {"cost": {"en": "Cost", "ru": "Цена"}},
                "cards": cards}
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("corpus")
    _write(root, GAME, SECTIONS, CARDS, names={"en": "Toy Game", "ru": "Игрушечная игра"})
    _write(root, "cards_only", cards=CARDS)
    many = [
        _section(f"topic_{i:02d}", f"Topic number {i} " + "x" * 120, ["topic", f"kw{i}"],
                 f"Text about topic {i}.", f"Тема номер {i} " + "ы" * 120, ["тема"], f"Текст о теме {i}.")
        for i in range(40)
    ]
    long_cards = [
        {"id": f"card_{i}", "type": "keeper",
         "name": {"en": f"Card {i} " + "long " * 30, "ru": f"Карта {i} " + "длинная " * 20},
         "text": {"en": "x", "ru": "x"}}
        for i in range(40)
    ]
    _write(root, "big_game", many, long_cards)
    return root


@pytest.fixture(scope="module")
def index(root) -> LookupIndex:
    return LookupIndex.build(load_corpus(root))


def ids(hits):
    return [h.section_id for h in hits]


# ------------------------------------------------------------------------------------ text


def test_russian_forms_share_a_stem():
    assert stem("сбросить") == stem("сброс") == stem("сбрасывает")
    assert stem("сбрасывать") == stem("сбросил") == stem("сброса")


def test_russian_verbal_nouns_and_participles_meet_their_verb():
    assert stem("уничтожение") == stem("уничтожить") == stem("уничтожен")
    assert stem("исследование") == stem("исследовать")
    assert stem("улучшение") == stem("улучшить")
    assert stem("поражение") == stem("проиграл")  # a folded noun still meets its synonyms


def test_russian_verb_families_meet():
    assert stem("кончается") == stem("закончилась") == stem("завершение") == stem("конец")
    assert stem("побеждает") == stem("победа") == stem("выиграл")
    assert stem("положить") == stem("кладу")
    assert stem("добрать") == stem("добирать") == stem("добор")
    assert stem("сыграть") == stem("розыгрыш") == stem("разыгрывать")
    assert stem("захватывать") == stem("захватить") == stem("захват")
    assert stem("закрывать") == stem("закрытие") == stem("закрыть")
    assert stem("напасть") == stem("нападение") == stem("атака")
    assert stem("показывать") == stem("показать")  # no «о» for «а» outside the roots that swap
    assert stem("добавлять") == stem("добавить") and stem("выставлять") == stem("выставить")
    assert stem("выбирать") == stem("выбрать") == stem("выбор")


def test_english_forms_share_a_stem():
    assert stem("discard") == stem("discards") == stem("discarding") == stem("discarded")
    assert stem("drew") == stem("draw") == stem("drawing")


def test_normalize_folds_yo_case_and_punctuation():
    assert normalize("Ёлка, ЁЖ!") == "елка еж"
    assert normalize("**Bot ruling:** don't") == "bot ruling dont"
    assert stems("What is the deck?") == ["deck"]


def test_detect_lang():
    assert detect_lang("можно ли сбросить?") == "ru"
    assert detect_lang("can I discard?") == "en"
    assert detect_lang("12 3", default="ru") == "ru"
    assert detect_lang("сброс Necronomicon") == "en"  # one word each: more Latin letters
    assert detect_lang("как сбросить Necronomicon") == "ru"  # more Russian words


# ------------------------------------------------------------------------------------ rules


@pytest.mark.parametrize("query", ["сбросить", "сброс", "сбрасывает", "когда я сбрасываю карту?"])
def test_russian_morphology_meets(index, query):
    assert ids(index.search_rules(GAME, query, "ru"))[0] == "discard"


@pytest.mark.parametrize("query", ["discarded", "how does discarding work"])
def test_english_morphology_meets(index, query):
    assert ids(index.search_rules(GAME, query, "en"))[0] == "discard"


@pytest.mark.parametrize(
    "query,lang,want",
    [("disacrd a card", "en", "discard"), ("scorring", "en", "scoring"),
     ("сбрасвать карту", "ru", "discard"), ("нинздя", "ru", "ninja")],
)
def test_typo_still_finds_the_section(index, query, lang, want):
    assert ids(index.search_rules(GAME, query, lang))[0] == want


def test_russian_query_gets_russian_sections_first(index):
    hits = index.search_rules(GAME, "как считать очки в конце раунда", "en", limit=5)
    assert hits and hits[0].lang == "ru" and hits[0].section_id == "scoring"
    langs = [h.lang for h in hits]
    assert langs == sorted(langs, key=lambda x: x != "ru"), "Russian hits must come before English"


def test_english_query_gets_english_sections_first(index):
    hits = index.search_rules(GAME, "points at the end of a round", "ru")
    assert hits[0].lang == "en" and hits[0].section_id == "scoring"


def test_hit_fields(index):
    hit = index.search_rules(GAME, "draw two cards", "en")[0]
    assert hit.section_id == "draw" and hit.title == "Drawing cards" and hit.rules == ("TOY-R2",)
    assert "different pile" in hit.text and hit.score > 0 and hit.game == GAME


def test_section_id_and_rule_id_queries(index):
    hit = index.search_rules(GAME, "discard", "ru")[0]  # an autocomplete value: reader's language
    assert (hit.section_id, hit.lang) == ("discard", "ru")
    assert ids(index.search_rules(GAME, "TOY-V1", "en"))[0] == "ninja"


@pytest.mark.parametrize("query", ["", "   ", "!!!", "zzqxw", "ывапролдж", "the of and"])
def test_garbage_query_still_suggests_topics(index, query):
    for lang in ("en", "ru"):
        answer = index.answer_rules(GAME, query, lang)
        assert answer.hits or answer.suggestions
        assert index.closest_topics(GAME, query, lang)


def test_closest_topics_prefers_similar_titles(index):
    assert ids(index.closest_topics(GAME, "scorng", "en"))[0] == "scoring"
    assert ids(index.closest_topics(GAME, "фигурк", "ru"))[0] == "ninja"


def test_unknown_game(index):
    with pytest.raises(UnknownGameError):
        index.search_rules("nope", "draw", "en")
    assert index.autocomplete_topics("nope", "", "en") == []
    assert index.autocomplete_cards("nope", "", "en") == []


def test_game_with_cards_only(index):
    assert "cards_only" in index.games()
    assert index.search_rules("cards_only", "draw", "en") == []
    assert index.closest_topics("cards_only", "draw", "en") == []
    assert index.search_cards("cards_only", "necro", "en")[0].card_id == "necronomicon"


# ------------------------------------------------------------------------------------ cards


@pytest.mark.parametrize(
    "query,lang,want",
    [("Necronomicon", "en", "necronomicon"), ("некрономикон", "ru", "necronomicon"),
     ("necro", "en", "necronomicon"), ("book of the dead", "en", "necronomicon"),
     ("necronomicom", "en", "necronomicon"), ("миго", "ru", "mi_go"), ("mi go", "en", "mi_go"),
     ("возьми", "ru", "draw_2")],
)
def test_search_cards(index, query, lang, want):
    hit = index.search_cards(GAME, query, lang)[0]
    assert hit.card_id == want
    assert hit.lang == ("ru" if detect_lang(query, lang) == "ru" else "en")


def test_card_hit_labels(index):
    hit = index.search_cards(GAME, "некрономикон", "ru")[0]
    assert (hit.name, hit.type_label, hit.text) == ("Некрономикон", "Хранитель", "Книга.")
    assert hit.card.stats == {"cost": 2}
    assert index.search_cards(GAME, "", "en") == []


@pytest.mark.parametrize("query", ["", "   ", "qzx", "щщщ", "!!!"])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_closest_cards_always_suggest(index, query, lang):
    hits = index.closest_cards(GAME, query, lang)
    assert sorted(h.card_id for h in hits) == sorted(c["id"] for c in CARDS)  # limit 5 > 3 cards: all
    assert all(h.lang in ("en", "ru") for h in hits)
    assert len(index.closest_cards("big_game", query, lang, limit=4)) == 4


def test_closest_cards_rank_by_likeness(index):
    assert index.closest_cards(GAME, "drwx", "en")[0].card_id == "draw_2"  # too far for search_cards
    assert index.search_cards(GAME, "drwx", "en") == []
    hits = index.closest_cards(GAME, "xgo", "en", limit=2)  # search_cards' hit first, then the next likest
    assert [h.card_id for h in hits] == ["mi_go", "necronomicon"]
    assert hits[0] == index.search_cards(GAME, "xgo", "en")[0]
    assert [h.name for h in index.closest_cards(GAME, "щщщ", "en")] == ["Возьми 2", "Ми-Го", "Некрономикон"]
    assert index.closest_cards(GAME, "qzx", "en", limit=0) == []
    assert index.closest_cards(GAME, "qzx", "en", limit=1)[0].name == "Draw 2"  # alphabetical padding
    with pytest.raises(UnknownGameError):
        index.closest_cards("nope", "x", "en")


# ------------------------------------------------------------------------------------ autocomplete


def _check_choices(choices):
    assert len(choices) <= MAX_CHOICES
    for label, value in choices:
        assert 1 <= len(label) <= MAX_LABEL and 1 <= len(value) <= MAX_LABEL


@pytest.mark.parametrize("prefix", ["", "t", "topic", "Тема", "x" * 300, "kw3", "!!"])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_autocomplete_limits(index, prefix, lang):
    _check_choices(index.autocomplete_topics("big_game", prefix, lang))
    _check_choices(index.autocomplete_cards("big_game", prefix, lang))
    _check_choices(index.autocomplete_games(prefix, lang))
    _check_choices(index.autocomplete_topics(GAME, prefix, lang))


def test_autocomplete_topics(index):
    assert [v for _, v in index.autocomplete_topics(GAME, "", "en")] == [s["id"] for s in SECTIONS]
    assert index.autocomplete_topics(GAME, "", "ru")[0] == ("О чём игра", "overview")
    assert index.autocomplete_topics(GAME, "сбр", "ru")[0] == ("Сбросить карту", "discard")
    assert index.autocomplete_topics(GAME, "disc", "ru")[0] == ("Discarding a card", "discard")
    assert index.autocomplete_topics(GAME, "очк", "ru")[0][1] == "scoring"  # keyword prefix


def test_autocomplete_cards(index):
    assert index.autocomplete_cards(GAME, "nec", "en")[0] == ("The Necronomicon", "necronomicon")
    assert index.autocomplete_cards(GAME, "нек", "en")[0] == ("Некрономикон", "necronomicon")
    assert len(index.autocomplete_cards(GAME, "", "ru")) == len(CARDS)


def test_autocomplete_games(index):
    assert ("Toy Game", GAME) in index.autocomplete_games("", "en")
    assert index.autocomplete_games("игруш", "ru") == [("Игрушечная игра", GAME)]
    assert index.autocomplete_games("toy", "ru") == [("Игрушечная игра", GAME)]
    assert ("cards_only", "cards_only") in index.autocomplete_games("card", "en")  # id fallback


# ------------------------------------------------------------------------------------ corpus checks


def test_validation_errors(tmp_path):
    bad = [dict(SECTIONS[0]), dict(SECTIONS[0])]
    _write(tmp_path, "dupes", bad)
    with pytest.raises(CorpusError, match="duplicate section ids"):
        load_corpus(tmp_path)
    corpus = load_corpus(tmp_path, strict=False)
    assert "dupes" not in corpus.games and corpus.errors


@pytest.mark.parametrize(
    "card,msg",
    [({"type": "nope"}, "not in types"), ({"stats": {"power": 1}}, "not in stat_labels"),
     ({"name": {"en": "x"}}, "ru"), ({"id": "draw_2"}, "duplicate card id")],
)
def test_card_validation(tmp_path, card, msg):
    cards = [dict(CARDS[0], **card), CARDS[2]]
    _write(tmp_path, "bad_cards", cards=cards)
    with pytest.raises(CorpusError, match=msg):
        load_corpus(tmp_path)


def test_folder_and_game_must_agree(tmp_path):
    _write(tmp_path, "folder_a", SECTIONS)
    path = tmp_path / "rules" / "folder_a" / "reference" / "sections.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("game: folder_a", "game: other"), "utf-8")
    with pytest.raises(CorpusError, match="does not match"):
        load_corpus(tmp_path)


def test_concurrent_queries_agree(index):
    queries = ["сбрасывает", "draw two cards", "ninja", "очки"] * 25
    expected = [ids(index.search_rules(GAME, q, "en")) for q in queries]
    results: list = [None] * len(queries)

    def work(k0):
        for k in range(k0, len(queries), 4):
            results[k] = ids(index.search_rules(GAME, queries[k], "en"))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == expected


def test_a_players_word_for_a_glossary_term_finds_the_term(tmp_path):
    """rules/<game>/glossary.yaml's ``also``: players say "хранитель" and "steal" for what the texts call
    «тема» and "take" (issue 26: one name in the texts, the players' words still understood)."""
    _write(tmp_path, GAME, SECTIONS)
    (tmp_path / "rules" / GAME / "glossary.yaml").write_text(
        "game: toy_game\nterms:\n  ninja:\n    en: ninja\n    ru: ниндзя\n"
        "    also: {en: [shinobi], ru: [шиноби]}\n", encoding="utf-8")
    index = LookupIndex.build(load_corpus(tmp_path))
    assert ids(index.search_rules(GAME, "what does a shinobi do", "en"))[0] == "ninja"
    assert ids(index.search_rules(GAME, "что делает шиноби", "ru"))[0] == "ninja"


def test_a_russian_prefix_does_not_hide_the_word():
    """«сколько стоит передвижение» asks about the section «Движение»: a query stem missing from the index
    is also tried without a Russian prefix, or with one."""
    from bot.lookup.search import _ru_prefix_related

    assert _ru_prefix_related(frozenset({stem("движение")}), stem("передвижение")) == [stem("движение")]
    assert _ru_prefix_related(frozenset({stem("переворот")}), stem("ворот")) == [stem("переворот")]
    assert _ru_prefix_related(frozenset({stem("движение")}), stem("сражение")) == []


def test_russian_gaming_slang_meets_the_rulebook_word():
    """Players «скидывают» a card, «кидают кубы» and «тянут» cards: the same stems as the reference's
    «сбросить», «бросить кубики», «тянуть»."""
    assert stem("скинуть") == stem("скидываю") == stem("сбросить")
    assert stem("кидаю") == stem("кинул") == stem("бросить")
    assert stem("кубы") == stem("кубиков")
    assert stem("тяну") == stem("тянет") == stem("тянуть")
    assert stem("прокачать") == stem("улучшить")
    assert stem("стоит") == stem("стоимость") == stem("цена")
    assert stem("price") == stem("cost")


def test_chat_filler_is_not_a_search_word():
    assert stems("скока карт плз") == stems("карт")
    assert stems("u wanna draw pls") == stems("draw")


def test_words_naming_the_game_say_nothing_about_the_topic(tmp_path):
    """sections.yaml ``names.also``: "how do I score in toygame" asks about scoring, though the overview's
    title names the game; the name alone still finds something."""
    overview = dict(SECTIONS[0], en=dict(SECTIONS[0]["en"], title="What Toygame is"))
    _write(tmp_path, GAME, [overview, *SECTIONS[1:]], names={"en": "Toygame", "ru": "Игрушка", "also": ["toygame"]})
    index = LookupIndex.build(load_corpus(tmp_path))
    assert ids(index.search_rules(GAME, "how do i score in toygame", "en"))[0] == "scoring"
    assert ids(index.search_rules(GAME, "toygame", "en"))[0] == "overview"


def test_a_real_russian_word_is_not_taken_for_a_misspelling(tmp_path):
    """«состоит» is two edits from «Сотот», but it is a dictionary word, so it is not "corrected" into the
    Ancient One's name; a misspelling («сбрасвать») and a relative the reference uses («раздают» →
    «раздача») still stand in."""
    from bot.lookup.text import is_dictionary_word

    assert is_dictionary_word("состоит") and not is_dictionary_word("сбрасвать")
    yog = _section("yog", "Yog-Sothoth", ["yog"], "An Ancient One.", "Йог-Сотот", ["йог"], "Древний Йог-Сотот.")
    deal = _section("deal", "Dealing", ["deal"], "Deal cards.", "Раздача", ["раздача"], "Раздача карт игрокам.")
    _write(tmp_path, GAME, [*SECTIONS, yog, deal])
    index = LookupIndex.build(load_corpus(tmp_path))
    assert "yog" not in ids(index.search_rules(GAME, "из чего состоит", "ru"))
    assert ids(index.search_rules(GAME, "когда раздают", "ru"))[0] == "deal"


def test_a_question_word_matches_a_keyword_asking_the_same(tmp_path):
    """"how many" and «кто» are stop words, but a keyword phrased as the same question ("how many
    cards") still matches it as a phrase, so the section answering the count wins over one that only
    mentions the word."""
    from bot.lookup.text import intents

    assert intents("How many cards?") == ("?count",) and intents("кто ходит первым") == ("?who",)
    hand = _section("hand", "Hand", ["how many cards"], "Your hand.", "Рука", ["сколько карт"], "Ваша рука.")
    _write(tmp_path, GAME, [*SECTIONS, hand])
    index = LookupIndex.build(load_corpus(tmp_path))
    assert ids(index.search_rules(GAME, "how many cards can i have", "en"))[0] == "hand"
    assert ids(index.search_rules(GAME, "сколько карт можно держать", "ru"))[0] == "hand"


def test_a_query_worded_like_a_keyword_wins(tmp_path, monkeypatch):
    """A section whose keyword is worded like the whole question ("is the ghoul ever", stop words and
    all) beats the section titled with the question's only content word, through the fuzzy likeness
    bonus and only through it."""
    import bot.lookup.search as search

    asked = _section("asked", "Alpha", ["is the ghoul ever"], "The ghoul.", "Альфа", ["гуль"], "Гуль.")
    ghoul = _section("ghoul", "Ghoul", ["ghoul"], "A ghoul.", "Гуль", ["гуль"], "Гуль.")
    _write(tmp_path, GAME, [*SECTIONS, asked, ghoul])
    index = LookupIndex.build(load_corpus(tmp_path))
    assert ids(index.search_rules(GAME, "is the ghoul ever", "en"))[0] == "asked"
    monkeypatch.setattr(search, "FUZZY", 0.0)
    assert ids(index.search_rules(GAME, "is the ghoul ever", "en"))[0] == "ghoul"

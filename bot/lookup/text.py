"""Text handling shared by the index and the queries: normalisation, tokens, language, stems.

Everything here is pure and deterministic, so the index and the query side always agree: a word is
indexed exactly as a query spelling it the same way is looked up.

Pipeline for a word: ``normalize`` (casefold, ё→е, punctuation → space) → ``tokenize`` → stop words
dropped → ``stem`` (Snowball for the word's own script, then a few extra folds the Snowball stemmers
leave apart: Russian aspect pairs such as «сбросить»/«сбрасывать», verbal nouns and participles and
their verb («уничтожение»/«уничтожить»), English irregular verbs such as "drew"/"draw", and a short
list of synonyms and slang players use for the same thing: «скинуть» for «сбросить»).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Literal

import pymorphy3
import snowballstemmer

Lang = Literal["en", "ru"]
LANGS: tuple[Lang, Lang] = ("en", "ru")

_CYR = re.compile(r"[а-яё]", re.IGNORECASE)
_LAT = re.compile(r"[a-z]", re.IGNORECASE)
# Markdown and punctuation become spaces; letters and digits stay. Apostrophes inside words
# ("don't", "player's") are dropped so the word stays one token.
_APOSTROPHE = re.compile(r"(?<=\w)['’`](?=\w)")
_NON_WORD = re.compile(r"[^\w]+|_+")
_TOKEN = re.compile(r"\w+")


def normalize(text: str) -> str:
    """Casefold, fold ё→е, strip accents from Latin letters, replace punctuation by single spaces."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("ё", "е")
    # Latin diacritics (café, Shōgun) fold to plain letters; Cyrillic й must survive, so only
    # decompose characters whose base is Latin.
    if any(ord(c) > 0x7F and not ("\u0400" <= c <= "\u04ff") for c in text):
        text = "".join(_strip_latin_accent(c) for c in text)
    text = _APOSTROPHE.sub("", text)
    return _NON_WORD.sub(" ", text).strip()


def _strip_latin_accent(c: str) -> str:
    if c.isascii() or "\u0400" <= c <= "\u04ff":
        return c
    base = unicodedata.normalize("NFD", c)
    stripped = "".join(ch for ch in base if not unicodedata.combining(ch))
    return stripped if stripped.isascii() else c


def tokenize(text: str) -> list[str]:
    """Normalised word tokens, in order (duplicates kept)."""
    return _TOKEN.findall(normalize(text))


def script_of(token: str) -> Lang | None:
    """'ru' for a Cyrillic word, 'en' for a Latin one, None for digits only."""
    if _CYR.search(token):
        return "ru"
    if _LAT.search(token):
        return "en"
    return None


def detect_lang(text: str, default: Lang = "en") -> Lang:
    """The query's language: the script of most words (then of most letters); ``default`` when the
    text has no letters or both scripts tie."""
    words = _TOKEN.findall(normalize(text))
    cyr_w = sum(1 for w in words if _CYR.search(w))
    lat_w = sum(1 for w in words if _LAT.search(w))
    if cyr_w != lat_w:
        return "ru" if cyr_w > lat_w else "en"
    cyr = len(_CYR.findall(text))
    lat = len(_LAT.findall(text))
    if cyr == lat:
        return default
    return "ru" if cyr > lat else "en"


STOP_WORDS: dict[Lang, frozenset[str]] = {
    "en": frozenset(
        """a an the and or but if then so of to in on at by for from with into onto about as than
        is are was were be been being am do does did doing done have has had having
        i me my mine we us our you your he him his she her it its they them their
        this that these those there here what which who whom whose when where why how
        can could may might must shall should will would
        not no yes just also too very really only even still ever
        any some all each every much many more most other another
        get gets got up out off again please ok okay hey guys anyone
        happen happens happened happening allowed able exactly actually work works
        both such once few further
        cant dont doesnt isnt arent wasnt werent wont didnt im ive id youre whats thats
        s t d ll re ve m u ur pls plz wanna gonna gotta lol btw idk hmm yo bro dude guys
        something anything nothing everything somebody anybody someone everyone mean means meaning meant
        wat wut wich waht hw teh dose thx ty""".split()  # noqa: SIM905 - a word list kept as prose; a literal would be ~200 lines
    ),
    "ru": frozenset(
        """и в во не ни на с со к ко у о об обо от до из за по при про для без над под через перед
        а но да или либо ли же ж бы б то это этот эта эти тот та те так такой такая такие
        я мы ты вы он она оно они меня мне мной нас нам нами тебя тебе вас вам его ему им ее ей
        их мой моя мое мои свой своя свое свои твой наш ваш
        что чтобы как где когда куда откуда почему зачем кто чем чего кого кому какой какая какие
        каком какую ну вот уже еще тоже также даже только просто вообще
        есть быть был была было были будет будут
        можно нельзя надо нужно ли разве неужели
        весь вся все всё всех всем
        происходит произойдет случается случится бывает разрешено работает
        если столько сколько него нее такое такой такая может могу можешь могут мочь сам
        там тут здесь сейчас потом себя себе собой
        чё че чо щас плз пж пжл типа короче кароч ваще скока скоко вообщем
        делать делаю делаешь делает делаем делаете делают делал делала делали сделать сделаю сделает
        значит означает умеет умеют
        шо када кагда ток тока плиз пасиб спс""".split()  # noqa: SIM905 - as above
    ),
}
# «нельзя», «нужно» carry little topic signal; «не» neither. Numbers are kept.
STOP_WORDS["ru"] = frozenset(w.replace("ё", "е") for w in STOP_WORDS["ru"])

_STEMMERS = {
    "en": snowballstemmer.stemmer("english"),
    "ru": snowballstemmer.stemmer("russian"),
}

# English irregular forms the Snowball stemmer leaves apart from their base.
_EN_IRREGULAR = {
    "drew": "draw", "drawn": "draw", "took": "take", "taken": "take", "won": "win",
    "lost": "lose", "paid": "pay", "chose": "choose", "chosen": "choose", "gave": "give",
    "given": "give", "went": "go", "gone": "go", "ran": "run", "began": "begin", "begun": "begin",
    "held": "hold", "left": "leave", "met": "meet", "fought": "fight", "bought": "buy",
    "brought": "bring", "threw": "throw", "thrown": "throw", "dealt": "deal", "dies": "die",
    "died": "die", "dying": "die", "dead": "die", "death": "die", "kept": "keep", "lay": "lay",
    "laid": "lay", "put": "put", "spent": "spend", "sent": "send", "found": "find",
    "moved": "move", "rolled": "roll", "rolls": "roll", "dice": "die", "die": "die",
    "mice": "mouse", "men": "man", "women": "woman", "children": "child",
    "wins": "win", "winner": "win", "winners": "win", "winning": "win",
    "lose": "lose", "loses": "lose", "loser": "lose", "losing": "lose",
    "beaten": "beat", "stole": "steal", "stolen": "steal", "broke": "break", "broken": "break",
    "hid": "hide", "hidden": "hide", "shown": "show", "fell": "fall", "fallen": "fall",
    "struck": "strike", "wrote": "write", "written": "write", "saw": "see", "seen": "see",
    "knew": "know", "known": "know", "bitten": "bite", "drove": "drive", "driven": "drive",
    "rode": "ride", "ridden": "ride", "flew": "fly", "flown": "fly",
    "caught": "catch", "sold": "sell", "told": "tell", "thought": "think", "made": "make",
    "became": "become", "came": "come", "stood": "stand", "swam": "swim",
}

# Synonyms folded at stem level: (stem → canonical stem). Only words players use interchangeably
# for the same game concept in any game, never game-specific vocabulary.
_EN_SYNONYMS = {
    "victori": "win",  # victory
    "defeat": "lose",
    "begin": "start",
    "commenc": "start",
    "finish": "end",
    "stop": "end",
    "pick": "choos",
    "select": "choos",
    "amount": "number",
    "point": "score",
    "vp": "score",
    "reshuffl": "shuffl",
    "quit": "leav",  # leaving a running game: "I quit", "can I leave"
    "concess": "conced",
    "price": "cost",
    # Noun and verb the English stemmer leaves apart.
    "destruct": "destroy",
    "defens": "defend",
    "defenc": "defend",
    "resolut": "resolv",
    "acquisit": "acquir",
    "loyalti": "loyal",
    "wake": "awaken",
    "woke": "awaken",
    "purchas": "buy",
    "theft": "steal",
    "choic": "choos",
    "movement": "move",
    "loss": "lose",
    "maximum": "max",
    "minimum": "min",
    "1st": "first",
    "2nd": "second",
    "3rd": "third",
    "4th": "fourth",
    "5th": "fifth",
    "6th": "sixth",
    "over": "end",  # "when is the game over"
}

_RU_SYNONYMS = {
    # взять / брать / берёт (suppletive): all one "take" stem.
    "взят": "брат",
    "возьм": "брат",
    "бер": "брат",
    "берет": "брат",
    "брал": "брат",
    "взял": "брат",
    # положить / класть / кладёт.
    "клад": "лож",
    "кладет": "лож",
    "класт": "лож",
    "клал": "лож",
    "полож": "лож",
    # победа / выигрыш / выиграть.
    "выигр": "побед",
    "выигрыш": "побед",
    "выиграл": "побед",
    "побежд": "побед",
    "проигр": "пораж",
    "проигрыш": "пораж",
    # конец / закончить / окончание
    "конц": "конец",
    "конч": "конец",
    "заверш": "конец",
    "законч": "конец",
    "оконч": "конец",
    "кончает": "конец",
    "конча": "конец",
    "кончил": "конец",
    # уйти / ушёл / уход / выход (из игры)
    "уйт": "выход",
    "ушел": "выход",
    "ушл": "выход",
    "уход": "выход",
    "уйд": "выход",
    "выйт": "выход",
    "выйд": "выход",
    "вышел": "выход",
    # Players' slang for moves every game has: «скинуть» a card (сбросить), «кинуть/кидать» dice
    # (бросить), «кубы» (кубики), «юзать» (использовать), «прокачать» (улучшить), «тянуть» in any form.
    "скинут": "сброс",
    "скинул": "сброс",
    "скид": "сброс",
    "кинут": "брос",
    "кинул": "брос",
    "кид": "брос",
    "куб": "кубик",
    "юза": "использ",
    "прокач": "улучш",
    "тян": "тянут",
    "тянет": "тянут",
    "тянул": "тянут",
    "вытянут": "тянут",
    # цена / стоимость / «сколько стоит»
    "сто": "цен",
    "стоит": "цен",
    "стоимост": "цен",
    # добрать / добирать / добор
    "добр": "добор",
    "добир": "добор",
    # Verb families the Snowball stems leave apart (noun, aspect pair, prefixed form): one stem each.
    "сыгр": "розыгрыш",
    "разыгр": "розыгрыш",
    "двиг": "движ",
    "передвинут": "движ",
    "перемест": "перемещ",
    "напаст": "атак",
    "напад": "атак",
    "бросок": "брос",
    "заплат": "плат",
    "оплат": "плат",
    "потрат": "трат",
    "тас": "перемеш",
    "перетас": "перемеш",
    "выкладк": "вылож",
    "отм": "отмен",
    "защищ": "защит",
    "убив": "уб",
    "убийств": "уб",
    "приз": "призв",
    "пробуд": "пробужд",
    "проснут": "пробужд",
    "постро": "стро",
    "постройк": "стро",
    "открыт": "откр",
    "закрыт": "закр",
    "вылеч": "леч",
    "лечен": "леч",
    "отдохнут": "отдых",
    "отд": "отдых",
    "покуп": "куп",
    "покупк": "куп",
    "обм": "обмен",
    "проверк": "провер",
    "подсчит": "счит",
    "подсчет": "счит",
    "счет": "счит",
    "начин": "нач",
    "начал": "нач",
    "спас": "пас",
    "вовлек": "вовлеч",
    "подготовк": "подготов",
    "отступл": "отступ",
    "умерет": "погиб",
    "умир": "погиб",
    "погибнут": "погиб",
    "ранен": "ран",
    "толкнут": "толк",
    "вытолкнут": "вытолк",
    "выбир": "выбор",
    "выбр": "выбор",
    "посмотрет": "смотр",
    "смотрет": "смотр",
    "просмотр": "смотр",
    "помен": "мен",
    "зам": "замен",
    "удерж": "держ",
    "передач": "перед",
    "раздач": "разд",
    "вернут": "возврат",
    "возвращ": "возврат",
    "пропуст": "пропуск",
    "контролир": "контрол",
    "вскрыт": "вскр",
    "решен": "реш",
    "разгадк": "разгад",
    "сраз": "сраж",
    "драт": "драк",
    "подр": "драк",
    "дерет": "драк",
    "иск": "поиск",
    "ищет": "поиск",
    "собр": "сбор",
    "собир": "сбор",
    "сборк": "сбор",
    "наним": "нан",
    "на": "нан",
    "освобод": "освобожд",
    "провест": "провод",
    "провед": "провод",
    "набр": "набор",
    "набир": "набор",
    "потер": "тер",
    "перевернут": "переворот",
    "перевороч": "переворот",
    "отн": "отним",
    "украст": "краж",
    "краст": "краж",
    "постав": "став",
    "сбеж": "побег",
    "убеж": "побег",
    # очки / очко
    "очк": "очк",
    "очок": "очк",
}


# Roots whose imperfective changes «о» to «а» (or «о» to «а» before «к»): сбрасывать/сбросить.
_RU_ALTERNATING_ROOTS = (("брас", "брос"), ("канч", "конч"), ("рабат", "работ"), ("талк", "толк"), ("капл", "копл"))


def _fold_ru(stem: str) -> str:
    """Folds Snowball's Russian stems further so aspect pairs meet.

    «сбрасывать» → сбрасыва → сброс (= «сбросить»); «заканчивать» → законч (= «закончить»);
    «получать» → получ (= «получить»); «перемешать/перемешивать» → перемеш;
    «атаковать» → атак (= «атакует»).
    """
    if len(stem) >= 6 and stem.endswith(("ен", "ан")) and stem[-3] not in "аеиоуыэюяй":
        # A verbal noun or participle keeps its suffix: «уничтожение»/«уничтоженный» → уничтожен,
        # but «уничтожить» → уничтож; «исследование» → исследован, «исследовать» → исслед.
        stem = stem[:-2]
        if len(stem) >= 6 and stem.endswith(("ов", "ев")):
            stem = stem[:-2]
    if len(stem) >= 6 and stem.endswith(("ыва", "ива")):
        stem = stem[:-3]
        # Root vowel alternation of the imperfective (сбрас-ыва-ть / сброс-и-ть), only in the roots
        # that have it: «захватывать», «показывать» keep their «а».
        for imperfective, perfective in _RU_ALTERNATING_ROOTS:
            if stem.endswith(imperfective):
                stem = stem[: -len(imperfective)] + perfective
                break
    elif len(stem) >= 6 and stem.endswith(("ова", "ева")):
        stem = stem[:-3]  # атаковать → атак (= «атакует»), использовать → использ
    elif len(stem) >= 7 and stem.endswith("у") and stem[-2] not in "аеиоуыэюя":
        stem = stem[:-1]  # используя → использ
    elif len(stem) >= 5 and stem.endswith("ва") and stem[-3] in "аяеу":
        stem = stem[:-2]  # раздавать → разда → разд, узнавать → узна
    if len(stem) >= 4 and stem[-1] in "ая":
        stem = stem[:-1]
    # The «л» a labial takes in the imperfective: «добавлять»/«добавить», «выставлять»/«выставить».
    if len(stem) >= 6 and stem[-1] == "л" and stem[-2] in "бвмпф":
        stem = stem[:-1]
    # «выкладывать» → выклад → выклод: the same verb as «выложить» (вылож).
    if stem.endswith(("клод", "клад")) and len(stem) > 4:
        stem = stem[:-4] + "лож"
    return _RU_SYNONYMS.get(stem, stem)


@lru_cache(maxsize=200_000)
def stem(token: str) -> str:
    """The stem of one normalised token, chosen by the token's own script (not the query language)."""
    lang = script_of(token)
    if lang is None:
        return token
    if lang == "en":
        base = _EN_IRREGULAR.get(token, token)
        s = _STEMMERS["en"].stemWord(base)
        return _EN_SYNONYMS.get(s, s)
    return _fold_ru(_STEMMERS["ru"].stemWord(token))


_MORPH: pymorphy3.MorphAnalyzer | None = None


def _morph() -> pymorphy3.MorphAnalyzer:
    global _MORPH
    if _MORPH is None:
        _MORPH = pymorphy3.MorphAnalyzer(lang="ru")
    return _MORPH


def load_morphology() -> None:
    """Loads the Russian dictionary now (a fraction of a second) rather than in the first query
    that meets a word the index lacks."""
    _morph()


@lru_cache(maxsize=50_000)
def is_dictionary_word(token: str) -> bool:
    """True for a Russian word the OpenCorpora dictionary knows (any form). Such a word missing from a
    game's index is a word the reference does not use, not a misspelling of one it does: «состоит» is
    not a typo for «Сотот»."""
    return script_of(token) == "ru" and bool(_morph().word_is_known(token))


# What a question asks for, though its words are stop words: "how many", «кто», "when", «где»,
# "what happens", "what is", «можно».
# A keyword phrased as the same kind of question ("how many tickets") keeps the marker, so it can
# match as a phrase with the one content word it has left.
_INTENTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("?count", re.compile(r"\b(how (many|much)|сколько|скольк\w*|скока|скоко)\b")),
    ("?who", re.compile(r"\b(who|whom|whose|кто|кого|кому|чей|чья|чье|чьи)\b")),
    ("?when", re.compile(r"\b(when|когда|када)\b")),
    ("?where", re.compile(r"\b(where|где|куда|откуда)\b")),
    ("?then", re.compile(r"\b(what happens|что будет|что происходит|что случится|что бывает)\b")),
    ("?what", re.compile(r"\b(what is|what are|whats|что такое|что за)\b")),
    ("?can", re.compile(r"\b(can i|can we|can you|is it allowed|можно|разрешено)\b")),
)


def intents(text: str) -> tuple[str, ...]:
    """The question markers (``?count``, ``?who``, ``?when``, ``?where``, ``?then``, ``?what``,
    ``?can``) the text asks with."""
    norm = normalize(text)
    return tuple(mark for mark, pattern in _INTENTS if pattern.search(norm))


def is_stop(token: str) -> bool:
    lang = script_of(token)
    if lang is None:
        return False
    return token in STOP_WORDS[lang]


def content_tokens(text: str) -> list[str]:
    """Normalised tokens without stop words (kept in order)."""
    return [t for t in tokenize(text) if not is_stop(t)]


def stems(text: str, *, keep_stop: bool = False) -> list[str]:
    """Stems of the text's words, stop words dropped unless ``keep_stop``."""
    toks = tokenize(text) if keep_stop else content_tokens(text)
    return [stem(t) for t in toks]


__all__ = [
    "LANGS",
    "STOP_WORDS",
    "Lang",
    "content_tokens",
    "detect_lang",
    "intents",
    "is_dictionary_word",
    "is_stop",
    "load_morphology",
    "normalize",
    "script_of",
    "stem",
    "stems",
    "tokenize",
]

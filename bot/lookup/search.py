"""Ranked search over the rules reference and the card data.

``LookupIndex.build(corpus)`` reads every game once and builds:

- one in-memory SQLite FTS5 table per (game, language) over pre-stemmed text (``bot.lookup.text``),
  columns title / keywords / body, with bm25 column weights ``WEIGHTS``;
- per (game, language) the vocabulary of surface words, so a misspelt query word is corrected to the
  nearest indexed word with rapidfuzz (OSA distance, 1–2 edits) before stemming;
- per game the card names (both languages), aliases and ids for fuzzy card lookup.

Ranking: FTS5 finds the candidate sections (any query stem, its typo correction or a prefix-related
stem); each is scored with BM25F (title and keywords weigh more than the body, per-field length
normalisation, an IDF that stays positive in a 20–60-section corpus, where FTS5's own IDF drops to
zero for words in over half the sections), times the share of query words the section contains,
plus a bonus for every multi-word keyword (or title) whose words all occur in the query. FTS5's own
bm25 can be blended in (``FTS_MIX``); it is 0 because blending it lowered the hit rates.

A section also gains up to ``FUZZY`` when the whole query, stop words and typos included, reads
like one of its keywords or its title (rapidfuzz ratio past ``FUZZY_CUT``).

Question words are stop words, but what they ask for is kept as a marker (``text.intents``: how
many, who, when, where): a keyword phrased as the same question ("how many tickets") matches as a
phrase with the one content word it has left.

Query words: words naming the game itself (sections.yaml ``names.also``) are left out, since every
question is about the game; a Russian word the dictionary knows (pymorphy3) is not "corrected" into
a look-alike index word, only into a relative containing its stem. Tried and left out because they
did not raise the held-out hit rates: lemmatising every Russian word, body proximity of the query
words (and of numbers for "how many"), idf-weighted coordination, partial keyword phrases.

Queries prefer the query's own language (detected from its script; the caller's ``lang`` breaks ties
and decides for queries without letters or that are a bare section/rule id): sections in that
language come first, the other language only fills the remaining places. When nothing matches,
``closest_topics`` (and for cards ``closest_cards``) always has suggestions.

Thread safety: the index is read-only once ``build`` returns. All SQL goes through one connection
(``check_same_thread=False``) guarded by a lock, so calls from several threads (e.g. via
``asyncio.to_thread``) are safe; everything else is immutable after build.
"""

from __future__ import annotations

import bisect
import math
import re
import sqlite3
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from bot.lookup.corpus import Card, Corpus, GameCorpus, Section, load_corpus
from bot.lookup.text import (
    LANGS,
    Lang,
    content_tokens,
    detect_lang,
    intents,
    is_dictionary_word,
    load_morphology,
    normalize,
    script_of,
    stem,
    tokenize,
)

MAX_CHOICES = 25  # Discord's autocomplete limit
MAX_LABEL = 100  # Discord's choice name/value limit

# FTS5 bm25 column weights: title, keywords, body.
WEIGHTS = (4.0, 3.0, 1.0)
# BM25F (the main score): field weights, length normalisation per field, saturation.
FIELD_WEIGHTS = (3.0, 2.5, 1.0)
FIELD_B = (0.3, 0.3, 0.75)
K1 = 1.2
COORD = 1.0  # exponent of the matched-words share
FUZZY = 2.0  # times how far the whole query is past FUZZY_CUT in likeness (rapidfuzz ratio) to a keyword
FUZZY_CUT = 75.0
INTENT_IDF = 1.0  # weight of a question marker (text.intents) inside a keyword phrase
FTS_MIX = 0.0  # share of FTS5's own bm25 added to the score
TYPO_WEIGHT = 0.8
PHRASE_BONUS = 1.0  # per multi-word keyword (or title) whose words all occur in the query
PREFIX_WEIGHT = 0.6
TITLE_IDF = 1.5
TITLE_POW = 1.0
TITLE_COVER = 2  # times the idf-weighted share of the title's words the query has
# Russian verbal and noun prefixes: «передвижение» asks about «движение», «переворачиваются» about
# «ворот…». A query stem not in the index is also tried without (or with) one of them.
RU_PREFIXES = (
    "пере", "при", "про", "под", "раз", "рас", "вы", "за", "на", "по", "от", "об", "до", "из", "ис", "с", "у",
)
PREFIX_STRIP_WEIGHT = 0.6
SYNONYM_WEIGHT = 0.9  # a player's word for a glossary term (rules/<game>/glossary.yaml, ``also``)
_BRACKETS = re.compile(r"\([^)]*\)")
_RULE_ID = re.compile(r"\b([a-z]{2,4})[-\s]?([a-z]?\d+[a-z]?)\b", re.IGNORECASE)


class UnknownGameError(LookupError):
    """The game has no reference corpus (no sections and no cards)."""

    def __init__(self, game: str, known: Iterable[str]):
        self.game = game
        self.known = sorted(known)
        super().__init__(f"no reference for game {game!r}; known: {self.known}")


@dataclass(frozen=True)
class RuleHit:
    game: str
    section_id: str
    lang: Lang
    title: str
    text: str
    rules: tuple[str, ...]
    score: float  # higher is better; BM25 (negated) for search hits, 0–100 for fuzzy suggestions


@dataclass(frozen=True)
class RuleAnswer:
    """What ``/rules`` shows: ``hits`` when the query matched, else ``suggestions`` (never both empty
    for a game that has sections)."""

    hits: list[RuleHit]
    suggestions: list[RuleHit]
    lang: Lang


@dataclass(frozen=True)
class CardHit:
    game: str
    card_id: str
    lang: Lang
    name: str
    type_label: str
    text: str
    score: float  # 0–100
    card: Card = field(repr=False, compare=False)


def clip_label(text: str, limit: int = MAX_LABEL) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


@dataclass
class _Table:
    name: str
    sections: list[Section]
    lang: Lang
    vocab: dict[str, str]  # surface word → stem
    vocab_words: list[str]
    stems: frozenset[str]
    tf: list[tuple[dict[str, int], ...]] = field(default_factory=list)  # per section, per field
    lens: list[tuple[int, ...]] = field(default_factory=list)
    avglen: tuple[float, ...] = (1.0, 1.0, 1.0)
    df: dict[str, int] = field(default_factory=dict)
    sorted_stems: list[str] = field(default_factory=list)
    phrases: list[list[tuple[str, ...]]] = field(default_factory=list)  # multi-word keywords, title
    # Per section: its title's stems (bracketed parts left out) with their idf, and the idf total.
    heads: list[tuple[tuple[tuple[str, float], ...], float]] = field(default_factory=list)
    synonyms: dict[str, tuple[str, ...]] = field(default_factory=dict)  # player's word → the term's stems
    labels: list[list[str]] = field(default_factory=list)  # per section: normalised title and keywords


@dataclass
class _CardIndex:
    cards: list[Card]
    by_id: dict[str, Card]
    pos: dict[str, int]
    choices: list[str]  # normalised strings
    owners: list[tuple[int, Lang | None]]  # (card index, language of the string or None)
    exact: dict[str, list[int]]
    labels: dict[Lang, list[str]]  # unique display labels per card
    sorted_idx: dict[Lang, list[int]]
    type_labels: dict[str, dict[Lang, str]]


class LookupIndex:
    """Read-only search index over the whole corpus. Build once with ``LookupIndex.build``."""

    def __init__(self, corpus: Corpus):
        self.corpus = corpus
        self.build_seconds = 0.0
        self._lock = threading.Lock()
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._tables: dict[tuple[str, Lang], _Table] = {}
        self._cards: dict[str, _CardIndex] = {}
        self._sections: dict[str, dict[str, Section]] = {}
        self._topic_choices: dict[tuple[str, Lang], tuple[list[str], list[int]]] = {}
        self._name_stems: dict[str, frozenset[str]] = {}  # per game: stems of the game's own name words

    # ------------------------------------------------------------------ build

    @classmethod
    def build(cls, corpus: Corpus | None = None) -> LookupIndex:
        start = time.perf_counter()
        index = cls(corpus if corpus is not None else load_corpus(strict=False))
        for n, (game, gc) in enumerate(sorted(index.corpus.games.items())):
            if gc.sections is not None:
                index._build_sections(n, game, gc)
            if gc.cards is not None:
                index._build_cards(game, gc)
        index._db.commit()
        load_morphology()
        index.build_seconds = time.perf_counter() - start
        return index

    def _build_sections(self, n: int, game: str, gc: GameCorpus) -> None:
        assert gc.sections is not None
        sections = list(gc.sections.sections)
        self._sections[game] = {s.id: s for s in sections}
        names = gc.sections.names
        self._name_stems[game] = frozenset(
            stem(t) for word in (names.also if names else ()) for t in content_tokens(word))
        for lang in LANGS:
            name = f"g{n}_{lang}"
            self._db.execute(
                f"CREATE VIRTUAL TABLE {name} USING fts5(title, keywords, body,"
                " tokenize='unicode61 remove_diacritics 0')"
            )
            self._db.execute(
                f"INSERT INTO {name}({name}, rank) VALUES('rank', 'bm25({', '.join(map(str, WEIGHTS))})')"
            )
            vocab: dict[str, str] = {}
            rows = []
            choices: list[str] = []
            owners: list[int] = []
            tfs: list[tuple[dict[str, int], ...]] = []
            lens: list[tuple[int, ...]] = []
            df: dict[str, int] = {}
            phrases: list[list[tuple[str, ...]]] = []
            head_stems: list[tuple[str, ...]] = []
            for i, sec in enumerate(sections):
                st = sec.lang(lang)
                fields = []
                counts: list[dict[str, int]] = []
                for part in (st.title, " ; ".join(st.keywords), st.text):
                    toks = content_tokens(part)
                    for t in toks:
                        if t not in vocab:
                            vocab[t] = stem(t)
                    fstems = [vocab[t] for t in toks]
                    fields.append(" ".join(fstems))
                    c: dict[str, int] = {}
                    for x in fstems:
                        c[x] = c.get(x, 0) + 1
                    counts.append(c)
                phr = []
                for kw in (st.title, *st.keywords):
                    ps = tuple(dict.fromkeys(vocab.get(t) or stem(t) for t in content_tokens(kw)))
                    ps += intents(kw)
                    if len(ps) >= 2 and ps not in phr:
                        phr.append(ps)
                phrases.append(phr)
                head_stems.append(tuple(dict.fromkeys(
                    vocab.get(t) or stem(t) for t in content_tokens(_BRACKETS.sub(" ", st.title)))))
                tfs.append(tuple(counts))
                lens.append(tuple(sum(c.values()) for c in counts))
                for x in set().union(*counts):
                    df[x] = df.get(x, 0) + 1
                rows.append((i + 1, *fields))
                for label in (st.title, *st.keywords):
                    choices.append(normalize(label))
                    owners.append(i)
            self._db.executemany(
                f"INSERT INTO {name}(rowid, title, keywords, body) VALUES (?, ?, ?, ?)", rows
            )
            words = [w for w in vocab if len(w) >= 3 and script_of(w) is not None]
            n_docs = max(len(sections), 1)
            avglen = tuple(max(sum(ln[f] for ln in lens) / n_docs, 1.0) for f in range(3))
            heads = []
            for hs in head_stems:
                weighted = tuple((x, _idf(n_docs, df.get(x, 0))) for x in hs)
                heads.append((weighted, sum(w for _, w in weighted)))
            self._tables[(game, lang)] = _Table(
                name, sections, lang, vocab, words, frozenset(vocab.values()),
                tfs, lens, avglen, df, sorted(df), phrases, heads, _synonyms(gc, lang, vocab),
            )
            self._topic_choices[(game, lang)] = (choices, owners)
            labels: list[list[str]] = [[] for _ in sections]
            for label, owner in zip(choices, owners, strict=True):
                labels[owner].append(label)
            self._tables[(game, lang)].labels = labels

    def _build_cards(self, game: str, gc: GameCorpus) -> None:
        assert gc.cards is not None
        cards = list(gc.cards.cards)
        choices: list[str] = []
        owners: list[tuple[int, Lang | None]] = []
        exact: dict[str, list[int]] = {}

        def add(text: str, i: int, lang: Lang | None) -> None:
            norm = normalize(text)
            if not norm:
                return
            forms = [norm]
            if " " in norm:  # "ми го" is also typed "миго"
                forms.append(norm.replace(" ", ""))
            for form in forms:
                choices.append(form)
                owners.append((i, lang))
                bucket = exact.setdefault(form, [])
                if i not in bucket:
                    bucket.append(i)

        for i, card in enumerate(cards):
            add(card.name.en, i, "en")
            add(card.name.ru, i, "ru")
            for alias in card.aliases:
                add(alias, i, script_of(normalize(alias)) if normalize(alias) else None)
            add(card.id.replace("-", " ").replace("_", " "), i, None)
        type_labels: dict[str, dict[Lang, str]] = {
            key: {"en": lt.en, "ru": lt.ru} for key, lt in gc.cards.types.items()
        }
        labels: dict[Lang, list[str]] = {}
        sorted_idx: dict[Lang, list[int]] = {}
        for lang in LANGS:
            names = [c.name.get(lang) for c in cards]
            # Same name twice (a card and an epic monster, two versions): add the type, and the id
            # only if that is still ambiguous.
            counts: dict[str, int] = {}
            typed: dict[str, int] = {}
            for c, nm in zip(cards, names, strict=True):
                counts[nm.casefold()] = counts.get(nm.casefold(), 0) + 1
                key = f"{nm.casefold()}|{c.type}"
                typed[key] = typed.get(key, 0) + 1
            out = []
            for c, nm in zip(cards, names, strict=True):
                if counts[nm.casefold()] > 1:
                    tl = type_labels[c.type][lang]
                    extra = tl if typed[f"{nm.casefold()}|{c.type}"] == 1 else f"{tl}, {c.id}"
                    nm = f"{nm} ({extra})"
                out.append(clip_label(nm))
            labels[lang] = out
            sorted_idx[lang] = sorted(range(len(cards)), key=lambda k: out[k].casefold())
        self._cards[game] = _CardIndex(
            cards=cards,
            by_id={c.id: c for c in cards},
            pos={c.id: i for i, c in enumerate(cards)},
            choices=choices,
            owners=owners,
            exact=exact,
            labels=labels,
            sorted_idx=sorted_idx,
            type_labels=type_labels,
        )

    # ------------------------------------------------------------------ info

    def games(self) -> list[str]:
        return sorted(self.corpus.games)

    def game_name(self, game: str, lang: str = "en") -> str:
        gc = self.corpus.games.get(game)
        return gc.display_name(lang) if gc else game

    def has_sections(self, game: str) -> bool:
        return game in self._sections

    def has_cards(self, game: str) -> bool:
        return game in self._cards

    def section(self, game: str, section_id: str) -> Section | None:
        return self._sections.get(game, {}).get(section_id)

    def sections(self, game: str) -> list[Section]:
        return list(self._sections.get(game, {}).values())

    def card(self, game: str, card_id: str) -> Card | None:
        ci = self._cards.get(game)
        return ci.by_id.get(card_id) if ci else None

    def stats(self) -> dict[str, dict[str, int]]:
        return {
            g: {
                "sections": len(self._sections.get(g, {})),
                "cards": len(self._cards[g].cards) if g in self._cards else 0,
            }
            for g in self.games()
        }

    def _check_game(self, game: str) -> None:
        if game not in self.corpus.games:
            raise UnknownGameError(game, self.corpus.games)

    # ------------------------------------------------------------------ rules

    def _query_terms(self, game: str, query: str) -> dict[Lang, list[_Term]]:
        """Query words per language, each with the index stems it may stand for.

        A word whose stem is indexed matches exactly; otherwise a misspelling is corrected to the
        nearest indexed word (rapidfuzz, 1–2 edits) and longer/shorter forms sharing the stem as a
        prefix are tried, both at a discount.
        """
        toks = content_tokens(query) or tokenize(query)
        name = self._name_stems.get(game, frozenset())
        topical = [t for t in toks if stem(t) not in name]
        toks = topical or toks  # "how do i win fluxx" asks how to win; "fluxx" alone still searches
        terms: dict[Lang, list[_Term]] = {"en": [], "ru": []}
        seen: dict[Lang, set[str]] = {"en": set(), "ru": set()}
        for tok in toks:
            script = script_of(tok)
            langs: tuple[Lang, ...] = (script,) if script else LANGS
            for lang in langs:
                table = self._tables.get((game, lang))
                if table is None:
                    continue
                s = stem(tok)
                if s in seen[lang]:
                    continue
                seen[lang].add(s)
                exp: dict[str, float] = {}
                if s in table.stems:
                    exp[s] = 1.0
                elif script is not None:
                    fixed = self._correct(table, tok)
                    if fixed is not None and s not in fixed and is_dictionary_word(tok):
                        # A real word the reference does not use: only a relative of it («раздают» →
                        # «раздача», «лечиться» → «вылечиться») stands in, not a look-alike («состоит»
                        # → «Сотот»).
                        fixed = None
                    if fixed is not None:
                        exp[fixed] = TYPO_WEIGHT
                    for other in _prefix_related(table.sorted_stems, s):
                        exp.setdefault(other, PREFIX_WEIGHT)
                    if script == "ru":
                        for other in _ru_prefix_related(table.stems, s):
                            exp.setdefault(other, PREFIX_STRIP_WEIGHT)
                for other in table.synonyms.get(s, ()):
                    exp.setdefault(other, SYNONYM_WEIGHT)
                if exp:
                    terms[lang].append(_Term(s, exp))
        return terms

    @staticmethod
    def _correct(table: _Table, tok: str) -> str | None:
        if len(tok) < 5 or not table.vocab_words:
            return None
        max_edits = 1 if len(tok) <= 6 else 2 if len(tok) <= 8 else 3
        best = process.extractOne(
            tok, table.vocab_words, scorer=OSA.distance, score_cutoff=max_edits
        )
        if best is None:
            return None
        return table.vocab[best[0]]

    def _fts(self, table: _Table, terms: list[_Term]) -> list[tuple[int, float]]:
        """FTS5 candidates (every section matching any expansion) with their weighted bm25."""
        match = " OR ".join(_quote(x) for t in terms for x in t.expansions)
        if not match:
            return []
        sql = f"SELECT rowid, rank FROM {table.name} WHERE {table.name} MATCH ?"
        with self._lock:
            rows = self._db.execute(sql, (match,)).fetchall()
        return [(rowid - 1, -rank) for rowid, rank in rows]

    def _rank(
        self, table: _Table, terms: list[_Term], asks: tuple[str, ...] = (), norm_query: str = ""
    ) -> list[tuple[int, float]]:
        """Candidates from FTS5, scored with BM25F (per-field weights and length normalisation,
        an IDF that stays positive in small corpora) times a coordination factor (the share of
        query words the section contains), plus the keyword-phrase bonus (and ``FTS_MIX`` times
        FTS5's own bm25)."""
        cands = self._fts(table, terms)
        if not cands:
            return []
        n = len(table.sections)
        idf = {
            x: math.log(1.0 + (n - table.df.get(x, 0) + 0.5) / (table.df.get(x, 0) + 0.5))
            for t in terms
            for x in t.expansions
        }
        strong = {x for t in terms for x, w in t.expansions.items() if w >= TYPO_WEIGHT}
        strong.update(asks)
        idf.update(dict.fromkeys(asks, INTENT_IDF))
        out = []
        for i, fts_score in cands:
            tf, ln = table.tf[i], table.lens[i]
            norm = [
                FIELD_WEIGHTS[f] / (1.0 - FIELD_B[f] + FIELD_B[f] * ln[f] / table.avglen[f])
                for f in range(3)
            ]
            total = 0.0
            matched = 0
            for t in terms:
                best = 0.0
                for x, w in t.expansions.items():
                    tfp = norm[0] * tf[0].get(x, 0) + norm[1] * tf[1].get(x, 0) + norm[2] * tf[2].get(x, 0)
                    if tfp:
                        best = max(best, w * idf[x] * tfp / (K1 + tfp))
                if best:
                    matched += 1
                    total += best
            coord = (matched / len(terms)) ** COORD
            bonus = 0.0
            if PHRASE_BONUS:
                for ph in table.phrases[i]:
                    if all(x in strong for x in ph):
                        bonus += PHRASE_BONUS * sum(idf.get(x, 0.0) for x in ph) / len(ph)
            if TITLE_COVER and matched:
                head, weight = table.heads[i]
                got = sum(w for x, w in head if x in strong)
                # The share of the title covered, trusted only as far as the covered words are rare
                # ("game" alone covers "What the game is about" but says little).
                share = got / weight if weight else 0.0
                bonus += TITLE_COVER * share ** TITLE_POW * min(1.0, got / TITLE_IDF)
            if FUZZY and norm_query:
                best_r = max((fuzz.ratio(norm_query, lab) for lab in table.labels[i]), default=0.0)
                if best_r > FUZZY_CUT:
                    bonus += FUZZY * (best_r - FUZZY_CUT) / (100 - FUZZY_CUT)
            out.append((i, total * coord + bonus + FTS_MIX * fts_score))
        out.sort(key=lambda r: -r[1])
        return out

    def _hit(self, game: str, sec: Section, lang: Lang, score: float) -> RuleHit:
        st = sec.lang(lang)
        return RuleHit(game, sec.id, lang, st.title, st.text, tuple(sec.rules), score)

    def _direct(self, game: str, query: str) -> list[Section]:
        """Sections named by id (e.g. an autocomplete value) or by a rule id in the query."""
        secs = self._sections.get(game, {})
        key = query.strip().casefold()
        if key in secs:
            return [secs[key]]
        ids = {f"{a}-{b}".casefold() for a, b in _RULE_ID.findall(query)}
        if not ids:
            return []
        return [s for s in secs.values() if ids & {r.casefold() for r in s.rules}]

    def search_rules(self, game: str, query: str, lang: str = "en", limit: int = 5) -> list[RuleHit]:
        """Best sections for ``query``, the query's language first. Empty when nothing matches
        (use ``closest_topics`` or ``answer_rules`` for suggestions)."""
        self._check_game(game)
        if game not in self._sections or limit <= 0:
            return []
        pref: Lang = detect_lang(query, _lang(lang))
        order: tuple[Lang, ...] = (pref, "ru" if pref == "en" else "en")
        hits: list[RuleHit] = []
        seen: set[str] = set()
        direct = self._direct(game, query)
        if direct and _only_ids(query):
            # A section id (an autocomplete value) or rule ids: Latin whatever the reader's
            # language, so the caller's language decides.
            pref = _lang(lang)
            order = (pref, "ru" if pref == "en" else "en")
        for sec in direct:
            if sec.id not in seen:
                hits.append(self._hit(game, sec, pref, 1000.0))
                seen.add(sec.id)
        if len(hits) >= limit:
            return hits[:limit]
        terms = self._query_terms(game, query)
        asks = intents(query)
        for lang_ in order:
            if len(hits) >= limit:
                break
            table = self._tables[(game, lang_)]
            for i, score in self._rank(table, terms[lang_], asks, normalize(query)):
                sec = table.sections[i]
                if sec.id in seen:
                    continue
                seen.add(sec.id)
                hits.append(self._hit(game, sec, lang_, score))
                if len(hits) >= limit:
                    break
        return hits

    def closest_topics(self, game: str, query: str, lang: str = "en", limit: int = 5) -> list[RuleHit]:
        """Sections whose titles/keywords look most like the query, padded with the game's first
        sections (overview, setup, ...) so there is always something to suggest."""
        self._check_game(game)
        if game not in self._sections:
            return []
        pref: Lang = detect_lang(query, _lang(lang))
        table = self._tables[(game, pref)]
        choices, owners = self._topic_choices[(game, pref)]
        norm = normalize(query)
        out: list[RuleHit] = []
        seen: set[int] = set()
        if norm:
            for _, score, k in process.extract(
                norm, choices, scorer=fuzz.WRatio, limit=limit * 6, score_cutoff=65
            ):
                i = owners[k]
                if i not in seen:
                    seen.add(i)
                    out.append(self._hit(game, table.sections[i], pref, float(score)))
                if len(out) >= limit:
                    break
        for i, sec in enumerate(table.sections):
            if len(out) >= limit:
                break
            if i not in seen:
                seen.add(i)
                out.append(self._hit(game, sec, pref, 0.0))
        return out

    def answer_rules(self, game: str, query: str, lang: str = "en", limit: int = 5) -> RuleAnswer:
        """``search_rules`` plus ``closest_topics`` when it finds nothing."""
        hits = self.search_rules(game, query, lang, limit)
        pref = detect_lang(query, _lang(lang))
        if hits:
            return RuleAnswer(hits, [], pref)
        return RuleAnswer([], self.closest_topics(game, query, lang, limit), pref)

    # ------------------------------------------------------------------ cards

    def search_cards(self, game: str, query: str, lang: str = "en", limit: int = 5) -> list[CardHit]:
        """Cards whose name (either language), alias or id best matches ``query``."""
        self._check_game(game)
        ci = self._cards.get(game)
        if ci is None or limit <= 0:
            return []
        pref: Lang = detect_lang(query, _lang(lang))
        norm = normalize(query)
        if not norm:
            return []
        best: dict[int, float] = {}

        def offer(k: int, score: float) -> None:
            i, slang = ci.owners[k]
            if slang == pref:
                score += 0.5  # a name in the query's language wins ties
            if score > best.get(i, -1.0):
                best[i] = score

        for i in ci.exact.get(norm, ()):
            best[i] = 102.0
        spaced = " " + norm
        for k, choice in enumerate(ci.choices):  # prefix of the name or of one of its words
            if choice.startswith(norm):
                offer(k, 99.0 - min(len(choice) - len(norm), 20) * 0.05)
            elif spaced in " " + choice:
                offer(k, 95.0 - min(len(choice) - len(norm), 20) * 0.05)
        if len(norm) >= 3:
            for _, score, k in process.extract(
                norm, ci.choices, scorer=fuzz.WRatio, limit=max(limit * 4, 20), score_cutoff=70
            ):
                offer(k, min(float(score), 94.0))
        ranked = sorted(best.items(), key=lambda kv: (-kv[1], ci.labels[pref][kv[0]].casefold()))
        return [self._card_hit(game, ci, i, pref, min(score, 100.0)) for i, score in ranked[:limit]]

    def closest_cards(self, game: str, query: str, lang: str = "en", limit: int = 5) -> list[CardHit]:
        """The cards whose names look most like ``query``, however faintly: ``search_cards`` first,
        then every name (either language, aliases) ranked by similarity with no cut-off, padded with
        the first names in alphabetical order, so a game with cards always has something to suggest."""
        self._check_game(game)
        ci = self._cards.get(game)
        if ci is None or limit <= 0:
            return []
        pref: Lang = detect_lang(query, _lang(lang))
        out = self.search_cards(game, query, pref, limit)
        seen = {ci.pos[h.card_id] for h in out}
        norm = normalize(query)
        if norm and len(out) < limit:
            best: dict[int, float] = {}
            for _, score, k in process.extract(norm, ci.choices, scorer=fuzz.WRatio, limit=None, score_cutoff=1):
                i = ci.owners[k][0]
                best[i] = max(best.get(i, 0.0), float(score))
            for i, score in sorted(best.items(), key=lambda kv: (-kv[1], ci.labels[pref][kv[0]].casefold())):
                if len(out) >= limit:
                    break
                if i not in seen:
                    seen.add(i)
                    out.append(self._card_hit(game, ci, i, pref, min(score, 100.0)))
        for i in ci.sorted_idx[pref]:
            if len(out) >= limit:
                break
            if i not in seen:
                seen.add(i)
                out.append(self._card_hit(game, ci, i, pref, 0.0))
        return out

    def _card_hit(self, game: str, ci: _CardIndex, i: int, lang: Lang, score: float) -> CardHit:
        c = ci.cards[i]
        return CardHit(
            game, c.id, lang, c.name.get(lang), ci.type_labels[c.type][lang], c.text.get(lang), score, c
        )

    # ------------------------------------------------------------------ autocomplete

    def autocomplete_games(self, prefix: str, lang: str = "en") -> list[tuple[str, str]]:
        """``(label, game id)`` for games with a reference, matching ``prefix`` (≤ 25)."""
        lang_ = _lang(lang)
        norm = normalize(prefix)
        rows: list[tuple[int, str, str]] = []
        for g in self.games():
            gc = self.corpus.games[g]
            label = clip_label(gc.display_name(lang_))
            keys = [normalize(g), normalize(gc.display_name("en")), normalize(gc.display_name("ru"))]
            if not norm or any(k.startswith(norm) for k in keys):
                rank = 0
            elif any(norm in k or any(w.startswith(norm) for w in k.split()) for k in keys):
                rank = 1
            elif max(fuzz.WRatio(norm, k) for k in keys) >= 60:
                rank = 2
            else:
                continue
            rows.append((rank, label, g))
        rows.sort(key=lambda r: (r[0], r[1].casefold()))
        return [(label, g) for _, label, g in rows[:MAX_CHOICES]]

    def autocomplete_topics(self, game: str, prefix: str, lang: str = "en") -> list[tuple[str, str]]:
        """``(section title, section id)`` for the ``query``/``topic`` option (≤ 25)."""
        if game not in self._sections:
            return []
        pref: Lang = detect_lang(prefix, _lang(lang))
        table = self._tables[(game, pref)]
        norm = normalize(prefix)
        out: list[tuple[str, str]] = []
        seen: set[str] = set()

        def add(sec: Section) -> None:
            if sec.id not in seen and len(out) < MAX_CHOICES:
                seen.add(sec.id)
                out.append((clip_label(sec.lang(pref).title), sec.id))

        if not norm:
            for sec in table.sections:
                add(sec)
            return out
        for sec in table.sections:  # title or a title word starts with the prefix
            title = normalize(sec.lang(pref).title)
            if title.startswith(norm) or any(w.startswith(norm) for w in title.split()):
                add(sec)
        for sec in table.sections:  # a keyword starts with the prefix
            if any(normalize(k).startswith(norm) for k in sec.lang(pref).keywords):
                add(sec)
        if len(out) < MAX_CHOICES:
            for hit in self.search_rules(game, prefix, pref, limit=MAX_CHOICES):
                add(self._sections[game][hit.section_id])
        if len(out) < MAX_CHOICES and norm.replace(" ", "_") in self._sections[game]:
            add(self._sections[game][norm.replace(" ", "_")])
        if len(out) < 5:
            for hit in self.closest_topics(game, prefix, pref, limit=5):
                add(self._sections[game][hit.section_id])
        return out

    def autocomplete_cards(self, game: str, prefix: str, lang: str = "en") -> list[tuple[str, str]]:
        """``(card name, card id)`` for the ``name`` option of ``/card`` (≤ 25)."""
        ci = self._cards.get(game)
        if ci is None:
            return []
        pref: Lang = detect_lang(prefix, _lang(lang))
        labels = ci.labels[pref]
        norm = normalize(prefix)
        out: list[tuple[str, str]] = []
        seen: set[int] = set()

        def add(i: int) -> None:
            if i not in seen and len(out) < MAX_CHOICES:
                seen.add(i)
                out.append((labels[i], ci.cards[i].id))

        if not norm:
            for i in ci.sorted_idx[pref][:MAX_CHOICES]:
                add(i)
            return out
        starts = [i for i in ci.sorted_idx[pref] if normalize(labels[i]).startswith(norm)]
        for i in starts:
            add(i)
        if len(out) < MAX_CHOICES:
            for k, choice in enumerate(ci.choices):
                if choice.startswith(norm) or f" {norm}" in f" {choice}":
                    add(ci.owners[k][0])
                    if len(out) >= MAX_CHOICES:
                        break
        if len(out) < MAX_CHOICES:
            for hit in self.search_cards(game, prefix, pref, limit=MAX_CHOICES):
                add(ci.pos[hit.card_id])
        return out


@dataclass(frozen=True)
class _Term:
    stem: str
    expansions: dict[str, float]  # index stem → weight


def _idf(n: int, df: int) -> float:
    """BM25's idf kept positive for small corpora (as in ``_rank``)."""
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


def _synonyms(gc: GameCorpus, lang: Lang, vocab: dict[str, str]) -> dict[str, tuple[str, ...]]:
    """The stems of each word players use for a glossary term (its ``also`` and the term's name in the
    other language, as players mix them), mapped to the indexed stems of the term's own name."""
    out: dict[str, tuple[str, ...]] = {}
    if gc.glossary is None:
        return out
    other: Lang = "en" if lang == "ru" else "ru"
    indexed = sorted(set(vocab.values()))  # a term's own stem may be indexed only in longer forms
    for term in gc.glossary.terms.values():
        own = tuple(dict.fromkeys(
            x for t in content_tokens(getattr(term, lang))
            for x in (vocab.get(t) or stem(t), *_prefix_related(indexed, vocab.get(t) or stem(t)))))
        if not own:
            continue
        for word in (*term.also.get(lang, ()), *term.also.get(other, ())):
            toks = content_tokens(word)
            if len(toks) == 1 and stem(toks[0]) not in own:
                out[stem(toks[0])] = tuple(dict.fromkeys(out.get(stem(toks[0]), ()) + own))
    return out


def _ru_prefix_related(stems: frozenset[str], s: str) -> list[str]:
    """Indexed stems that are ``s`` without one Russian prefix, or with one (at least 4 letters left)."""
    out = [s[len(p):] for p in RU_PREFIXES if s.startswith(p) and len(s) - len(p) >= 4 and s[len(p):] in stems]
    out += [p + s for p in RU_PREFIXES if len(s) >= 4 and p + s in stems]
    return out


def _prefix_related(sorted_stems: list[str], s: str) -> list[str]:
    """Indexed stems that extend ``s`` or that ``s`` extends (sharing at least 4 letters)."""
    out: list[str] = []
    if len(s) >= 4:
        k = bisect.bisect_left(sorted_stems, s)
        while k < len(sorted_stems) and sorted_stems[k].startswith(s) and len(out) < 8:
            out.append(sorted_stems[k])
            k += 1
    for cut in range(len(s) - 1, 3, -1):
        p = s[:cut]
        k = bisect.bisect_left(sorted_stems, p)
        if k < len(sorted_stems) and sorted_stems[k] == p:
            out.append(p)
            break
    return out


def _only_ids(query: str) -> bool:
    """True when the query is a bare section id or only rule ids (``CTG-R5, CTG-R6``)."""
    rest = _RULE_ID.sub(" ", query)
    return not re.search(r"[^\W_]", rest) or re.fullmatch(r"\s*[a-z0-9_]+\s*", query) is not None


def _quote(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def _lang(lang: str | None) -> Lang:
    return "ru" if (lang or "").lower().startswith("ru") else "en"


# ---------------------------------------------------------------------- module-level default index

_default: LookupIndex | None = None
_default_lock = threading.Lock()


def get_index() -> LookupIndex:
    """The process-wide index over the project's corpus, built on first use."""
    global _default
    if _default is None:
        with _default_lock:
            if _default is None:
                _default = LookupIndex.build()
    return _default


def search_rules(game: str, query: str, lang: str = "en", limit: int = 5) -> list[RuleHit]:
    return get_index().search_rules(game, query, lang, limit)


def closest_topics(game: str, query: str, lang: str = "en", limit: int = 5) -> list[RuleHit]:
    return get_index().closest_topics(game, query, lang, limit)


def answer_rules(game: str, query: str, lang: str = "en", limit: int = 5) -> RuleAnswer:
    return get_index().answer_rules(game, query, lang, limit)


def search_cards(game: str, query: str, lang: str = "en", limit: int = 5) -> list[CardHit]:
    return get_index().search_cards(game, query, lang, limit)


def closest_cards(game: str, query: str, lang: str = "en", limit: int = 5) -> list[CardHit]:
    return get_index().closest_cards(game, query, lang, limit)


def autocomplete_games(prefix: str, lang: str = "en") -> list[tuple[str, str]]:
    return get_index().autocomplete_games(prefix, lang)


def autocomplete_topics(game: str, prefix: str, lang: str = "en") -> list[tuple[str, str]]:
    return get_index().autocomplete_topics(game, prefix, lang)


def autocomplete_cards(game: str, prefix: str, lang: str = "en") -> list[tuple[str, str]]:
    return get_index().autocomplete_cards(game, prefix, lang)

"""Deck choices written as text: what a player types in the lobby or pastes from a deck builder.

Three forms, all read into the fields of :class:`rules.coc_lcg.options.DeckChoice`:

- a quick-start deck (CoC-R22): ``agency+cthulhu/A`` — two factions (ids, English or Russian names) and
  a neutral packet; without a packet the seat's default applies (seat 1: A, seat 2: B, digest §8.3);
- a pasted list (CoC-R16..R18): one entry per line (or ``;``), ``3x Name``, ``3 Name``, ``Name x3`` or just
  ``Name``, where the name is a card's English or Russian title, its id or collector number (``F12``);
- the compact form the options are stored in, ``cards:12.12.12.45…`` (collector numbers, in deck order),
  so a custom deck survives a JSON round trip exactly and stays short enough to show in a lobby.

Bad text raises a :class:`RuleError` naming the line, so the lobby can say exactly what to fix. A list is
also checked for legality (at least 50 cards, at most 3 per title, no story cards) before it is accepted.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from rules.coc_lcg.cards import FACTION_IDS, FACTIONS, by_number, catalog, faction_cards, packet_cards
from rules.coc_lcg.script import SCRIPTS
from rules.core import RuleError

COMPACT = "cards:"
MIN_DECK, MAX_COPIES = 50, 3  # CoC-R16, R17
DEFAULT_PACKETS = {"deck1": "A", "deck2": "B"}
MAX_ENTRY = 99  # a larger count is a typo, not a deck
_PACKETS = {"a": "A", "а": "A", "b": "B", "в": "B", "б": "B"}  # Latin and look-alike Cyrillic letters
_FACTION_RU = {
    "agency": "Агентство", "miskatonic": "Мискатоникский университет", "syndicate": "Синдикат",
    "cthulhu": "Ктулху", "hastur": "Хастур", "yog_sothoth": "Йог-Сотот", "shub_niggurath": "Шуб-Ниггурат",
}
_COUNT_FIRST = re.compile(r"^(\d+)\s*[xх×*]?\s+(.+)$|^(\d+)\s*[xх×*]\s*(.+)$", re.IGNORECASE)
_COUNT_LAST = re.compile(r"^(.+?)\s*(?:[xх×*]\s*(\d+)|\((\d+)\))$", re.IGNORECASE)


def norm(text: str) -> str:
    """A name as compared: case, ё, quotes, dashes and punctuation do not matter."""
    text = text.casefold().replace("ё", "е")
    text = re.sub(r"[^\w\s]", " ", text).replace("_", " ")
    return " ".join(text.split())


@lru_cache(maxsize=1)
def _names() -> dict[str, str]:
    """Every way a card may be written, normalized, to its id."""
    out: dict[str, str] = {}
    for c in catalog().values():
        for form in (c.id, f"F{c.number}", c.name_en, c.name_ru):
            out.setdefault(norm(form), c.id)
    return out


@lru_cache(maxsize=1)
def _factions() -> dict[str, str]:
    out: dict[str, str] = {}
    for en, fid in FACTIONS.items():
        for form in (fid, en, en.removeprefix("The "), _FACTION_RU[fid]):
            out[norm(form)] = fid
    out[norm("Мискатоник")] = "miskatonic"
    return out


def card_for(name: str) -> str | None:
    """The card id a written name means, or None."""
    return _names().get(norm(name))


def _suggest(name: str) -> str:
    close = difflib.get_close_matches(norm(name), list(_names()), n=1, cutoff=0.6)
    if not close:
        return "—"
    c = catalog()[_names()[close[0]]]
    return f"{c.name_en} / {c.name_ru}"


def is_quick(text: str) -> bool:
    return "+" in text and "\n" not in text and ";" not in text


def parse_choice(text: str, field: str = "deck1") -> dict[str, Any]:
    """The DeckChoice fields a text means (see the module docstring); ``field`` picks the default packet."""
    text = text.strip()
    if not text:
        raise RuleError("coc.deck_empty")
    if text.startswith(COMPACT):
        return {"cards": _compact(text[len(COMPACT):])}
    if is_quick(text):
        return _quick(text, DEFAULT_PACKETS.get(field, "A"))
    cards = parse_list(text)
    check_list(cards)
    return {"cards": cards}


def _quick(text: str, default_packet: str) -> dict[str, Any]:
    body, _sep, packet = text.partition("/")
    letter = norm(packet) if packet.strip() else default_packet.lower()
    if letter.startswith("packet "):
        letter = letter.removeprefix("packet ")
    if letter not in _PACKETS:
        raise RuleError("coc.deck_bad_packet", packet=packet.strip())
    found = []
    for token in body.split("+"):
        fid = _factions().get(norm(token))
        if fid is None:
            raise RuleError("coc.deck_unknown_faction", faction=token.strip() or "—",
                            known=", ".join(FACTION_IDS))
        found.append(fid)
    if len(found) != 2 or found[0] == found[1]:
        raise RuleError("coc.bad_factions", factions=" + ".join(found))
    ordered = tuple(sorted(found, key=FACTION_IDS.index))  # one spelling per pairing
    return {"factions": ordered, "packet": _PACKETS[letter]}


def _compact(body: str) -> tuple[str, ...]:
    numbers = by_number()
    out = []
    for part in filter(None, body.split(".")):
        if part.isdigit() and int(part) in numbers:
            out.append(numbers[int(part)].id)
        elif part in catalog():
            out.append(part)
        else:
            raise RuleError("coc.deck_unknown_card", name=part, line=0, hint="—")
    return tuple(out)


def parse_list(text: str) -> tuple[str, ...]:
    """Card ids of a pasted list, in the order written; comments (``#``, ``//``) and blank lines skipped."""
    cards: list[str] = []
    for n, raw in enumerate(re.split(r"[\n;]", text), start=1):
        line = raw.strip().lstrip("-•*").strip()
        if not line or line.startswith(("#", "//")):
            continue
        count, name = _entry(line, n)
        cid = card_for(name)
        if cid is None:
            raise RuleError("coc.deck_unknown_card", name=name, line=n, hint=_suggest(name))
        cards += [cid] * count
    if not cards:
        raise RuleError("coc.deck_empty")
    return tuple(cards)


def _entry(line: str, n: int) -> tuple[int, str]:
    """(copies, name) of one line; a line that is a card name as a whole is one copy of it."""
    if card_for(line) is not None:
        return 1, line
    m = _COUNT_FIRST.match(line)
    if m:
        count, name = (m[1], m[2]) if m[1] else (m[3], m[4])
    else:
        m = _COUNT_LAST.match(line)
        if not m:
            return 1, line
        name, count = m[1], m[2] or m[3]
    k = int(count)
    if not 1 <= k <= MAX_ENTRY:
        raise RuleError("coc.deck_bad_count", count=k, line=n)
    return k, name.strip()


def check_list(cards: tuple[str, ...]) -> None:
    """CoC-R16..R18 (and only deck cards), with the engine's own check so the two never disagree."""
    list_cards(cards)


def list_cards(cards: Sequence[str]) -> list[str]:
    """A constructed deck's cards, validated (CoC-R16..R19): Core Set deck cards only, at least
    ``MIN_DECK``, at most ``MAX_COPIES`` of a title (looked at first: it names the card to fix), and every
    card scripted (the engine never deals a card it cannot play)."""
    cat = catalog()
    for c in cards:
        if c not in cat:
            raise RuleError("coc.unknown_card", card=c)
        if cat[c].type == "story":
            raise RuleError("coc.not_a_deck_card", card=c)
    titles = Counter(cat[c].name_en for c in cards)
    for title, n in titles.items():
        if n > MAX_COPIES:
            raise RuleError("coc.too_many_copies", title=title, count=n, max=MAX_COPIES)
    if len(cards) < MIN_DECK:
        raise RuleError("coc.deck_too_small", count=len(cards), min=MIN_DECK)
    return _scripted(list(cards))


def quick_cards(factions: Sequence[str] | None, packet: str | None) -> list[str]:
    """A quick-start deck's cards (CoC-R22): two different factions and a neutral packet."""
    if not factions or len(set(factions)) != 2 or not set(factions) <= set(FACTION_IDS):
        raise RuleError("coc.bad_factions", factions=list(factions or ()))
    if packet is None:
        raise RuleError("coc.packet_needed")
    return _scripted(faction_cards(factions[0]) + faction_cards(factions[1]) + packet_cards(packet))


def _scripted(cards: list[str]) -> list[str]:
    """The cards, once each is known to have a script (registered when the package is imported)."""
    for c in cards:
        if c not in SCRIPTS:
            raise RuleError("coc.card_unscripted", card=c)
    return cards


def to_text(factions: tuple[str, ...] | None, packet: str | None, cards: tuple[str, ...] | None) -> str:
    """The compact text of a deck choice; ``parse_choice`` reads it back to the same fields."""
    if cards is not None:
        cat = catalog()
        return COMPACT + ".".join(str(cat[c].number) if c in cat else c for c in cards)
    if factions is None:
        return ""
    return "+".join(factions) + (f"/{packet}" if packet else "")


def quick_choices() -> list[str]:
    """The 21 faction pairings as the compact text (without packet), in faction order."""
    ids = FACTION_IDS
    return [f"{a}+{b}" for i, a in enumerate(ids) for b in ids[i + 1:]]


def summary(cards: tuple[str, ...], locale_ru: bool) -> list[tuple[int, str]]:
    """(copies, name) per distinct card of a list, in the order first listed."""
    cat = catalog()
    counts: dict[str, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    return [(k, cat[c].name_ru if locale_ru else cat[c].name_en) for c, k in counts.items()]

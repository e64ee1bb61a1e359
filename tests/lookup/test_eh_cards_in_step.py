"""Eldritch Horror's /card data (rules/eldritch_horror/data/cards.json) repeats what the engine plays with
(items.json, monsters.json, investigators.json, ancient_ones.json, as loaded by ``rules.eldritch_horror.data``).
These tests keep the two in step: every engine item, monster and investigator has a /card entry, and the
name, stats and rules text that entry shows are the engine's."""

from __future__ import annotations

from typing import Any

import pytest

from bot.lookup.corpus import CARDS_PATH, RULES_DIR, Card, Corpus, GameCorpus, load_cards
from bot.lookup.search import LookupIndex
from rules.eldritch_horror.data import SKILLS, Content, load

GAME = "eldritch_horror"
NONE = "—"  # what cards.json shows for a test or value the monster does not have


@pytest.fixture(scope="module")
def engine() -> Content:
    return load()


@pytest.fixture(scope="module")
def cards() -> list[Card]:
    return list(load_cards(RULES_DIR / GAME / CARDS_PATH, GAME).cards)


def _kinds(engine: Content) -> dict[str, dict[str, dict[str, Any]]]:
    """card type in cards.json -> the engine's entries of that kind by name."""
    return {
        "investigator": engine.investigators,
        "asset": engine.assets,
        "artifact": engine.artifacts,
        "spell": engine.spells,
        "condition": engine.conditions,
        "monster": engine.monsters,
        "epic_monster": engine.epics,
        "ancient_one": engine.ancient_ones,
    }


def _by_type(cards: list[Card]) -> dict[str, dict[str, Card]]:
    out: dict[str, dict[str, Card]] = {}
    for card in cards:
        same = out.setdefault(card.type, {})
        assert card.name.en not in same, f"two {card.type} cards called {card.name.en!r}"
        same[card.name.en] = card
    return out


def _mod(test: dict[str, Any] | None) -> str:
    if test is None:
        return NONE
    mod = int(test["mod"])
    return "0" if mod == 0 else f"{mod:+d}"


def expected_stats(kind: str, entry: dict[str, Any]) -> dict[str, Any]:
    """The stat fields /card should show for this engine entry."""
    if kind == "investigator":
        return {"health": entry["health"], "sanity": entry["sanity"], **{s: entry["skills"][s] for s in SKILLS}}
    if kind == "asset":
        return {"cost": entry["cost"]}
    if kind == "artifact":
        return {}
    if kind in ("spell", "condition"):
        return {"copies": entry["copies"]}
    if kind == "ancient_one":
        return {"doom": entry["doom"], "mysteries": 3,
                "mythos_cards": sum(sum(entry["mythos"][s]) for s in ("stage1", "stage2", "stage3"))}
    # monsters and epic monsters
    stats: dict[str, Any] = {
        "will_mod": _mod(entry["will_test"]),
        "horror": NONE if entry["horror"] is None else entry["horror"],
        "strength_mod": _mod(entry["strength_test"]),
        "damage": NONE if entry["damage"] is None else entry["damage"],
    }
    toughness = entry["toughness"]
    if toughness["type"] == "investigators_plus":
        stats["toughness_plus"] = toughness["value"]
    else:  # fixed, or the cultist's "from the Ancient One sheet"
        stats["toughness"] = toughness.get("value", NONE)
    if kind == "monster":
        stats["copies"] = entry["count"]
    return stats


def expected_texts(kind: str, entry: dict[str, Any]) -> list[dict[str, str]]:
    """Engine rules texts (both languages) that the /card text must contain."""
    if kind == "investigator":
        return [entry["action_text"], entry["passive_text"]]
    if kind in ("asset", "artifact", "spell", "condition"):
        return [entry["text"]]
    if kind in ("monster", "epic_monster"):
        if entry["toughness"]["type"] == "ancient_one":
            return []  # the cultist card spells out every Ancient One's cultist instead
        return [t for t in (entry["special"], entry["spawn"], entry["reckoning"]) if t]
    return []


def _contains(card_text: str, engine_text: str) -> bool:
    """Engine sentences may start a clause in the card ("**Action:** test Lore"), so the first letter's
    case and a final full stop do not count."""
    core = engine_text.strip().rstrip(".")
    return core[1:] in card_text and core[0].casefold() in card_text.casefold()


def _pairs(engine: Content, cards: list[Card]) -> list[tuple[str, dict[str, Any], Card | None]]:
    by_type = _by_type(cards)
    return [(kind, entry, by_type.get(kind, {}).get(name))
            for kind, entries in _kinds(engine).items() for name, entry in entries.items()]


def test_every_engine_entry_has_a_card_entry(engine: Content, cards: list[Card]) -> None:
    missing = [f"{kind}: {entry['name']}" for kind, entry, card in _pairs(engine, cards) if card is None]
    assert not missing, f"in the engine's data but not in cards.json: {missing}"


def test_no_card_entry_without_an_engine_entry(engine: Content, cards: list[Card]) -> None:
    kinds = _kinds(engine)
    extra = [f"{c.type}: {c.name.en}" for c in cards if c.type in kinds and c.name.en not in kinds[c.type]]
    assert not extra, f"in cards.json but unknown to the engine: {extra}"


def test_card_stats_equal_the_engine(engine: Content, cards: list[Card]) -> None:
    wrong = [f"{kind} {entry['name']}: card {card.stats} != engine {expected_stats(kind, entry)}"
             for kind, entry, card in _pairs(engine, cards)
             if card is not None and card.stats != expected_stats(kind, entry)]
    assert not wrong, "\n".join(wrong)


def test_card_texts_carry_the_engine_texts(engine: Content, cards: list[Card]) -> None:
    wrong = []
    for kind, entry, card in _pairs(engine, cards):
        if card is None:
            continue
        for text in expected_texts(kind, entry):
            for lang in ("en", "ru"):
                if not _contains(card.text.get(lang), text[lang]):
                    wrong.append(f"{kind} {entry['name']} ({lang}): {text[lang]!r} not in {card.text.get(lang)!r}")
    assert not wrong, "\n".join(wrong)


def test_sheet_details_equal_the_engine(engine: Content, cards: list[Card]) -> None:
    """What the card text says beyond the rules text: investigator titles, starting spaces and
    possessions; item traits; spell and condition kinds; epic monster toughness."""
    wrong = []
    for kind, entry, card in _pairs(engine, cards):
        if card is None:
            continue
        name, text = entry["name"], card.text.en
        extra = card.extra
        if kind == "investigator":
            head = text.split("\n")[0]
            if not head.startswith(f"*{entry['title']}.* Starts in **{entry['start']}** with: "):
                wrong.append(f"{name}: title/start {head!r}")
            for item in [*entry["assets"], *entry["spells"]]:
                if item not in head:
                    wrong.append(f"{name}: starting {item!r} missing from {head!r}")
            if entry["clues"] and f"{entry['clues']} Clue" not in head:
                wrong.append(f"{name}: {entry['clues']} starting clue(s) missing")
            if extra.get("title", {}).get("en") != entry["title"] or extra.get("starting_space") != entry["start"]:
                wrong.append(f"{name}: title/starting_space fields")
        elif kind in ("asset", "artifact"):
            if extra.get("traits") != entry["traits"]:
                wrong.append(f"{name}: traits {extra.get('traits')} != {entry['traits']}")
            if not all(trait in text.split(".*")[0] for trait in entry["traits"]):
                wrong.append(f"{name}: traits not shown in {text[:60]!r}")
        elif kind == "spell":
            if extra.get("spell_type") != entry["type"] or not text.startswith(f"*{entry['type']}*"):
                wrong.append(f"{name}: spell type {entry['type']!r}")
        elif kind == "condition":
            if extra.get("trait") != entry["trait"] or not text.startswith(f"*{entry['trait']}*"):
                wrong.append(f"{name}: condition trait {entry['trait']!r}")
        elif kind in ("monster", "epic_monster") and extra.get("toughness_rule") != entry["toughness"]:
            wrong.append(f"{name}: toughness_rule {extra.get('toughness_rule')} != {entry['toughness']}")
    assert not wrong, "\n".join(wrong)


def test_card_finds_every_engine_name(engine: Content, cards: list[Card]) -> None:
    """/card with the engine's name shows that entry: it is the best hit, or (for a name two entries
    share, like Cthulhu the Ancient One and the epic monster) among the best hits with a sure score."""
    index = LookupIndex.build(Corpus({GAME: GameCorpus(GAME, cards=load_cards(RULES_DIR / GAME / CARDS_PATH, GAME))}))
    by_type = _by_type(cards)
    wrong = []
    for kind, entries in _kinds(engine).items():
        for name in entries:
            want = by_type[kind][name].id if name in by_type.get(kind, {}) else None
            hits = index.search_cards(GAME, name, "en", limit=6)
            sure = [h.card_id for h in hits if h.score >= 80]
            if want is None or want not in sure or not hits or hits[0].name != name:
                wrong.append(f"{kind} {name}: {[(h.card_id, round(h.score)) for h in hits]}")
    assert not wrong, "\n".join(wrong)

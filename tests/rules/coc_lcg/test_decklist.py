"""Deck choices written as text (``rules.coc_lcg.decklist``): quick-start pairings (CoC-R22), pasted lists
checked against CoC-R16..R18, the compact stored form, and the options model reading and writing them."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.core import RuleError
from rules.coc_lcg.cards import FACTION_IDS, by_number, catalog
from rules.coc_lcg.decklist import parse_choice, parse_list, quick_choices, summary, to_text
from rules.coc_lcg.options import CocOptions, DeckChoice
from tests.rules.coc_lcg.helpers import ENGINE

DECK_CARDS = sorted(c.id for c in catalog().values() if c.type != "story")


def legal_list() -> str:
    agency = [c for c in catalog().values() if c.faction == "agency"][:17]
    return "\n".join(f"3x {c.name_en}" for c in agency)


def test_coc_r22_all_21_pairings_read_with_either_spelling() -> None:
    assert len(quick_choices()) == 21 == len(list(itertools.combinations(FACTION_IDS, 2)))
    assert parse_choice("agency+cthulhu/A") == {"factions": ("agency", "cthulhu"), "packet": "A"}
    # Names in English or Russian, any order, any case; Cyrillic look-alike packet letters.
    assert parse_choice("Cthulhu + The Agency / a") == {"factions": ("agency", "cthulhu"), "packet": "A"}
    assert parse_choice("Хастур+Мискатоникский университет/Б") == {"factions": ("miskatonic", "hastur"), "packet": "B"}
    assert parse_choice("shub-niggurath+yog sothoth/B")["factions"] == ("yog_sothoth", "shub_niggurath")


def test_digest_8_3_packet_defaults_by_seat() -> None:
    """Without a packet, seat 1 takes A and seat 2 takes B, so the two never collide."""
    opts = CocOptions.model_validate({"deck1": "syndicate+hastur", "deck2": "agency+cthulhu"})
    assert opts.deck1 == DeckChoice(factions=("syndicate", "hastur"), packet="A")
    assert opts.deck2.packet == "B"


@pytest.mark.parametrize(("text", "code"), [
    ("agency+necronomicon/A", "coc.deck_unknown_faction"),
    ("agency+agency/A", "coc.bad_factions"),
    ("agency+cthulhu+hastur/A", "coc.bad_factions"),
    ("agency+cthulhu/C", "coc.deck_bad_packet"),
    ("   ", "coc.deck_empty"),
    ("# only a comment", "coc.deck_empty"),
])
def test_bad_quick_texts_are_refused_with_a_code(text: str, code: str) -> None:
    with pytest.raises(RuleError) as err:
        parse_choice(text)
    assert err.value.code == code


def test_pasted_list_line_forms_and_languages() -> None:
    sheriff = next(c for c in catalog().values() if c.name_en == "Local Sheriff")
    text = "\n".join([
        "// comment", "3x Local Sheriff", "", "2 Вольный агент", "Mystic Bounty Hunter x2",
        "- F1", "agency-kirby-odonnell (3)", "«Кирби О'Доннелл»",
    ])
    cards = parse_list(text)
    assert cards[:3] == (sheriff.id,) * 3
    assert cards.count("neutral-freelance-agent") == 2 and cards.count("neutral-mystic-bounty-hunter") == 2
    assert cards.count("agency-thomas-f-malone") == 1 and cards.count("agency-kirby-odonnell") == 4
    assert summary(cards, locale_ru=True)[0] == (3, "Местный шериф")


def test_unknown_name_names_the_line_and_a_close_card() -> None:
    with pytest.raises(RuleError) as err:
        parse_list("3x Local Sheriff\n2x Local Sherif\n1x Great Old Gumbo")
    assert err.value.code == "coc.deck_unknown_card"
    with pytest.raises(RuleError) as err:
        parse_list("3x Local Sheriff\n1x Great Old Gumbo")
    assert err.value.params["line"] == 2 and err.value.params["name"] == "Great Old Gumbo"
    with pytest.raises(RuleError) as err:
        parse_list("0x Local Sheriff")
    assert err.value.code == "coc.deck_bad_count"


def test_coc_r16_r17_r20_legality_checked_when_pasted() -> None:
    assert len(parse_choice(legal_list())["cards"]) == 51
    with pytest.raises(RuleError) as err:
        parse_choice("3x Local Sheriff\n3x Thomas F. Malone")
    assert err.value.code == "coc.deck_too_small"  # CoC-R16
    with pytest.raises(RuleError) as err:
        parse_choice(legal_list() + "\n1x Местный шериф")
    assert err.value.code == "coc.too_many_copies"  # CoC-R17, by title
    story = by_number()[156]
    with pytest.raises(RuleError) as err:
        parse_choice(legal_list() + f"\n1x {story.name_en}")
    assert err.value.code == "coc.not_a_deck_card"  # CoC-R20: stories are never in a draw deck


def test_options_store_decks_as_short_text_and_read_them_back() -> None:
    opts = CocOptions.model_validate({"deck1": legal_list(), "deck2": "miskatonic+hastur/B"})
    dumped = opts.model_dump(mode="json")
    assert dumped["deck2"] == "miskatonic+hastur/B" and dumped["deck1"].startswith("cards:")
    assert len(dumped["deck1"]) < 200
    assert CocOptions.model_validate(dumped) == opts
    assert CocOptions.model_validate_json(opts.model_dump_json()) == opts
    # The old nested form still reads.
    assert CocOptions.model_validate({"deck1": {"factions": ["agency", "cthulhu"], "packet": "A"}}).deck1.packet == "A"


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(DECK_CARDS), min_size=1, max_size=60))
def test_compact_form_round_trips_any_card_order(cards: list[str]) -> None:
    text = to_text(None, None, tuple(cards))
    assert parse_choice(text) == {"cards": tuple(cards)}


def test_a_pasted_deck_plays_a_game() -> None:
    opts = CocOptions.model_validate({"deck1": legal_list(), "deck2": "hastur+yog_sothoth"})
    state = ENGINE.new_game(["s1", "s2"], opts, 3)
    assert sorted(state.players[0].deck_list) == sorted(parse_choice(legal_list())["cards"])
    assert type(state).model_validate_json(state.model_dump_json()) == state


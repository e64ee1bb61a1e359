"""Setup and deck construction: CoC-R1, R2, R9..R11, R16..R28, R20, A26."""

from __future__ import annotations

import itertools

import pytest

from rules.core import RuleError
from rules.coc_lcg.cards import FACTION_IDS, catalog, faction_cards, packet_cards, story_cards
from rules.coc_lcg.engine import deck_cards
from rules.coc_lcg.options import DeckChoice
from rules.coc_lcg.script import SCRIPTS
from tests.rules.coc_lcg.helpers import ENGINE, SEATS, SPEC, new


def _finish_setup(s):
    for p, seat in enumerate(SEATS):
        while len(s.players[p].picks) < 3 and s.stack and s.stack[-1].kind == "setup":
            card = next(c for c in s.players[p].hand if c not in s.players[p].picks)
            s, _ = ENGINE.apply(s, seat, {"type": "setup_resource", "card": card})
    return s


def test_r1_two_players_only() -> None:
    """CoC-R1: the game is a duel."""
    with pytest.raises(RuleError) as e:
        ENGINE.new_game(["a", "b", "c"], SPEC.parse_options({}), 1)
    assert e.value.code == "seat_count"
    with pytest.raises(RuleError):
        ENGINE.new_game(["a", "a"], SPEC.parse_options({}), 1)


def test_r2_r21_r24_shared_story_deck_three_face_up() -> None:
    """CoC-R2/R21/R24: the 10 story cards form one shared deck; 3 lie face up, 7 stay in the deck."""
    s = new()
    assert len(s.stories) == 3 and len(s.story_deck) == 7
    assert sorted(x[2:] for x in s.stories + s.story_deck) == sorted(story_cards())
    assert all(s.tokens[x] == [0, 0] for x in s.stories)


def test_r9_r22_every_pairing_is_a_legal_quick_start_deck() -> None:
    """CoC-R9/R22: two factions plus one neutral packet; 21 pairings, about 47 cards each."""
    pairs = list(itertools.combinations(FACTION_IDS, 2))
    assert len(pairs) == 21
    for a, b in pairs:
        cards = deck_cards(DeckChoice(factions=(a, b), packet="A"))
        assert 46 <= len(cards) <= 48
        assert set(packet_cards("A")) <= set(cards)
        assert "neutral-the-bootleg-whiskey-cover-up" not in cards  # in neither packet


def test_r10_r11_seven_factions_and_neutrals() -> None:
    """CoC-R10/R11: 7 factions of about 20 cards, 15 neutrals, 10 stories (165 in all)."""
    cat = catalog()
    assert len(cat) == 165
    assert {len(faction_cards(f)) for f in FACTION_IDS} == {19, 20, 21}
    assert sum(1 for c in cat.values() if c.faction == "neutral") == 15
    assert sum(1 for c in cat.values() if c.type == "story") == 10


def test_r22_two_quick_start_decks_cannot_share_a_faction_or_packet() -> None:
    """CoC-R22: one Core Set holds one copy of each faction and packet."""
    with pytest.raises(RuleError) as e:
        new(deck1={"factions": ["agency", "hastur"], "packet": "A"}, deck2={"factions": ["hastur", "cthulhu"], "packet": "B"})
    assert e.value.code == "coc.faction_taken"
    with pytest.raises(RuleError) as e:
        new(deck1={"factions": ["agency", "hastur"], "packet": "A"}, deck2={"factions": ["syndicate", "cthulhu"], "packet": "A"})
    assert e.value.code == "coc.packet_taken"
    with pytest.raises(RuleError) as e:
        new(deck1={"factions": ["agency", "agency"], "packet": "A"})
    assert e.value.code == "coc.bad_factions"
    with pytest.raises(RuleError) as e:
        new(deck1={"factions": ["agency", "cthulhu"]}, deck2={"factions": ["hastur", "syndicate"], "packet": "B"})
    assert e.value.code == "coc.packet_needed"


def _custom(n: int = 50) -> list[str]:
    pool = [c for c in sorted(SCRIPTS) if catalog()[c].type != "story"]
    return pool[:n]


def test_r16_custom_deck_needs_fifty_cards() -> None:
    """CoC-R16: at least 50 cards, no maximum."""
    with pytest.raises(RuleError) as e:
        deck_cards(DeckChoice(cards=tuple(_custom(49))))
    assert e.value.code == "coc.deck_too_small" and e.value.params["count"] == 49
    assert len(deck_cards(DeckChoice(cards=tuple(_custom(50))))) == 50
    assert len(deck_cards(DeckChoice(cards=tuple(_custom(80))))) == 80


def test_r17_r18_at_most_three_copies_by_title() -> None:
    """CoC-R17/R18: 3 copies of a title at most, conspiracies included."""
    deck = _custom(46) + ["neutral-the-bootleg-whiskey-cover-up"] * 3
    deck = deck + [deck[0]]
    assert len(deck_cards(DeckChoice(cards=tuple(deck)))) == 50
    with pytest.raises(RuleError) as e:
        deck_cards(DeckChoice(cards=tuple(deck + ["neutral-the-bootleg-whiskey-cover-up"])))
    assert e.value.code == "coc.too_many_copies"


def test_r19_no_faction_limit_and_r20_story_cards_not_in_decks() -> None:
    """CoC-R19: any faction mix; CoC-R20: the story deck is fixed, stories are not deck cards."""
    mixed = tuple(faction_cards("agency") + faction_cards("cthulhu") + faction_cards("hastur"))
    assert len(deck_cards(DeckChoice(cards=mixed))) == len(mixed)
    with pytest.raises(RuleError) as e:
        deck_cards(DeckChoice(cards=mixed[:49] + ("story-rotting-away",)))
    assert e.value.code == "coc.not_a_deck_card"
    with pytest.raises(RuleError) as e:
        deck_cards(DeckChoice(cards=mixed[:49] + ("no-such-card",)))
    assert e.value.code == "coc.unknown_card"


def test_unscripted_cards_are_refused(monkeypatch) -> None:
    """A card without a script is never dealt as a blank card: the engine refuses the deck."""
    monkeypatch.delitem(SCRIPTS, "agency-t-men")
    with pytest.raises(RuleError) as e:
        new(deck1={"factions": ["agency", "cthulhu"], "packet": "A"})
    assert e.value.code == "coc.card_unscripted" and e.value.params["card"] == "agency-t-men"


def test_r23_r26_shuffled_decks_and_eight_card_setup_hand() -> None:
    """CoC-R23/R26/A26: shuffled decks (seed-dependent), 8 cards drawn, no mulligan."""
    a, b = new(seed=1), new(seed=2)
    assert a.players[0].deck != b.players[0].deck
    for pl in a.players:
        assert len(pl.hand) == 8 and len(pl.deck) == len(pl.deck_list) - 8
    prompts = ENGINE.pending(a)
    assert {p.seat for p in prompts} == set(SEATS) and prompts[0].kind == "setup"


def test_r25_r27_three_domains_each_with_one_resource_after_setup() -> None:
    """CoC-R25/R26/R27: 3 picks become resources, one per domain; 5 cards stay in hand; picks are private
    until both players are done."""
    s = new()
    card = s.players[0].hand[0]
    s, _ = ENGINE.apply(s, "a", {"type": "setup_resource", "card": card})
    assert ENGINE.view(s, "b").players[0].picks is None
    assert ENGINE.view(s, "a").players[0].picks == [card]
    with pytest.raises(RuleError):
        ENGINE.apply(s, "a", {"type": "setup_resource", "card": card})  # picked already
    s = _finish_setup(s)
    for pl in s.players:
        assert [len(d.resources) for d in pl.domains] == [1, 1, 1]
        assert not pl.picks
    assert card in s.players[0].domains[0].resources
    assert ENGINE.view(s, None).players[0].domains[0].resources == [card]  # resources are public


def test_r28_first_player_random_or_seat_order() -> None:
    """CoC-R28: the first player is chosen at random (or the first seat, by option)."""
    firsts = {new(seed=k).first for k in range(12)}
    assert firsts == {0, 1}
    assert {new(seed=k, first_player="seat_order").first for k in range(5)} == {0}


def test_r31_r35_first_turn_draws_one_and_skips_story() -> None:
    """CoC-R31/R35/A25: the first player draws 1 on turn 1 and has no Story phase; the second draws 2."""
    s = _finish_setup(new(first_player="seat_order"))
    assert len(s.players[0].hand) == 5 and s.stack[-1].params["step"] == "refresh"
    steps = []
    while s.turn == 1:
        top = s.stack[-1]
        steps.append(top.params.get("step") or top.kind)
        seat = top.seats[0]
        s, _ = ENGINE.apply(s, seat, {"type": "pass"})
    assert not any(x.startswith("story") for x in steps)
    assert steps[:2] == ["refresh", "refresh"]
    assert len(s.players[0].hand) + len(s.players[0].domains[0].resources) >= 6  # one card drawn
    assert "draw" in steps and "resource" in steps and "operations" in steps
    while s.stack[-1].params.get("step") != "draw":
        s, _ = ENGINE.apply(s, s.stack[-1].seats[0], {"type": "pass"})
    assert len(s.players[1].hand) == 7  # 5 + 2

"""Random legal games to the end for the quick-start pairings, checking invariants at every step: every
card accounted for, no hand, deck order or private pick in the other seat's view, JSON round-trip,
replay equality (rules.core.replay), rejected actions change nothing."""

from __future__ import annotations

import itertools
import json
import random

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from rules.coc_lcg.actions import ACTION_TYPES
from rules.coc_lcg.cards import FACTION_IDS, catalog
from tests.rules.contract import Checks, play_random_game
from tests.rules.coc_lcg.helpers import ENGINE, SEATS, SPEC, all_cards, full

PAIRS = list(itertools.combinations(FACTION_IDS, 2))
MATCHES = [(a, b) for a in PAIRS for b in PAIRS if not set(a) & set(b)]
CARD_IDS = sorted(catalog())


def _junk(rnd: random.Random, seats: list[str]) -> list[object]:
    card = f"{rnd.randrange(2)}:{rnd.choice(CARD_IDS)}:1"
    return [
        {"type": "play", "card": card, "domain": rnd.choice([None, 0, 1, 2, 7])},
        {"type": "pass"},
        {"type": "use", "card": card, "ability": rnd.choice([0, 1, 100]), "domain": rnd.choice([None, 0, 3])},
        {"type": "attach_resource", "card": card, "domain": rnd.choice([0, 5])},
        {"type": "commit", "card": card, "story": rnd.choice(["s:story-rotting-away", card])},
        {"type": "commit_done"},
        {"type": "choose", "option": rnd.choice([card, "none", "0", "use", "mill"])},
        {"type": "setup_resource", "card": card},
        {"type": "teleport"},
        "not a dict",
        7,
    ]


def _hidden(s) -> set[str]:
    out: set[str] = set()
    for pl in s.players:
        out |= set(pl.hand) | set(pl.deck) | set(pl.picks) | set(pl.peek) | set(pl.plan)
        out |= {d.card for d in pl.domains if d.card}
    return out


def _public(s) -> set[str]:
    out = set(s.play) | set(s.resolving) | set(s.stories)
    for pl in s.players:
        out |= set(pl.discard) | set(pl.won) | {r for d in pl.domains for r in d.resources}
    return out


def _check_views(s, seen: set[str]) -> None:
    """``seen``: cards the table has seen face up at some point (a card returned to hand stays known)."""
    public = ENGINE.view(s, None)
    assert all(p.hand is None and p.picks is None and p.plan is None and p.peek is None for p in public.players)
    secret = _hidden(s) - _public(s) - seen
    dumped = public.model_dump_json()
    assert '"rng":' not in dumped and '"deck":' not in dumped
    leaked = [c for c in secret if f'"{c}"' in dumped]
    assert not leaked, f"hidden cards in the public view: {leaked} {dumped[dumped.index(leaked[0]) - 200:][:300]}"
    for i, pl in enumerate(s.players):
        own = ENGINE.view(s, pl.seat)
        mine = own.players[i]
        assert mine.hand == pl.hand and mine.picks == pl.picks and mine.peek == pl.peek
        other = own.players[1 - i]
        assert other.hand is None and other.picks is None and other.plan is None and other.peek is None
        theirs = set(s.players[1 - i].hand) | set(s.players[1 - i].deck) | set(s.players[1 - i].picks)
        theirs |= set(s.players[1 - i].peek) | set(s.players[1 - i].plan)
        own_dump = own.model_dump_json()
        assert not any(f'"{c}"' in own_dump for c in theirs - _public(s) - seen - set(pl.peek))
    for prompt in public.pending:  # prompts are public: no hidden card in their parameters
        text = json.dumps(prompt.params)
        assert not any(f'"{c}"' in text for c in secret), prompt


def play_game(match: int, seed: int, policy: int, first: str = "random", junk: bool = True) -> int:
    a, b = MATCHES[match % len(MATCHES)]
    opts = SPEC.parse_options({"deck1": {"factions": list(a), "packet": "A"},
                               "deck2": {"factions": list(b), "packet": "B"}, "first_player": first})

    seen: set[str] = set()

    def invariants(s) -> None:
        assert all_cards(s) == full(s)
        assert len(s.stories) <= 5
        seen.update(_public(s))

    checks = Checks(junk=_junk, every_step=invariants, views=lambda s: _check_views(s, seen), view_every=9,
                    junk_every=7 if junk else 10**9)
    run = play_random_game(SPEC, SEATS, opts, seed, policy, checks)
    assert all(isinstance(SPEC.parse_action(x), ACTION_TYPES) for _, x in run.log)
    res = ENGINE.result(run.state)
    assert res is not None and res.reason in ("three_stories", "deck_out", "both_decks_out")
    assert (res.winners == []) == (res.reason == "both_decks_out"), "only both decks out at once is a draw (A21)"
    return run.steps


@settings(max_examples=6, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(match=st.integers(min_value=0, max_value=len(MATCHES) - 1),
       seed=st.integers(min_value=0, max_value=2**63), policy=st.integers(min_value=0, max_value=2**32))
def test_random_games_keep_every_invariant(match: int, seed: int, policy: int) -> None:
    play_game(match, seed, policy)


def test_every_faction_pair_plays_to_the_end() -> None:
    """CoC-R9/R22: each of the 21 pairings, as someone's deck, plays a whole game."""
    for k, pair in enumerate(PAIRS):
        match = next(i for i, (a, b) in enumerate(MATCHES) if a == pair or b == pair)
        play_game(match, seed=k, policy=k, first="seat_order" if k % 2 else "random", junk=False)


def _custom_deck(rnd: random.Random) -> list[str]:
    pool = [c for c in CARD_IDS if catalog()[c].type != "story"]
    deck = ["neutral-the-bootleg-whiskey-cover-up"] * 2
    while len(deck) < 52:
        c = rnd.choice(pool)
        if deck.count(c) < 3:
            deck.append(c)
    return deck


@settings(max_examples=3, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(seed=st.integers(min_value=0, max_value=2**63), policy=st.integers(min_value=0, max_value=2**32))
def test_constructed_decks_with_copies_and_conspiracies(seed: int, policy: int) -> None:
    """CoC-R16..R18: constructed decks (copies, conspiracies, any faction mix) play to the end too."""
    rnd = random.Random(seed)
    opts = SPEC.parse_options({"deck1": {"cards": _custom_deck(rnd)}, "deck2": {"cards": _custom_deck(rnd)}})
    seen: set[str] = set()

    def invariants(s) -> None:
        assert all_cards(s) == full(s)
        seen.update(_public(s))

    checks = Checks(junk=_junk, every_step=invariants, views=lambda s: _check_views(s, seen), view_every=11,
                    junk_every=9)
    run = play_random_game(SPEC, SEATS, opts, seed, policy, checks)
    assert ENGINE.result(run.state) is not None

"""Random legal games (2–6 players, every option) to the end, checking invariants at every step:
all 100 cards accounted for, no hidden card in another seat's view, JSON round-trip, replay equality,
rejected actions change nothing."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.fluxx_cthulhu.actions import ACTION_TYPES
from rules.fluxx_cthulhu.cards import catalog
from tests.rules.contract import Checks, play_random_game
from tests.rules.fluxx_cthulhu.helpers import ENGINE, SPEC, all_cards, full

VARIANTS = [
    {},
    {"house_cards": False},
    {"meta_rule": True},
    {"first_player": "random", "meta_rule": True, "house_cards": False},
]
CARD_IDS = sorted(catalog())


def _junk(rnd: random.Random, seats: list[str]) -> list[object]:
    card = rnd.choice(CARD_IDS)
    return [
        {"type": "play", "card": card},
        {"type": "pass"},
        {"type": "discard", "card": card},
        {"type": "discard_random"},
        {"type": "choose", "option": rnd.choice([card, "all", "nope", seats[0]])},
        {"type": "give", "card": card, "to": rnd.choice(seats + ["nobody"])},
        {"type": "use_power", "card": rnd.choice(["necronomicon", "elder_sign", "feds", card]),
         "target": rnd.choice([None, card]), "to": rnd.choice([None] + seats)},
        {"type": "end_turn"},
        {"type": "teleport"},
        {"card": "cthulhu"},
        "not a dict",
        7,
    ]


def _check_views(state) -> None:
    public = ENGINE.view(state, None)
    assert all(p.hand is None and p.limbo is None and p.dreams is None for p in public.players)
    assert set(public.model_dump()) == set(SPEC.view_model.model_fields)
    dumped = public.model_dump_json()
    assert '"deck"' not in dumped and '"rng"' not in dumped
    for p in state.players:
        own = ENGINE.view(state, p.seat)
        for pv in own.players:
            if pv.seat == p.seat:
                assert pv.hand == p.hand and pv.limbo == p.limbo and pv.dreams == p.dreams
            else:
                assert pv.hand is None and pv.limbo is None and pv.dreams is None
    # every prompt is public: nothing in them may name a card that is hidden somewhere
    hidden = {c for p in state.players for c in p.hand + p.limbo + p.dreams} | set(state.deck)
    for prompt in public.pending:
        text = json.dumps(prompt.params)
        assert not any(f'"{c}"' in text for c in hidden - _public_cards(state)), prompt


def _public_cards(state) -> set[str]:
    cards = set(state.discard) | set(state.rules) | set(state.goals) | {x["card"] for x in state.chain}
    for p in state.players:
        cards |= set(p.keepers) | set(p.creepers)
    return cards


def play_game(n: int, options: dict, seed: int, policy_seed: int, junk: bool = True, join: bool = False) -> int:
    opts = SPEC.parse_options(options)

    def invariants(state) -> None:
        assert all_cards(state) == full(state)
        assert len(all_cards(state)) + 2 == (100 if opts.house_cards else 57)
        assert not any(catalog()[c].type == "creeper" for p in state.players for c in p.hand)

    checks = Checks(
        junk=_junk, every_step=invariants, views=_check_views, view_every=5,
        junk_every=3 if junk else 10**9, joiner_prefix="u" if join else None, join_chance=0.01,
        any_time=frozenset({"use_power"}), any_time_chance=0.05,  # the Elder Sign's reveal, off turn too
    )
    run = play_random_game(SPEC, [f"u{i}" for i in range(n)], opts, seed, policy_seed, checks)
    assert all_cards(run.state) == full(run.state)
    assert all(isinstance(SPEC.parse_action(a), ACTION_TYPES) for _, a in run.log)
    return run.steps


@settings(max_examples=15, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=6),
    variant=st.sampled_from(range(len(VARIANTS))),
    seed=st.integers(min_value=0, max_value=2**63),
    policy=st.integers(min_value=0, max_value=2**32),
)
def test_random_games_keep_every_invariant(n: int, variant: int, seed: int, policy: int) -> None:
    play_game(n, VARIANTS[variant], seed, policy)


def test_every_player_count_and_variant_plays_to_the_end() -> None:
    for n in range(2, 7):
        for i, variant in enumerate(VARIANTS):
            play_game(n, variant, seed=100 * n + i, policy_seed=i)


def test_games_with_players_joining_mid_game() -> None:
    for k in range(6):
        play_game(2 + k % 3, VARIANTS[k % len(VARIANTS)], seed=k, policy_seed=k, join=True)


def test_many_games_without_junk_end() -> None:
    for k in range(60):
        play_game(2 + k % 5, VARIANTS[k % len(VARIANTS)], seed=9000 + k, policy_seed=k, junk=False)


def test_games_with_players_leaving_mid_game() -> None:
    """Random games where someone tries to leave now and then (bot ruling): a refusal changes nothing, an
    accepted leave keeps all cards accounted for, and replaying the log gives the same state."""
    from rules.core import RuleError
    from rules.core.replay import replay

    left = 0
    for k in range(10):
        seats = [f"u{i}" for i in range(3 + k % 4)]
        opts = SPEC.parse_options(VARIANTS[k % len(VARIANTS)])
        state = ENGINE.new_game(seats, opts, k)
        rnd = random.Random(k)
        log: list[tuple[str, object]] = []
        for _ in range(3000):
            prompts = ENGINE.pending(state)
            if not prompts:
                break
            if rnd.random() < 0.03:
                seat = rnd.choice([p.seat for p in state.players])
                before = state.model_dump_json()
                try:
                    state, events = ENGINE.apply(state, seat, {"type": "leave"})
                except RuleError:
                    assert state.model_dump_json() == before
                    continue
                assert seat not in [p.seat for p in state.players] and events[0].type == "player_left"
                log.append((seat, {"type": "leave"}))
                left += 1
            else:
                seat = prompts[0].seat
                action = rnd.choice(ENGINE.legal_actions(state, seat))
                state, _ = ENGINE.apply(state, seat, action)
                log.append((seat, action))
            assert all_cards(state) == full(state)
        assert ENGINE.pending(state) == [] and ENGINE.result(state) is not None
        assert replay(SPEC, seats, opts, k, log) == state
    assert left >= 5

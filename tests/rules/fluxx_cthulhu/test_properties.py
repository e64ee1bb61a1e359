"""Random legal games (2–6 players, every option) to the end, checking invariants at every step:
all 100 cards accounted for, no hidden card in another seat's view, JSON round-trip, replay equality,
rejected actions change nothing."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.core import RuleError, replay
from rules.fluxx_cthulhu.actions import ACTION_TYPES
from rules.fluxx_cthulhu.cards import catalog
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
    rnd = random.Random(policy_seed)
    seats = [f"u{i}" for i in range(n)]
    opts = SPEC.parse_options(options)
    state = ENGINE.new_game(seats, opts, seed)
    log: list[tuple[str, str]] = []
    steps = 0
    while prompts := ENGINE.pending(state):
        steps += 1
        assert steps < 20000, "a game must end"
        assert all_cards(state) == full(state)
        assert len(all_cards(state)) + 2 == (100 if opts.house_cards else 57)
        assert not any(catalog()[c].type == "creeper" for p in state.players for c in p.hand)
        if steps % 5 == 0:
            _check_views(state)
            assert SPEC.state_model.model_validate_json(state.model_dump_json()) == state
        owing = {p.seat for p in prompts}
        assert all(ENGINE.legal_actions(state, seat) for seat in owing)
        for seat in seats:
            if seat not in owing:
                assert ENGINE.legal_actions(state, seat) == []
        if junk and steps % 3 == 0:
            snapshot = state.model_dump_json()
            for raw in rnd.sample(_junk(rnd, seats), 3):
                seat = rnd.choice(seats + ["stranger"])
                legal = ENGINE.legal_actions(state, seat) if seat in seats else []
                try:
                    parsed = SPEC.parse_action(raw) if isinstance(raw, (dict, str)) else raw
                except RuleError:
                    parsed = None
                if parsed is not None and parsed in legal:
                    continue
                try:
                    ENGINE.apply(state, seat, raw)  # type: ignore[arg-type]
                except RuleError:
                    pass
                else:
                    raise AssertionError(f"illegal action accepted: {seat} {raw}")
                assert state.model_dump_json() == snapshot
        if join and len(seats) < 6 and rnd.random() < 0.01:
            newcomer = f"u{len(seats)}"
            state, _ = ENGINE.apply(state, newcomer, {"type": "join"})
            seats.append(newcomer)
            log.append((newcomer, '{"type":"join"}'))
            continue
        seat = prompts[0].seat
        legal = ENGINE.legal_actions(state, seat)
        assert legal, f"{seat} owes {prompts[0].kind} but has no legal action"
        assert all(isinstance(a, ACTION_TYPES) for a in legal)
        action = rnd.choice(legal)
        state, events = ENGINE.apply(state, seat, action)
        assert all(e.audience in (None, *seats) for e in events)
        log.append((seat, action.model_dump_json()))
    result = ENGINE.result(state)
    assert result is not None
    assert sorted(s for g in result.ranking for s in g) == sorted(seats)
    assert all_cards(state) == full(state)
    assert replay(SPEC, seats[:n], opts, seed, log) == state
    _check_views(state)
    return steps


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

"""Building exact Cthulhu Fluxx positions for rule tests."""

from __future__ import annotations

from typing import Any

from rules import registry
from rules.core import Event
from rules.fluxx_cthulhu.cards import deck_ids
from rules.fluxx_cthulhu.state import FlxState

SPEC = registry.get("fluxx_cthulhu")
ENGINE = SPEC.engine


def new(n: int = 3, seed: int = 1, **options: Any) -> FlxState:
    return ENGINE.new_game([f"p{i}" for i in range(n)], SPEC.options_model(**options), seed)


def all_cards(s: FlxState) -> list[str]:
    cards = list(s.deck) + list(s.discard) + list(s.rules) + list(s.goals)
    for p in s.players:
        cards += p.hand + p.keepers + p.creepers + p.limbo + p.dreams
    cards += [x["card"] for x in s.chain if x["kind"] != "ungoal"]
    cards += [c for c, _ in s.resolving]
    return sorted(cards)


def full(s: FlxState) -> list[str]:
    return sorted(deck_ids(s.options.house_cards))


def arrange(
    s: FlxState,
    *,
    hands: dict[int, list[str]] | None = None,
    keepers: dict[int, list[str]] | None = None,
    creepers: dict[int, list[str]] | None = None,
    rules: list[str] | None = None,
    goals: list[str] | None = None,
    deck: list[str] | None = None,
    current: int | None = None,
    drawn: int | None = None,
    quiet: bool = True,
) -> FlxState:
    """Put the named cards where asked; ``deck`` lists the next cards to be drawn, first drawn first.
    Every other card goes under them, except creepers (and, with ``quiet``, surprises) which go to the
    discard pile, so draws stay predictable and all 100 cards stay accounted for."""
    placed: list[str] = []
    for i, h in (hands or {}).items():
        s.players[i].hand = list(h)
        placed += h
    for i, k in (keepers or {}).items():
        s.players[i].keepers = list(k)
        placed += k
    for i, c in (creepers or {}).items():
        s.players[i].creepers = list(c)
        placed += c
    if rules is not None:
        s.rules = list(rules)
        placed += rules
    if goals is not None:
        s.goals = list(goals)
        placed += goals
    top = list(deck or [])
    placed += top
    untouched_players = [i for i in range(len(s.players))]
    # collect every card not placed explicitly
    every = full(s)
    rest = [c for c in every if c not in placed]
    for i in untouched_players:
        p = s.players[i]
        if hands is None or i not in hands:
            p.hand = []
        if keepers is None or i not in keepers:
            p.keepers = []
        if creepers is None or i not in creepers:
            p.creepers = []
        p.limbo, p.dreams = [], []
    if rules is None:
        s.rules = []
    if goals is None:
        s.goals = []
    s.discard = []
    s.attached = {}
    s.hidden = None
    out = {"cthulhu", "yog_sothoth", "nightmares", "insanity", "mi_go", "the_body", "shoggoth", "deep_ones"}
    if quiet:  # surprises nobody was given go face up to the discard pile: no reaction windows open
        out |= {"secret_cultist", "twist_of_fate", "disorder_of_the_stars"}
    s.deck = [c for c in rest if c not in out] + top[::-1]
    # creepers not placed go to the bottom of the discard pile so draws stay predictable
    s.discard = [c for c in rest if c not in s.deck]
    s.chain, s.stack = [], []
    if current is not None:
        s.current = current
    s.drawn = 1 if drawn is None else drawn
    s.played = 0
    s.phase = "play"
    assert all_cards(s) == full(s), "arrange lost a card"
    return s


def act(s: FlxState, seat: str, action: dict[str, Any]) -> tuple[FlxState, list[Event]]:
    return ENGINE.apply(s, seat, action)


def play(s: FlxState, seat: str, card: str) -> tuple[FlxState, list[Event]]:
    return ENGINE.apply(s, seat, {"type": "play", "card": card})


def pass_all(s: FlxState) -> FlxState:
    """Everyone owing the open reaction window passes."""
    while s.stack and s.stack[-1].kind == "react":
        s, _ = ENGINE.apply(s, s.stack[-1].seats[0], {"type": "pass"})
    return s


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]

"""What one seat (or the public) may see. Hands, setup picks, commit plans, looked-at cards and deck
order stay with their owner; domains show their resources (public, CoC-R27) but never the face-down
domain card itself."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from rules.coc_lcg import table as T
from rules.coc_lcg.state import CocState
from rules.core import GameResult, Prompt
from rules.core.fastmodel import builder


class DomainView(BaseModel):
    resources: list[str]
    drained: bool


class PlayerView(BaseModel):
    seat: str
    hand: list[str] | None
    hand_count: int
    deck_count: int
    discard: list[str]
    domains: list[DomainView]
    won: list[str]
    picks: list[str] | None
    plan: dict[str, str] | None
    peek: list[str] | None


class CocView(BaseModel):
    game: str
    viewer: str | None
    active_seat: str
    first_seat: str
    phase: str
    step: str
    turn: int
    story_deck_count: int
    stories: list[str]
    tokens: dict[str, list[int]]
    play: dict[str, dict[str, Any]]
    # each character in play as it stands now, lasting effects applied: {"skill": n, "icons": [terror,
    # combat, arcane, investigation], "kws": [keywords it has now], "toughness": n} (the printed values are
    # in the card data)
    current: dict[str, dict[str, Any]]
    # the struggles each story in play resolves now, per icon (CoC-R60: losses and boosters counted)
    struggles: dict[str, list[int]]
    resolving: list[str]
    mods: list[dict[str, Any]]
    players: list[PlayerView]
    pending: list[Prompt]
    result: GameResult | None


def _now(st: T.Stats) -> dict[str, Any]:
    return {"skill": st.skill, "icons": list(st.icons), "kws": sorted(st.kws), "toughness": st.toughness}


def build_view(s: CocState, seat: str | None, pending: list[Prompt], result: GameResult | None) -> CocView:
    """The view of ``s`` for ``seat`` (None: the public one). Built without validation (``fastmodel``): every
    part is made here from the engine's own valid state, and the bot builds a view for every message after a
    move (validating them cost about a tenth of an LCG move's follow-up)."""
    players = []
    active = T.constants(s)
    for pl in s.players:
        own = pl.seat == seat
        players.append(_player({
            "seat": pl.seat,
            "hand": list(pl.hand) if own else None,
            "hand_count": len(pl.hand),
            "deck_count": len(pl.deck),
            "discard": list(pl.discard),
            "domains": [_domain({"resources": list(d.resources), "drained": d.drained}) for d in pl.domains],
            "won": list(pl.won),
            "picks": list(pl.picks) if own else None,
            "plan": dict(pl.plan) if own else None,
            "peek": list(pl.peek) if own else None,
        }))
    return _view({
        "game": s.game, "viewer": seat, "active_seat": s.players[s.active].seat,
        "first_seat": s.players[s.first].seat, "phase": s.phase, "step": s.step, "turn": s.turn,
        "story_deck_count": len(s.story_deck), "stories": list(s.stories),
        "tokens": {k: list(v) for k, v in s.tokens.items()},
        "play": {k: v.__dict__.copy() for k, v in s.play.items()},  # an Inst's fields are all plain values
        "current": {c: _now(T.stats(s, c, active)) for c in T.characters(s)},
        "struggles": {x: T.story_icons(s, x) for x in s.stories},
        "resolving": list(s.resolving), "mods": [dict(m) for m in s.mods], "players": players,
        "pending": list(pending), "result": result,
    })


_view = builder(CocView)
_player = builder(PlayerView)
_domain = builder(DomainView)

"""What one seat (or the public) may see. Hands, cards drawn for an action and dream cards stay with
their owner; the deck order and the generator never leave the state."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from rules.core import GameResult, Prompt
from rules.core.fastmodel import builder
from rules.fluxx_cthulhu.state import FlxState
from rules.fluxx_cthulhu.table import draw_target, own_doom, play_target, rule_value, table_doom


class PlayerView(BaseModel):
    seat: str
    hand: list[str] | None  # only in the owner's own view
    hand_count: int
    keepers: list[str]
    creepers: list[str]
    limbo: list[str] | None
    limbo_count: int
    dreams: list[str] | None
    dreams_count: int
    doom: int


class FlxView(BaseModel):
    game: str
    viewer: str | None
    current_seat: str
    phase: str
    turn: int
    basic_rules: str
    meta_rule: str | None
    rules: list[str]
    goals: list[str]
    deck_count: int
    discard: list[str]
    attached: dict[str, str]
    hidden: str | None
    drawn: int
    draw_target: int
    played: int
    play_target: int | str
    hand_limit: int | None
    keeper_limit: int | None
    table_doom: int
    chain: list[dict[str, Any]]
    players: list[PlayerView]
    pending: list[Prompt]
    result: GameResult | None


def build_view(state: FlxState, seat: str | None, pending: list[Prompt], result: GameResult | None) -> FlxView:
    """The view of ``state`` for ``seat`` (None: the public one). Built without validation (``fastmodel``):
    every part is made here, fresh, from the engine's own valid state, and the bot builds a view for every
    message after a move."""
    players = [
        _player({
            "seat": p.seat,
            "hand": list(p.hand) if p.seat == seat else None,
            "hand_count": len(p.hand),
            "keepers": list(p.keepers),
            "creepers": list(p.creepers),
            "limbo": list(p.limbo) if p.seat == seat else None,
            "limbo_count": len(p.limbo),
            "dreams": list(p.dreams) if p.seat == seat else None,
            "dreams_count": len(p.dreams),
            "doom": own_doom(state, p),
        })
        for p in state.players
    ]
    hl = rule_value(state, "hand_limit")
    kl = rule_value(state, "keeper_limit")
    return _view({
        "game": state.game,
        "viewer": seat,
        "current_seat": state.players[state.current].seat,
        "phase": state.phase,
        "turn": state.turn,
        "basic_rules": "basic_rules",
        "meta_rule": "cult_clash" if state.options.meta_rule else None,
        "rules": list(state.rules),
        "goals": list(state.goals),
        "deck_count": len(state.deck),
        "discard": list(state.discard),
        "attached": dict(state.attached),
        "hidden": state.hidden,
        "drawn": state.drawn,
        "draw_target": draw_target(state, state.current),
        "played": state.played,
        "play_target": play_target(state),
        "hand_limit": int(hl) if hl is not None else None,
        "keeper_limit": int(kl) if kl is not None else None,
        "table_doom": table_doom(state),
        "chain": [dict(x) for x in state.chain],
        "players": players,
        "pending": list(pending),
        "result": result,
    })


_view = builder(FlxView)
_player = builder(PlayerView)

"""What the outside may see: everything public, plus a seat's own face-down Elder Sign values."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from rules.core import Prompt
from rules.core.fastmodel import builder
from rules.cthulhu_wars_duel.factions import FACTIONS, SPELLBOOKS
from rules.cthulhu_wars_duel.maps import load


class PlayerView(BaseModel):
    seat: str
    faction: str
    power: int
    doom: int
    spellbooks: list[str]
    spellbook_pool: list[str]
    requirements_met: list[str]
    elder_signs: int  # how many face-down signs (public)
    elder_sign_values: list[int] | None = None  # only in the owner's own view
    hibernating: bool
    start_area: str | None
    captives: dict[str, int]


class CwdView(BaseModel):
    viewer: str | None
    map: str
    phase: str
    round: int
    first_player: str
    turn: str
    decay: int
    ritual_track: list[int]
    ritual_position: int
    ritual_end: bool
    elder_signs_in_bag: int
    players: list[PlayerView]
    units: dict[str, dict[str, dict[str, int]]]  # seat -> area -> kind -> count
    gates: dict[str, str | None]  # area -> controlling seat or None (abandoned)
    towers: list[str]
    ice_age: str | None
    ancient_sorcery: int
    cursed_slumber: bool
    battle: dict[str, Any] | None
    pending: list[Prompt]
    result: dict[str, Any] | None
    map_reconstructed: bool = False  # the Extinction layout is this project's reconstruction: say so
    move: dict[str, Any] | None = None  # an open Move: who, Ice Age paid yet, Ithaqua's last step (prices steps)


def build_view(s: Any, seat: str | None, pending: list[Prompt]) -> CwdView:
    """The view of ``s`` for ``seat`` (None: the public one). Built without validation (``fastmodel``): every
    part is made here from the engine's own valid state, and the bot builds a view for every message after a
    move (validating them cost about a third of building one)."""
    players = []
    for i, pl in enumerate(s.players):
        players.append(_player({
            "seat": s.seats[i], "faction": FACTIONS[i], "power": pl["power"], "doom": pl["doom"],
            "spellbooks": list(pl["books"]), "spellbook_pool": [b for b in SPELLBOOKS[i] if b not in pl["books"]],
            "requirements_met": list(pl["reqs"]), "elder_signs": len(pl["signs"]),
            "elder_sign_values": sorted(pl["signs"]) if seat == s.seats[i] else None,
            "hibernating": pl["hibernating"], "start_area": pl["start"], "captives": dict(s.captives[i]),
        }))
    battle = None
    if s.battle is not None:
        b = s.battle
        battle = {"area": b["area"], "attacker": s.seats[b["att"]], "defender": s.seats[b["dfn"]],
                  "dice": {s.seats[i]: b["dice"][i] for i in (0, 1)}, "demand_sacrifice": b["ds"]}
    return _view({
        "viewer": seat, "map": s.map, "phase": s.phase, "round": s.round, "first_player": s.seats[s.first],
        "turn": s.seats[s.turn], "decay": s.decay, "ritual_track": list(s.ritual_track),
        "ritual_position": s.ritual, "ritual_end": s.ritual >= len(s.ritual_track),
        "elder_signs_in_bag": sum(s.bag), "players": players,
        "units": {s.seats[i]: {a: dict(k) for a, k in s.units[i].items()} for i in (0, 1)},
        "gates": {a: (s.seats[c] if c >= 0 else None) for a, c in s.gates.items()}, "towers": list(s.towers),
        "ice_age": s.ice, "ancient_sorcery": s.sorcery, "cursed_slumber": s.slumber, "battle": battle,
        "pending": list(pending), "result": dict(s.outcome) if s.outcome else None,
        "map_reconstructed": load(s.map).reconstructed,
        "move": ({"seat": s.seats[s.move["p"]], "iced": s.move["iced"], "ith": s.move["ith"]}
                 if s.move is not None else None),
    })


_view = builder(CwdView)
_player = builder(PlayerView)

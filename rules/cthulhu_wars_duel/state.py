"""The whole game as JSON-shaped data; ``clone`` copies exactly what an action may change."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from rules.core import Decision, Rng
from rules.core.fastmodel import build


class CwdState(BaseModel):
    seats: list[str]  # seats[0] plays the Sleeper, seats[1] the Windwalker
    map: str
    ritual_track: list[int]
    rng: Rng
    phase: str  # setup | action | doom | over
    round: int = 1
    first: int = 0
    turn: int = 0
    acted: bool = False
    decay: int = 0
    ritual: int = 0  # index on ritual_track; len(ritual_track) is END
    bag: list[int] = Field(default_factory=lambda: [6, 4, 2])
    players: list[dict[str, Any]]
    units: list[dict[str, dict[str, int]]]
    captives: list[dict[str, int]]  # opponent units held on player i's faction card
    sorcery: int = 0  # Serpent Men on the Windwalker card (Ancient Sorcery)
    slumber: bool = False  # Cursed Slumber: a Gate and its Acolyte on the Sleeper card
    gates: dict[str, int] = Field(default_factory=dict)  # area -> controller (0/1) or -1 abandoned
    towers: list[str] = Field(default_factory=list)
    towers_started: bool = False
    ice: str | None = None
    battled: list[str] = Field(default_factory=list)
    toggled: list[str] = Field(default_factory=list)
    end_pending: bool = False
    stack: list[Decision] = Field(default_factory=list)
    battle: dict[str, Any] | None = None
    move: dict[str, Any] | None = None
    deferred: list[list[Any]] = Field(default_factory=list)
    outcome: dict[str, Any] | None = None

    def clone(self) -> CwdState:
        d = dict(self.__dict__)
        d["rng"] = self.rng.clone()
        d["bag"] = list(self.bag)
        d["players"] = [_copy(p) for p in self.players]
        d["units"] = [{a: dict(k) for a, k in u.items()} for u in self.units]
        d["captives"] = [dict(c) for c in self.captives]
        d["gates"] = dict(self.gates)
        d["towers"] = list(self.towers)
        d["battled"] = list(self.battled)
        d["toggled"] = list(self.toggled)
        d["stack"] = [f.clone() for f in self.stack]
        d["battle"] = _copy(self.battle) if self.battle is not None else None
        d["move"] = _copy(self.move) if self.move is not None else None
        d["deferred"] = [list(x) for x in self.deferred]
        d["ritual_track"] = list(self.ritual_track)
        d["seats"] = list(self.seats)
        return build(CwdState, d)


def _copy(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_copy(x) for x in v]
    return v

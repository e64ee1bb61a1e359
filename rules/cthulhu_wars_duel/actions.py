"""Actions: one tagged union. Most battle and bookkeeping answers share ``decide``."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from rules.core.fastmodel import builder


class _A(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    type: str  # every action narrows this to its own literal tag, the union's discriminator


_T = TypeVar("_T", bound=_A)


class Recruit(_A):
    type: Literal["recruit"] = "recruit"
    area: str


class Summon(_A):
    type: Literal["summon"] = "summon"
    kind: str
    area: str


class Awaken(_A):
    type: Literal["awaken"] = "awaken"
    kind: str
    area: str


class BuildGate(_A):
    type: Literal["build_gate"] = "build_gate"
    area: str


class Move(_A):
    type: Literal["move"] = "move"


class MoveUnit(_A):
    type: Literal["move_unit"] = "move_unit"
    kind: str
    src: str
    dst: str


class EndMove(_A):
    type: Literal["end_move"] = "end_move"


class CancelMove(_A):
    """Back out of a Move before finishing it: every step is undone and its Power refunded."""

    type: Literal["cancel_move"] = "cancel_move"


class Battle(_A):
    type: Literal["battle"] = "battle"
    area: str


class Capture(_A):
    type: Literal["capture"] = "capture"
    area: str


class Pass(_A):
    type: Literal["pass"] = "pass"


class Unique(_A):
    """Faction and spellbook actions: lethargy, hibernate, ancient_sorcery, capture_monster,
    cursed_slumber, slumber_return, ice_age; ``area`` where the ability needs one."""

    type: Literal["unique"] = "unique"
    ability: str
    area: str | None = None


class SpendRequirement(_A):
    type: Literal["spend_requirement"] = "spend_requirement"
    requirement: str


class ControlGate(_A):
    type: Literal["control_gate"] = "control_gate"
    area: str


class AbandonGate(_A):
    type: Literal["abandon_gate"] = "abandon_gate"
    area: str


class EndTurn(_A):
    type: Literal["end_turn"] = "end_turn"


class Reveal(_A):
    type: Literal["reveal"] = "reveal"
    value: int


class TakeAnyTimeBook(_A):
    type: Literal["take_any_time_book"] = "take_any_time_book"


class Ritual(_A):
    type: Literal["ritual"] = "ritual"


class DoomDone(_A):
    type: Literal["doom_done"] = "doom_done"


class Decide(_A):
    """The answer to an open decision frame: ``choice`` (a unit kind, a book, yes/no …) and an area."""

    type: Literal["decide"] = "decide"
    choice: str
    area: str | None = None


class Concede(_A):
    """Leaving the game for good (its player left, was voted out or timed out): the other player wins at
    once. Never offered among the legal actions; the bot sends it (bot ruling, the rules say nothing)."""

    type: Literal["concede"] = "concede"


CwdAction = Annotated[
    Recruit | Summon | Awaken | BuildGate | Move | MoveUnit | EndMove | CancelMove | Battle | Capture | Pass
    | Unique | SpendRequirement | ControlGate | AbandonGate | EndTurn | Reveal | TakeAnyTimeBook | Ritual | DoomDone
    | Decide | Concede,
    Field(discriminator="type"),
]
ACTION_TYPES = {
    c.model_fields["type"].default: c
    for c in (Recruit, Summon, Awaken, BuildGate, Move, MoveUnit, EndMove, CancelMove, Battle, Capture, Pass, Unique,
              SpendRequirement, ControlGate, AbandonGate, EndTurn, Reveal, TakeAnyTimeBook, Ritual, DoomDone, Decide,
              Concede)
}


@cache
def _maker(cls: type[_T]) -> tuple[str, tuple[tuple[str, object], ...], Callable[[dict[str, Any]], _T]]:
    """Per action class, once: its type tag, its other fields with their defaults, and a fast builder."""
    fields = tuple((name, f.default) for name, f in cls.model_fields.items() if name != "type")
    return cls.model_fields["type"].default, fields, builder(cls)


def mk(cls: type[_T], **fields: object) -> _T:
    """A trusted action built without validation (legal_actions builds many)."""
    tag, defaults, make = _maker(cls)
    full: dict[str, Any] = {"type": tag}
    for name, default in defaults:
        full[name] = fields.get(name, default)
    return make(full)

"""The whole game as JSON-shaped data.

Hidden from every view: deck orders (``decks``, ``mythos_deck``, ``mystery_deck``), the gate stack, the
clue pool, the monster cup and which copy of a spell or condition an investigator holds (the copy decides
its hidden back). ``work`` is the effect machine's stack of frames (see machine.py); ``stack`` the pending
decisions.
"""

from __future__ import annotations

from collections.abc import Callable
from types import UnionType
from typing import Any, get_args, get_origin

from pydantic import BaseModel, Field

from rules.core import Decision, Rng
from rules.core.fastmodel import builder


class EhState(BaseModel):
    seats: list[str]
    ancient_one: str
    difficulty: str
    rng: Rng
    phase: str = "action"  # action | encounter | mythos | over
    round: int = 1
    lead: int = 0
    turn: int = 0
    investigators: list[dict[str, Any]]
    picking: list[int] = Field(default_factory=list)  # setup step 3: slots whose player has yet to pick, in turn
    unused: list[str] = Field(default_factory=list)  # investigators never taken
    doom: int = 0
    omen: int = 0
    omen_eldritch: int = 0  # Eldritch tokens on the green omen space (Azathoth)
    awakened: bool = False
    gate_stack: list[str] = Field(default_factory=list)
    gates: list[str] = Field(default_factory=list)
    gate_discard: list[str] = Field(default_factory=list)
    cup: list[int] = Field(default_factory=list)
    monsters: list[dict[str, Any]] = Field(default_factory=list)  # {id, space, damage}
    set_aside: list[int] = Field(default_factory=list)
    box: list[int] = Field(default_factory=list)  # epic monsters out of play
    clue_pool: list[str] = Field(default_factory=list)
    clues: list[str] = Field(default_factory=list)  # spaces holding a clue token
    decks: dict[str, list[str]] = Field(default_factory=dict)
    discards: dict[str, list[str]] = Field(default_factory=dict)
    reserve: list[str] = Field(default_factory=list)
    mythos_deck: list[str] = Field(default_factory=list)
    in_play: list[dict[str, Any]] = Field(default_factory=list)  # ongoing/rumor mythos: {id, eldritch, health}
    mythos_discard: list[str] = Field(default_factory=list)
    rumors: dict[str, str] = Field(default_factory=dict)  # space -> rumor card id
    expedition: str | None = None
    mystery_deck: list[str] = Field(default_factory=list)
    mystery: dict[str, Any] | None = None  # {name, tokens, space}
    solved: list[str] = Field(default_factory=list)
    final: dict[str, Any] | None = None  # the awakened Ancient One's final mystery {name, tokens, solved}
    space_eldritch: dict[str, int] = Field(default_factory=dict)
    corpses: list[dict[str, Any]] = Field(default_factory=list)
    combat: dict[str, Any] | None = None
    shield: dict[str, int] = Field(default_factory=dict)  # loss a passed Flesh Ward / Instill Bravery will stop
    test: dict[str, Any] | None = None
    work: list[dict[str, Any]] = Field(default_factory=list)
    stack: list[Decision] = Field(default_factory=list)
    outcome: dict[str, Any] | None = None

    def clone(self) -> EhState:
        """A deep copy for ``apply`` to work on. Each field is copied as its annotation allows (see
        ``_COPIERS``): the decks and other lists of card ids, numbers and names are copied at C speed without
        looking at their hundreds of immutable elements; only the nested fields go through ``_copy``."""
        d = self.__dict__.copy()  # the immutable fields are shared
        for k, f in _COPIERS:
            d[k] = f(d[k])
        d["stack"] = [_decision({"kind": f.kind, "seats": list(f.seats), "params": _copy(f.params)})
                      for f in self.stack]
        return _state(d)


def _copy(v: Any) -> Any:
    # Only dicts and lists are copied; the test is made before the call, as most values are strings and
    # numbers and a call per element cost more than the copy.
    if isinstance(v, dict):
        return {k: _copy(x) if isinstance(x, _NESTED) else x for k, x in v.items()}
    if isinstance(v, list):
        return [_copy(x) if isinstance(x, _NESTED) else x for x in v]
    return v


_NESTED = (dict, list)
_IMMUTABLE = (str, int, bool, type(None))


def _same(v: Any) -> Any:
    return v


def _rng(rng: Rng) -> Rng:
    # Rng.clone, without build's general path; a subclass (the tests' rigged dice) keeps its own fields
    # through pydantic's copy.
    return _new_rng({"state": rng.state}) if type(rng) is Rng else rng.model_copy(deep=True)


def _flat_lists(v: dict[str, list[Any]]) -> dict[str, list[Any]]:
    return {k: x[:] for k, x in v.items()}


_FLAT_ENTRIES = ("improve", "clues", "tickets", "assets", "artifacts", "spells", "conditions", "acted", "used")
"""An investigator's entries whose lists and dicts hold only card ids, option keys and counts."""
_SCALAR_ENTRIES = ("name", "seat", "space", "health", "sanity", "delayed", "status", "done", "extra",
                   "no_extra_encounter", "ignore_monsters")
"""An investigator's entries holding a string, number or flag."""
_ENTRIES = frozenset(_FLAT_ENTRIES + _SCALAR_ENTRIES)
"""Every entry of an investigator as ``people.new_investigator`` makes one."""


def _investigators(invs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # A recursive copy of the investigators was the dearest part of a clone (two Python calls per list): an
    # investigator of the known shape has its lists and dicts copied flat, anything else is copied deep.
    out = []
    for inv in invs:
        if inv.keys() == _ENTRIES:
            twin = inv.copy()
            for k in _FLAT_ENTRIES:
                twin[k] = inv[k].copy()
            out.append(twin)
        else:
            out.append(_copy(inv))
    return out


def _rows(keys: frozenset[str]) -> Callable[[list[dict[str, Any]]], list[dict[str, Any]]]:
    """A copier for a list of dicts that hold a number or string under each of ``keys``: a dict with only
    those keys is copied flat, any other deep."""
    def copy(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [r.copy() if r.keys() <= keys else _copy(r) for r in rows]

    return copy


MONSTER_KEYS = frozenset({"id", "space", "damage", "ambush"})
"""A monster on the board: its token, space, damage and whether it came as an ambush (world, combat)."""
IN_PLAY_KEYS = frozenset({"id", "eldritch", "health"})
"""An ongoing or rumor Mythos card: its id and the tokens on it (mythos.ensure_in_play)."""

_BY_NAME: dict[str, Callable[[Any], Any]] = {
    "investigators": _investigators, "monsters": _rows(MONSTER_KEYS), "in_play": _rows(IN_PLAY_KEYS)}
"""Fields whose annotation does not say enough (``dict[str, Any]``) but whose shape is known."""


def _copier(annotation: Any) -> Callable[[Any], Any]:
    """How to copy a field of this annotation: shared when immutable, a shallow copy when a list or dict of
    immutable values (no element can be changed in place), a list-by-key copy for ``dict[str, list[...]]``
    of immutable values, ``_rng`` for the generator, else the recursive ``_copy``."""
    if annotation is Rng:
        return _rng
    if _immutable(annotation):
        return _same
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is list and _immutable(args[0]):
        return list.copy
    if origin is dict and _immutable(args[1]):
        return dict.copy
    if origin is dict and get_origin(args[1]) is list and _immutable(get_args(args[1])[0]):
        return _flat_lists
    return _copy


def _immutable(annotation: Any) -> bool:
    if isinstance(annotation, UnionType):
        return all(_immutable(a) for a in get_args(annotation))
    return annotation in _IMMUTABLE


_COPIERS: tuple[tuple[str, Callable[[Any], Any]], ...] = tuple(
    (name, copier) for name, field in EhState.model_fields.items()
    if name != "stack" and (copier := _BY_NAME.get(name) or _copier(field.annotation)) is not _same)
"""Every field that needs a copy but ``stack`` (its Decisions are rebuilt in ``clone``) with its copier,
worked out once."""

_state = builder(EhState)
_decision = builder(Decision)
_new_rng = builder(Rng)

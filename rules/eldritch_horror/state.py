"""The whole game as JSON-shaped data.

Hidden from every view: deck orders (``decks``, ``mythos_deck``, ``mystery_deck``), the gate stack, the
clue pool, the monster cup and which copy of a spell or condition an investigator holds (the copy decides
its hidden back). ``work`` is the effect machine's stack of frames (see machine.py); ``stack`` the pending
decisions.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from rules.core import Decision, Rng
from rules.core.fastmodel import build


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
        """A deep copy for ``apply`` to work on (a plain recursive copy: several times faster than deepcopy)."""
        d = {k: _copy(v) for k, v in self.__dict__.items()}
        d["rng"] = self.rng.model_copy(deep=True)
        d["stack"] = [build(Decision, {"kind": f.kind, "seats": list(f.seats), "params": _copy(f.params)})
                      for f in self.stack]
        return build(EhState, d)


def _copy(v: Any) -> Any:
    # Only dicts and lists are copied; the test is made before the call, as most values are strings and
    # numbers (the decks alone hold hundreds of card ids) and a call per element cost more than the copy.
    if isinstance(v, dict):
        return {k: _copy(x) if isinstance(x, _NESTED) else x for k, x in v.items()}
    if isinstance(v, list):
        return [_copy(x) if isinstance(x, _NESTED) else x for x in v]
    return v


_NESTED = (dict, list)

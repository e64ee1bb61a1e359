"""Shared helpers: a game in a known position, rigged dice, resolving effect data directly."""

from __future__ import annotations

from typing import Any

from rules.core import Rng
from rules.eldritch_horror.actions import Choose
from rules.eldritch_horror.data import load
from rules.eldritch_horror.events import EhEvent
from rules.eldritch_horror.machine import push, run
from rules.eldritch_horror.spec import SPEC
from rules.eldritch_horror.state import EhState

ENGINE = SPEC.engine
C = load()


def game(ao: str = "Azathoth", seats: tuple[str, ...] = ("s1",), names: tuple[str, ...] = ("Lily Chen",),
         seed: int = 1, **opts: Any) -> EhState:
    return ENGINE.new_game(list(seats), {"ancient_one": ao, "chosen": names, "investigators": len(names), **opts}, seed)


def quiet(state: EhState) -> EhState:
    """The same game with an empty board: no gates, monsters, clues, rumors or pending question."""
    state.stack.clear()
    state.work.clear()
    state.cup += [m["id"] for m in state.monsters if m["id"] < 100]
    state.box += [m["id"] for m in state.monsters if m["id"] >= 100]
    state.monsters = []
    state.gate_discard += state.gates
    state.gates = []
    state.clue_pool += state.clues
    state.clues = []
    return state


class Rigged(Rng):
    """A generator whose next die rolls are given; shuffles and draws stay seeded."""

    queue: list[int]

    def die(self, sides: int = 6) -> int:
        return self.queue.pop(0) if self.queue else super().die(sides)


def rig(state: EhState, dice: list[int]) -> None:
    """The next ``len(dice)`` die rolls are ``dice``."""
    state.rng = Rigged(state=state.rng.state, queue=list(dice))


def resolve(state: EhState, ops: list[dict[str, Any]], inv: int | None = 0, **ctx: Any) -> list[EhEvent]:
    """Run effect data for investigator ``inv`` until the next decision."""
    events: list[EhEvent] = []
    state.stack.clear()  # drop the question the phase was waiting on; it is asked again afterwards
    push(state, ops, {"inv": inv, "bound": inv, **ctx})
    run(state, events)
    return events


def choose(state: EhState, option: str, seat: str | None = None) -> tuple[EhState, list[EhEvent]]:
    seat = seat or state.stack[-1].seats[0]
    return ENGINE.apply(state, seat, Choose(option=option))


def options(state: EhState) -> list[str]:
    return list(state.stack[-1].params["options"]) if state.stack else []


def kind(state: EhState) -> str | None:
    return state.stack[-1].kind if state.stack else None


def place(state: EhState, name: str, space: str, damage: int = 0) -> int:
    """Put a monster token of kind ``name`` from the cup (or the box, for an epic) onto ``space``."""
    from rules.eldritch_horror.world import TOKENS

    for pile in (state.cup, state.set_aside, state.box):
        for mid in pile:
            if TOKENS[mid] == name:
                pile.remove(mid)
                state.monsters.append({"id": mid, "space": space, "damage": damage})
                return mid
    raise AssertionError(f"no {name} token free")

"""The effect machine: one interpreter for every card, sheet and phase step.

Cards are data: lists of ops (``{"op": "lose_sanity", "n": 2}``). The machine keeps a stack of frames in
the state (``state.work``); each frame is a list of ops still to resolve plus a context (``inv`` the
investigator it concerns, ``monster``, ``card``, ``space``, ``successes`` of the last test ...). ``run``
pops ops until one needs a player's answer: the op then pushes a :class:`Decision` whose options are
plain keys, and ``resume`` continues from the answer. Everything lives in the state, so a game can be
saved between any two decisions and replayed exactly.

A frame whose context has ``bound`` belongs to that investigator's current encounter or action: if the
investigator is defeated, those frames are dropped (digest §11.13) while the rest of the round goes on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core import Decision
from rules.core.fastmodel import builder
from rules.eldritch_horror.events import EhEvent
from rules.eldritch_horror.state import EhState

Ctx = dict[str, Any]
Op = dict[str, Any]
Events = list[EhEvent]
Handler = Callable[[EhState, Ctx, Op, Events], None]
Resume = Callable[[EhState, Decision, str, Events], None]

_event = builder(EhEvent)
_decision = builder(Decision)
"""Events and decisions are made here from the machine's own values: built without pydantic's validation,
which cost more than the rest of making one (a move makes a handful of each)."""

OPS: dict[str, Handler] = {}
RESUME: dict[str, Resume] = {}
PHASE_STEP: dict[str, Callable[[EhState, Events], None]] = {}


def op(*names: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for name in names:
            OPS[name] = fn
        return fn

    return register


def resume(kind: str) -> Callable[[Resume], Resume]:
    def register(fn: Resume) -> Resume:
        RESUME[kind] = fn
        return fn

    return register


def ev(events: Events, kind: str, /, **data: Any) -> None:
    events.append(_event({"type": kind, "audience": None, "data": data}))


def push(state: EhState, ops: list[Op], ctx: Ctx) -> None:
    """Resolve ``ops`` next, before anything already waiting."""
    if ops:
        state.work.append({"ops": [dict(o) for o in ops], "ctx": dict(ctx)})


def ask(state: EhState, kind: str, inv: int | None, options: list[str], **params: Any) -> None:
    """Wait for the seat owning ``inv`` (the lead's seat when ``inv`` is None) to pick one of ``options``."""
    if state.phase == "over":  # nothing is asked once the game has ended
        return
    who = inv if inv is not None else state.lead
    seat = state.investigators[who]["seat"]
    state.stack.append(_decision({"kind": kind, "seats": [seat], "params": {"inv": who, "options": options, **params}}))


def redo(state: EhState, op_: Op, choice: str) -> None:
    """Re-run ``op_`` with the player's ``choice`` filled in, in the frame it came from.

    An op that asks pushes no frame first, so while the question waits the top frame is still the one the
    op was popped from, with the op's context and whatever followed it.
    """
    state.work[-1]["ops"].insert(0, {**op_, "choice": choice})


def pick(state: EhState, ctx: Ctx, op_: Op, candidates: list[str], kind: str = "target", inv: int | None = None,
         **shown: Any) -> str | None:
    """The chosen candidate: given in ``op_['choice']``, the only one, or asked for (None: wait); ``shown``
    goes with the question (public words for what it is about)."""
    if "choice" in op_:
        return str(op_["choice"])
    if not candidates:
        return None
    if len(candidates) == 1:
        return candidates[0]
    who = inv if inv is not None else ctx.get("inv")
    ask(state, kind, who, candidates, op=op_, **shown)
    return None


def _resume_target(state: EhState, frame: Decision, choice: str, events: Events) -> None:
    redo(state, frame.params["op"], choice)


for _kind in ("target", "choose", "optional", "buy", "fight"):
    RESUME[_kind] = _resume_target


def drop_bound(state: EhState, inv: int) -> None:
    state.work = [f for f in state.work if f["ctx"].get("bound") != inv]
    if state.test is not None and state.test["ctx"].get("bound") == inv:
        state.test = None
    if state.combat is not None and state.combat["inv"] == inv:
        state.combat = None


def run(state: EhState, events: Events) -> None:
    """Resolve ops and phase steps until a decision is pending or the game is over."""
    guard = 0
    while state.phase != "over" and not state.stack:
        guard += 1
        if guard > 100_000:
            raise RuntimeError("effect machine did not settle")
        if state.work:
            frame = state.work[-1]
            if not frame["ops"]:
                state.work.pop()
                continue
            current = frame["ops"].pop(0)
            handler = OPS.get(current["op"])
            if handler is None:
                ev(events, "unsupported_effect", op=current["op"])
                continue
            handler(state, frame["ctx"], current, events)
        else:
            PHASE_STEP[state.phase](state, events)


def abort(state: EhState) -> None:
    """Skip the rest of the running op's frame (an unpaid cost stops what it would have bought).

    Only valid before the op pushes anything: the running op's frame is then the top one.
    """
    if state.work:
        state.work[-1]["ops"].clear()

"""Eldritch Horror as pure functions over :class:`EhState` (rules ids EH-Rnn: shared/games/eldritch_horror/digest.md).

``apply`` answers the decision on top of the stack with one of its offered options, on a deep copy, then runs
the effect machine until the next decision: a refused action never changes the caller's state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from rules.core import Engine, Event, GameResult, Prompt, Rng, RuleError
from rules.core import errors as E
from rules.core.fastmodel import builder
from rules.eldritch_horror import (  # noqa: F401 (ops)
    combat,
    dice,
    effects,
    holdings,
    mythos,
    people,
    phases,
    progress,
    sheets,
    tokens,
    world,
)
from rules.eldritch_horror.actions import Choose, EhAction, Leave
from rules.eldritch_horror.determinize import determinize
from rules.eldritch_horror.events import EhEvent
from rules.eldritch_horror.machine import RESUME, ev, run
from rules.eldritch_horror.options import EhOptions
from rules.eldritch_horror.setup import new_state
from rules.eldritch_horror.state import EhState
from rules.eldritch_horror.views import EhView, build_view, for_seat
from rules.eldritch_horror.world import finish

_ADAPTER: TypeAdapter[Any] = TypeAdapter(EhAction)
_choose = builder(Choose)
_prompt = builder(Prompt)
"""Prompts and legal actions are made from the engine's own decisions (option keys are short, non-empty
strings: the property tests validate every one): built without pydantic's validation, as the bot asks
for both after every move."""
_PUBLIC = ("dice", "skill", "partner", "effect")  # "effect": what an optional effect would do (public)


class EldritchHorrorEngine(Engine[EhState]):
    def new_game(
        self, seats: Sequence[str], options: BaseModel | dict[str, Any] | None = None, seed: int = 0
    ) -> EhState:
        if isinstance(options, EhOptions):
            opts = options
        elif isinstance(options, BaseModel):
            opts = EhOptions.model_validate(options.model_dump())
        else:
            opts = EhOptions.model_validate(options or {})
        state, events = new_state(seats, opts, seed)
        run(state, events)
        return state

    def pending(self, state: EhState) -> list[Prompt]:
        if state.phase == "over" or not state.stack:
            return []
        top = state.stack[-1]
        inv = state.investigators[top.params["inv"]]
        if top.kind == "pick_investigator":  # nobody to name yet: the slot is what is being chosen
            return [_prompt({"seat": s, "kind": top.kind, "params": {"options": list(top.params["options"])}})
                    for s in top.seats]
        params = {"investigator": inv["name"], "options": list(top.params["options"])}
        params |= {k: top.params[k] for k in _PUBLIC if k in top.params}
        if isinstance(params.get("partner"), int):  # the other investigator, by name as in every other param
            params["partner"] = state.investigators[params["partner"]]["name"]
        return [_prompt({"seat": s, "kind": top.kind, "params": dict(params)}) for s in top.seats]

    def legal_actions(self, state: EhState, seat: str) -> list[BaseModel]:
        if state.phase == "over" or not state.stack or seat not in state.stack[-1].seats:
            return []
        return [_choose({"type": "choose", "option": o}) for o in state.stack[-1].params["options"]]

    def apply(self, state: EhState, seat: str, action: BaseModel | dict[str, Any]) -> tuple[EhState, list[Event]]:
        # The engine contract promises list[Event]; lists are invariant, so the game's own EhEvent list is
        # handed over as a new list of the base type (a few items: nothing next to the move itself).
        if state.phase == "over":
            raise RuleError(E.GAME_OVER)
        if seat not in state.seats:
            raise RuleError(E.UNKNOWN_SEAT, seat=seat)
        act = _parse(action)
        if isinstance(act, Leave):
            s, left = _leave(state, seat)
            return s, [*left]
        top = state.stack[-1] if state.stack else None
        if top is None or seat not in top.seats:
            raise RuleError(E.NOT_YOUR_TURN)
        if act.option not in top.params["options"]:
            raise RuleError("eh.bad_option", option=act.option, kind=top.kind)
        s = state.clone()
        events: list[EhEvent] = []
        frame = s.stack.pop()
        RESUME[frame.kind](s, frame, act.option, events)
        run(s, events)
        return s, [*events]

    revealing_events = frozenset({"gates_seen", "flipped"})  # gates shown with a question; a hidden back

    def hidden_piles(self, state: EhState) -> tuple[Any, ...]:
        """Every face-down deck, the gate stack, the monster cup and the clue pool (the game has no hands, so
        whatever is hidden is hidden from everybody there), and the spells and conditions put back: which
        copy a card was, and so its hidden back, counts once it leaves an investigator."""
        returned = (state.discards.get("spells"), state.discards.get("conditions"))
        return (state.decks, state.mythos_deck, state.mystery_deck, state.gate_stack, state.cup, state.clue_pool,
                returned)

    def determinize(self, state: EhState, seat: str, rng: Rng) -> EhState:
        return determinize(state, seat, rng)

    def forfeit(self, state: EhState, seat: str, place: int) -> BaseModel | None:
        """The investigators play on without a player who leaves (see ``_leave``), so the seat goes for good."""
        return Leave(place=place)

    _last_view: tuple[EhState, EhView] | None = None

    def view(self, state: EhState, seat: str | None) -> EhView:
        """Every seat sees the same view but for ``viewer``, and a state is never changed in place (``apply``
        works on a clone), so the last state's view is kept and readdressed: the bot asks for the table's
        view and each player's of every new state, and building one is most of the work. The next state's
        view takes over what is unchanged from it."""
        last = self._last_view
        if last is not None and last[0] is state:
            return last[1] if last[1].viewer == seat else for_seat(last[1], seat)
        view = build_view(state, seat, self.pending(state), last)
        self._last_view = (state, view)
        return view

    def result(self, state: EhState) -> GameResult | None:
        if state.phase != "over" or state.outcome is None:
            return None
        won = bool(state.outcome["won"])
        return GameResult(ranking=[list(state.seats)], reason=state.outcome["reason"],
                          winners=list(state.seats) if won else [])


def _leave(state: EhState, seat: str) -> tuple[EhState, list[EhEvent]]:
    """Bot ruling (the rules say nothing about a player leaving): the game is co-operative, so it goes on.
    The next seat in turn order (wrapping round) takes over every investigator of the leaver and every
    decision waiting on the leaver, at any moment, and the leaver's seat is gone. The last player leaving
    abandons the game, which the investigators lose; that seat stays on record for the result."""
    s = state.clone()
    events: list[EhEvent] = []
    if len(s.seats) == 1:
        finish(s, False, "abandoned", events)
        return s, events
    heir = s.seats[(s.seats.index(seat) + 1) % len(s.seats)]
    taken = []
    for inv in s.investigators:
        if inv["seat"] == seat:
            inv["seat"] = heir
            taken.append(inv["name"])
    for frame in s.stack:  # one decision asked of both (a trade's consent) stays one question for the heir
        frame.seats = list(dict.fromkeys(heir if x == seat else x for x in frame.seats))
    s.seats.remove(seat)
    ev(events, "seat_left", seat=seat, heir=heir, investigators=taken)
    return s, events


def _parse(action: BaseModel | dict[str, Any]) -> Choose | Leave:
    if isinstance(action, (Choose, Leave)):
        return action
    if isinstance(action, BaseModel):
        raise RuleError(E.BAD_ACTION, detail=type(action).__name__)
    try:
        return _ADAPTER.validate_python(action)
    except ValidationError:
        raise RuleError(E.BAD_ACTION, detail="choose or leave") from None

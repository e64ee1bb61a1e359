"""One version of a game as the surfaces read it: the prompts, each seat's view and legal actions, and
the result, each asked of the engine once however many surfaces read them.

A click's follow-up reads the same version many times over: the service (who owes what, which seat has
a single move), the mover's answer, the other players' DMs, the table, the clock, the AI seats. The
engine's answers depend on the state alone and a state is never changed in place (``apply`` returns a
new one), so the first answer is the answer for that version; the session service keeps one glance
beside the state it caches and hands it to whoever reads that state.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from pydantic import BaseModel

from rules.core import GameResult, GameSpec, Prompt

_UNSEEN: Any = object()


class Glance:
    """The engine's answers about ``state``, each computed on first ask and kept. ``prompts``: the pending
    decisions when the caller has them already (the service computed them to look for single moves)."""

    def __init__(self, spec: GameSpec, state: BaseModel, prompts: list[Prompt] | None = None) -> None:
        self.spec = spec
        self.state = state
        self._views: dict[str | None, BaseModel] = {}
        self._legal: dict[str, list[BaseModel]] = {}
        self._result: GameResult | None = _UNSEEN
        if prompts is not None:
            self.__dict__["prompts"] = tuple(prompts)

    @cached_property
    def prompts(self) -> tuple[Prompt, ...]:
        return tuple(self.spec.engine.pending(self.state))

    @cached_property
    def owing(self) -> frozenset[str]:
        """Seats that owe a decision."""
        return frozenset(p.seat for p in self.prompts)

    def waiting(self) -> list[str]:
        """Seats that owe a decision, each once, in the order the game asks them."""
        return list(dict.fromkeys(p.seat for p in self.prompts))

    def view(self, seat: str | None) -> BaseModel:
        """``seat``'s private view, or the public one for None; a RuleError for a seat not in the game is
        raised each time (nothing is kept for it)."""
        known = self._views.get(seat)
        if known is None:
            known = self._views[seat] = self.spec.engine.view(self.state, seat)
        return known

    def legal(self, seat: str) -> list[BaseModel]:
        """``seat``'s legal actions: a list of its own, so a caller that changes it changes no one else's."""
        known = self._legal.get(seat)
        if known is None:
            known = self._legal[seat] = self.spec.engine.legal_actions(self.state, seat)
        return list(known)

    @property
    def result(self) -> GameResult | None:
        if self._result is _UNSEEN:
            self._result = self.spec.engine.result(self.state)
        return self._result

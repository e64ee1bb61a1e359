"""The whole game as one JSON-able model.

Cards are instance ids ``"<owner>:<card id>:<copy>"`` (``"0:agency-t-men:1"``); story cards are
``"s:<card id>"``. Deck tops are the last element. In-play cards (characters, supports, attachments and
conspiracies) live in ``play`` with their state; stories and conspiracies in play are listed in
``stories`` with the tokens per seat in ``tokens``.

Control flow is data: ``tasks`` is a stack of work items the engine runs until it needs an answer, which
it asks through the :class:`Decision` stack (``stack``). ``triggers`` collects what happened during an
effect, to offer responses once the effect has fully resolved (CoC-R118).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from rules.core import Decision, Rng
from rules.core.fastmodel import build
from rules.coc_lcg.options import CocOptions

Phase = Literal["setup", "refresh", "draw", "resource", "operations", "story", "end", "over"]


class Domain(BaseModel):
    resources: list[str] = Field(default_factory=list)
    drained: bool = False
    card: str | None = None  # the face-down deck card of an added domain (CoC-R131); None = a spare card


class Inst(BaseModel):
    """A card in play: characters, supports (attachments on ``host``) and conspiracies."""

    card: str
    owner: int
    ctl: int
    exhausted: bool = False
    insane: bool = False
    wounds: int = 0
    host: str | None = None  # the character or story this attachment is on
    story: str | None = None  # the story this character is committed to


class Player(BaseModel):
    seat: str
    deck_list: list[str]  # card ids of the chosen deck (public through the lobby options)
    deck: list[str] = Field(default_factory=list)
    hand: list[str] = Field(default_factory=list)
    discard: list[str] = Field(default_factory=list)
    domains: list[Domain] = Field(default_factory=list)
    won: list[str] = Field(default_factory=list)
    picks: list[str] = Field(default_factory=list)  # setup resources chosen, private until both are done
    plan: dict[str, str] = Field(default_factory=dict)  # commits chosen, private until confirmed (CoC-D3)
    peek: list[str] = Field(default_factory=list)  # cards only this player has looked at (private)


class CocState(BaseModel):
    game: Literal["coc_lcg"] = "coc_lcg"
    options: CocOptions
    rng: Rng
    players: list[Player]
    first: int = 0
    active: int = 0
    turn: int = 0
    phase: Phase = "setup"
    step: str = ""
    story_deck: list[str] = Field(default_factory=list)
    stories: list[str] = Field(default_factory=list)
    tokens: dict[str, list[int]] = Field(default_factory=dict)
    play: dict[str, Inst] = Field(default_factory=dict)
    mods: list[dict[str, Any]] = Field(default_factory=list)  # lasting effects until the phase/turn ends
    moved: list[str] = Field(default_factory=list)  # cards that went to a discard pile this phase
    resolving: list[str] = Field(default_factory=list)  # events played and not yet resolved (public)
    tasks: list[dict[str, Any]] = Field(default_factory=list)
    triggers: list[dict[str, Any]] = Field(default_factory=list)
    stack: list[Decision] = Field(default_factory=list)
    counter: int = 0  # numbers trigger occurrences (CoC-R124: each copy once per occurrence)
    winner: int | None = None
    end_reason: str | None = None

    def clone(self) -> CocState:
        """A deep copy ``apply`` may change freely, built without validation (see ``fastmodel``)."""
        d = dict(self.__dict__)
        d["rng"] = self.rng.clone()
        d["players"] = [build(Player, {**p.__dict__, "deck_list": p.deck_list, "deck": p.deck[:],
                                       "hand": p.hand[:], "discard": p.discard[:], "won": p.won[:],
                                       "picks": p.picks[:], "plan": dict(p.plan), "peek": p.peek[:],
                                       "domains": [build(Domain, {"resources": x.resources[:], "drained": x.drained,
                                                                  "card": x.card}) for x in p.domains]})
                        for p in self.players]
        d["play"] = {k: build(Inst, dict(v.__dict__)) for k, v in self.play.items()}
        for k in ("story_deck", "stories", "moved", "resolving"):
            d[k] = d[k][:]
        d["tokens"] = {k: v[:] for k, v in self.tokens.items()}
        for k in ("mods", "tasks", "triggers"):
            d[k] = _copy(d[k])
        d["stack"] = [build(Decision, {"kind": f.kind, "seats": f.seats[:], "params": _copy(f.params)})
                      for f in self.stack]
        return build(CocState, d)


def _copy(x: Any) -> Any:
    """Deep copy of JSON-shaped data (dicts, lists, scalars)."""
    if isinstance(x, dict):
        return {k: _copy(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_copy(v) for v in x]
    return x

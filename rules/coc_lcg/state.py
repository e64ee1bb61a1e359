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

from marshal import dumps, loads
from typing import Any, Literal

from pydantic import BaseModel, Field

from rules.coc_lcg.options import CocOptions
from rules.core import Decision, Rng
from rules.core.fastmodel import builder

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
        """The state ``apply`` works on, built without validation (see ``fastmodel``) and copying little.

        Players and in-play records are shared with ``self`` until changed: code that changes one asks
        for it with ``own_player`` / ``own_inst``, which copy it on the first change (copy-on-write; the
        shared originals are remembered until ``seal``). Lasting effects (``mods``), trigger records
        (``triggers``, also found as ``ev`` in tasks and prompts) and decision frames (``stack``) are
        never edited once made, only added or dropped, so they are shared too (a frame that must change
        is replaced by a copy). Tasks are edited in place, but of what they hold only an effect's
        ``vars``; every other container is copied.
        """
        d = self.__dict__.copy()
        d["rng"] = _rng({"state": self.rng.state})
        d["players"] = self.players[:]
        d["play"] = self.play.copy()
        d["story_deck"] = self.story_deck[:]
        d["stories"] = self.stories[:]
        d["moved"] = self.moved[:]
        d["resolving"] = self.resolving[:]
        d["tokens"] = {k: v[:] for k, v in self.tokens.items()}
        d["mods"] = self.mods[:]
        d["triggers"] = self.triggers[:]
        d["tasks"] = [t.copy() if "vars" not in t else {**t, "vars": _copy(t["vars"])} for t in self.tasks]
        d["stack"] = self.stack[:]
        s = _state(d)
        _set_private(s, _Shared(self.players, self.play))
        return s

    def seal(self) -> None:
        """End copy-on-write: from now on changes go straight to this state's own objects (as for a
        state built by ``new_game`` or loaded from JSON)."""
        _set_private(self, None)

    def own_player(self, p: int) -> Player:
        """Player ``p``, ready to change (see ``clone``)."""
        pl = self.players[p]
        # pydantic types this slot as a dict; clone() keeps the copy-on-write record in it instead
        shared: _Shared | None = self.__pydantic_private__  # type: ignore[assignment]
        if shared is not None and shared.players[p] is pl:
            pl = _player({**pl.__dict__, "deck": pl.deck[:], "hand": pl.hand[:], "discard": pl.discard[:],
                          "won": pl.won[:], "picks": pl.picks[:], "plan": pl.plan.copy(), "peek": pl.peek[:],
                          "domains": [_domain({"resources": x.resources[:], "drained": x.drained, "card": x.card})
                                      for x in pl.domains]})
            self.players[p] = pl
        return pl

    def own_inst(self, iid: str) -> Inst:
        """The in-play record of ``iid``, ready to change (see ``clone``)."""
        inst = self.play[iid]
        # pydantic types this slot as a dict; clone() keeps the copy-on-write record in it instead
        shared: _Shared | None = self.__pydantic_private__  # type: ignore[assignment]
        if shared is not None and shared.play.get(iid) is inst:
            inst = _inst(inst.__dict__.copy())
            self.play[iid] = inst
        return inst


class _Shared:
    """What a state being worked on still shares with the one it was cloned from."""

    __slots__ = ("play", "players")

    def __init__(self, players: list[Player], play: dict[str, Inst]) -> None:
        self.players, self.play = players, play


def _copy(x: Any) -> Any:
    """Deep copy of JSON-shaped data (dicts, lists, scalars); ``marshal`` does it in C."""
    try:
        return loads(dumps(x))
    except ValueError:  # something marshal does not know: copy it by hand
        return _copy_slow(x)


def _copy_slow(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _copy_slow(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_copy_slow(v) for v in x]
    return x


_state = builder(CocState)
_player = builder(Player)
_domain = builder(Domain)
_inst = builder(Inst)
_rng = builder(Rng)
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__

"""The whole game as one JSON-able model.

Cards are their string ids. Zones: the deck (top = last), the discard pile (top = last), the rules and
goal areas, and per player a hand, the keepers and creepers in front of them, ``limbo`` (cards drawn for
an action and not yet played, private) and ``dreams`` (cards dealt by Dreams and Omens, private, played at
the start of the owner's next turn). ``chain`` holds played cards waiting for reactions (a keeper or action
just played, an ungoal that has been met, and the surprises answering them), bottom first; it is public.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from rules.core import Decision, Rng
from rules.core.fastmodel import build
from rules.fluxx_cthulhu.options import FlxOptions

Phase = Literal["start", "play", "over"]


class PlayerState(BaseModel):
    seat: str
    hand: list[str] = Field(default_factory=list)
    keepers: list[str] = Field(default_factory=list)
    creepers: list[str] = Field(default_factory=list)
    limbo: list[str] = Field(default_factory=list)
    dreams: list[str] = Field(default_factory=list)

    def clone(self) -> PlayerState:
        d = self.__dict__
        return build(
            PlayerState,
            {
                "seat": d["seat"],
                "hand": d["hand"][:],
                "keepers": d["keepers"][:],
                "creepers": d["creepers"][:],
                "limbo": d["limbo"][:],
                "dreams": d["dreams"][:],
            },
        )


class FlxState(BaseModel):
    game: Literal["fluxx_cthulhu"] = "fluxx_cthulhu"
    options: FlxOptions
    rng: Rng
    players: list[PlayerState]
    current: int = 0
    phase: Phase = "start"
    turn: int = 1
    deck: list[str] = Field(default_factory=list)
    discard: list[str] = Field(default_factory=list)
    rules: list[str] = Field(default_factory=list)  # New Rules in play, oldest first
    goals: list[str] = Field(default_factory=list)  # goals and ungoals in play, oldest first
    attached: dict[str, str] = Field(default_factory=dict)  # attaching creeper -> keeper
    hidden: str | None = None  # the creeper tucked under the Elder Sign
    drawn: int = 0  # cards drawn this turn toward the draw rule
    played: int = 0  # plays counted this turn toward the play rule
    extra_plays: int = 0  # plays added this turn (Fear of the Unknown)
    used: list[str] = Field(default_factory=list)  # once-per-turn powers used this turn
    extra_turns: int = 0
    chain: list[dict[str, Any]] = Field(default_factory=list)
    # Actions (and on-turn surprises) being carried out, innermost last, each with the depth of the stack
    # when it started: it reaches the discard pile only once everything it set off is done (FLX-R11), so
    # its own draws can never reshuffle it back into play.
    resolving: list[tuple[str, int]] = Field(default_factory=list)
    stack: list[Decision] = Field(default_factory=list)
    winner: str | None = None
    end_reason: str | None = None

    def seat_index(self, seat: str) -> int | None:
        players = self.players
        if players[self.current].seat == seat:
            return self.current
        for i, p in enumerate(players):
            if p.seat == seat:
                return i
        return None

    def clone(self) -> FlxState:
        """A copy ``apply`` may change freely (players, zones, frames and the generator are new)."""
        d = self.__dict__.copy()
        d["rng"] = d["rng"].clone()
        d["players"] = [p.clone() for p in d["players"]]
        for k in ("deck", "discard", "rules", "goals", "used", "resolving"):
            d[k] = d[k][:]
        d["attached"] = dict(d["attached"])
        d["chain"] = [dict(x) for x in d["chain"]]
        d["stack"] = [f.clone() for f in d["stack"]]
        return build(FlxState, d)

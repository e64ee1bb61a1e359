"""Pending decisions: who must act now, and on what.

A game keeps a stack of :class:`Decision` frames in its state. The top frame is the decision the game is
waiting for; it may be owed by the player on turn, by someone else (a Fluxx surprise, an LCG response, the
victim of a Ninja figure) or by several players at once (everyone over a new hand limit). Frames pushed
while another waits (a reaction to a reaction) resolve first, which is what a stack gives for free.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from rules.core.fastmodel import build


class Decision(BaseModel):
    """One frame: ``seats`` still owe an answer; when the last one answers the frame is popped."""

    kind: str
    seats: list[str]
    params: dict[str, Any] = Field(default_factory=dict)

    def clone(self) -> Decision:
        return build(Decision, {"kind": self.kind, "seats": list(self.seats), "params": dict(self.params)})


class Prompt(BaseModel):
    """What ``pending`` reports to the outside: one seat, one kind of decision, its public parameters."""

    seat: str
    kind: str
    params: dict[str, Any] = Field(default_factory=dict)


def prompts_for(frame: Decision) -> list[Prompt]:
    return [build(Prompt, {"seat": s, "kind": frame.kind, "params": dict(frame.params)}) for s in frame.seats]


def answer(stack: list[Decision], seat: str) -> Decision | None:
    """Mark ``seat`` as having answered the top frame; return the frame if that completed it (popped)."""
    top = stack[-1]
    top.seats.remove(seat)
    if top.seats:
        return None
    return stack.pop()

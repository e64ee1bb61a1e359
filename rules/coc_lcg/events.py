"""Typed events for the game log. Card ids in public events are cards the table can see; a card only
its owner may see travels in a private event (``audience`` set)."""

from __future__ import annotations

from typing import Literal

from rules.core import Event


class TurnStarted(Event):
    type: Literal["turn_started"] = "turn_started"
    seat: str
    turn: int


class PhaseStarted(Event):
    type: Literal["phase_started"] = "phase_started"
    phase: str


class SetupDone(Event):
    type: Literal["setup_done"] = "setup_done"
    seat: str
    resources: list[str]


class Drew(Event):
    type: Literal["drew"] = "drew"
    seat: str
    count: int


class DrewCard(Event):
    type: Literal["drew_card"] = "drew_card"
    seat: str
    card: str


class Milled(Event):
    type: Literal["milled"] = "milled"
    seat: str
    card: str


class DomainDrained(Event):
    type: Literal["domain_drained"] = "domain_drained"
    seat: str
    domain: int


class DomainRefreshed(Event):
    type: Literal["domain_refreshed"] = "domain_refreshed"
    seat: str
    domain: int


class DomainAdded(Event):
    type: Literal["domain_added"] = "domain_added"
    seat: str
    domain: int


class ResourceAttached(Event):
    type: Literal["resource_attached"] = "resource_attached"
    seat: str
    card: str
    domain: int


class ResourceDiscarded(Event):
    type: Literal["resource_discarded"] = "resource_discarded"
    seat: str
    card: str


class Played(Event):
    type: Literal["played"] = "played"
    seat: str
    card: str
    domain: int | None
    paid: int


class AbilityUsed(Event):
    type: Literal["ability_used"] = "ability_used"
    seat: str
    card: str
    ability: int


class NoTarget(Event):
    """A forced effect had nothing it could choose: that part of it does nothing (said, not silent)."""

    type: Literal["no_target"] = "no_target"
    card: str


class Cancelled(Event):
    type: Literal["cancelled"] = "cancelled"
    card: str
    by: str


class Passed(Event):
    type: Literal["passed"] = "passed"
    seat: str
    step: str


class EnteredPlay(Event):
    type: Literal["entered_play"] = "entered_play"
    seat: str
    card: str
    host: str | None = None
    insane: bool = False


class LeftPlay(Event):
    type: Literal["left_play"] = "left_play"
    card: str
    how: str
    to: str


class Discarded(Event):
    type: Literal["discarded"] = "discarded"
    seat: str
    card: str


class Wounded(Event):
    type: Literal["wounded"] = "wounded"
    card: str
    wounds: int


class WentInsane(Event):
    type: Literal["went_insane"] = "went_insane"
    card: str


class Restored(Event):
    type: Literal["restored"] = "restored"
    card: str


class Readied(Event):
    type: Literal["readied"] = "readied"
    card: str


class Exhausted(Event):
    type: Literal["exhausted"] = "exhausted"
    card: str


class ReturnedToHand(Event):
    type: Literal["returned_to_hand"] = "returned_to_hand"
    card: str


class Committed(Event):
    type: Literal["committed"] = "committed"
    seat: str
    cards: dict[str, str]


class Released(Event):
    type: Literal["released"] = "released"


class StruggleResolved(Event):
    type: Literal["struggle"] = "struggle"
    story: str
    icon: str
    totals: list[int]
    winner: str | None


class SkillCheck(Event):
    type: Literal["skill_check"] = "skill_check"
    story: str
    totals: list[int]
    success: bool
    unchallenged: bool


class TokensPlaced(Event):
    type: Literal["tokens_placed"] = "tokens_placed"
    story: str
    seat: str
    count: int
    total: int


class TokensRemoved(Event):
    type: Literal["tokens_removed"] = "tokens_removed"
    story: str
    seat: str
    count: int


class StoryWon(Event):
    type: Literal["story_won"] = "story_won"
    story: str
    seat: str


class StoryReplaced(Event):
    """A new story drawn into the won one's place, once its effect is done (CoC-R87)."""

    type: Literal["story_replaced"] = "story_replaced"
    won: str
    story: str


class ControlChanged(Event):
    type: Literal["control_changed"] = "control_changed"
    card: str
    seat: str


class Looked(Event):
    """A player looked at hidden cards (private to them)."""

    type: Literal["looked"] = "looked"
    seat: str
    cards: list[str]


class Conceded(Event):
    """A player left the game for good (bot ruling; the rulebook has no concession, CoC-R139)."""

    type: Literal["conceded"] = "conceded"
    seat: str
    winner: str


class GameOver(Event):
    type: Literal["game_over"] = "game_over"
    winner: str | None
    reason: str

"""The follow-up plan of one commit, derived from its outcome alone: which live DMs notify, edit or go,
which timers are set or cancelled, how the table is edited and the channel told, which AI seat wakes.
Pure (no Discord, no storage), so what every player hears after every kind of commit is tested without
either; the cogs carry it out through their notifier.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from bot.server_settings import TableClock
from bot.table.outcome import TableOutcome

REMIND, DEADLINE = "remind", "deadline"


@dataclass(frozen=True)
class DmChange:
    """One player's live DM: ``notify`` posts it anew at the bottom (the old one deleted), which is the one
    notification Discord sounds; ``edit`` changes it in place quietly; ``final`` shows the game's end with
    no buttons."""

    player: int
    seat: str
    how: str  # "notify" | "edit"
    final: bool = False


@dataclass(frozen=True)
class TimerChange:
    kind: str
    seat: str
    hours: float = 0.0  # for a timer set; 0 for one cancelled


@dataclass(frozen=True)
class FollowUp:
    dms: tuple[DmChange, ...]
    retire: tuple[int, ...]
    """Players whose live DM goes at once: they left the game and the AI, or nobody, plays their seat on."""
    set_timers: tuple[TimerChange, ...]
    cancel_timers: tuple[TimerChange, ...]
    cancel_all_timers: bool
    wake_ai: str | None
    edit_table: bool = True
    table_at_once: bool = False
    """The table is edited before the follow-up goes on (the game's last picture, which no earlier edit
    may overtake); otherwise in the background, so the clock and the AI do not wait for a picture."""
    quiet_post: bool = False
    """The channel post of this commit (announcements) mentions nobody: the game is over, and each
    player's final DM is their one notice of the end."""
    release: bool = False
    """The game is over: everything kept in memory for it goes, once, after the rest is carried out."""


def follow_up(outcome: TableOutcome, clock: TableClock, reminded: AbstractSet[str], *,
              clicked: int | None = None, left: Mapping[str, int] | None = None) -> FollowUp:
    """The follow-up of ``outcome``. ``reminded``: seats that have a reminder or deadline set now;
    ``clicked``: the player whose click response already shows the new state (their DM needs nothing
    unless the game ended, and then no notification either: they are looking at it); ``left``: seats whose
    player left the game (or was voted out), by player, who still hear how the game ended."""
    if outcome.over:
        dms = [DmChange(player, seat, "edit" if player == clicked else "notify", final=True)
               for seat, player in sorted(outcome.humans.items())]
        playing = set(outcome.humans.values())
        dms += [DmChange(player, seat, "edit" if player == clicked else "notify", final=True)
                for seat, player in sorted((left or {}).items()) if player not in playing]
        return FollowUp(dms=tuple(dms), retire=(), set_timers=(), cancel_timers=(), cancel_all_timers=True,
                        wake_ai=None, table_at_once=True, quiet_post=True, release=True)
    owing = {s for s in outcome.owing_after if s in outcome.humans}
    dms = []
    for seat, player in sorted(outcome.humans.items()):
        if player == clicked:
            continue
        if seat in outcome.newly_owing:
            dms.append(DmChange(player, seat, "notify"))
        elif seat in outcome.owing_before or seat in owing:
            dms.append(DmChange(player, seat, "edit"))  # the decision moved on or went: buttons change
    kinds = [(REMIND, clock.remind_hours), (DEADLINE, clock.deadline_hours)]
    set_ = tuple(TimerChange(kind, seat, hours) for seat in sorted(owing - reminded)
                 for kind, hours in kinds if hours > 0)
    cancel = tuple(TimerChange(kind, seat) for seat in sorted(set(reminded) - owing)
                   for kind, hours in kinds if hours > 0)
    wake = next((s for s in sorted(outcome.owing_after) if s in outcome.ai), None)
    retire = (outcome.departed,) if outcome.departed is not None else ()
    return FollowUp(dms=tuple(dms), retire=retire, set_timers=set_, cancel_timers=cancel,
                    cancel_all_timers=False, wake_ai=wake)

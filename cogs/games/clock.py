"""The turn clock: reminders to a player the table waits for, and the idle expiry of a whole game.

Both are rows in the durable timers table (``bot.timers``), set or moved after every move: a reminder
per waiting seat (set when a decision arrives, dropped when the seat acts), one idle timer per game
(moved by every move). A timer fires for a seat that still owes a decision, however many moves it made
since the timer was set; one whose seat owes nothing any more does nothing. A deadline hands the seat to an AI player or
forfeits it, as the table chose in its lobby; after a reminder, the other players may also vote the seat
out (a majority of them), which forfeits it (``forfeits``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from pydantic import BaseModel

from bot.i18n import t
from bot.server_settings import TableClock
from bot.storage import SessionRecord, Timer
from bot.sessions import Forfeit, SessionError
from cogs.games.common import MENTIONS
from cogs.games.components import VoteButton
from cogs.games.forfeits import after_forfeit, forfeit_seat
from rules import registry
from rules.core import RuleError

if TYPE_CHECKING:
    from bot.client import GameBot

log = logging.getLogger(__name__)
REMIND, DEADLINE, IDLE = "remind", "deadline", "idle"
HOUR, DAY = 3600.0, 86400.0
IDLE_SLACK = HOUR
"""The idle timer is moved only when a move pushes it back by more than this, so a busy game does not
write a timer on every move; a game then expires between its idle days and that much later."""


def waited_text(locale: str, seconds: float) -> str:
    """A waiting time in words: minutes under an hour, hours under two days, then days."""
    if seconds < HOUR:
        return t(locale, "clock.minutes", count=max(1, round(seconds / 60)))
    if seconds < 2 * DAY:
        return t(locale, "clock.hours", count=round(seconds / HOUR))
    return t(locale, "clock.days", count=round(seconds / DAY))


class Clock:
    """Keeps each game's timers in step with its moves, writing only when something changes: a move
    that leaves the same seats waiting costs no write, and the idle timer is set once and checked against
    the game's version when it fires: one moved within the slack is looked at again a little later."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self._reminded: dict[int, set[str]] = {}  # session -> seats with a reminder set (as stored)
        self._idle_due: dict[int, float] = {}  # session -> when its idle timer is due (as stored)
        self._clocks: dict[int, TableClock] = {}
        # Sessions known to hold no vote: votes are cast through this process (the one owning the guild's
        # shard), so a move need not read the table settings to find none to clear.
        self._no_votes: set[int] = set()

    def release(self, session_id: int) -> None:
        self._reminded.pop(session_id, None)
        self._idle_due.pop(session_id, None)
        self._clocks.pop(session_id, None)
        self._no_votes.discard(session_id)

    async def table_clock(self, rec: SessionRecord) -> TableClock:
        known = self._clocks.get(rec.id)
        if known is not None and rec.status != "lobby":  # fixed once the game runs
            return known
        stored = await self.bot.store.table_settings(rec.id)
        if stored:
            clock = TableClock.model_validate(stored)
        else:
            server = await self.bot.server_settings.get(rec.guild_id)
            clock = TableClock(remind_hours=server.remind_hours)
        self._clocks[rec.id] = clock
        return clock

    async def after_move(self, rec: SessionRecord, state: BaseModel | None) -> None:
        """Set reminders for seats a decision just arrived to, drop those of seats that owe none, and
        make sure the game has its idle timer; a game that is over keeps no timer."""
        if rec.status not in ("lobby", "running"):
            await self.bot.timers.cancel(rec.id)
            self.release(rec.id)
            return
        reminded = self._reminded.get(rec.id)
        if reminded is None:
            timers = await self.bot.store.timers(rec.id)
            reminded = self._reminded[rec.id] = {tm.seat for tm in timers if tm.kind in (REMIND, DEADLINE) and tm.seat}
            idle = [tm.due_at.timestamp() for tm in timers if tm.kind == IDLE]
            self._idle_due[rec.id] = idle[0] if idle else 0.0
        server = await self.bot.server_settings.get(rec.guild_id)
        due = self.bot.timers.clock() + server.idle_days * DAY
        if due - self._idle_due.get(rec.id, 0.0) > IDLE_SLACK:
            await self.bot.timers.set(rec.id, IDLE, None, server.idle_days * DAY, rec.version)
            self._idle_due[rec.id] = due
        if rec.status != "running" or state is None:
            return
        ai = await self.bot.sessions.ai_seats(rec.id)
        owing = {p.seat for p in registry.get(rec.game_id).engine.pending(state)} - set(ai)
        gone = reminded - owing
        clock = await self.table_clock(rec)
        for seat in gone:  # the clock is fixed once the game runs: only the kinds it sets can exist
            if clock.remind_hours > 0:
                await self.bot.store.cancel_timer(rec.id, REMIND, seat)
            if clock.deadline_hours > 0:
                await self.bot.store.cancel_timer(rec.id, DEADLINE, seat)
            reminded.discard(seat)
        if gone:
            await self._clear_votes(rec.id, gone)
        for seat in owing - reminded:
            if clock.remind_hours > 0:
                await self.bot.timers.set(rec.id, REMIND, seat, clock.remind_hours * HOUR, rec.version)
            if clock.deadline_hours > 0:
                await self.bot.timers.set(rec.id, DEADLINE, seat, clock.deadline_hours * HOUR, rec.version)
            if clock.remind_hours > 0 or clock.deadline_hours > 0:
                reminded.add(seat)

    async def fire(self, timer: Timer) -> None:
        if timer.kind == REMIND:
            await self._remind(timer)
        elif timer.kind == DEADLINE:
            await self._deadline(timer)
        elif timer.kind == IDLE:
            await self._expire(timer)

    async def _still_waiting(self, timer: Timer) -> bool:
        """The seat still owes a decision and a person plays it. The clock is about a seat the table waits
        for, not about a version: a seat that made one move of its turn and stopped (drew, then never
        acted) is still owing and must be reminded; a seat that stopped owing had its timers cancelled
        by ``after_move``, so a timer that raced its click finds it owing nothing and does nothing."""
        rec, spec, state = await self.bot.sessions.load(timer.session_id)
        if rec.status != "running" or state is None or timer.seat is None:
            return False
        if timer.seat not in {p.seat for p in spec.engine.pending(state)}:
            return False
        return timer.seat not in await self.bot.sessions.ai_seats(rec.id)

    async def _deadline(self, timer: Timer) -> None:
        if not await self._still_waiting(timer):
            return
        rec, _spec, _state = await self.bot.sessions.load(timer.session_id)
        clock = await self.table_clock(rec)
        seat = timer.seat or ""
        waited = waited_text(rec.locale, clock.deadline_hours * HOUR)
        try:
            if clock.deadline_action == "forfeit":
                await forfeit_seat(self.bot, rec, seat, "deadline", waited=waited)
                return
            await self.bot.sessions.hand_to_ai(rec.id, seat)
        except (SessionError, RuleError) as exc:
            log.info("deadline of session %s seat %s: nothing done (%s)", rec.id, seat, exc)
            return
        await after_forfeit(self.bot, rec, seat, Forfeit("ai", rec), "deadline", waited=waited)

    async def vote(self, session_id: int, voter: int, seat: str) -> tuple[int, int, bool]:
        """A seated player votes to take a waiting seat out of the game (only after its reminder went out):
        (votes, needed, passed). A majority of the other human players carries it, and the seat is
        forfeited as if its player had left.

        The ballot is checked and written under the session's lock, like a move: a move cannot land
        between the check that the seat still waits and the write, so a ballot for a seat that has just
        moved is never stored (it would count in a later vote on that seat), and the read-modify-write of
        the table settings cannot undo an AI seat or another ballot written meanwhile."""
        sessions = self.bot.sessions
        async with sessions.locks.lock_for(session_id):
            rec, spec, state = await sessions.load(session_id)
            ai = await sessions.ai_seats(session_id)
            if rec.status != "running" or state is None:
                raise SessionError("not_running")
            mine = rec.seat_of(voter)
            if mine is None or mine in ai:
                raise SessionError("not_seated")
            if mine == seat:
                raise SessionError("vote_self")
            if seat not in {p.seat for p in spec.engine.pending(state)} or seat in ai:
                raise SessionError("vote_stale")
            settings = await self.bot.store.table_settings(session_id)
            votes = dict(settings.get("votes", {}))
            ballot = sorted(set(votes.get(seat, [])) | {voter})
            votes[seat] = ballot
            await self.bot.store.set_table_settings(session_id, {**settings, "votes": votes})
            self._no_votes.discard(session_id)
        others = [s for s in sessions.humans(rec, ai) if s != seat]
        needed = len(others) // 2 + 1
        if len(ballot) < needed:
            return len(ballot), needed, False
        await forfeit_seat(self.bot, rec, seat, "vote")
        return len(ballot), needed, True

    async def _clear_votes(self, session_id: int, seats: set[str]) -> None:
        """Drop the ballots on seats that no longer wait; under the session's lock, so it cannot cross a
        ballot being written (see ``vote``)."""
        if session_id in self._no_votes:
            return
        async with self.bot.sessions.locks.lock_for(session_id):
            settings = await self.bot.store.table_settings(session_id)
            votes = settings.get("votes") or {}
            if any(s in votes for s in seats):
                votes = {k: v for k, v in votes.items() if k not in seats}
                await self.bot.store.set_table_settings(session_id, {**settings, "votes": votes})
            if not votes:
                self._no_votes.add(session_id)

    async def _remind(self, timer: Timer) -> None:
        if not await self._still_waiting(timer):
            return
        rec, spec, _state = await self.bot.sessions.load(timer.session_id)
        clock = await self.table_clock(rec)
        waited = max(0.0, self.bot.timers.clock() - (timer.due_at.timestamp() - clock.remind_hours * HOUR))
        seat = timer.seat or ""
        uid = rec.player(seat)
        await self.bot.tables.deliveries.remind(rec.id, uid, waited)
        humans = [s for s in self.bot.sessions.humans(rec, await self.bot.sessions.ai_seats(rec.id)) if s != seat]
        view = discord.ui.View(timeout=None)
        if humans:  # the others may vote the seat out
            view.add_item(VoteButton(rec.id, int(seat), t(rec.locale, "clock.vote_button")))
        try:
            await self.bot.tables.channel(rec.channel_id).send(
                t(rec.locale, "clock.ping", user=f"<@{uid}>", waited=waited_text(rec.locale, waited),
                  game=spec.name(rec.locale)), allowed_mentions=MENTIONS, view=view)
        except discord.HTTPException as exc:
            log.warning("reminder ping in %s failed (%s %s)", rec.channel_id, exc.status, exc.code)

    async def _expire(self, timer: Timer) -> None:
        rec = await self.bot.store.get(timer.session_id)
        if rec.status not in ("lobby", "running"):
            return
        days = (await self.bot.server_settings.get(rec.guild_id)).idle_days
        if rec.version != timer.version:
            # Moved within the slack since the timer was set: look again once the slack has passed.
            await self.bot.timers.set(rec.id, IDLE, None, IDLE_SLACK, rec.version)
            self._idle_due[rec.id] = self.bot.timers.clock() + IDLE_SLACK
            return
        rec = await self.bot.sessions.expire(rec.id, timer.version)
        if rec is None:
            return
        await self.bot.tables.ended(rec)
        try:
            await self.bot.tables.channel(rec.channel_id).send(t(rec.locale, "clock.expired", days=days))
        except discord.HTTPException as exc:
            log.warning("expiry notice in %s failed (%s %s)", rec.channel_id, exc.status, exc.code)

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
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord
from pydantic import BaseModel

from bot.i18n import t
from bot.server_settings import TableClock
from bot.sessions import Forfeit, SessionError
from bot.storage import SessionRecord, Timer
from bot.table.plan import DEADLINE, REMIND, FollowUp, follow_up
from cogs.games.components import VoteButton
from cogs.games.forfeits import after_forfeit, forfeit_seat
from cogs.games.takeback import TIMER as TAKEBACK
from cogs.games.takeback import lapsed
from rules.core import RuleError

if TYPE_CHECKING:
    from cogs.games.host import GameBot

log = logging.getLogger(__name__)
IDLE = "idle"
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

    def release(self, session_id: int) -> None:
        self._reminded.pop(session_id, None)
        self._idle_due.pop(session_id, None)

    async def default_clock(self, rec: SessionRecord) -> TableClock:
        """The server's clock, for a table whose lobby chose none."""
        server = await self.bot.server_settings.get(rec.guild_id)
        return server.clock

    async def table_clock(self, rec: SessionRecord) -> TableClock:
        return await self.bot.sessions.table_clock(rec.id, await self.default_clock(rec))

    async def reminded(self, rec: SessionRecord) -> set[str]:
        """Seats with a reminder or deadline set now, read from the stored timers once per game and then
        kept here, as every change to them is made here."""
        reminded = self._reminded.get(rec.id)
        if reminded is None:
            timers = await self.bot.sessions.timers(rec.id)
            reminded = self._reminded[rec.id] = {tm.seat for tm in timers if tm.kind in (REMIND, DEADLINE) and tm.seat}
            idle = [tm.due_at.timestamp() for tm in timers if tm.kind == IDLE]
            self._idle_due[rec.id] = idle[0] if idle else 0.0
        return reminded

    async def after_move(self, rec: SessionRecord, state: BaseModel | None) -> None:
        """Bring the timers in step with a game that changed without a commit's outcome at hand (a start,
        a lobby): the same plan as after a commit, from who owes a decision now."""
        if rec.status != "running" or state is None:
            if rec.status in ("lobby", "running"):
                await self.reminded(rec)
                await self._keep_idle(rec)
            else:
                await self._end(rec)
            return
        outcome = await self.bot.sessions.standing(rec, state)
        await self.carry_out(rec, follow_up(outcome, await self.table_clock(rec), await self.reminded(rec)))

    async def carry_out(self, rec: SessionRecord, plan: FollowUp) -> None:
        """The timers of a commit's plan: reminders and deadlines set for seats a decision arrived to and
        cancelled for seats that owe none (their ballots dropped), the idle timer kept ahead; a game that
        is over keeps no timer."""
        if plan.cancel_all_timers:
            await self._end(rec)
            return
        reminded = await self.reminded(rec)
        await self._keep_idle(rec)
        gone = {c.seat for c in plan.cancel_timers}
        for change in plan.cancel_timers:  # the clock is fixed once the game runs: only its kinds exist
            await self.bot.sessions.cancel_timer(rec.id, change.kind, change.seat)
        reminded -= gone
        if gone:
            await self.bot.sessions.clear_votes(rec.id, gone)
        for change in plan.set_timers:
            # A player away starts the clock when they are back.
            after = await self._away_left(rec, change.seat) + change.hours * HOUR
            await self.bot.timers.set(rec.id, change.kind, change.seat, after, rec.version)
            reminded.add(change.seat)

    async def _end(self, rec: SessionRecord) -> None:
        await self.bot.timers.cancel(rec.id)
        self.release(rec.id)

    async def _keep_idle(self, rec: SessionRecord) -> None:
        """The game's idle timer, moved only when this move pushes it back by more than the slack."""
        server = await self.bot.server_settings.get(rec.guild_id)
        due = self.bot.timers.clock() + server.idle_days * DAY
        if due - self._idle_due.get(rec.id, 0.0) > IDLE_SLACK:
            await self.bot.timers.set(rec.id, IDLE, None, server.idle_days * DAY, rec.version)
            self._idle_due[rec.id] = due

    # ------------------------------------------------------------------ time away
    async def _away_left(self, rec: SessionRecord, seat: str) -> float:
        """Seconds until the player of ``seat`` is back from a time away on the game's server (0: here)."""
        if rec.guild_id is None:
            return 0.0
        back = (await self.bot.sessions.away(rec.guild_id)).get(rec.player(seat))
        return max(0.0, back.timestamp() - self.bot.timers.clock()) if back is not None else 0.0

    async def away_marks(self, rec: SessionRecord) -> dict[str, int]:
        """Seats whose player is away now, with when they are back (Unix seconds), for the table to show."""
        if rec.guild_id is None or rec.status != "running":
            return {}
        away, now = await self.bot.sessions.away(rec.guild_id), self.bot.timers.clock()
        marks = {str(s): away.get(rec.player(str(s))) for s in rec.seats}
        return {seat: int(back.timestamp()) for seat, back in marks.items() if back and back.timestamp() > now}

    async def go_away(self, guild_id: int, user_id: int, days: int) -> tuple[datetime, list[SessionRecord]]:
        """The member is away for ``days`` on this server: their reminders and deadlines in every game here
        wait for their return and then run afresh. Returns when they are back and the games concerned."""
        back = datetime.fromtimestamp(self.bot.timers.clock() + days * DAY, UTC)
        await self.bot.sessions.set_away(guild_id, user_id, back)
        return back, await self._rearm(guild_id, user_id)

    async def come_back(self, guild_id: int, user_id: int) -> list[SessionRecord]:
        """The member is back before their time away ran out (``/game away days:0`` or a move): their seats'
        clocks start afresh from now. Nothing happens for a member who was not away."""
        back = (await self.bot.sessions.away(guild_id)).get(user_id)
        if back is None:
            return []
        await self.bot.sessions.set_away(guild_id, user_id, None)
        if back.timestamp() <= self.bot.timers.clock():
            return []  # the absence had run out: the clocks were set for the return already
        return await self._rearm(guild_id, user_id)

    async def _rearm(self, guild_id: int, user_id: int) -> list[SessionRecord]:
        """Set the member's running clocks again (a seat waited for has its reminder and deadline moved to
        the end of their time away, or to now if they are back): the games where they play a seat."""
        games = await self.bot.sessions.games_of(guild_id, user_id, "running")
        for rec in games:
            seat = rec.seat_of(user_id)
            timers = [tm for tm in await self.bot.sessions.timers(rec.id) if tm.kind in (REMIND, DEADLINE)
                      and tm.seat == seat]
            if seat is None or not timers:
                continue
            clock = await self.table_clock(rec)
            offset = await self._away_left(rec, seat)
            for kind, hours in ((REMIND, clock.remind_hours), (DEADLINE, clock.deadline_hours)):
                if hours > 0:
                    await self.bot.timers.set(rec.id, kind, seat, offset + hours * HOUR, rec.version)
        return games

    async def fire(self, timer: Timer) -> None:
        if timer.kind == REMIND:
            await self._remind(timer)
        elif timer.kind == DEADLINE:
            await self._deadline(timer)
        elif timer.kind == IDLE:
            await self._expire(timer)
        elif timer.kind == TAKEBACK:
            await lapsed(self.bot, timer)

    async def _still_waiting(self, timer: Timer) -> bool:
        """The seat still owes a decision and a person plays it. The clock is about a seat the table waits
        for, not about a version: a seat that made one move of its turn and stopped (drew, then never
        acted) is still owing and must be reminded; a seat that stopped owing had its timers cancelled
        by ``after_move``, so a timer that raced its click finds it owing nothing and does nothing."""
        rec, _spec, state = await self.bot.sessions.load(timer.session_id)
        if rec.status != "running" or state is None or timer.seat is None:
            return False
        if timer.seat not in self.bot.sessions.glance(rec, state).owing:
            return False
        if timer.seat in await self.bot.sessions.ai_seats(rec.id):
            return False
        away = await self._away_left(rec, timer.seat)
        if away > 0:  # the player went away after the timer was set: it waits for their return
            clock = await self.table_clock(rec)
            hours = clock.remind_hours if timer.kind == REMIND else clock.deadline_hours
            await self.bot.timers.set(rec.id, timer.kind, timer.seat, away + hours * HOUR, timer.version)
            return False
        return True

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
            await self.bot.sessions.hand_to_ai(rec.id, seat, why="forfeited")
        except (SessionError, RuleError) as exc:
            log.info("deadline of session %s seat %s: nothing done (%s)", rec.id, seat, exc)
            return
        await after_forfeit(self.bot, rec, seat, Forfeit("ai", rec), "deadline", waited=waited)

    async def vote(self, session_id: int, voter: int, seat: str,
                   confirmed: bool = False) -> tuple[int, int, bool | None]:
        """A seated player votes to take a waiting seat out of the game (only after its reminder went out):
        (votes, needed, passed), passed None when the vote would end the game and waits for the voter's
        confirmation. A carried vote forfeits the seat as if its player had left."""
        current = await self.bot.sessions.record(session_id)
        away = await self._away_left(current, seat)
        if away > 0:  # announced time away: the table waits, as the clock does
            raise SessionError("vote_away", until=f"<t:{int(self.bot.timers.clock() + away)}:R>")
        rec, votes, needed, ask = await self.bot.sessions.vote(session_id, voter, seat, confirmed)
        if ask:
            return votes, needed, None
        if votes < needed:
            return votes, needed, False
        await forfeit_seat(self.bot, rec, seat, "vote")
        return votes, needed, True

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
            await self.bot.tables.notifier.post(
                rec.channel_id, t(rec.locale, "clock.ping", user=f"<@{uid}>", waited=waited_text(rec.locale, waited),
                                  game=spec.name(rec.locale)), view=view)
        except discord.HTTPException as exc:
            log.warning("reminder ping in %s failed (%s %s)", rec.channel_id, exc.status, exc.code)

    async def _expire(self, timer: Timer) -> None:
        rec = await self.bot.sessions.record(timer.session_id)
        if rec.status not in ("lobby", "running"):
            return
        days = (await self.bot.server_settings.get(rec.guild_id)).idle_days
        if rec.version != timer.version:
            # Moved within the slack since the timer was set: look again once the slack has passed.
            await self.bot.timers.set(rec.id, IDLE, None, IDLE_SLACK, rec.version)
            self._idle_due[rec.id] = self.bot.timers.clock() + IDLE_SLACK
            return
        ended = await self.bot.sessions.expire(rec.id, timer.version)
        if ended is None:
            return
        await self.bot.tables.ended(ended)
        try:
            await self.bot.tables.channel(ended.channel_id).send(t(ended.locale, "clock.expired", days=days))
        except discord.HTTPException as exc:
            log.warning("expiry notice in %s failed (%s %s)", ended.channel_id, exc.status, exc.code)

"""Private views: one live DM per player per game, a notification only when a decision arrives.

Each seated player has one DM per game that is edited in place as the game changes. When a decision
arrives to a player who owed none (the turn passes to them, or they are asked to answer off turn), the
live message is posted again at the bottom of the DM and the old one deleted: a new message is the only
thing Discord notifies for, and deleting the old one keeps a single live message per game. Consecutive
decisions of the same player are edits. A player whose DMs are closed is mentioned in the game's channel
instead (their previous mention removed) and plays from the ephemeral "My hand" view.

What each player was last told is stored (``Delivery``), so a restarted bot edits the same message and
tells nobody twice; every step fails on its own: one player's closed DMs or a Discord outage never stops
the others from hearing, and never turns a committed move into an error.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

import discord
from pydantic import BaseModel

from bot.i18n import t
from bot.server_settings import TableClock
from bot.storage import Delivery, SessionRecord
from bot.table.outcome import TableOutcome
from bot.table.plan import FollowUp, follow_up
from cogs.games.clock import waited_text
from cogs.games.common import seat_locale
from cogs.games.payload import Components
from cogs.games.render import private_message
from cogs.games.ui import Names, ui_for
from rules import registry
from rules.core import RuleError

if TYPE_CHECKING:
    from cogs.games.host import GameBot, NotifierPort

log = logging.getLogger(__name__)
DMS_CLOSED = 50007


class Deliveries:
    """Keeps every seated player's private view current, and tells them when a decision arrives."""

    def __init__(self, bot: GameBot, notifier: NotifierPort) -> None:
        self.bot = bot
        self.notifier = notifier
        self._rows: dict[int, dict[int, Delivery]] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._personal: dict[tuple[int, int], Hashable] = {}  # (session, player) -> own cards last shown
        self.counts: dict[str, int] = {"notify": 0, "silent": 0, "edit": 0, "ping": 0}

    # ------------------------------------------------------------------ bookkeeping
    async def rows(self, session_id: int) -> dict[int, Delivery]:
        known = self._rows.get(session_id)
        if known is None:
            known = self._rows[session_id] = dict(await self.bot.sessions.deliveries(session_id))
        return known

    async def _save(self, row: Delivery) -> None:
        rows = await self.rows(row.session_id)
        before = rows.get(row.user_id)
        rows[row.user_id] = row
        if before is not None and {**before.__dict__, "version": row.version} == row.__dict__:
            return  # only the version moved: kept here; the stored one is a floor a restart edits up from
        try:
            await self.bot.sessions.save_delivery(row)
        except Exception:  # the message went out; losing the note only risks one repeated notice
            log.warning("could not store the delivery of session %s to %s", row.session_id, row.user_id,
                        exc_info=True)

    def release(self, session_id: int) -> None:
        """Forget a finished game's bookkeeping (the stored rows stay for the record)."""
        self._rows.pop(session_id, None)
        self._locks.pop(session_id, None)
        for key in [k for k in self._personal if k[0] == session_id]:
            del self._personal[key]

    def place(self, rec: SessionRecord) -> str:
        """Server and channel by name where the bot knows them, for a DM's footer."""
        guild = self.bot.get_guild(rec.guild_id) if rec.guild_id else None
        channel = self.bot.get_channel(rec.channel_id)
        name = getattr(channel, "name", None)  # a DM or an uncached channel has none
        parts = [guild.name if guild else "", f"#{name}" if name else ""]
        return " · ".join(p for p in parts if p)

    async def _message(self, rec: SessionRecord, state: BaseModel, seat: str, loc: str,
                       *, live: bool = True) -> tuple[discord.Embed, Components]:
        """A seat's DM: its private view, with the engine's answers shared with the other surfaces; a live
        one offers the 💡 hint where the table allows it (the final view of a game over does not)."""
        sessions = self.bot.sessions
        hints = live and await sessions.offers_hints(rec.id, seat)
        return private_message(rec, state, seat, loc, place=self.place(rec), hints=hints,
                               ai=await sessions.ai_seats(rec.id), glance=sessions.glance(rec, state))

    # ------------------------------------------------------------------ delivering
    async def deliver(self, session_id: int, *, clicked: tuple[int, int, int] | None = None,
                      newcomers: frozenset[int] = frozenset(), outcome: TableOutcome | None = None,
                      plan: FollowUp | None = None) -> None:
        """Bring every seated player's private view up to the session's newest state.

        ``clicked`` is (player, message id, version) of a click whose response already showed that version
        on that message. ``newcomers`` (everyone at the start, a player joining a running game) get their
        first view even when they owe nothing yet, quietly then. ``outcome`` and ``plan``: the commit this
        delivery follows and its follow-up plan, which say who hears of the end and how each seat ended.
        Always works from the newest state, so two deliveries racing each other cannot show an older one
        last, and a delivery that finds a player already told at this version does nothing for them.
        """
        lock = self._locks.setdefault(session_id, asyncio.Lock())
        async with lock:
            rec, _spec, state = await self.bot.sessions.load(session_id)
            if state is None:
                return
            rows = await self.rows(session_id)
            if rec.status != "running":
                known = None
                if outcome is not None and plan is not None and outcome.version == rec.version and outcome.over:
                    known = (outcome, plan)
                await self._deliver_end(rec, state, rows, clicked, known)
                return
            owing = self.bot.sessions.glance(rec, state).owing
            ai = await self.bot.sessions.ai_seats(session_id)
            for s in rec.seats:
                seat, uid = str(s), rec.player(str(s))
                if uid < 0 or seat in ai:
                    continue  # the AI plays this seat: nobody to tell
                try:
                    await self._deliver_one(rec, state, uid, seat in owing, rows.get(uid), clicked,
                                            uid in newcomers)
                except Exception:
                    log.exception("delivering session %s to %s failed", rec.id, uid)

    async def _deliver_end(self, rec: SessionRecord, state: BaseModel, rows: dict[int, Delivery],
                           clicked: tuple[int, int, int] | None,
                           known: tuple[TableOutcome, FollowUp] | None) -> None:
        """The game is over: every person who sat at the table, those who left it included, gets their
        live DM replaced by the final view (no buttons) opening with how the game ended for them, as the
        one notification of the end; the row's version keeps a second delivery from telling them twice.
        Who hears what is the follow-up plan's to say: the commit's own (``known``), else one worked out
        here (a game abandoned or expired, a restart catching up)."""
        outcome, plan = known if known is not None else await self._end_plan(rec, state, clicked)
        endings = outcome.endings
        for change in plan.dms:
            row = rows.get(change.player) or Delivery(session_id=rec.id, user_id=change.player)
            if row.version >= rec.version:
                continue  # told already
            try:
                if change.how == "notify" or clicked is None or clicked[1] != row.message_id:
                    row = await self._tell_end(rec, state, change.seat, endings.get(change.seat), row,
                                               quiet=change.how == "edit")
                else:  # the mover's click turned their live DM into the final view: it opens with the end too
                    row = await self._end_in_place(rec, state, change.seat, endings.get(change.seat), row)
                if row.ping_id is not None:
                    row = await self._unping(rec, row)
            except Exception:
                log.exception("telling %s that session %s ended failed", change.player, rec.id)
            await self._save(row.model_copy(update={"owed": False, "version": rec.version}))

    async def _end_in_place(self, rec: SessionRecord, state: BaseModel, seat: str, ending: str | None,
                            row: Delivery) -> Delivery:
        """The end's words on the live DM the mover just clicked (it shows the final view already); a new
        quiet DM says it if that edit fails."""
        assert row.channel_id is not None and row.message_id is not None
        try:
            await self.notifier.edit_dm(row.channel_id, row.message_id, content=end_text(rec, row.user_id, ending))
        except discord.HTTPException:
            return await self._tell_end(rec, state, seat, ending, row, quiet=True)
        self.counts["edit"] += 1
        return row

    async def _end_plan(self, rec: SessionRecord, state: BaseModel,
                        clicked: tuple[int, int, int] | None) -> tuple[TableOutcome, FollowUp]:
        settings = await self.bot.sessions.settings(rec.id)
        left = {s: rec.player(s) for s in settings.departed if rec.player(s) > 0}
        outcome = await self.bot.sessions.standing(rec, state)
        mover = clicked[0] if clicked is not None and clicked[2] == rec.version else None
        return outcome, follow_up(outcome, TableClock(remind_hours=0), frozenset(), clicked=mover, left=left)

    async def _tell_end(self, rec: SessionRecord, state: BaseModel, seat: str, ending: str | None,
                        row: Delivery, *, quiet: bool) -> Delivery:
        """The final view as a new DM at the bottom (the live one deleted, so no button is left), with how
        the game ended for this player; ``quiet`` for the mover, who is looking at the end already."""
        if row.dm_closed:
            return row  # the channel's result post names them
        loc = seat_locale(rec, row.user_id)
        content = end_text(rec, row.user_id, ending)
        shown: dict[str, Any] = {}
        with contextlib.suppress(RuleError):  # the seat left the game's seating: the words alone
            shown["embed"], shown["view"] = await self._message(rec, state, seat, loc, live=False)
        try:
            sent = await self.notifier.dm(row.user_id, content=content, silent=quiet, **shown)
        except discord.HTTPException as exc:
            log.warning("end DM to %s failed (%s %s)", row.user_id, exc.status, exc.code)
            return row
        self.counts["silent" if quiet else "notify"] += 1
        if row.message_id is not None and row.message_id != sent.id:
            await self._delete_dm(row.channel_id, row.message_id)
        return row.model_copy(update={"channel_id": sent.channel_id, "message_id": sent.id})

    async def _deliver_one(self, rec: SessionRecord, state: BaseModel, uid: int, owes: bool, row: Delivery | None,
                           clicked: tuple[int, int, int] | None, newcomer: bool) -> None:
        row = row or Delivery(session_id=rec.id, user_id=uid)
        if row.version >= rec.version and not (newcomer and row.message_id is None):
            return
        owed = owes
        if clicked is not None and clicked[0] == uid and clicked[2] == rec.version and clicked[1] == row.message_id:
            pass  # the click's own response already shows this version on the live message
        elif owes and not row.owed:
            row = await self._notify(rec, state, uid, row)
            owed = row.owed  # told by DM or ping; if both failed, the next delivery tries again
        elif row.message_id is not None and not row.dm_closed:
            if self._changed(rec, state, uid, row, owes):
                row = await self._edit(rec, state, uid, row)
        elif newcomer and row.message_id is None and not row.dm_closed:
            row = await self._post(rec, state, uid, row, silent=True)
        if not owes and row.ping_id is not None:
            row = await self._unping(rec, row)
        await self._save(row.model_copy(update={"owed": owed, "version": rec.version}))

    def _changed(self, rec: SessionRecord, state: BaseModel, uid: int, row: Delivery, owes: bool) -> bool:
        """Whether the live message would show something new: a decision (or its end), buttons that must
        move to this version (an any-time action), or the player's own cards changed by someone else."""
        if owes or row.owed:
            return True
        ui, glance = ui_for(rec.game_id), self.bot.sessions.glance(rec, state)
        seat = _seat(rec, uid)
        try:
            view = glance.view(seat)
        except RuleError:
            return False
        if glance.legal(seat):
            return True
        key = (rec.id, uid)
        personal = ui.personal(view)
        before = self._personal.get(key)
        self._personal[key] = personal
        return personal is not None and before != personal

    async def retire(self, session_id: int, uid: int) -> None:
        """A player left the game: their live DM and channel mention go (the AI plays their seat)."""
        rows = await self.rows(session_id)
        row = rows.get(uid)
        if row is None:
            return
        rec = await self.bot.sessions.record(session_id)
        if row.message_id is not None:
            await self._delete_dm(row.channel_id, row.message_id)
        row = await self._unping(rec, row)
        await self._save(row.model_copy(update={"message_id": None, "owed": False}))

    async def tell_ai_took(self, rec: SessionRecord, uid: int) -> None:
        """The player whose seat an AI took hears it by DM, with how to take the seat back."""
        loc = seat_locale(rec, uid)
        place = self.place(rec)
        text = t(loc, "leave.ai_took_dm", game=registry.get(rec.game_id).name(loc),
                 place=f" ({place})" if place else "")
        try:
            await self.notifier.dm(uid, content=text)
        except discord.HTTPException as exc:
            log.warning("telling %s that the AI took their seat failed (%s %s)", uid, exc.status, exc.code)

    async def remind(self, session_id: int, uid: int, waited: float) -> None:
        """Post the player's live view again, at the bottom, with how long the table has waited: a
        reminder notifies like a decision arriving, and still leaves one live message."""
        lock = self._locks.setdefault(session_id, asyncio.Lock())
        async with lock:
            rec, _spec, state = await self.bot.sessions.load(session_id)
            if state is None:
                return
            row = (await self.rows(session_id)).get(uid) or Delivery(session_id=rec.id, user_id=uid)
            if row.dm_closed:
                return  # the channel mention the clock posts is their reminder
            loc = seat_locale(rec, uid)
            seat = _seat(rec, uid)
            embed, view = await self._message(rec, state, seat, loc)
            try:
                sent = await self.notifier.dm(uid, content=t(loc, "clock.dm", waited=waited_text(loc, waited)),
                                              embed=embed, view=view)
            except discord.HTTPException as exc:
                log.warning("reminder DM to %s failed (%s %s)", uid, exc.status, exc.code)
                return
            self.counts["notify"] += 1
            if row.message_id is not None:
                await self._delete_dm(row.channel_id, row.message_id)
            await self._save(row.model_copy(update={"channel_id": sent.channel_id, "message_id": sent.id,
                                                    "owed": True, "version": rec.version}))

    async def _notify(self, rec: SessionRecord, state: BaseModel, uid: int, row: Delivery) -> Delivery:
        """A decision arrived: a new live DM at the bottom (the old one deleted), or a ping if DMs fail."""
        if not row.dm_closed:
            old = (row.channel_id, row.message_id)
            posted = await self._post(rec, state, uid, row, silent=False)
            if posted.message_id is not None and posted.message_id != old[1]:
                if old[1] is not None:
                    await self._delete_dm(old[0], old[1])
                return posted.model_copy(update={"owed": True})
            row = posted
        return await self._ping(rec, state, uid, row)

    async def _post(self, rec: SessionRecord, state: BaseModel, uid: int, row: Delivery, *, silent: bool) -> Delivery:
        loc = seat_locale(rec, uid)
        seat = _seat(rec, uid)
        embed, view = await self._message(rec, state, seat, loc)
        first = row.message_id is None and row.version < 0
        content: str | None
        if first:
            content = t(loc, "dm.welcome", game=registry.get(rec.game_id).name(loc))
        else:  # a decision arrives: what the others did meanwhile opens it
            content = None if silent else self.bot.tables.recap(rec.id, seat, loc)
        try:
            sent = await self.notifier.dm(uid, content=content, embed=embed, view=view, silent=silent)
        except discord.Forbidden as exc:
            if exc.code != DMS_CLOSED:
                log.warning("DM to %s refused (%s): %s", uid, exc.code, exc.text)
            return row.model_copy(update={"dm_closed": True})
        except discord.HTTPException as exc:
            log.warning("DM to %s failed (%s %s); falling back to the channel", uid, exc.status, exc.code)
            return row
        self.counts["silent" if silent else "notify"] += 1
        return row.model_copy(update={"channel_id": sent.channel_id, "message_id": sent.id})

    async def _edit(self, rec: SessionRecord, state: BaseModel, uid: int, row: Delivery) -> Delivery:
        loc = seat_locale(rec, uid)
        seat = _seat(rec, uid)
        embed, view = await self._message(rec, state, seat, loc)
        assert row.channel_id is not None and row.message_id is not None
        try:
            await self.notifier.edit_dm(row.channel_id, row.message_id, embed=embed, view=view)
            self.counts["edit"] += 1
            return row
        except discord.NotFound:  # the player deleted it: a quiet new one takes its place
            return await self._post(rec, state, uid, row.model_copy(update={"message_id": None}), silent=True)
        except discord.Forbidden:  # DMs closed mid-game: the next decision arrives by a channel ping
            return row.model_copy(update={"dm_closed": True})
        except discord.HTTPException as exc:
            log.warning("editing the DM of %s failed (%s %s)", uid, exc.status, exc.code)
            return row

    async def _delete_dm(self, channel_id: int | None, message_id: int) -> None:
        if channel_id is None:
            return
        # Already gone, or not ours to delete any more: the new live message stands anyway.
        with contextlib.suppress(discord.HTTPException):
            await self.notifier.delete(channel_id, message_id)

    async def _ping(self, rec: SessionRecord, state: BaseModel, uid: int, row: Delivery) -> Delivery:
        """Mention the player in the game's channel; their previous mention is removed first."""
        row = await self._unping(rec, row)
        ui, names = ui_for(rec.game_id), Names.of(rec, await self.bot.sessions.ai_seats(rec.id))
        prompts = [p for p in self.bot.sessions.glance(rec, state).prompts if p.seat == _seat(rec, uid)]
        what = ui.prompt_text(prompts[0], rec.locale, names) if prompts else ""
        text = t(rec.locale, "dm.ping", user=f"<@{uid}>", what=what)
        try:
            sent = await self.notifier.post(rec.channel_id, text[:2000])
        except discord.HTTPException as exc:
            log.warning("pinging %s in %s failed (%s %s)", uid, rec.channel_id, exc.status, exc.code)
            return row
        self.counts["ping"] += 1
        return row.model_copy(update={"ping_id": sent.id, "owed": True})

    async def _unping(self, rec: SessionRecord, row: Delivery) -> Delivery:
        if row.ping_id is None:
            return row
        with contextlib.suppress(discord.HTTPException):  # someone deleted it already
            await self.notifier.delete(rec.channel_id, row.ping_id)
        return row.model_copy(update={"ping_id": None})


def end_text(rec: SessionRecord, uid: int, ending: str | None) -> str:
    """How the game ended for the player, in their language: the first line of their final DM."""
    loc = seat_locale(rec, uid)
    return t(loc, f"dm.end.{ending}" if ending else "dm.end.abandoned", game=registry.get(rec.game_id).name(loc))


def _seat(rec: SessionRecord, uid: int) -> str:
    """The seat a player is told about: the one they play now (after ``/game replace`` not their own id)."""
    return rec.seat_of(uid) or str(uid)

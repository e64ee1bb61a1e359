"""The table message and everything that follows a committed move.

``Tables.after_action`` runs the follow-up of a move in order of urgency: whoever must act next hears
first, then announcements, then the table edit. Each step fails on its own (logged, never raised): the
move is already stored, so a Discord error here must neither reach the mover as "something went wrong"
nor keep the next player from being told. ``catch_up`` does the same for every running game when the bot
starts, for follow-ups a crash cut short.

Table edits are coalesced per session: Discord limits edits per channel, and a table that received five
moves while one picture was being drawn needs one more edit, not five. The edit after a move runs in a task
of its own (``_refresh_later``): the turn clock and the AI seats go on without waiting for the picture,
which is drawn in another process and is the slowest part of a move's follow-up.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import deque
from collections.abc import Awaitable, Hashable
from typing import TYPE_CHECKING, Any

import discord
from pydantic import BaseModel

from bot.i18n import t
from bot.sessions import Outcome
from bot.storage import Delivery, SessionRecord
from bot.table.plan import FollowUp, follow_up
from bot.table.recap import Line, fold_tail, since_last_move
from cogs.games.common import PICTURES, draw_table, drawing_pool
from cogs.games.delivery import Deliveries
from cogs.games.history import folded_text, recent_lines
from cogs.games.notifier import DiscordNotifier
from cogs.games.payload import Components
from cogs.games.render import LobbyView, lobby_embed, table_payload, table_view, table_view_key
from cogs.games.ui import Names, clip, has_picture, ui_for

if TYPE_CHECKING:
    from cogs.games.host import GameBot

log = logging.getLogger(__name__)
TABLE = 0
"""The delivery row of user 0 records the version the table message last showed."""


class Tables:
    """The table message of every running game, and the follow-up of every move."""

    LOG_LINES = 8
    KEPT_LINES = 48
    """Raw lines kept per game: enough that, automatic runs folded, ``LOG_LINES`` remain to show and a
    recap reaches back to a player's last move in all but the longest waits."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.notifier = DiscordNotifier(bot)
        self.deliveries = Deliveries(bot, self.notifier)
        self._latest: dict[int, tuple[SessionRecord, BaseModel]] = {}
        self._shown: dict[int, int] = {}
        self._render_locks: dict[int, asyncio.Lock] = {}
        self._log: dict[int, deque[Line]] = {}
        self._image: dict[int, tuple[Hashable, str]] = {}  # session -> (picture key, its URL)
        self._buttons: dict[int, tuple[Hashable, Components]] = {}  # session -> (its key, the table's buttons)
        self._last_edit: dict[int, float] = {}
        self._refreshing: dict[int, set[asyncio.Task[None]]] = {}  # session -> table edits under way
        self._caught_up = False

    def channel(self, channel_id: int) -> discord.abc.Messageable:
        return self.notifier.channel(channel_id)

    def note(self, session_id: int, lines: list[Line]) -> None:
        log_ = self._log.setdefault(session_id, deque(maxlen=self.KEPT_LINES))
        log_.extend(lines)

    def recap(self, session_id: int, seat: str, locale: str) -> str | None:
        """What the other seats did since ``seat``'s last move, for the DM that brings it a decision (None
        when nothing is known or nothing happened but its own moves). The lines are in the table's language."""
        folded = since_last_move(list(self._log.get(session_id, ())), seat)[-self.LOG_LINES:]
        if not folded:
            return None
        return clip(t(locale, "dm.recap", lines="\n".join(f"• {line}" for line in folded_text(folded, locale))),
                    1500)

    def release(self, session_id: int) -> None:
        """Drop everything kept in memory for a game that is over; its messages stay as they are."""
        for cache in (self._latest, self._shown, self._render_locks, self._log, self._image, self._last_edit,
                      self._buttons):
            cache.pop(session_id, None)
        self.deliveries.release(session_id)
        self.bot.turn_clock.release(session_id)
        self.bot.sessions.release(session_id)

    def cached(self) -> int:
        """How many games hold memory here (for the memory benchmark)."""
        return len(set(self._latest) | set(self._log) | set(self._render_locks) | set(self._buttons)
                   | set(self.deliveries._rows))

    # ------------------------------------------------------------------ follow-up
    async def after_action(self, outcome: Outcome, interaction: discord.Interaction | None,
                           clicked: tuple[int, int, int] | None = None,
                           newcomers: frozenset[int] = frozenset()) -> None:
        rec, state = outcome.record, outcome.state
        self.bot.metrics.actions.labels(rec.game_id).inc(len(outcome.steps) or 1)
        if interaction is not None and rec.guild_id is not None:  # a player's own move ends their time away
            await self._safely(self.come_back(rec.guild_id, interaction.user.id), "time away", rec.id)
        ui, names = ui_for(rec.game_id), Names.of(rec, await self.bot.sessions.ai_seats(rec.id))
        lines = []
        groups = [(step.events, step.seat, step.auto) for step in outcome.steps] or [(outcome.events, outcome.seat,
                                                                                      False)]
        for events, seat, auto in groups:
            for e in events:
                if e.audience is None and (text := ui.event_text(e, rec.locale, names)):
                    lines.append(Line(text, seat, auto))
        if outcome.undone:
            lines.append(Line(t(rec.locale, "takeback.line", user=names(outcome.seat), count=outcome.undone),
                              outcome.seat))
        plan = await self._plan(outcome, clicked)
        # Kept before the DMs go: the recap that opens a DM bringing a decision includes this move.
        await self._safely(self._keep_lines(rec, lines), "recent moves", rec.id)
        await self._safely(self.deliveries.deliver(rec.id, clicked=clicked, newcomers=newcomers,
                                                           outcome=outcome.table, plan=plan),
                           "private views", rec.id)
        # One post per commit (a round's end and the game's end together ping once).
        for text in joined(ui.announcements(outcome.events, rec.locale, names), 2000):
            await self._safely(self.notifier.post(rec.channel_id, text, mentions=not plan.quiet_post),
                               "announcement", rec.id)
        if plan.table_at_once:
            await self._drawn(rec.id)  # the last picture must not be overtaken by an earlier one
            await self._safely(self.refresh_table(rec, state), "table", rec.id)
        elif plan.edit_table:
            self._refresh_later(rec, state)
        await self._safely(self.bot.turn_clock.carry_out(rec, plan), "turn clock", rec.id)
        if plan.wake_ai is not None:
            self.bot.ai_players.poke(rec.id)
        if plan.release:
            self.release(rec.id)

    async def _plan(self, outcome: Outcome, clicked: tuple[int, int, int] | None) -> FollowUp:
        """The commit's follow-up plan, from its outcome, the table's clock and the timers set now."""
        rec = outcome.record
        mover = clicked[0] if clicked is not None and clicked[2] == rec.version else None
        left: dict[str, int] = {}
        if outcome.table.over:
            departed = (await self.bot.sessions.settings(rec.id)).departed
            left = {s: rec.player(s) for s in departed if rec.player(s) > 0}
        clock = self.bot.turn_clock
        return follow_up(outcome.table, await clock.table_clock(rec), await clock.reminded(rec), clicked=mover,
                         left=left)

    async def come_back(self, guild_id: int, user_id: int) -> None:
        """The member is back from a time away: their clocks restart, and their tables stop saying away."""
        for rec in await self.bot.turn_clock.come_back(guild_id, user_id):
            await self.redraw(rec.id)

    async def redraw(self, session_id: int) -> None:
        """Edit a running table although no move was made (a player went away or came back)."""
        rec, _spec, state = await self.bot.sessions.load(session_id)
        if rec.status == "running" and state is not None:
            self._shown.pop(rec.id, None)
            await self._safely(self.refresh_table(rec, state), "table", rec.id)

    def _refresh_later(self, rec: SessionRecord, state: BaseModel) -> None:
        """Edit the table in a task of its own. Edits still happen in move order and coalesce: each waits
        for the table's render lock and draws the newest state known by then (one that finds it shown
        already returns at once)."""
        task = asyncio.create_task(self._safely(self.refresh_table(rec, state), "table", rec.id),
                                   name=f"table-{rec.id}")
        self._refreshing.setdefault(rec.id, set()).add(task)
        task.add_done_callback(functools.partial(self._refreshed, rec.id))

    def _refreshed(self, session_id: int, task: asyncio.Task[None]) -> None:
        under_way = self._refreshing.get(session_id)
        if under_way is not None:
            under_way.discard(task)
            if not under_way:
                del self._refreshing[session_id]

    async def _drawn(self, session_id: int) -> None:
        """Wait for the table edits under way (before the game's last edit and the release of its memory)."""
        under_way = self._refreshing.get(session_id)
        if under_way:
            await asyncio.wait(list(under_way))

    async def ended(self, rec: SessionRecord) -> None:
        """A game ended outside a move (abandoned, expired): the table and the live DMs show it, the
        timers go, and the memory kept for it is released."""
        await self._drawn(rec.id)
        _rec, _spec, state = await self.bot.sessions.load(rec.id)
        if state is None:
            if rec.table_message_id is not None:
                message = self.channel(rec.channel_id).get_partial_message(rec.table_message_id)  # type: ignore[attr-defined]
                ai = await self.bot.sessions.ai_seats(rec.id)  # closed: no menus, so no clock to show
                await self._safely(message.edit(embed=lobby_embed(rec, rec.locale, ai=ai),
                                                view=LobbyView(rec, rec.locale)), "lobby", rec.id)
        else:
            await self._safely(self.refresh_table(rec, state, []), "table", rec.id)
            await self._safely(self.deliveries.deliver(rec.id), "private views", rec.id)
        await self._safely(self.bot.timers.cancel(rec.id), "timers", rec.id)
        self.release(rec.id)

    async def start(self, rec: SessionRecord, state: BaseModel, notice: str | None) -> None:
        await self._safely(self.refresh_table(rec, state, [notice] if notice else []), "table", rec.id)
        await self._safely(self.bot.turn_clock.after_move(rec, state), "turn clock", rec.id)
        await self._safely(self.deliveries.deliver(rec.id, newcomers=frozenset(rec.seats)), "private views", rec.id)
        await self._safely(self.bot.sessions.learn_autopass(rec), "auto-pass choices", rec.id)
        settled = await self.bot.sessions.settle(rec.id)
        if settled is not None:
            await self.after_action(settled, None)
        else:
            self.bot.ai_players.poke(rec.id)

    async def catch_up(self) -> None:
        """After a start: finish what a crash may have cut short in every running game (forced steps not
        taken, a decision not delivered, a stale table), each game on its own. With several shard processes
        on one database, each catches up only the games of its own guilds, so none is told twice."""
        if self._caught_up:
            return
        self._caught_up = True
        for rec in await self.bot.sessions.running():
            if not self.bot.owns_guild(rec.guild_id):
                continue
            try:
                settled = await self.bot.sessions.settle(rec.id)
                if settled is not None:
                    await self.after_action(settled, None)
                    continue
                await self.deliveries.deliver(rec.id)
                rows = await self.deliveries.rows(rec.id)
                shown = rows.get(TABLE)
                if shown is None or shown.version < rec.version:
                    _rec, _spec, state = await self.bot.sessions.load(rec.id)
                    if state is not None:
                        await self.refresh_table(_rec, state, [])
            except Exception:
                log.exception("catching up session %s failed", rec.id)
        await self._safely(self.bot.sessions.settle_owed_ratings(self.bot.owns_guild), "ratings", 0)
        await self._safely(self.bot.ai_players.catch_up(), "AI seats", 0)

    async def _safely(self, work: Awaitable[Any], what: str, session_id: int) -> None:
        try:
            await work
        except discord.HTTPException as exc:
            log.warning("session %s: %s failed (%s %s): %s", session_id, what, exc.status, exc.code, exc.text)
        except Exception:
            log.exception("session %s: %s failed", session_id, what)

    # ------------------------------------------------------------------ the table message
    async def _keep_lines(self, rec: SessionRecord, lines: list[Line]) -> None:
        if rec.id not in self._log and rec.version > 0:
            # First sight of this game in this process (a restart): the recent moves come from the stored
            # log, which already holds this move's lines.
            entries = await self.bot.sessions.log(rec.id)
            rebuilt = await asyncio.get_running_loop().run_in_executor(
                PICTURES, functools.partial(recent_lines, rec, entries, rec.locale,
                                            await self.bot.sessions.ai_seats(rec.id)))
            self._log[rec.id] = deque(rebuilt[-self.KEPT_LINES:], maxlen=self.KEPT_LINES)
            if not entries and lines:
                self.note(rec.id, lines)
        elif lines:
            self.note(rec.id, lines)

    async def reseated(self, session_id: int) -> None:
        """Who plays a seat changed without a move (a seat handed to the AI or taken back): the table shows
        it now, names and picture, though the game's version is the one it showed already."""
        self._image.pop(session_id, None)
        rec, _spec, state = await self.bot.sessions.load(session_id)
        if state is not None and rec.status == "running":
            await self.refresh_table(rec, state, [], again=True)

    def _table_buttons(self, rec: SessionRecord) -> Components:
        """The table's buttons, built again only when what they depend on changed (``table_view_key``)."""
        key = table_view_key(rec, rec.locale)
        kept = self._buttons.get(rec.id)
        if kept is None or kept[0] != key:
            kept = self._buttons[rec.id] = (key, table_view(rec, rec.locale))
        return kept[1]

    async def refresh_table(self, rec: SessionRecord, state: BaseModel, notices: list[str] | None = None, *,
                            again: bool = False) -> None:
        """Edit the table to the newest state; ``notices`` join its recent moves first (a start's notice).
        ``again``: edit it even if it shows this version already, for a change outside the game's state
        (a seat's first 💡 hint, a seat handed to the AI)."""
        await self._keep_lines(rec, [Line(n) for n in notices or []])
        if rec.table_message_id is None:
            return
        current = self._latest.get(rec.id)
        if current is None or current[0].version <= rec.version:
            self._latest[rec.id] = (rec, state)
        lock = self._render_locks.setdefault(rec.id, asyncio.Lock())
        async with lock:
            loop = asyncio.get_running_loop()
            wait = self._last_edit.get(rec.id, -1e9) + self.bot.settings.table_edit_interval - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)  # moves arriving meanwhile join this edit
            newest, newest_state = self._latest.get(rec.id, (rec, state))
            if self._shown.get(rec.id, -1) >= newest.version and newest.status == "running" and not again:
                return  # a newer picture went out while this move waited
            last = folded_text(fold_tail(self._log.get(rec.id, deque()), self.LOG_LINES), newest.locale)
            ui = ui_for(newest.game_id)
            glance = self.bot.sessions.glance(newest, newest_state)
            public = glance.view(None)
            key = ui.image_key(public)
            kept = self._image.get(rec.id)
            keep = kept[1] if kept is not None and key is not None and kept[0] == key else None
            ai = await self.bot.sessions.ai_seats(rec.id)
            args = (newest, newest_state, newest.locale, last, keep, public)
            away = await self.bot.turn_clock.away_marks(newest)
            hinted = (await self.bot.sessions.settings(rec.id)).hinted
            buttons = self._table_buttons(newest)
            if keep is None and has_picture(ui):
                # Drawing is the slow part: it goes to the drawing process, the text is built here.
                pool = drawing_pool(self.bot.settings.picture_processes)
                image = await loop.run_in_executor(pool, draw_table, newest.game_id, public, newest.locale,
                                                   Names.of(newest, ai))
                payload = table_payload(*args, image=image, away=away, hinted=hinted, ai=ai, glance=glance,
                                        buttons=buttons)
            else:
                payload = table_payload(*args, away=away, hinted=hinted, ai=ai, glance=glance, buttons=buttons)
            sent = await self.notifier.edit_table(newest, payload)
            self._shown[rec.id] = newest.version
            self._last_edit[rec.id] = loop.time()
            if key is not None and keep is None and sent.image_url:
                self._image[rec.id] = (key, sent.image_url)
            await self.bot.sessions.save_delivery(Delivery(session_id=rec.id, user_id=TABLE, version=newest.version))


def joined(texts: list[str], limit: int) -> list[str]:
    """Texts joined by blank lines into as few messages of at most ``limit`` characters as they fit."""
    out: list[str] = []
    for text in texts:
        text = text[:limit]
        if out and len(out[-1]) + 2 + len(text) <= limit:
            out[-1] = f"{out[-1]}\n\n{text}"
        else:
            out.append(text)
    return out

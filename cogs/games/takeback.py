"""Taking a move back by agreement: the request (↩ in the mover's fresh view, on the table, or ``/game
takeback``), the post that asks the other players, their answers, and the request lapsing on its timer.

The rule and the bookkeeping are the session service's (``request_takeback``, ``answer_takeback``); here
they are put in words and carried out. A take-back that goes through is a commit like a move: its follow-up
runs through ``Tables.after_action``, which brings every live DM to the new version, so every button made
before answers "outdated".
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING

import discord

from bot import history
from bot.i18n import t
from bot.sessions import Outcome, SessionError, TakebackAnswer, TakebackBarrier
from bot.storage import SessionRecord, Timer
from bot.table.settings import TakebackRequest
from cogs.games.common import MENTIONS, bot_of, check_place, display_name, reply, user_locale
from cogs.games.components import HANDLERS, TakebackAnswerButton, TakebackButton
from cogs.games.payload import Components
from cogs.games.ui import MAX_ROWS, Names, ui_for

if TYPE_CHECKING:
    from cogs.games.host import GameBot

log = logging.getLogger(__name__)
TIMER = "takeback"
"""The timer kind of an open request: set for the requester's seat at the request's version."""


def barrier_text(exc: TakebackBarrier, rec: SessionRecord, locale: str, ai: Mapping[str, str]) -> str:
    """Why the move cannot be taken back, naming what the step in the way showed where it says so publicly.
    ``ai``: the table's AI seats, named in the reader's language."""
    barrier, names = exc.barrier, Names.of(rec, ai, locale)
    step = barrier.entry.seq if barrier.entry else 0
    if barrier.reason == "moved":
        return t(locale, "err.takeback_barrier.moved", user=names(barrier.entry.seat if barrier.entry else None),
                 step=step)
    ui = ui_for(rec.game_id)
    shown = [text for e in barrier.events if e.audience is None and (text := ui.event_text(e, locale, names))]
    if not shown:
        return t(locale, "err.takeback_barrier.revealed", step=step)
    return t(locale, "err.takeback_barrier.revealed_what", step=step, what="; ".join(shown))


def offer(outcome: Outcome, view: Components, locale: str) -> None:
    """Put ↩ in the mover's fresh view when the move just made can be taken back, judged from the commit
    alone (no replay): a single step of the mover's own that the engine does not mark as showing or drawing
    anything. A move the bot followed with steps of its own is not offered here (``/game takeback`` and the
    table's button still find it); neither is one when the view has no row to spare."""
    rec, spec = outcome.record, outcome.spec
    if rec.status != "running" or outcome.previous is None or len(outcome.steps) != 1:
        return
    step = outcome.steps[0]
    if step.auto or getattr(step.action, "type", None) in history.SEATING:
        return
    if spec.engine.reveals(outcome.previous, outcome.state, step.events):
        return
    for row in reversed(range(MAX_ROWS)):  # the lowest row with room, below the moves
        try:
            view.add(TakebackButton.component(rec.id, t(locale, "table.takeback")), row)
        except ValueError:  # that row is full (the components check the width of every row)
            continue
        return


def answer_view(rec: SessionRecord, request: TakebackRequest) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(TakebackAnswerButton(rec.id, request.version, True, t(rec.locale, "takeback.accept")))
    view.add_item(TakebackAnswerButton(rec.id, request.version, False, t(rec.locale, "takeback.refuse")))
    return view


async def ask(interaction: discord.Interaction, sid: int) -> None:
    """A player asks to take back their last move: refused with the reason, done at once when nobody else
    must agree, else posted in the channel for the others to answer before the request lapses."""
    bot = bot_of(interaction)
    rec = await bot.sessions.record(sid)
    check_place(interaction, rec)
    loc = user_locale(interaction)
    try:
        answer = await bot.sessions.request_takeback(sid, interaction.user.id)
    except TakebackBarrier as exc:
        await reply(interaction, barrier_text(exc, rec, loc, await bot.sessions.ai_seats(rec.id)))
        return
    request = answer.request
    if answer.replaced is not None:
        await close_post(bot, rec, answer.replaced, "takeback.closed")
    if answer.how == "done":
        try:
            await reply(interaction, t(loc, "takeback.done_alone", count=request.undo))
        finally:  # the game went back whatever became of the answer: every view must follow
            await went_back(bot, answer)
        return
    minutes = (await bot.server_settings.get(rec.guild_id)).takeback_minutes
    # The timer first: a request whose post failed still lapses, rather than blocking the next one.
    await bot.timers.set(sid, TIMER, request.seat, minutes * 60.0, request.version)
    others = " ".join(f"<@{rec.player(s)}>" for s in answer.waiting)
    try:
        post = await bot.tables.channel(rec.channel_id).send(
            t(rec.locale, "takeback.ask", user=f"<@{interaction.user.id}>", count=request.undo, others=others,
              minutes=minutes), view=answer_view(rec, request), allowed_mentions=MENTIONS)
    except discord.HTTPException:
        # Nobody can answer it: it goes, with its timer, so the player may ask again.
        await bot.sessions.lapse_takeback(sid, request.version, request.seat)
        await bot.timers.cancel(sid, TIMER, request.seat)
        raise
    await reply(interaction, t(loc, "takeback.asked", minutes=minutes))
    await bot.sessions.set_takeback_message(sid, request.version, post.id)


async def answer(interaction: discord.Interaction, sid: int, ver: int, accept: bool) -> None:
    """Another player's answer on the request post; the post says how the request ended once it has."""
    bot = bot_of(interaction)
    rec = await bot.sessions.record(sid)
    check_place(interaction, rec)
    loc = user_locale(interaction)
    host = (await bot.server_settings.get(rec.guild_id)).takeback_host
    try:
        result = await bot.sessions.answer_takeback(sid, interaction.user.id, ver, accept, host_decides=host)
    except SessionError as exc:
        if exc.code != "stale":
            raise
        # A move since the request: the post still offering to settle it is closed as well.
        await interaction.response.edit_message(content=t(rec.locale, "takeback.closed"), view=None)
        await reply(interaction, t(loc, "err.stale_takeback"))
        return
    ai = await bot.sessions.ai_seats(rec.id)
    names = Names.of(rec, ai, loc)  # for the clicker's own answer; the channel's post names them for the channel
    request = result.request
    if result.how == "waiting":
        await reply(interaction, t(loc, "takeback.counted", waiting=", ".join(names(s) for s in result.waiting)))
        return
    key = "takeback.refused" if result.how == "refused" else "takeback.accepted"
    try:
        await bot.timers.cancel(sid, TIMER)
        await interaction.response.edit_message(
            content=t(rec.locale, key, user=Names.of(rec, ai)(request.seat), by=f"<@{interaction.user.id}>",
                      count=request.undo), view=None, allowed_mentions=discord.AllowedMentions.none())
        # An edit notifies nobody: the requester, who may be waiting on the answer, is told in a line of its own.
        await bot.tables.channel(rec.channel_id).send(
            t(rec.locale, f"{key}_ping", user=f"<@{rec.player(request.seat)}>", by=display_name(interaction.user)),
            allowed_mentions=MENTIONS)
    except discord.HTTPException as exc:  # the answer is stored: a message that failed takes nothing back
        log.warning("take-back answer in session %s: a message failed (%s %s)", sid, exc.status, exc.code)
    finally:  # a take-back that went through is followed up like a move, whatever became of the messages
        if result.how == "done":
            await went_back(bot, result)


async def went_back(bot: GameBot, result: TakebackAnswer) -> None:
    """The follow-up of a take-back, like a move's (``Outcome.undone`` gives the table its line): every
    seat's view moves to the new version, the clock and the AI seats carry on from the state it went back to."""
    assert result.outcome is not None  # a take-back that was done has its commit's outcome
    await bot.tables.after_action(result.outcome, None)


async def lapsed(bot: GameBot, timer: Timer) -> None:
    """The request's time ran out: it is dropped, its post loses its buttons and the requester is told."""
    request = await bot.sessions.lapse_takeback(timer.session_id, timer.version, timer.seat or "")
    if request is None:
        return  # settled meanwhile
    rec = await bot.sessions.record(timer.session_id)
    moved = rec.version != request.version
    await close_post(bot, rec, request, "takeback.closed" if moved else "takeback.lapsed_post")
    if not moved:
        await bot.tables.channel(rec.channel_id).send(
            t(rec.locale, "takeback.lapsed", user=f"<@{rec.player(request.seat)}>"), allowed_mentions=MENTIONS)


async def close_post(bot: GameBot, rec: SessionRecord, request: TakebackRequest, key: str) -> None:
    """The request's post says how it ended and loses its buttons; a failure here only leaves buttons that
    answer "no longer open"."""
    if request.message_id is None:
        return
    message = bot.tables.channel(rec.channel_id).get_partial_message(request.message_id)  # type: ignore[attr-defined]
    try:
        await message.edit(content=t(rec.locale, key), view=None)
    except discord.HTTPException as exc:
        log.warning("take-back post of session %s not closed (%s %s)", rec.id, exc.status, exc.code)


HANDLERS.update(takeback=ask, takeback_answer=answer)

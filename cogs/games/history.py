"""``/game log``, ``/game replay`` and ``/game stats``: a game's history and a server's record, read from
the stored action logs (so all of it survives restarts), public information only."""

from __future__ import annotations

import asyncio
import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot import history
from bot.i18n import t
from bot.sessions import SessionError
from bot.storage import LogEntry, SessionRecord
from bot.table.outcome import WINS, SeatEnd
from bot.table.recap import Folded, Line
from cogs.games.common import PICTURES, bot_of, check_place, fit_embed, session_id, user_locale
from cogs.games.components import HANDLERS, ID, SMALL, as_button, handle
from cogs.games.ui import MAX_LABEL, Names, clip, png_file, ui_for
from rules import registry
from rules.core import RuleError

LOG_PAGE_CHARS = 3500


def log_lines(rec: SessionRecord, entries: list[LogEntry], locale: str,
              ai: Mapping[str, str] | None = None) -> list[str]:
    """Every public event of the game in the reader's language, numbered by the action that caused it;
    steps the bot took for a seat are marked; ``ai``: the table's AI seats, named for the reader."""
    ui, names = ui_for(rec.game_id), Names.of(rec, ai, locale)
    lines: list[str] = []
    for step in history.steps(rec, entries):
        if step.undone:
            lines.append(f"{step.entry.seq}. {takeback_line(rec, step, locale, names)}")
        for event in step.events:
            if event.audience is None and (text := ui.event_text(event, locale, names)):
                text = t(locale, "table.auto_step", line=text) if step.entry.auto else text
                lines.append(f"{step.entry.seq}. {text}")
    return lines


def takeback_line(rec: SessionRecord, step: history.Step, locale: str, names: Names) -> str:
    """A take-back in the log's words (the engine has no event for it: no action was applied)."""
    return t(locale, "takeback.line", user=names(step.entry.seat), count=step.undone)


def recent_lines(rec: SessionRecord, entries: list[LogEntry], locale: str,
                 ai: Mapping[str, str] | None = None) -> list[Line]:
    """The public events of the log as the table's recent moves keep them: by seat, automatic marked."""
    ui, names = ui_for(rec.game_id), Names.of(rec, ai, locale)
    lines: list[Line] = []
    for step in history.steps(rec, entries):
        if step.undone:
            lines.append(Line(takeback_line(rec, step, locale, names), step.entry.seat))
        lines.extend(Line(text, step.entry.seat, step.entry.auto) for event in step.events
                     if event.audience is None and (text := ui.event_text(event, locale, names)))
    return lines


def folded_text(folded: list[Folded], locale: str) -> list[str]:
    """Folded lines in words: a run of automatic steps as one line with its count and its last step."""
    out = []
    for f in folded:
        if not f.line.auto:
            out.append(f.line.text)
        elif f.count == 1:
            out.append(t(locale, "table.auto_step", line=f.line.text))
        else:
            out.append(t(locale, "table.auto_steps", count=f.count, line=f.line.text))
    return out


def pages_of(lines: list[str], limit: int = LOG_PAGE_CHARS) -> list[str]:
    pages: list[str] = []
    current: list[str] = []
    size = 0
    for line in lines:
        line = clip(line, limit)
        if current and size + len(line) + 1 > limit:
            pages.append("\n".join(current))
            current, size = [], 0
        current.append(line)
        size += len(line) + 1
    if current or not pages:
        pages.append("\n".join(current))
    return pages


async def session_here(interaction: discord.Interaction, sid: int | None) -> SessionRecord:
    """The session named, or the channel's latest (running, else the last one that ended there: the log
    is most wanted right after the end), refused unless it was played on this server (from a DM: unless
    the clicker is seated in it)."""
    bot = bot_of(interaction)
    if sid is None:
        rec = await bot.sessions.latest_in_channel(interaction.channel_id or 0, interaction.guild_id)
        if rec is None:
            raise SessionError("no_session")
        return rec
    rec = await bot.sessions.record(sid)
    if interaction.guild_id is None:
        check_place(interaction, rec)  # a DM has no server to compare: the clicker must be seated
    elif rec.guild_id != interaction.guild_id:
        raise SessionError("no_such_game")
    return rec


class LogPageButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=rf"gk:(?P<sid>{ID}):(?P<page>{SMALL})"):
    def __init__(self, sid: int, page: int, label: str = "", disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=clip(label or str(page + 1), MAX_LABEL), disabled=disabled,
                                           style=discord.ButtonStyle.secondary, custom_id=f"gk:{sid}:{page}"))
        self.sid, self.page = sid, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> LogPageButton:
        return cls(session_id(match["sid"]), int(match["page"]), as_button(item).label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle(interaction, "log_page", self.sid, self.page)


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=rf"gr:(?P<sid>{ID}):(?P<step>{SMALL}):(?P<tag>[a-z]+)(?P<hands>:h)?"):
    """A step of a replay; ``hands``: the replay shows every hand (a finished game whose lobby allowed
    it; the handler checks that again, the id is never trusted)."""

    def __init__(self, sid: int, step: int, tag: str, label: str = "", disabled: bool = False,
                 hands: bool = False) -> None:
        custom_id = f"gr:{sid}:{step}:{tag}" + (":h" if hands else "")
        super().__init__(discord.ui.Button(label=clip(label or tag, MAX_LABEL), disabled=disabled,
                                           style=discord.ButtonStyle.secondary, custom_id=custom_id))
        self.sid, self.step, self.hands = sid, step, hands

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> ReplayButton:
        return cls(session_id(match["sid"]), int(match["step"]), match["tag"], as_button(item).label or "",
                   hands=bool(match["hands"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle(interaction, "replay_step", self.sid, self.step, self.hands)


def log_message(rec: SessionRecord, pages: list[str], page: int, locale: str) -> dict[str, Any]:
    page = min(max(page, 0), len(pages) - 1)
    spec = registry.get(rec.game_id)
    embed = discord.Embed(title=t(locale, "history.log_title", game=spec.name(locale), session=rec.id),
                          description=pages[page] or t(locale, "history.empty"), colour=discord.Colour.blurple())
    embed.set_footer(text=t(locale, "history.page", page=page + 1, pages=len(pages)))
    view = discord.ui.View(timeout=None)
    if len(pages) > 1:
        view.add_item(LogPageButton(rec.id, max(page - 1, 0), "◀", disabled=page == 0))
        view.add_item(LogPageButton(rec.id, min(page + 1, len(pages) - 1), "▶", disabled=page == len(pages) - 1))
    return {"embed": fit_embed(embed), "view": view}


def replay_message(rec: SessionRecord, entries: list[LogEntry], step: int, locale: str,
                   hands: bool | None = None, ai: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The public table after ``step`` logged actions, with its picture where the game has one. Drawn in
    the picture worker (the caller runs it there). ``hands``: None, the replay keeps hands hidden; else
    the game allows showing them, and True shows every seat's private view below the table. ``ai``: the
    table's AI seats, named for the reader."""
    spec, ui, names = registry.get(rec.game_id), ui_for(rec.game_id), Names.of(rec, ai, locale)
    step = min(max(step, 0), len(entries))
    state = history.state_at(rec, entries, step)
    public = spec.engine.view(state, None)
    embed = ui.table_embed(public, locale, names)
    embed.set_footer(text=t(locale, "history.replay_footer", game=spec.name(locale), session=rec.id, step=step,
                            steps=len(entries)))
    if hands:
        for seat in dict.fromkeys([*(str(s) for s in rec.seats), *history.starting_seats(rec.seats, entries)]):
            try:
                text = ui.text_private(spec.engine.view(state, seat), locale, names)
            except RuleError:
                continue  # not seated at this step (joined later, or left before it)
            embed.add_field(name=t(locale, "history.hand_of", name=names(seat)), value=clip(text, 1024) or "—",
                            inline=False)
    payload: dict[str, Any] = {"embed": fit_embed(embed)}
    image = ui.table_image(public, locale, names)
    if image is not None:
        embed.set_image(url="attachment://table.png")
        payload["attachments"] = [png_file(image)]
    else:
        payload["attachments"] = []
    view = discord.ui.View(timeout=None)
    last = len(entries)
    for target, tag, label in ((0, "first", "⏮"), (step - 1, "back", "◀"), (step + 1, "fwd", "▶"),
                               (last, "last", "⏭")):
        target = min(max(target, 0), last)
        view.add_item(ReplayButton(rec.id, target, tag, label, disabled=target == step, hands=bool(hands)))
    if hands is not None:  # the switch: the same step with the hands shown, or hidden again
        key = "history.hands_hide" if hands else "history.hands_show"
        view.add_item(ReplayButton(rec.id, step, "hands", t(locale, key), hands=not hands))
    payload["view"] = view
    return payload


async def show_log_page(interaction: discord.Interaction, sid: int, page: int) -> None:
    rec = await session_here(interaction, sid)
    loc = user_locale(interaction)
    entries = await bot_of(interaction).sessions.log(rec.id)
    lines = log_lines(rec, entries, loc, await bot_of(interaction).sessions.ai_seats(rec.id))
    await interaction.response.edit_message(**log_message(rec, pages_of(lines), page, loc))


async def show_replay_step(interaction: discord.Interaction, sid: int, step: int, hands: bool = False) -> None:
    rec = await session_here(interaction, sid)
    if rec.status not in ("finished", "abandoned"):
        raise SessionError("replay_running")
    loc = user_locale(interaction)
    sessions = bot_of(interaction).sessions
    entries = await sessions.log(rec.id)
    allowed = await sessions.replay_hands(rec)
    await interaction.response.defer()
    payload = await asyncio.get_running_loop().run_in_executor(
        PICTURES, functools.partial(replay_message, rec, entries, step, loc, hands if allowed else None,
                                    await sessions.ai_seats(rec.id)))
    await interaction.edit_original_response(**payload)


HANDLERS.update(log_page=show_log_page, replay_step=show_replay_step)
HISTORY_ITEMS = (LogPageButton, ReplayButton)


def tally(games: Sequence[tuple[SessionRecord, Mapping[str, SeatEnd]]],
          game: str | None) -> dict[tuple[str, int], list[int]]:
    """(game, player) -> [played, won, left early] over finished games, from how each seat ended (the
    session service's one answer): a player who left, was voted out or timed out never counts a win, even
    when the AI that finished their seat won it."""
    out: dict[tuple[str, int], list[int]] = {}
    for rec, endings in games:
        if game is not None and rec.game_id != game:
            continue
        for seat, ending in endings.items():
            uid = rec.player(seat)  # a seat handed over counts for whoever sat in it last
            if uid < 0:
                continue  # an AI seat keeps no record
            row = out.setdefault((rec.game_id, uid), [0, 0, 0])
            row[0] += 1
            row[1] += ending in WINS
            row[2] += ending not in ("won", "lost")
    return out


def stats_embed(table: dict[tuple[str, int], list[int]], locale: str, member: int | None,
                game: str | None) -> discord.Embed:
    embed = discord.Embed(title=t(locale, "history.stats_title"), colour=discord.Colour.blurple())
    rows = sorted(((g, uid, p, w, gone) for (g, uid), (p, w, gone) in table.items() if member is None or uid == member),
                  key=lambda r: (r[0], -r[3], -r[2]))
    by_game: dict[str, list[str]] = {}
    for g, uid, played, won, gone in rows:
        key = "history.stats_line_left" if gone else "history.stats_line"
        by_game.setdefault(g, []).append(t(locale, key, user=f"<@{uid}>", played=played, won=won, left=gone))
    for g, lines in by_game.items():
        embed.add_field(name=registry.get(g).name(locale), value=clip("\n".join(lines[:20]), 1024), inline=False)
    if not by_game:
        embed.description = t(locale, "history.stats_none")
    return fit_embed(embed)

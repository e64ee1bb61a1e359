"""``/game …`` commands, the lobby, and the table machinery every game shares.

Buttons are ``DynamicItem`` templates whose custom_id carries the session id (and, for actions, the
version and the index into ``legal_actions``), so they work after a restart; the engine re-validates
every click. Game-specific presentation comes from the game's :class:`bot.ui.GameUI`.
"""

from __future__ import annotations

import asyncio
import functools
import importlib.util
import logging
import re
from collections import deque
from collections.abc import Hashable
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands
from pydantic import BaseModel

from bot.i18n import catalog, locale_of, t
from bot.sessions import Outcome, SessionError, parse_option_text
from bot.storage import SessionNotFound, SessionRecord
from bot.ui import MAX_LABEL, MAX_ROWS, MAX_SELECT_OPTIONS, GameUI, Names, clip, has_picture, layout_actions, png_file, ui_for
from rules import registry
from rules.core import GameSpec, RuleError

if TYPE_CHECKING:
    from bot.client import GameBot

log = logging.getLogger(__name__)
MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True)
# Table pictures are drawn one at a time, off the event loop. One worker is enough to keep the loop free,
# and more would only fight it for the GIL (drawing is partly Python) when many tables change at once.
PICTURES = ThreadPoolExecutor(max_workers=1, thread_name_prefix="table-picture")


def bot_of(interaction: discord.Interaction) -> GameBot:
    return interaction.client  # type: ignore[return-value]


def user_locale(interaction: discord.Interaction) -> str:
    return locale_of(interaction.locale)


def seat_locale(rec: SessionRecord, user_id: int) -> str:
    """The language of a player's private messages: their client's when they sat down (the channel's for
    seats taken before languages were stored)."""
    return rec.locales.get(str(user_id), rec.locale)


def channel_locale(interaction: discord.Interaction) -> str:
    return locale_of(interaction.guild_locale or interaction.locale)


def display_name(user: discord.abc.User) -> str:
    return clip(getattr(user, "display_name", None) or user.name, 32)


async def reply(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """An ephemeral answer whether or not the interaction was already answered."""
    kwargs.setdefault("ephemeral", True)
    if interaction.response.is_done():
        await interaction.followup.send(text, **kwargs)
    else:
        await interaction.response.send_message(text, **kwargs)


def rule_error_text(err: RuleError, locale: str, ui: GameUI | None, names: Names) -> str:
    params = dict(err.params)
    if ui is not None:
        params = ui.rule_error_params(params, locale, names)
    return t(locale, f"rule.{err.code}", **params)


async def guarded(interaction: discord.Interaction, work: Callable[[], Awaitable[None]]) -> None:
    """Every interaction goes through here: refusals become short localized answers, bugs are logged
    with a traceback and the user gets a one-line apology rather than silence."""
    loc = user_locale(interaction)
    try:
        await work()
    except SessionError as exc:
        await reply(interaction, exc.text(loc))
    except RuleError as exc:
        await reply(interaction, rule_error_text(exc, loc, None, Names({})))
    except Exception:
        log.exception("interaction %s failed", interaction.id)
        try:
            await reply(interaction, t(loc, "err.internal"))
        except discord.HTTPException:
            log.warning("could not tell the user about the failure")


# ====================================================================== rendering


def lobby_embed(rec: SessionRecord, locale: str) -> discord.Embed:
    spec = registry.get(rec.game_id)
    embed = discord.Embed(
        title=t(locale, "lobby.title", game=spec.name(locale)),
        description=t(locale, "lobby.help", min=spec.min_seats, max=spec.max_seats),
        colour=discord.Colour.blurple(),
    )
    seats = "\n".join(
        f"{i + 1}. <@{uid}>" + (" 👑" if uid == rec.host_id else "") for i, uid in enumerate(rec.seats)
    )
    embed.add_field(name=t(locale, "lobby.seats", count=len(rec.seats)), value=seats or "—", inline=False)
    embed.add_field(name=t(locale, "lobby.options"), value=options_text(rec, locale), inline=False)
    if rec.status == "abandoned":
        embed.set_footer(text=t(locale, "lobby.closed"))
    return embed


def option_value_text(game_id: str, name: str, value: Any, locale: str) -> str:
    """An option's value in words: the game's own wording, else its catalog key, else the value itself."""
    custom = ui_for(game_id).option_text(name, value, locale)
    if custom is not None:
        return custom
    if isinstance(value, bool):
        return t(locale, "common.on") if value else t(locale, "common.off")
    key = f"opt.{game_id}.{name}.{value}"
    if catalog().has(locale_of(locale), key) or catalog().has("en", key):
        return t(locale, key)
    return ", ".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)


def options_text(rec: SessionRecord, locale: str) -> str:
    lines = []
    for name, value in rec.options.items():
        label = t(locale, f"opt.{rec.game_id}.{name}")
        lines.append(f"• {label}: **{clip(option_value_text(rec.game_id, name, value, locale), 200)}**")
    return "\n".join(lines) or "—"


def _bounded_numbers(field: Any) -> list[int] | None:
    """The values of an integer option with bounds that fit one select menu (e.g. 0..8), else None."""
    if field.annotation is not int:
        return None
    lo = hi = None
    for meta in field.metadata:
        lo = getattr(meta, "ge", lo)
        hi = getattr(meta, "le", hi)
    if lo is None or hi is None or hi - lo + 1 > MAX_SELECT_OPTIONS:
        return None
    return list(range(lo, hi + 1))


class LobbyView(discord.ui.View):
    def __init__(self, rec: SessionRecord, locale: str) -> None:
        super().__init__(timeout=None)
        active = rec.status == "lobby"
        for op, style in (("join", discord.ButtonStyle.success), ("leave", discord.ButtonStyle.secondary),
                          ("start", discord.ButtonStyle.primary)):
            self.add_item(LobbyButton(rec.id, op, t(locale, f"lobby.{op}"), style, disabled=not active))
        if active:
            for item in option_selects(rec, locale):
                self.add_item(item)


def option_selects(rec: SessionRecord, locale: str) -> list[discord.ui.Item[Any]]:
    """One multi-select for the on/off options and one select per multiple-choice option."""
    spec = registry.get(rec.game_id)
    fields = spec.options_model.model_fields
    flags = [n for n, f in fields.items() if f.annotation is bool]
    items: list[discord.ui.Item[Any]] = []
    if flags:
        opts = [
            discord.SelectOption(
                label=clip(t(locale, f"opt.{rec.game_id}.{n}"), 100), value=n, default=bool(rec.options.get(n))
            )
            for n in flags
        ]
        items.append(OptionSelect(rec.id, "_flags", t(locale, "lobby.variants"), opts, multi=True))
    for name, f in fields.items():
        choices = getattr(f.annotation, "__args__", None)
        if name in flags:
            continue
        if not choices or not all(isinstance(c, str) for c in choices):
            choices = _bounded_numbers(f)
            if choices is None:
                continue
        current = rec.options.get(name, f.default)
        opts = [
            discord.SelectOption(
                label=clip(option_value_text(rec.game_id, name, c, locale), 100), value=str(c),
                default=current == c,
            )
            for c in choices
        ]
        items.append(OptionSelect(rec.id, name, t(locale, f"opt.{rec.game_id}.{name}"), opts, multi=False))
    return items


def table_view(rec: SessionRecord, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if rec.status == "running":
        view.add_item(HandButton(rec.id, t(locale, "table.my_hand")))
        spec = registry.get(rec.game_id)
        if spec.joinable and len(rec.seats) < spec.max_seats:
            view.add_item(JoinRunningButton(rec.id, t(locale, "table.join")))
        if spec.joinable and len(rec.seats) > spec.min_seats:  # who may leave is the engine's rule
            view.add_item(LeaveRunningButton(rec.id, t(locale, "table.leave"), confirm=False))
    return view


def actions_view(
    ui: GameUI, rec: SessionRecord, game_view: Any, actions: list[BaseModel], locale: str, page: int = 0
) -> discord.ui.View:
    names = Names.of(rec)
    layout = layout_actions(ui, game_view, actions, locale, names, page)
    view = discord.ui.View(timeout=None)
    for row, index, label in layout.buttons:
        view.add_item(ActionButton(rec.id, rec.version, index, label, row=row))
    for row, part, placeholder, options in layout.selects:
        view.add_item(ActionSelect(rec.id, rec.version, part, placeholder, options, row=row))
    if layout.pages > 1:
        shown = {"page": layout.page + 1, "pages": layout.pages}
        back, more = max(layout.page - 1, 0), min(layout.page + 1, layout.pages - 1)
        view.add_item(PageTurnButton(rec.id, rec.version, back, t(locale, "private.page_prev", **shown),
                                     disabled=layout.page == 0))
        view.add_item(PageTurnButton(rec.id, rec.version, more, t(locale, "private.page_next", **shown),
                                     disabled=layout.page == layout.pages - 1))
    return view


def private_message(
    rec: SessionRecord, state: BaseModel, seat: str, locale: str, page: int = 0
) -> tuple[discord.Embed, discord.ui.View]:
    spec = registry.get(rec.game_id)
    ui = ui_for(rec.game_id)
    game_view = spec.engine.view(state, seat)
    embed = ui.private_embed(game_view, locale, Names.of(rec))
    embed.set_footer(text=t(locale, "private.footer", game=spec.name(locale), session=rec.id))
    actions = spec.engine.legal_actions(state, seat) if rec.status == "running" else []
    return embed, actions_view(ui, rec, game_view, actions, locale, page)


def newest_first_fit(lines: list[str], limit: int) -> str:
    """The log lines that fit a field, dropping the oldest first: the latest move must always show (a long
    line, such as an encounter's text, would otherwise push it off the end)."""
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        line = clip(line, limit)
        if kept and size + 1 + len(line) > limit:
            break
        kept.append(line)
        size += len(line) + (1 if size else 0)
    return "\n".join(reversed(kept))


def table_content(rec: SessionRecord, state: BaseModel, locale: str) -> str:
    spec = registry.get(rec.game_id)
    ui = ui_for(rec.game_id)
    names = Names.of(rec)
    if rec.status == "finished":
        return t(locale, "table.finished")
    if rec.status == "abandoned":
        return t(locale, "table.abandoned")
    lines = []
    for prompt in spec.engine.pending(state):
        lines.append(f"<@{prompt.seat}> — {ui.prompt_text(prompt, locale, names)}")
    return "\n".join(lines)


def table_payload(
    rec: SessionRecord, state: BaseModel, locale: str, last: list[str], keep_image: str | None = None,
    public: Any = None,
) -> dict[str, Any]:
    """Everything the table message shows. ``keep_image`` is the URL of a picture still up to date;
    ``public`` is the engine's public view of ``state`` when the caller already built it."""
    spec = registry.get(rec.game_id)
    ui = ui_for(rec.game_id)
    names = Names.of(rec)
    if public is None:
        public = spec.engine.view(state, None)
    embed = ui.table_embed(public, locale, names)
    if last:
        embed.add_field(name=t(locale, "table.last"), value=newest_first_fit(last, 1024), inline=False)
    embed.set_footer(text=t(locale, "table.footer", session=rec.id, version=rec.version))
    payload: dict[str, Any] = {
        "content": clip(table_content(rec, state, locale), 2000),
        "embed": embed,
        "view": table_view(rec, locale),
        "allowed_mentions": MENTIONS,
    }
    if keep_image:
        embed.set_image(url=keep_image)
        return payload
    image = ui.table_image(public, locale, names)
    if image is not None:
        embed.set_image(url="attachment://table.png")
        payload["attachments"] = [png_file(image)]
    return payload


# ====================================================================== the table service


class Tables:
    """What happens around an applied action: table edits, DMs, announcements.

    Table edits are coalesced per session: Discord limits edits per channel, and a table that received
    five moves while one picture was being drawn needs one more edit, not five. Each move appends to a
    short rolling log so coalesced moves still show under "Last moves".
    """

    LOG_LINES = 8

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.dm_refused: set[tuple[int, int]] = set()
        self._latest: dict[int, tuple[SessionRecord, BaseModel]] = {}
        self._shown: dict[int, int] = {}
        self._render_locks: dict[int, asyncio.Lock] = {}
        self._log: dict[int, deque[str]] = {}
        self._image: dict[int, tuple[Hashable, str]] = {}  # session -> (picture key, its URL)
        self._last_edit: dict[int, float] = {}
        # Newest DM per (session, player) as (channel id, message id): ids are all an edit needs, and a
        # full Message per player would keep its embeds and components alive for the whole game.
        self._last_dm: dict[tuple[int, int], tuple[int, int]] = {}
        # What each player's own cards looked like when last shown (see refresh_affected).
        self._personal: dict[tuple[int, int], tuple[int, Hashable]] = {}  # (session, player) -> (version, key)
        self._dm_channels: dict[int, int] = {}  # player -> DM channel id

    def channel(self, channel_id: int) -> discord.abc.Messageable:
        found = self.bot.get_channel(channel_id)
        if isinstance(found, discord.abc.Messageable):
            return found
        return self.bot.get_partial_messageable(channel_id)

    def note(self, session_id: int, lines: list[str]) -> None:
        log = self._log.setdefault(session_id, deque(maxlen=self.LOG_LINES))
        log.extend(lines)

    async def refresh_table(self, rec: SessionRecord, state: BaseModel, lines: list[str] | None = None) -> None:
        if lines:
            self.note(rec.id, lines)
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
            newest, newest_state = self._latest[rec.id]
            if self._shown.get(rec.id, -1) >= newest.version and newest.status == "running":
                return  # a newer picture went out while this move waited
            last = list(self._log.get(rec.id, ()))
            ui = ui_for(newest.game_id)
            public = registry.get(newest.game_id).engine.view(newest_state, None)
            key = ui.image_key(public)
            kept = self._image.get(rec.id)
            keep = kept[1] if kept is not None and key is not None and kept[0] == key else None
            args = (newest, newest_state, newest.locale, last, keep, public)
            if keep is None and has_picture(ui):
                # Drawing is the slow part; text alone is cheaper built here than handed to a thread.
                payload = await loop.run_in_executor(PICTURES, functools.partial(table_payload, *args))
            else:
                payload = table_payload(*args)
            message = await self._edit_table(newest, payload)
            self._shown[rec.id] = newest.version
            self._last_edit[rec.id] = loop.time()
            if key is not None and keep is None and message.embeds and message.embeds[0].image.url:
                self._image[rec.id] = (key, message.embeds[0].image.url)

    async def _edit_table(self, rec: SessionRecord, payload: dict[str, Any]) -> discord.Message:
        channel = self.channel(rec.channel_id)
        message = channel.get_partial_message(rec.table_message_id)  # type: ignore[attr-defined]
        try:
            return await message.edit(**payload)
        except discord.NotFound:
            # The table message was deleted: post a new one and remember it.
            files = payload.pop("attachments", [])
            sent = await channel.send(**payload, files=files)
            await self.bot.sessions.set_table_message(rec.id, sent.id)
            return sent

    async def dm_channel(self, user_id: int) -> discord.abc.Messageable:
        """The DM channel with a player. Its id never changes, so it is opened once per player: discord.py
        keeps only the newest 128 DM channels, and a bot with more players would otherwise look the user up
        and reopen the channel (two extra requests) before every DM."""
        known = self._dm_channels.get(user_id)
        if known is not None:
            return self.bot.get_partial_messageable(known, type=discord.ChannelType.private)
        channel = await self.bot.create_dm(discord.Object(id=user_id))
        self._dm_channels[user_id] = channel.id
        return channel

    async def send_private(
        self, rec: SessionRecord, state: BaseModel, user_id: int, interaction: discord.Interaction | None
    ) -> None:
        """DM a player their view; if DMs are closed, say so once and point at the "My hand" button."""
        embed, view = private_message(rec, state, str(user_id), seat_locale(rec, user_id))
        try:
            channel = await self.dm_channel(user_id)
            sent = await channel.send(embed=embed, view=view)
            self._last_dm[(rec.id, user_id)] = (sent.channel.id, sent.id)
        except discord.Forbidden as exc:
            if exc.code != 50007:
                raise
            key = (rec.id, user_id)
            if key in self.dm_refused:
                return
            self.dm_refused.add(key)
            if interaction is not None and interaction.user.id == user_id:
                loc = user_locale(interaction)
                await interaction.followup.send(t(loc, "dm.refused_self"), ephemeral=True)
            else:
                await self.channel(rec.channel_id).send(
                    t(rec.locale, "dm.refused", user=f"<@{user_id}>"), allowed_mentions=MENTIONS
                )

    async def after_action(self, outcome: Outcome, interaction: discord.Interaction | None) -> None:
        rec, state = outcome.record, outcome.state
        ui = ui_for(rec.game_id)
        names = Names.of(rec)
        lines = [s for e in outcome.events if e.audience is None
                 if (s := ui.event_text(e, rec.locale, names))]
        # Whoever must act next hears first; the table edit may wait for its rate-limit slot.
        for seat in outcome.newly_prompted:
            await self.send_private(rec, state, int(seat), interaction)
        await self.refresh_affected(outcome)
        for text in ui.announcements(outcome.events, rec.locale, names):
            await self.channel(rec.channel_id).send(text, allowed_mentions=MENTIONS)
        await self.refresh_table(rec, state, lines)
        if outcome.finished:
            for uid in rec.seats:  # nothing will be refreshed in a finished game
                self._personal.pop((rec.id, uid), None)
                self._last_dm.pop((rec.id, uid), None)

    async def refresh_affected(self, outcome: Outcome) -> None:
        """Players whose own cards another player's move changed get their last DM updated in place
        (no new notification); without a known DM they get a new one. So do players whose DM holds buttons
        still good for this state (a window other seats are still answering, an any-time action): the edit
        moves the buttons to the new version instead of leaving them to answer "outdated"."""
        rec, spec, ui = outcome.record, outcome.spec, ui_for(outcome.record.game_id)
        if outcome.previous is None:
            return
        for uid in rec.seats:
            seat = str(uid)
            if seat == outcome.seat or seat in outcome.newly_prompted or (rec.id, uid) in self.dm_refused:
                continue
            # The previous move usually worked this seat's cards out already (for the version just before
            # this one), which saves building the previous view again.
            known = self._personal.get((rec.id, uid))
            if known is not None and known[0] == rec.version - 1:
                before = known[1]
            else:
                try:
                    before = ui.personal(spec.engine.view(outcome.previous, seat))
                except RuleError:
                    continue  # seated by this very move (joined a running game)
            if before is None:
                continue
            after = ui.personal(spec.engine.view(outcome.state, seat))
            self._personal[(rec.id, uid)] = (rec.version, after)
            last = self._last_dm.get((rec.id, uid))
            if before == after and (last is None or not spec.engine.legal_actions(outcome.state, seat)):
                continue
            if last is None:
                await self.send_private(rec, outcome.state, uid, None)
                continue
            embed, view = private_message(rec, outcome.state, seat, seat_locale(rec, uid))
            message = self.bot.get_partial_messageable(last[0], type=discord.ChannelType.private).get_partial_message(
                last[1])
            try:
                await message.edit(embed=embed, view=view)
            except discord.NotFound:
                await self.send_private(rec, outcome.state, uid, None)

    async def announce_start(self, rec: SessionRecord, state: BaseModel, interaction: discord.Interaction) -> None:
        for uid in rec.seats:
            await self.send_private(rec, state, uid, interaction)


def tables(interaction: discord.Interaction) -> Tables:
    return bot_of(interaction).tables


# ====================================================================== dynamic items


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"gl:(?P<sid>\d+):(?P<op>join|leave|start)"):
    def __init__(self, sid: int, op: str, label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=clip(label or op, MAX_LABEL), style=style,
                                           custom_id=f"gl:{sid}:{op}", disabled=disabled))
        self.sid, self.op = sid, op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> LobbyButton:
        return cls(int(match["sid"]), match["op"], item.label or "", item.style, item.disabled)

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: lobby_op(interaction, self.sid, self.op, edit=True))


class OptionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"go:(?P<sid>\d+):(?P<field>\w+)"):
    def __init__(self, sid: int, field: str, placeholder: str = "", options: list[discord.SelectOption] | None = None,
                 multi: bool = False) -> None:
        options = options or [discord.SelectOption(label=field)]
        super().__init__(discord.ui.Select(
            custom_id=f"go:{sid}:{field}", placeholder=clip(placeholder, 150) or None, options=options,
            min_values=0 if multi else 1, max_values=len(options) if multi else 1,
        ))
        self.sid, self.field = sid, field

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select[Any],
                             match: re.Match[str]) -> OptionSelect:
        return cls(int(match["sid"]), match["field"], item.placeholder or "", item.options, item.max_values > 1)

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            bot = bot_of(interaction)
            rec = await bot.store.get(self.sid)
            spec = registry.get(rec.game_id)
            values = list(self.item.values)
            if self.field == "_flags":
                flags = [n for n, f in spec.options_model.model_fields.items() if f.annotation is bool]
                changes: dict[str, Any] = {n: n in values for n in flags}
            else:
                changes = {self.field: values[0] if values else None}
            rec = await bot.sessions.set_options(self.sid, interaction.user.id, changes)
            loc = locale_of(rec.locale)
            await interaction.response.edit_message(embed=lobby_embed(rec, loc), view=LobbyView(rec, loc))

        await guarded(interaction, work)


class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"gh:(?P<sid>\d+)"):
    def __init__(self, sid: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=clip(label or "✋", MAX_LABEL), style=discord.ButtonStyle.primary,
                                           custom_id=f"gh:{sid}", emoji="✋"))
        self.sid = sid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> HandButton:
        return cls(int(match["sid"]), item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: show_hand(interaction, self.sid))


class JoinRunningButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"gj:(?P<sid>\d+)"):
    def __init__(self, sid: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=clip(label or "+", MAX_LABEL), style=discord.ButtonStyle.success,
                                           custom_id=f"gj:{sid}"))
        self.sid = sid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> JoinRunningButton:
        return cls(int(match["sid"]), item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: ask_join_running(interaction, self.sid))


class JoinConfirmButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"gjc:(?P<sid>\d+)"):
    """The second click of joining a running game: the first only asks (a stray click seats nobody)."""

    def __init__(self, sid: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=clip(label or "OK", MAX_LABEL), style=discord.ButtonStyle.success,
                                           custom_id=f"gjc:{sid}"))
        self.sid = sid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> JoinConfirmButton:
        return cls(int(match["sid"]), item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: join_running(interaction, self.sid))


class LeaveRunningButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                         template=r"gq(?P<confirm>c?):(?P<sid>\d+)"):
    """Leaving a running game that allows it: the table's button (``gq``) only asks; the confirm button
    (``gqc``) in that ephemeral answer takes the player out."""

    def __init__(self, sid: int, label: str = "", confirm: bool = False) -> None:
        style = discord.ButtonStyle.danger if confirm else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=clip(label or "OK", MAX_LABEL), style=style,
                                           custom_id=f"gq{'c' if confirm else ''}:{sid}"))
        self.sid, self.confirm = sid, confirm

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> LeaveRunningButton:
        return cls(int(match["sid"]), item.label or "", confirm=bool(match["confirm"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.confirm:
            await guarded(interaction, lambda: leave_running(interaction, self.sid))
        else:
            await guarded(interaction, lambda: ask_leave_running(interaction, self.sid))


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"gb:(?P<sid>\d+):(?P<ver>\d+):(?P<idx>\d+)"):
    def __init__(self, sid: int, ver: int, idx: int, label: str = "", row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=clip(label or str(idx), MAX_LABEL), row=row,
                                           style=discord.ButtonStyle.secondary, custom_id=f"gb:{sid}:{ver}:{idx}"))
        self.sid, self.ver, self.idx = sid, ver, idx

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> ActionButton:
        return cls(int(match["sid"]), int(match["ver"]), int(match["idx"]), item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: take_action(interaction, self.sid, self.ver, self.idx))


class ActionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=r"gs:(?P<sid>\d+):(?P<ver>\d+):(?P<part>[0-9.]+)"):
    def __init__(self, sid: int, ver: int, part: str, placeholder: str = "",
                 options: list[tuple[int, str]] | None = None, row: int | None = None) -> None:
        opts = [discord.SelectOption(label=label, value=str(i)) for i, label in (options or [(0, "—")])]
        super().__init__(discord.ui.Select(custom_id=f"gs:{sid}:{ver}:{part}", placeholder=placeholder or None,
                                           options=opts, row=row))
        self.sid, self.ver = sid, ver

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select[Any],
                             match: re.Match[str]) -> ActionSelect:
        select = cls(int(match["sid"]), int(match["ver"]), match["part"], item.placeholder or "")
        select.item.options = item.options
        return select

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            values = self.item.values
            if not values or not values[0].isdigit():
                raise SessionError("bad_choice")
            await take_action(interaction, self.sid, self.ver, int(values[0]))

        await guarded(interaction, work)


class PageTurnButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=r"gp:(?P<sid>\d+):(?P<ver>\d+):(?P<page>\d+)"):
    """Shows another page of a player's actions; changes nothing in the game."""

    def __init__(self, sid: int, ver: int, page: int, label: str = "", disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=clip(label or str(page + 1), MAX_LABEL), row=MAX_ROWS - 1,
                                           style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=f"gp:{sid}:{ver}:{page}"))
        self.sid, self.ver, self.page = sid, ver, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> PageTurnButton:
        return cls(int(match["sid"]), int(match["ver"]), int(match["page"]), item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: turn_page(interaction, self.sid, self.ver, self.page))


class AbandonButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ga:(?P<sid>\d+):(?P<ver>\d+)"):
    def __init__(self, sid: int, ver: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=clip(label or "OK", MAX_LABEL), style=discord.ButtonStyle.danger,
                                           custom_id=f"ga:{sid}:{ver}"))
        self.sid, self.ver = sid, ver

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> AbandonButton:
        return cls(int(match["sid"]), int(match["ver"]), item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: confirm_abandon(interaction, self.sid, self.ver))


DYNAMIC_ITEMS = (LobbyButton, OptionSelect, HandButton, JoinRunningButton, JoinConfirmButton, LeaveRunningButton,
                 ActionButton, ActionSelect, PageTurnButton, AbandonButton)


# ====================================================================== flows


async def active_session(interaction: discord.Interaction) -> SessionRecord:
    rec = await bot_of(interaction).store.active_in_channel(interaction.channel_id or 0)
    if rec is None:
        raise SessionError("no_session")
    return rec


async def lobby_op(interaction: discord.Interaction, sid: int, op: str, *, edit: bool) -> None:
    bot = bot_of(interaction)
    user = interaction.user
    loc = user_locale(interaction)
    if op == "join":
        rec = await bot.sessions.join(sid, user.id, display_name(user), user_locale(interaction))
    elif op == "leave":
        rec = await bot.sessions.leave(sid, user.id)
    else:
        rec, state = await bot.sessions.start(sid, user.id)
        # Refusals above answer at once; only the slow part (picture, DMs) comes after a defer.
        await interaction.response.defer() if edit else await interaction.response.defer(ephemeral=True)
        await start_table(interaction, rec, state)
        if not edit:
            await interaction.followup.send(t(loc, "lobby.started"), ephemeral=True)
        return
    table_loc = locale_of(rec.locale)
    if edit:
        await interaction.response.edit_message(embed=lobby_embed(rec, table_loc), view=LobbyView(rec, table_loc))
    else:
        await interaction.response.send_message(t(loc, f"lobby.{op}_done"), ephemeral=True)
        await refresh_lobby(bot, rec)


async def ask_join_running(interaction: discord.Interaction, sid: int) -> None:
    """The table's Join button asks first (ephemerally); only its confirm button seats the player."""
    bot = bot_of(interaction)
    rec = await bot.store.get(sid)
    loc = user_locale(interaction)
    if interaction.user.id in rec.seats:
        raise SessionError("already_seated")
    view = discord.ui.View(timeout=None)
    view.add_item(JoinConfirmButton(sid, t(loc, "table.join_confirm_button")))
    game = registry.get(rec.game_id).name(loc)
    await interaction.response.send_message(t(loc, "table.join_confirm", game=game), view=view, ephemeral=True)


async def join_running(interaction: discord.Interaction, sid: int) -> None:
    """A newcomer sits down in a running game that allows it (e.g. Cthulhu Fluxx)."""
    bot = bot_of(interaction)
    outcome = await bot.sessions.join_running(sid, interaction.user.id, display_name(interaction.user),
                                              user_locale(interaction))
    await interaction.response.send_message(t(user_locale(interaction), "lobby.join_done"), ephemeral=True)
    await bot.tables.after_action(outcome, interaction)


async def ask_leave_running(interaction: discord.Interaction, sid: int) -> None:
    rec = await bot_of(interaction).store.get(sid)
    loc = user_locale(interaction)
    if interaction.user.id not in rec.seats:
        raise SessionError("not_seated")
    view = discord.ui.View(timeout=None)
    view.add_item(LeaveRunningButton(sid, t(loc, "table.leave_confirm_button"), confirm=True))
    await interaction.response.send_message(t(loc, "table.leave_confirm"), view=view, ephemeral=True)


async def leave_running(interaction: discord.Interaction, sid: int) -> None:
    """A player leaves a running game that allows it (Cthulhu Fluxx); the engine says when they may."""
    bot = bot_of(interaction)
    outcome = await bot.sessions.leave_running(sid, interaction.user.id)
    await interaction.response.edit_message(content=t(user_locale(interaction), "table.leave_done"), view=None)
    await bot.tables.after_action(outcome, interaction)


async def refresh_lobby(bot: GameBot, rec: SessionRecord) -> None:
    if rec.table_message_id is None:
        return
    loc = locale_of(rec.locale)
    message = bot.tables.channel(rec.channel_id).get_partial_message(rec.table_message_id)  # type: ignore[attr-defined]
    await message.edit(embed=lobby_embed(rec, loc), view=LobbyView(rec, loc))


async def start_table(interaction: discord.Interaction, rec: SessionRecord, state: BaseModel) -> None:
    bot = bot_of(interaction)
    spec = registry.get(rec.game_id)
    notice = ui_for(rec.game_id).start_notice(spec.parse_options(rec.options), rec.locale)
    await bot.tables.refresh_table(rec, state, [notice] if notice else [])
    await bot.tables.announce_start(rec, state, interaction)


async def show_hand(interaction: discord.Interaction, sid: int) -> None:
    bot = bot_of(interaction)
    rec, _spec, state = await bot.sessions.load(sid)
    if interaction.user.id not in rec.seats:
        raise SessionError("not_seated")
    if state is None:
        raise SessionError("not_running")
    embed, view = private_message(rec, state, str(interaction.user.id), user_locale(interaction))
    await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def turn_page(interaction: discord.Interaction, sid: int, ver: int, page: int) -> None:
    bot = bot_of(interaction)
    loc = user_locale(interaction)
    rec, _spec, state = await bot.sessions.load(sid)
    if interaction.user.id not in rec.seats:
        raise SessionError("not_seated")
    if rec.status != "running" or state is None:
        raise SessionError("not_running")
    if ver != rec.version:
        await outdated(interaction, rec, state, loc)
        return
    embed, view = private_message(rec, state, str(interaction.user.id), loc, page)
    await interaction.response.edit_message(embed=embed, view=view)


async def take_action(interaction: discord.Interaction, sid: int, ver: int, idx: int) -> None:
    bot = bot_of(interaction)
    loc = user_locale(interaction)
    try:
        rec, spec, state = await bot.sessions.load(sid)
    except SessionNotFound:
        raise SessionError("no_session") from None
    user_id = interaction.user.id
    if user_id not in rec.seats:
        raise SessionError("not_seated")
    if rec.status != "running" or state is None:
        raise SessionError("not_running")
    if ver != rec.version:
        await outdated(interaction, rec, state, loc)
        return
    seat = str(user_id)
    legal = spec.engine.legal_actions(state, seat)
    if idx >= len(legal):
        if not legal:
            prompts = spec.engine.pending(state)
            raise RuleError("waiting_for", seats=[p.seat for p in prompts], kind=prompts[0].kind if prompts else "")
        raise SessionError("bad_choice")
    try:
        outcome = await bot.sessions.act(sid, user_id, ver, legal[idx])
    except SessionError as exc:
        if exc.code != "stale":
            raise
        rec, spec, state = await bot.sessions.load(sid)
        assert state is not None
        await outdated(interaction, rec, state, loc)
        return
    except RuleError as exc:
        await reply(interaction, rule_error_text(exc, loc, ui_for(rec.game_id), Names.of(rec)))
        return
    embed, view = private_message(outcome.record, outcome.state, seat, loc)
    await interaction.response.edit_message(embed=embed, view=view)
    await bot.tables.after_action(outcome, interaction)


async def outdated(interaction: discord.Interaction, rec: SessionRecord, state: BaseModel, loc: str) -> None:
    """A click on an old version: nothing is applied; the player gets the current view to act from."""
    if interaction.user.id in rec.seats:
        embed, view = private_message(rec, state, str(interaction.user.id), loc)
        await interaction.response.send_message(t(loc, "err.stale"), embed=embed, view=view, ephemeral=True)
    else:
        await reply(interaction, t(loc, "err.stale"))


async def confirm_abandon(interaction: discord.Interaction, sid: int, ver: int) -> None:
    bot = bot_of(interaction)
    rec = await bot.store.get(sid)
    if rec.version != ver:
        raise SessionError("stale")
    perms = getattr(interaction.user, "guild_permissions", None)
    rec = await bot.sessions.abandon(sid, interaction.user.id, can_manage=bool(perms and perms.manage_guild))
    loc = user_locale(interaction)
    await interaction.response.edit_message(content=t(loc, "abandon.done"), view=None)
    table_loc = locale_of(rec.locale)
    if rec.state_json is None:
        await refresh_lobby(bot, rec)
    else:
        _rec, _spec, state = await bot.sessions.load(sid)
        assert state is not None
        await bot.tables.refresh_table(rec, state, [])
    await bot.tables.channel(rec.channel_id).send(
        t(table_loc, "abandon.announce", user=f"<@{interaction.user.id}>"), allowed_mentions=MENTIONS
    )


# ====================================================================== commands


def playable() -> list[GameSpec]:
    """Games with both an engine and a Discord cog (``cogs/<game>.py``); an engine alone is not offered."""
    return [spec for spec in registry.all() if importlib.util.find_spec(f"cogs.{spec.id}") is not None]


def game_choices() -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=_(spec.names["en"], key=f"game_name.{spec.id}"), value=spec.id)
        for spec in playable()
    ]


class Games(commands.Cog):
    game = app_commands.Group(
        name=_("game", key="game"), description=_("Play a board game in this channel", key="game.desc"),
        guild_only=True,
    )

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @game.command(name=_("new", key="game.new"), description=_("Open a lobby for a game here", key="game.new.desc"))
    @app_commands.describe(
        game=_("Which game", key="game.new.game"),
        options=_("Variants, e.g. ninja_power imperial_tasks", key="game.new.options"),
    )
    @app_commands.rename(game=_("game", key="game.new.game.name"), options=_("options", key="game.new.options.name"))
    @app_commands.choices(game=game_choices())
    async def new(self, interaction: discord.Interaction, game: str, options: str | None = None) -> None:
        async def work() -> None:
            spec = self.bot.sessions.spec(game)
            parsed = parse_option_text(spec, options)
            table_loc = channel_locale(interaction)
            rec = await self.bot.sessions.open_lobby(
                guild_id=interaction.guild_id, channel_id=interaction.channel_id or 0, game_id=game,
                host_id=interaction.user.id, options=parsed, locale=table_loc,
                host_name=display_name(interaction.user), host_locale=user_locale(interaction),
            )
            try:
                await interaction.response.send_message(embed=lobby_embed(rec, table_loc),
                                                        view=LobbyView(rec, table_loc))
            except Exception:
                # A lobby nobody can see would keep the channel busy: the host (its only seat) leaves it.
                await self.bot.sessions.leave(rec.id, interaction.user.id)
                raise
            message = await interaction.original_response()
            await self.bot.sessions.set_table_message(rec.id, message.id)

        await guarded(interaction, work)

    @game.command(name=_("join", key="game.join"), description=_("Take a seat in this channel's lobby", key="game.join.desc"))
    async def join(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            rec = await active_session(interaction)
            if rec.status == "running":
                await join_running(interaction, rec.id)
                return
            await lobby_op(interaction, rec.id, "join", edit=False)

        await guarded(interaction, work)

    @game.command(name=_("leave", key="game.leave"), description=_("Give up your seat in the lobby", key="game.leave.desc"))
    async def leave(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            rec = await active_session(interaction)
            await lobby_op(interaction, rec.id, "leave", edit=False)

        await guarded(interaction, work)

    @game.command(name=_("start", key="game.start"), description=_("Start the game (host)", key="game.start.desc"))
    async def start(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            rec = await active_session(interaction)
            await lobby_op(interaction, rec.id, "start", edit=False)

        await guarded(interaction, work)

    @game.command(name=_("status", key="game.status"), description=_("Show this channel's game", key="game.status.desc"))
    async def status(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            rec = await active_session(interaction)
            loc = user_locale(interaction)
            if rec.status == "lobby":
                await interaction.response.send_message(embed=lobby_embed(rec, loc), ephemeral=True)
                return
            await interaction.response.defer(ephemeral=True)
            _rec, _spec, state = await self.bot.sessions.load(rec.id)
            assert state is not None
            payload = table_payload(rec, state, loc, [])
            payload.pop("view")
            files = payload.pop("attachments", [])
            await interaction.followup.send(**payload, files=files, ephemeral=True)

        await guarded(interaction, work)

    @game.command(name=_("hand", key="game.hand"), description=_("Show your private view again", key="game.hand.desc"))
    async def hand(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            rec = await active_session(interaction)
            await show_hand(interaction, rec.id)

        await guarded(interaction, work)

    @game.command(name=_("abandon", key="game.abandon"), description=_("End this channel's game (host or Manage Server)", key="game.abandon.desc"))
    async def abandon(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            rec = await active_session(interaction)
            perms = getattr(interaction.user, "guild_permissions", None)
            if interaction.user.id != rec.host_id and not (perms and perms.manage_guild):
                raise SessionError("abandon_forbidden")
            loc = user_locale(interaction)
            view = discord.ui.View(timeout=None)
            view.add_item(AbandonButton(rec.id, rec.version, t(loc, "abandon.confirm_button")))
            await interaction.response.send_message(t(loc, "abandon.confirm"), view=view, ephemeral=True)

        await guarded(interaction, work)

    @game.command(name=_("list", key="game.list"), description=_("Games you can play here", key="game.list.desc"))
    async def list_games(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            loc = user_locale(interaction)
            embed = discord.Embed(title=t(loc, "list.title"), colour=discord.Colour.blurple())
            for spec in playable():
                embed.add_field(
                    name=spec.name(loc),
                    value=t(loc, "list.players", min=spec.min_seats, max=spec.max_seats, id=spec.id),
                    inline=False,
                )
            await interaction.response.send_message(embed=embed, ephemeral=True)

        await guarded(interaction, work)


async def setup(bot: GameBot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(Games(bot))

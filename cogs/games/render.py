"""What the shared machinery shows: the lobby, the table message and a player's private view.

Pure builders (state in, embed and components out), so the table service, the delivery of private
views and the flows all draw the same thing and a picture can be drawn in a worker thread.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord
from pydantic import BaseModel

from bot.i18n import catalog, locale_of, t
from bot.server_settings import CLOCK_CHOICES, TableClock
from bot.storage import SessionRecord
from bot.table.glance import Glance
from bot.table.settings import SWITCHES, TableSettings
from cogs.games.common import MENTIONS, fit_embed
from cogs.games.components import (
    ActionButton,
    ActionSelect,
    HandButton,
    HintButton,
    JoinRunningButton,
    LeaveButton,
    LobbyButton,
    LobbyPageButton,
    OptionSelect,
    PageTurnButton,
    RematchButton,
    TakebackButton,
)
from cogs.games.payload import Components
from cogs.games.ui import MAX_ROWS, MAX_SELECT_OPTIONS, GameUI, Names, clip, layout_actions, png_file, ui_for
from rules import registry

JUMP = "https://discord.com/channels/{guild}/{channel}/{message}"


def jump_url(rec: SessionRecord) -> str | None:
    """A link to the table message, so a DM can take its reader back to the game."""
    if rec.table_message_id is None:
        return None
    return JUMP.format(guild=rec.guild_id or "@me", channel=rec.channel_id, message=rec.table_message_id)


def glance_at(rec: SessionRecord, state: BaseModel, glance: Glance | None) -> Glance:
    """``glance`` when the caller has the engine's answers about ``state`` already, else a fresh one that
    at least shares them between the parts of one message."""
    return glance if glance is not None else Glance(registry.get(rec.game_id), state)


def turn_names(rec: SessionRecord, state: BaseModel, names: Names | None = None, glance: Glance | None = None) -> str:
    """Who the game waits for, by display name (for footers, where mentions do not render)."""
    if rec.status != "running":
        return ""
    names = names or Names.of(rec)
    return ", ".join(names(s) for s in glance_at(rec, state, glance).waiting())


def clock_text(clock: TableClock, locale: str) -> str:
    if clock.remind_hours <= 0:
        return t(locale, "clock.off")
    text = t(locale, "clock.after", count=int(clock.remind_hours))
    if clock.deadline_hours > 0:
        text += t(locale, f"clock.deadline_{clock.deadline_action}", count=int(clock.deadline_hours))
    return text


def lobby_embed(rec: SessionRecord, locale: str, clock: TableClock | None = None,
                ai: Mapping[str, str] | None = None, settings: TableSettings | None = None) -> discord.Embed:
    """The lobby: the game, its seats and options and, as chosen so far, the table's clock and switches."""
    spec = registry.get(rec.game_id)
    about = spec.about.get(locale_of(locale)) or spec.about.get("en", "")
    lines = [about, t(locale, "lobby.learn", game=spec.id, min=spec.minutes[0], max_minutes=spec.minutes[1]),
             "", t(locale, "lobby.help", min=spec.min_seats, max=spec.max_seats)]
    embed = discord.Embed(
        title=t(locale, "lobby.title", game=spec.name(locale)),
        description="\n".join(lines).strip(),
        colour=discord.Colour.blurple(),
    )
    names = Names.of(rec, ai, locale)
    seats = "\n".join(
        f"{i + 1}. {names.mention(str(uid))}" + (" 👑" if uid == rec.host_id else "") for i, uid in enumerate(rec.seats)
    )
    embed.add_field(name=t(locale, "lobby.seats", count=len(rec.seats)), value=seats or "—", inline=False)
    embed.add_field(name=t(locale, "lobby.options"), value=options_text(rec, locale), inline=False)
    if clock is not None:
        embed.add_field(name=t(locale, "clock.title"), value=clock_text(clock, locale), inline=False)
    if settings is not None:
        embed.add_field(name=t(locale, "lobby.table"), value=switches_text(settings, locale), inline=False)
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


TABLE_PAGE = 1
"""The lobby's second page, where it has two: the table's own settings (AI seats, clock, switches)."""
TABLE_MENUS = 2
"""The clock and the switches: the rows the table's own menus take."""


def lobby_pages(rec: SessionRecord, locale: str) -> int:
    """How many pages the lobby's components take: one when the buttons, the game's menus and the table's
    fit Discord's five rows, else two (the game's menus, then the table's)."""
    if rec.status != "lobby":
        return 1
    return 1 if 1 + len(option_selects(rec, locale)) + TABLE_MENUS <= MAX_ROWS else 2


class LobbyView(discord.ui.View):
    """The lobby's buttons and menus. ``clock`` and ``settings`` (the table's, as chosen so far) add the
    table's menus; where they do not fit beside the game's, the lobby has two pages, turned by a button in
    the first row, and the AI seat buttons move to the table's page to make room for it."""

    def __init__(self, rec: SessionRecord, locale: str, clock: TableClock | None = None,
                 settings: TableSettings | None = None, page: int = 0) -> None:
        super().__init__(timeout=None)
        active = rec.status == "lobby"
        paged = active and clock is not None and lobby_pages(rec, locale) > 1
        page = page if paged else 0
        ops = (("join", discord.ButtonStyle.success), ("leave", discord.ButtonStyle.secondary),
               ("start", discord.ButtonStyle.primary), ("ai_add", discord.ButtonStyle.secondary),
               ("ai_remove", discord.ButtonStyle.secondary))
        for op, style in ops:
            disabled = not active or (op == "ai_remove" and not any(s < 0 for s in rec.seats))
            ai = op.startswith("ai_")
            if paged and ai and page != TABLE_PAGE:
                continue
            row = 1 if paged and ai else 0
            self.add_item(LobbyButton(rec.id, op, t(locale, f"lobby.{op}"), style, disabled=disabled,
                                      page=page or None, row=row))
        if paged:
            other = 0 if page == TABLE_PAGE else TABLE_PAGE
            label = t(locale, "lobby.page_game" if other == 0 else "lobby.page_table")
            self.add_item(LobbyPageButton(rec.id, other, label, row=0))
        if not active:
            return
        if page != TABLE_PAGE:
            for item in option_selects(rec, locale):
                self.add_item(item)
        if clock is not None and (page == TABLE_PAGE or not paged):
            self.add_item(clock_select(rec, locale, clock))
            self.add_item(switches_select(rec, locale, settings or TableSettings()))


def switches_select(rec: SessionRecord, locale: str, settings: TableSettings) -> OptionSelect:
    """The table's on/off settings (hints, rated, every hand in the replay) as one multi-select."""
    opts = [discord.SelectOption(label=clip(t(locale, f"lobby.switch.{name}"), 100), value=name,
                                 default=bool(getattr(settings, name))) for name in SWITCHES]
    return OptionSelect(rec.id, "_switches", t(locale, "lobby.switches"), opts, multi=True)


def switches_text(settings: TableSettings, locale: str) -> str:
    lines = []
    for name in SWITCHES:
        value = t(locale, "common.on" if getattr(settings, name) else "common.off")
        lines.append(f"• {t(locale, f'lobby.switch.{name}')}: **{value}**")
    return "\n".join(lines)


def clock_select(rec: SessionRecord, locale: str, clock: TableClock) -> OptionSelect:
    """The turn clock's reminder, among the lobby's menus (a table setting, not a rule of the game)."""
    choices = [TableClock(remind_hours=r, deadline_hours=d, deadline_action=a) for r, d, a in CLOCK_CHOICES]
    if all(c.key != clock.key for c in choices):
        choices.insert(0, clock)  # the server's own default, when it is not one of the presets
    opts = [discord.SelectOption(label=clip(clock_text(c, locale), 100), value=c.key, default=c.key == clock.key)
            for c in choices]
    return OptionSelect(rec.id, "_clock", t(locale, "clock.title"), opts, multi=False)


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


def table_view(rec: SessionRecord, locale: str) -> Components:
    """The table's buttons; they change only with what ``table_view_key`` names."""
    view = Components()
    status, joinable, _locale = table_view_key(rec, locale)
    if status == "running":
        view.add(HandButton.component(rec.id, t(locale, "table.my_hand")))
        if joinable:
            view.add(JoinRunningButton.component(rec.id, t(locale, "table.join")))
        view.add(LeaveButton.component(rec.id, t(locale, "table.leave")))  # what leaving means is the game's rule
        view.add(TakebackButton.component(rec.id, t(locale, "table.takeback")))  # the clicker's own last move
    elif status == "finished":
        view.add(RematchButton.component(rec.id, t(locale, "table.rematch")))
    return view


def table_view_key(rec: SessionRecord, locale: str) -> tuple[str, bool, str]:
    """What the table's buttons depend on: the game's status, whether a seat is free to join, the language.
    A table keeps its view while this stays the same (its items are dynamic, so nothing is kept per
    message and a view can go with every edit)."""
    spec = registry.get(rec.game_id)
    return rec.status, spec.joinable and len(rec.seats) < spec.max_seats, locale


def actions_view(
    ui: GameUI, rec: SessionRecord, game_view: Any, actions: list[BaseModel], locale: str, page: int = 0,
    hints: bool = False, names: Names | None = None,
) -> Components:
    """``hints``: the player may ask for a 💡 hint, offered beside their moves (never without a move)."""
    names = names or Names.of(rec, locale=locale)
    hint = hints and bool(actions)
    layout = layout_actions(ui, game_view, actions, locale, names, page, spare=1 if hint else 0)
    view = Components()
    for row, index, label in layout.buttons:
        view.add(ActionButton.component(rec.id, rec.version, index, label), row)
    for row, part, placeholder, options in layout.selects:
        view.add(ActionSelect.component(rec.id, rec.version, part, placeholder, options), row)
    if layout.pages > 1:
        shown = {"page": layout.page + 1, "pages": layout.pages}
        back, more = max(layout.page - 1, 0), min(layout.page + 1, layout.pages - 1)
        view.add(PageTurnButton.component(rec.id, rec.version, back, t(locale, "private.page_prev", **shown),
                                          disabled=layout.page == 0), PageTurnButton.ROW)
        view.add(PageTurnButton.component(rec.id, rec.version, more, t(locale, "private.page_next", **shown),
                                          disabled=layout.page == layout.pages - 1), PageTurnButton.ROW)
    if hint:
        view.add(HintButton.component(rec.id, rec.version, t(locale, "hint.button")), layout.spare_row)
    return view


def private_message(
    rec: SessionRecord, state: BaseModel, seat: str, locale: str, page: int = 0, place: str = "",
    hints: bool = False, ai: Mapping[str, str] | None = None, glance: Glance | None = None,
) -> tuple[discord.Embed, Components]:
    """A player's view with their moves as components. ``place`` names the server and channel (the
    footer of a DM says where the game is; the title links to the table); ``hints``: the view offers the
    💡 hint button (``SessionService.offers_hints``); ``ai`` the table's AI seats; ``glance``: the engine's
    answers about ``state`` that the caller shares with the other surfaces."""
    spec = registry.get(rec.game_id)
    ui = ui_for(rec.game_id)
    glance = glance_at(rec, state, glance)
    game_view = glance.view(seat)
    names = Names.of(rec, ai, locale)
    embed = ui.private_embed(game_view, locale, names)
    embed.url = jump_url(rec)
    embed.set_footer(text=t(locale, "private.footer", game=spec.name(locale), session=rec.id, place=place))
    fit_embed(embed)
    actions = glance.legal(seat) if rec.status == "running" else []
    return embed, actions_view(ui, rec, game_view, actions, locale, page, hints, names)


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


def table_content(rec: SessionRecord, state: BaseModel, locale: str, away: Mapping[str, int] | None = None,
                  names: Names | None = None, glance: Glance | None = None) -> str:
    """Who the table waits for and since when; ``away``: seats whose player is away, with when they are back
    (Unix seconds), each marked beside its seat; ``names`` and ``glance`` as ``table_payload``'s."""
    ui = ui_for(rec.game_id)
    names = names or Names.of(rec, locale=locale)
    if rec.status == "finished":
        return t(locale, "table.finished")
    if rec.status == "abandoned":
        return t(locale, "table.abandoned")
    lines = []
    # Discord shows a relative timestamp in the reader's own words ("3 hours ago") and keeps it current.
    since = t(locale, "clock.waiting", since=f"<t:{int(rec.updated_at.timestamp())}:R>")
    away = away or {}
    pending = glance_at(rec, state, glance).prompts
    for prompt in pending:
        line = f"{names.mention(prompt.seat)} — {ui.prompt_text(prompt, locale, names)} · ⏳ {since}"
        if prompt.seat in away:
            line += " · " + t(locale, "away.mark", until=f"<t:{away[prompt.seat]}:R>")
        lines.append(line)
    waiting = {p.seat for p in pending}
    lines += [f"{names(seat)} · " + t(locale, "away.mark", until=f"<t:{back}:R>")
              for seat, back in away.items() if seat not in waiting]
    return "\n".join(lines)


NOT_DRAWN: Any = object()


def table_payload(
    rec: SessionRecord, state: BaseModel, locale: str, last: list[str], keep_image: str | None = None,
    public: Any = None, image: bytes | None = NOT_DRAWN, away: Mapping[str, int] | None = None,
    hinted: tuple[str, ...] = (), ai: Mapping[str, str] | None = None, glance: Glance | None = None,
    buttons: Components | None = None,
) -> dict[str, Any]:
    """Everything the table message shows. ``keep_image`` is the URL of a picture still up to date;
    ``public`` is the engine's public view of ``state`` when the caller already built it; ``image`` the
    picture when it was drawn elsewhere (a drawing process); ``away`` as ``table_content``'s; ``hinted``
    the seats that asked for a hint; ``ai`` the table's AI seats, marked 🤖; ``glance`` the engine's answers
    about ``state`` shared with the other surfaces; ``buttons`` the table's ``table_view`` when the caller
    keeps one."""
    spec = registry.get(rec.game_id)
    ui = ui_for(rec.game_id)
    names = Names.of(rec, ai, locale)
    glance = glance_at(rec, state, glance)
    if public is None:
        public = glance.view(None)
    embed = ui.table_embed(public, locale, names)
    if hinted:  # everyone sees who played with the AI's advice this game
        embed.add_field(name=t(locale, "hint.table_field"), value=", ".join(names(seat) for seat in hinted),
                        inline=False)
    if last:
        embed.add_field(name=t(locale, "table.last"), value=newest_first_fit(last, 1024), inline=False)
    waiting = turn_names(rec, state, names, glance)
    footer = t(locale, "table.footer_turn" if waiting else "table.footer", game=spec.name(locale), turn=waiting,
               session=rec.id, version=rec.version)
    embed.set_footer(text=footer)
    fit_embed(embed)
    payload: dict[str, Any] = {
        "content": clip(table_content(rec, state, locale, away, names, glance), 2000),
        "embed": embed,
        "view": buttons if buttons is not None else table_view(rec, locale),
        "allowed_mentions": MENTIONS,
    }
    if keep_image:
        embed.set_image(url=keep_image)
        return payload
    if image is NOT_DRAWN:
        image = ui.table_image(public, locale, names)
    if image is not None:
        embed.set_image(url="attachment://table.png")
        payload["attachments"] = [png_file(image)]
    return payload



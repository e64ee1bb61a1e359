"""The buttons and menus of the shared table machinery, as ``DynamicItem`` templates.

Their custom ids carry the session id (and, for moves, the version and the index into
``legal_actions``), so they work after a restart; the engine re-validates every click. Ids are matched
as ASCII digits only (a digit class would take ``'²'``, which ``int`` refuses); a forged id too large for a
session reads as 0, which no session has, so its click is answered "no such game". What a click does is
registered by ``cogs.games.flows`` into ``HANDLERS``, which keeps this module free of the flows (and the
flows free to build these items). The items a click's messages show (the moves, the table's buttons)
describe their payload once, in ``component``: messages carry that dict (``cogs.games.payload``), and the
item dispatch rebuilds from a click is made from it too.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.sessions import SessionError
from cogs.games.common import guarded, session_id
from cogs.games.payload import Component, as_button_item, as_select_item, button, option, select
from cogs.games.ui import MAX_LABEL, MAX_ROWS, clip

Handler = Callable[..., Awaitable[None]]
HANDLERS: dict[str, Handler] = {}
"""``lobby``, ``lobby_page``, ``option``, ``hand``, ``join_running``, ``act``, ``page``, ``abandon``: set by the
flows; ``hint`` by ``cogs.games.hints``; ``takeback``, ``takeback_answer`` by ``cogs.games.takeback``."""

ID = r"[0-9]{1,40}"
SMALL = r"[0-9]{1,9}"


def as_button(item: discord.ui.Item[Any]) -> discord.ui.Button[Any]:
    """The clicked button, for ``from_custom_id``: discord.py types the item it rebuilt as any kind of item.
    An id of a button template arriving on another kind of component can only be forged; it reads as a
    blank button, and the engine's own checks answer the click."""
    return item if isinstance(item, discord.ui.Button) else discord.ui.Button()


def as_select(item: discord.ui.Item[Any]) -> discord.ui.Select[Any]:
    """The chosen menu, for ``from_custom_id``; like :func:`as_button`, another kind reads as an empty menu."""
    return item if isinstance(item, discord.ui.Select) else discord.ui.Select()


async def handle(interaction: discord.Interaction, name: str, *args: Any, **kwargs: Any) -> None:
    await guarded(interaction, lambda: HANDLERS[name](interaction, *args, **kwargs))


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=rf"gl:(?P<sid>{ID}):(?P<op>join|leave|start|ai_add|ai_remove)(?::p(?P<page>{SMALL}))?"):
    """A lobby button; ``page``: the page past the first that the button was on, which the lobby shows again
    after the click (the handler refuses a page the lobby does not have). A first page's ids carry none, so
    they read the same whether the lobby has one page or two."""

    def __init__(self, sid: int, op: str, label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 disabled: bool = False, page: int | None = None, row: int | None = None) -> None:
        on_page = f":p{page}" if page is not None else ""
        super().__init__(as_button_item(button(f"gl:{sid}:{op}{on_page}", clip(label or op, MAX_LABEL), style,
                                               disabled=disabled), row))
        self.sid, self.op, self.page = sid, op, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> LobbyButton:
        button = as_button(item)
        page = int(match["page"]) if match["page"] is not None else None
        return cls(session_id(match["sid"]), match["op"], button.label or "", button.style, button.disabled, page)

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle(interaction, "lobby", self.sid, self.op, page=self.page or 0)


class LobbyPageButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"glp:(?P<sid>{ID}):(?P<page>{SMALL})"):
    """Turns a lobby with two pages to the other (the game's menus, the table's); changes no setting. The
    page is checked against the lobby's, so a forged number is answered, never shown."""

    def __init__(self, sid: int, page: int, label: str = "", row: int | None = None) -> None:
        super().__init__(as_button_item(button(f"glp:{sid}:{page}", clip(label or str(page + 1), MAX_LABEL),
                                               discord.ButtonStyle.primary), row))
        self.sid, self.page = sid, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> LobbyPageButton:
        return cls(session_id(match["sid"]), int(match["page"]), as_button(item).label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle(interaction, "lobby_page", self.sid, self.page)


class OptionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"go:(?P<sid>{ID}):(?P<field>\w+)"):
    def __init__(self, sid: int, field: str, placeholder: str = "", options: list[discord.SelectOption] | None = None,
                 multi: bool = False) -> None:
        options = options or [discord.SelectOption(label=field)]
        super().__init__(discord.ui.Select(
            custom_id=f"go:{sid}:{field}", placeholder=clip(placeholder, 150) or None, options=options,
            min_values=0 if multi else 1, max_values=len(options) if multi else 1,
        ))
        self.sid, self.field = sid, field

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> OptionSelect:
        menu = as_select(item)
        return cls(session_id(match["sid"]), match["field"], menu.placeholder or "", menu.options,
                   menu.max_values > 1)

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle(interaction, "option", self.sid, self.field, list(self.item.values))


class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"gh:(?P<sid>{ID})"):
    def __init__(self, sid: int, label: str = "") -> None:
        super().__init__(as_button_item(self.component(sid, label)))
        self.sid = sid

    @staticmethod
    def component(sid: int, label: str = "") -> Component:
        return button(f"gh:{sid}", clip(label or "✋", MAX_LABEL), discord.ButtonStyle.primary, emoji="✋")

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> HandButton:
        return cls(session_id(match["sid"]), as_button(item).label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle(interaction, "hand", self.sid)


class JoinRunningButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"gj:(?P<sid>{ID})"):
    def __init__(self, sid: int, label: str = "") -> None:
        super().__init__(as_button_item(self.component(sid, label)))
        self.sid = sid

    @staticmethod
    def component(sid: int, label: str = "") -> Component:
        return button(f"gj:{sid}", clip(label or "+", MAX_LABEL), discord.ButtonStyle.success)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> JoinRunningButton:
        return cls(session_id(match["sid"]), as_button(item).label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle(interaction, "ask_join", self.sid)


class JoinConfirmButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"gjc:(?P<sid>{ID})"):
    """The second click of joining a running game: the first only asks (a stray click seats nobody)."""

    def __init__(self, sid: int, label: str = "") -> None:
        super().__init__(as_button_item(button(f"gjc:{sid}", clip(label or "OK", MAX_LABEL),
                                               discord.ButtonStyle.success)))
        self.sid = sid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> JoinConfirmButton:
        return cls(session_id(match["sid"]), as_button(item).label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle(interaction, "join_running", self.sid)


class LeaveButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"gq(?P<confirm>[ca]?):(?P<sid>{ID})"):
    """Leaving a running game: the table's button (``gq``, in games that take leavers) or ``/game leave``
    only asks; the confirm button in that answer takes the player out: ``gqc`` forfeits the seat (the
    game's rule), ``gqa`` leaves it to an AI player."""

    def __init__(self, sid: int, label: str = "", confirm: bool = False, to_ai: bool = False) -> None:
        super().__init__(as_button_item(self.component(sid, label, confirm, to_ai)))
        self.sid, self.confirm, self.to_ai = sid, confirm, confirm and to_ai

    @staticmethod
    def component(sid: int, label: str = "", confirm: bool = False, to_ai: bool = False) -> Component:
        style = discord.ButtonStyle.danger if confirm else discord.ButtonStyle.secondary
        mark = ("a" if to_ai else "c") if confirm else ""
        return button(f"gq{mark}:{sid}", clip(label or "OK", MAX_LABEL), style)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> LeaveButton:
        return cls(session_id(match["sid"]), as_button(item).label or "", confirm=bool(match["confirm"]),
                   to_ai=match["confirm"] == "a")

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.confirm:
            await handle(interaction, "leave", self.sid, self.to_ai)
        else:
            await handle(interaction, "ask_leave", self.sid)


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=rf"gb:(?P<sid>{ID}):(?P<ver>{ID}):(?P<idx>{SMALL})"):
    def __init__(self, sid: int, ver: int, idx: int, label: str = "") -> None:
        super().__init__(as_button_item(self.component(sid, ver, idx, label)))
        self.sid, self.ver, self.idx = sid, ver, idx

    @staticmethod
    def component(sid: int, ver: int, idx: int, label: str = "") -> Component:
        return button(f"gb:{sid}:{ver}:{idx}", clip(label or str(idx), MAX_LABEL), discord.ButtonStyle.secondary)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> ActionButton:
        return cls(session_id(match["sid"]), int(match["ver"]), int(match["idx"]), as_button(item).label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle(interaction, "act", self.sid, self.ver, self.idx)


class ActionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=rf"gs:(?P<sid>{ID}):(?P<ver>{ID}):(?P<part>[0-9.]{{1,12}})"):
    def __init__(self, sid: int, ver: int, part: str, placeholder: str = "",
                 options: list[tuple[int, str]] | None = None) -> None:
        super().__init__(as_select_item(self.component(sid, ver, part, placeholder, options)))
        self.sid, self.ver = sid, ver

    @staticmethod
    def component(sid: int, ver: int, part: str, placeholder: str = "",
                  options: list[tuple[int, str]] | None = None) -> Component:
        return select(f"gs:{sid}:{ver}:{part}", [option(label, str(i)) for i, label in (options or [(0, "—")])],
                      placeholder or None)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> ActionSelect:
        menu = as_select(item)
        select = cls(session_id(match["sid"]), int(match["ver"]), match["part"], menu.placeholder or "")
        select.item.options = menu.options
        return select

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            values = self.item.values
            if not values or not re.fullmatch(SMALL, values[0]):
                raise SessionError("bad_choice")
            await HANDLERS["act"](interaction, self.sid, self.ver, int(values[0]))

        await guarded(interaction, work)


class PageTurnButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=rf"gp:(?P<sid>{ID}):(?P<ver>{ID}):(?P<page>{SMALL})"):
    """Shows another page of a player's actions; changes nothing in the game."""

    ROW = MAX_ROWS - 1
    """The page buttons' row, the last."""

    def __init__(self, sid: int, ver: int, page: int, label: str = "", disabled: bool = False) -> None:
        super().__init__(as_button_item(self.component(sid, ver, page, label, disabled), self.ROW))
        self.sid, self.ver, self.page = sid, ver, page

    @staticmethod
    def component(sid: int, ver: int, page: int, label: str = "", disabled: bool = False) -> Component:
        return button(f"gp:{sid}:{ver}:{page}", clip(label or str(page + 1), MAX_LABEL),
                      discord.ButtonStyle.secondary, disabled=disabled)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> PageTurnButton:
        return cls(session_id(match["sid"]), int(match["ver"]), int(match["page"]), as_button(item).label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle(interaction, "page", self.sid, self.ver, self.page)


class HintButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"gi:(?P<sid>{ID}):(?P<ver>{ID})"):
    """In a private view: asks the AI for the clicker's best moves at this version; changes nothing in the
    game."""

    def __init__(self, sid: int, ver: int, label: str = "") -> None:
        super().__init__(as_button_item(self.component(sid, ver, label)))
        self.sid, self.ver = sid, ver

    @staticmethod
    def component(sid: int, ver: int, label: str = "") -> Component:
        return button(f"gi:{sid}:{ver}", clip(label or "?", MAX_LABEL), discord.ButtonStyle.secondary, emoji="💡")

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> HintButton:
        return cls(session_id(match["sid"]), int(match["ver"]), as_button(item).label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle(interaction, "hint", self.sid, self.ver)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"gm:(?P<sid>{ID})"):
    """On a finished table: a new lobby with the same options, its players invited."""

    def __init__(self, sid: int, label: str = "") -> None:
        super().__init__(as_button_item(self.component(sid, label)))
        self.sid = sid

    @staticmethod
    def component(sid: int, label: str = "") -> Component:
        return button(f"gm:{sid}", clip(label or "↻", MAX_LABEL), discord.ButtonStyle.success, emoji="🔁")

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> RematchButton:
        return cls(session_id(match["sid"]), as_button(item).label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle(interaction, "rematch", self.sid)


class VoteButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=rf"gv:(?P<sid>{ID}):(?P<seat>{ID})(?P<sure>:y)?"):
    """Under a reminder: the other players vote the waiting seat out; ``confirmed``: the voter's answer to
    "this ends the game, are you sure?"."""

    def __init__(self, sid: int, seat: int, label: str = "", confirmed: bool = False) -> None:
        style = discord.ButtonStyle.danger if confirmed else discord.ButtonStyle.secondary
        super().__init__(as_button_item(button(f"gv:{sid}:{seat}{':y' if confirmed else ''}",
                                               clip(label or "🗳", MAX_LABEL), style)))
        self.sid, self.seat, self.confirmed = sid, seat, confirmed

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> VoteButton:
        return cls(session_id(match["sid"]), int(match["seat"]), as_button(item).label or "", bool(match["sure"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle(interaction, "vote", self.sid, self.seat, self.confirmed)


class AbandonButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"ga:(?P<sid>{ID}):(?P<ver>{ID})"):
    def __init__(self, sid: int, ver: int, label: str = "") -> None:
        super().__init__(as_button_item(button(f"ga:{sid}:{ver}", clip(label or "OK", MAX_LABEL),
                                               discord.ButtonStyle.danger)))
        self.sid, self.ver = sid, ver

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> AbandonButton:
        return cls(session_id(match["sid"]), int(match["ver"]), as_button(item).label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle(interaction, "abandon", self.sid, self.ver)


class TakebackButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"gk:(?P<sid>{ID})"):
    """On the table, and in a mover's fresh view when the move can be taken back: the clicker asks to take
    back their own last move (the service finds which)."""

    def __init__(self, sid: int, label: str = "") -> None:
        super().__init__(as_button_item(self.component(sid, label)))
        self.sid = sid

    @staticmethod
    def component(sid: int, label: str = "") -> Component:
        return button(f"gk:{sid}", clip(label or "↩", MAX_LABEL), discord.ButtonStyle.secondary, emoji="↩")

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> TakebackButton:
        return cls(session_id(match["sid"]), as_button(item).label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle(interaction, "takeback", self.sid)


class TakebackAnswerButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                           template=rf"gk(?P<yes>[yn]):(?P<sid>{ID}):(?P<ver>{ID})"):
    """Under a take-back request: another player accepts (``gky``) or refuses (``gkn``) the request made
    at version ``ver``; a move since makes the button stale."""

    def __init__(self, sid: int, ver: int, accept: bool, label: str = "") -> None:
        style = discord.ButtonStyle.success if accept else discord.ButtonStyle.danger
        super().__init__(as_button_item(button(f"gk{'y' if accept else 'n'}:{sid}:{ver}",
                                               clip(label or ("✓" if accept else "✗"), MAX_LABEL), style)))
        self.sid, self.ver, self.accept = sid, ver, accept

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> TakebackAnswerButton:
        return cls(session_id(match["sid"]), int(match["ver"]), match["yes"] == "y", as_button(item).label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle(interaction, "takeback_answer", self.sid, self.ver, self.accept)


DYNAMIC_ITEMS = (LobbyButton, OptionSelect, HandButton, JoinRunningButton, ActionButton, ActionSelect, PageTurnButton,
                 AbandonButton, RematchButton, VoteButton, JoinConfirmButton, LeaveButton, HintButton,
                 TakebackButton, TakebackAnswerButton, LobbyPageButton)

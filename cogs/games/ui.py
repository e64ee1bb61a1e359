"""The seam between the generic table machinery and one game's presentation.

Each game cog implements :class:`GameUI` (how its views, actions and events read) and registers it; the
lobby, the buttons, DM delivery and the offline table use only this interface. Nothing here knows a rule:
the buttons are built from ``legal_actions`` and every click is re-validated by the engine.
"""

from __future__ import annotations

import io
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

import discord
from pydantic import BaseModel

from bot.i18n import t
from bot.storage import SessionRecord
from rules.core import Event, Prompt

MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_SELECT_OPTIONS = 25
MAX_LABEL = 80
MAX_OPTION_LABEL = 100


@dataclass(frozen=True)
class Names:
    """Display names by seat; a seat without a known name shows as a mention-free placeholder."""

    by_seat: dict[str, str]
    players: dict[str, int] = field(default_factory=dict)  # seats handed to another member (/game replace)

    def __call__(self, seat: str | None) -> str:
        if seat is None:
            return "—"
        return self.by_seat.get(seat) or f"#{seat[-4:]}"

    def mention(self, seat: str | None) -> str:
        """A player as a mention (it notifies and shows their server name); an AI seat by its name."""
        if seat is None:
            return "—"
        player = self.players.get(seat)
        if player is not None and player > 0:  # a member plays the seat now (/game replace, an AI seat taken)
            return f"<@{player}>"
        return f"<@{seat}>" if seat.isdigit() else f"**{self(seat)}**"

    @classmethod
    def of(cls, rec: SessionRecord) -> Names:
        return cls(dict(rec.names), dict(rec.players))


class GameUI(ABC):
    """How one game looks. Methods get the engine's view (public or one seat's) and return text."""

    game_id: str

    @abstractmethod
    def table_embed(self, view: Any, locale: str, names: Names) -> discord.Embed: ...

    def table_image(self, view: Any, locale: str, names: Names) -> bytes | None:
        """A PNG of the table where a picture reads better than text; None when the game has none."""
        return None

    def image_key(self, view: Any) -> Hashable | None:
        """What the picture depends on. While it is unchanged the table keeps its last picture instead
        of drawing and uploading a new one; None means "draw every time"."""
        return None

    @abstractmethod
    def private_embed(self, view: Any, locale: str, names: Names) -> discord.Embed: ...

    @abstractmethod
    def action_label(self, action: BaseModel, view: Any, locale: str, names: Names) -> str: ...

    def action_group(self, action: BaseModel) -> str:
        """Actions of one group share a row of buttons or one select menu."""
        return str(getattr(action, "type", "action"))

    def group_placeholder(self, group: str, locale: str) -> str:
        return t(locale, f"{self.game_id}.group.{group}")

    @abstractmethod
    def event_text(self, event: Event, locale: str, names: Names) -> str | None: ...

    @abstractmethod
    def prompt_text(self, prompt: Prompt, locale: str, names: Names) -> str: ...

    def personal(self, view: Any) -> Hashable | None:
        """The part of a seat's private view that is its own (hand, sets, secret cards). When another
        player's move changes it, the seat's last DM is refreshed in place; None turns that off."""
        return None

    def rule_error_params(self, params: dict[str, Any], locale: str, names: Names) -> dict[str, Any]:
        """Turn a RuleError's raw params (seat ids, card codes) into what the message should show."""
        return params

    def announcements(self, events: list[Event], locale: str, names: Names) -> list[str]:
        """Messages worth a fresh post in the channel (a round's scores, the final result)."""
        return []

    def start_notice(self, options: BaseModel, locale: str) -> str | None:
        """A line shown when a game starts, e.g. that a map is reconstructed."""
        return None

    def option_text(self, name: str, value: Any, locale: str) -> str | None:
        """A lobby option's value in words where the catalog key ``opt.<game>.<name>.<value>`` cannot say
        it (a deck list stored as text); None keeps the catalog's wording."""
        return None

    def text_table(self, view: Any, locale: str, names: Names) -> str:
        """The table as plain text (offline play, logs): the embed flattened."""
        return embed_to_text(self.table_embed(view, locale, names))

    def text_private(self, view: Any, locale: str, names: Names) -> str:
        return embed_to_text(self.private_embed(view, locale, names))


_UIS: dict[str, GameUI] = {}


def register_ui(ui: GameUI) -> None:
    _UIS[ui.game_id] = ui


def ui_for(game_id: str) -> GameUI:
    return _UIS[game_id]


def has_picture(ui: GameUI) -> bool:
    """Whether the game draws a table picture at all (overrides ``table_image``), so callers can keep the
    cost of a worker thread for the moves that actually draw."""
    return type(ui).table_image is not GameUI.table_image


def embed_to_text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or ""]
    for f in embed.fields:
        parts.append(f"{f.name}\n{f.value}")
    if embed.footer.text:  # an unset footer reads as None text
        parts.append(embed.footer.text)
    return "\n\n".join(p for p in parts if p)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def png_file(data: bytes, name: str = "table.png") -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


@dataclass(frozen=True)
class Layout:
    """How a list of legal actions becomes Discord components: rows of buttons and select menus.

    ``buttons`` hold (row, index, label); ``selects`` hold (row, part, placeholder, [(index, label)]).
    Indexes point into ``legal_actions`` at the version the custom_id carries. When the actions need more
    than a message's five rows, they are split into ``pages`` of four rows and the fifth row is left for
    the page buttons, so no legal action is ever out of reach. ``spare_row`` is the row where the buttons
    the caller asked room for (``spare``) go: a row of their own, the page buttons' row, or a row of
    buttons with room left when all five rows are taken; None when none were asked for.
    """

    buttons: list[tuple[int, int, str]]
    selects: list[tuple[int, str, str, list[tuple[int, str]]]]
    page: int = 0
    pages: int = 1
    spare_row: int | None = None


# One row's worth of components: a row of buttons, or one select menu (part, placeholder, options).
_Unit = tuple[list[tuple[int, str]] | None, tuple[str, str, list[tuple[int, str]]] | None]


def layout_actions(
    ui: GameUI, view: Any, actions: list[BaseModel], locale: str, names: Names, page: int = 0, spare: int = 0
) -> Layout:
    groups: OrderedDict[str, list[tuple[int, BaseModel]]] = OrderedDict()
    for i, action in enumerate(actions):
        groups.setdefault(ui.action_group(action), []).append((i, action))
    units: list[_Unit] = []
    for g, (group, items) in enumerate(groups.items()):
        labelled = [(i, clip(ui.action_label(a, view, locale, names), MAX_OPTION_LABEL)) for i, a in items]
        if len(items) <= MAX_BUTTONS_PER_ROW:
            units.append(([(i, clip(label, MAX_LABEL)) for i, label in labelled], None))
            continue
        for k in range(0, len(labelled), MAX_SELECT_OPTIONS):
            placeholder = ui.group_placeholder(group, locale)
            if len(labelled) > MAX_SELECT_OPTIONS:
                placeholder = f"{placeholder} ({k // MAX_SELECT_OPTIONS + 1})"
            part = f"{g}.{k // MAX_SELECT_OPTIONS}"
            units.append((None, (part, clip(placeholder, 150), labelled[k : k + MAX_SELECT_OPTIONS])))
    pages, per_page = 1, MAX_ROWS
    roomy = [r for r, (row_buttons, _s) in enumerate(units)
             if row_buttons is not None and len(row_buttons) + spare <= MAX_BUTTONS_PER_ROW]
    if len(units) > MAX_ROWS or (spare and len(units) == MAX_ROWS and not roomy):
        per_page = MAX_ROWS - 1
        pages = -(-len(units) // per_page)
    page = min(max(page, 0), pages - 1)
    buttons: list[tuple[int, int, str]] = []
    selects: list[tuple[int, str, str, list[tuple[int, str]]]] = []
    for row, (row_buttons, select) in enumerate(units[page * per_page : (page + 1) * per_page]):
        if row_buttons is not None:
            buttons.extend((row, i, label) for i, label in row_buttons)
        elif select is not None:
            part, placeholder, options = select
            selects.append((row, part, placeholder, options))
    spare_row = None
    if spare:
        shown = len(units[page * per_page : (page + 1) * per_page])
        spare_row = MAX_ROWS - 1 if pages > 1 else shown if shown < MAX_ROWS else roomy[-1]
    return Layout(buttons, selects, page, pages, spare_row)

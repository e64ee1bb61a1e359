"""Buttons and menus as the payload Discord takes, built as plain dicts.

A private view went out after every click as a ``discord.ui.View`` of dynamic items, built only to be
turned into these dicts (``View.to_components``), a random id drawn from the operating system per view
included: about a tenth of what a click cost the bot. The dicts here are what discord.py wrote for
those items, key for key and in its order, so the bytes sent are the same. Every component is a dynamic
item's (``cogs.games.components``), dispatched by the templates the bot registered once, so there is
nothing per message for discord.py to listen to.
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

import discord
from discord.ui.select import BaseSelect

from cogs.games.ui import MAX_BUTTONS_PER_ROW, MAX_ROWS

SELECT = 3

Component = dict[str, Any]


def button(custom_id: str, label: str, style: discord.ButtonStyle, *, disabled: bool = False,
           emoji: str | None = None) -> Component:
    """A button with a (never empty) label; ``emoji`` a Unicode one."""
    data: Component = {"type": 2, "style": style.value, "disabled": disabled, "label": label, "custom_id": custom_id}
    if emoji:
        data["emoji"] = {"id": None, "name": emoji}
    return data


def option(label: str, value: str, default: bool = False) -> Component:
    return {"label": label, "value": value, "default": default}


def select(custom_id: str, options: list[Component], placeholder: str | None = None, *, min_values: int = 1,
           max_values: int = 1) -> Component:
    data: Component = {"type": SELECT, "custom_id": custom_id, "min_values": min_values, "max_values": max_values,
                       "disabled": False, "required": True}
    if placeholder:
        data["placeholder"] = placeholder
    data["options"] = options
    return data


def as_button_item(data: Component, row: int | None = None) -> discord.ui.Button[Any]:
    """The discord.py item of a button, for the dynamic items dispatch builds and the views that still go
    out as views (the lobby's, the confirmations'): one description of each component serves both."""
    item: discord.ui.Button[Any] = discord.ui.Button.from_component(discord.components.Button(cast(Any, data)))
    item.row = row
    return item


def as_select_item(data: Component, row: int | None = None) -> discord.ui.Select[Any]:
    """A menu's discord.py item, as :func:`as_button_item`."""
    menu: BaseSelect[Any] = discord.ui.Select.from_component(discord.components.SelectMenu(cast(Any, data)))
    assert isinstance(menu, discord.ui.Select)  # a string select's payload reads as one
    menu.row = row
    return menu


class Components:
    """A message's components, which discord.py sends wherever it takes a view (pass it through
    :func:`as_view`): it reads a view's payload with ``to_components`` and asks it the few questions below.

    Components go in rows as ``discord.ui.View.add_item`` places items: in the row asked for, else in the
    first row with room; a component that does not fit raises ``ValueError``, as the view did.
    """

    __discord_ui_view__: ClassVar[bool] = True
    timeout: ClassVar[None] = None
    __slots__ = ("_rows", "_widths")

    def __init__(self) -> None:
        self._rows: list[list[Component]] = [[] for _ in range(MAX_ROWS)]
        self._widths = [0] * MAX_ROWS

    def add(self, component: Component, row: int | None = None) -> None:
        width = MAX_BUTTONS_PER_ROW if component["type"] == SELECT else 1
        if row is None:
            row = next((r for r, used in enumerate(self._widths) if used + width <= MAX_BUTTONS_PER_ROW), None)
            if row is None:
                raise ValueError("no row has room for the component")
        elif self._widths[row] + width > MAX_BUTTONS_PER_ROW:
            raise ValueError(f"row {row} has no room for the component")
        self._widths[row] += width
        self._rows[row].append(component)

    def to_components(self) -> list[Component]:
        return [{"type": 1, "components": list(row)} for row in self._rows if row]

    def has_components_v2(self) -> bool:
        return False

    def is_finished(self) -> bool:
        """Finished from the start: discord.py keeps a view it may dispatch to, and these have nothing."""
        return True

    def is_dispatchable(self) -> bool:
        return False


def as_view(components: Components) -> discord.ui.View:
    """``components`` where discord.py's signatures name a view (an interaction's response); it reads
    only what :class:`Components` answers."""
    return cast(discord.ui.View, components)

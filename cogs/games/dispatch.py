"""discord.py's dispatch of a click to a dynamic item, without turning the whole message into a view.

For every click on a dynamic item, discord.py rebuilt the clicked message as a ``discord.ui.View``
(``View.from_message``: an item per button and menu of the message, and a random id drawn from the
operating system) only to find the one component clicked, swapped the dynamic item in and ran it. The bot's
dynamic items read nothing but the component clicked (its custom id, and a menu's chosen values), so here
only that component becomes an item. Everything else is discord.py's own: the gateway event is parsed by
it, the custom id is matched against the registered templates by its ``ViewStore``, which starts this
as its task, and the item is made by ``from_custom_id``, refreshed with the interaction's data, checked and
called as discord.py does it. A message with Components V2 (the bot sends none) goes the way discord.py
takes.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord.ui.view import ViewStore

if TYPE_CHECKING:
    from discord.ext import commands

log = logging.getLogger(__name__)


class ClickedItemStore(ViewStore):
    """``ViewStore`` whose dynamic item calls build the clicked component's item alone."""

    async def schedule_dynamic_item_call(self, component_type: int,
                                         factory: type[discord.ui.DynamicItem[discord.ui.Item[Any]]],
                                         interaction: discord.Interaction, custom_id: str,
                                         match: re.Match[str]) -> None:
        message = interaction.message
        if message is None or message.flags.components_v2:
            await super().schedule_dynamic_item_call(component_type, factory, interaction, custom_id, match)
            return
        base = clicked_item(message, component_type, custom_id)
        if base is None:
            return  # not on the message: discord.py ignores such a click too
        try:
            item = await factory.from_custom_id(interaction, base, match)
        except Exception:  # as discord.py: logged, and the click dropped
            log.exception("Ignoring exception in dynamic item creation for %r", factory)
            return
        item._refresh_state(interaction, interaction.data)  # type: ignore[arg-type]
        try:
            allow = await item.interaction_check(interaction)
        except Exception:  # noqa: BLE001  (as discord.py: a failing check refuses the click)
            allow = False
        if not allow:
            return
        try:
            await item.callback(interaction)
        except Exception:  # as discord.py: logged, and the next click served
            log.exception("Ignoring exception in dynamic item callback for %r", item)


def clicked_item(message: discord.Message, component_type: int, custom_id: str) -> discord.ui.Item[Any] | None:
    """The component of ``message`` that was clicked, as the item discord.py would have made of it."""
    for row in message.components:
        for component in getattr(row, "children", ()):
            if component.type.value != component_type or getattr(component, "custom_id", None) != custom_id:
                continue
            if isinstance(component, discord.components.Button):
                return discord.ui.Button.from_component(component)
            if isinstance(component, discord.components.SelectMenu):
                return discord.ui.Select.from_component(component)
    return None


def install(bot: commands.Bot) -> None:
    """Put the store in place of discord.py's, before anything is registered in it (what the old one held
    would be lost); a bot that has it already keeps it."""
    state = bot._connection
    old = state._view_store
    if isinstance(old, ClickedItemStore):
        return
    if old._dynamic_items or old._views or old._modals:
        raise RuntimeError("the view store is replaced before any view or dynamic item is registered")
    state._view_store = ClickedItemStore(state)

"""The table machinery as a discord.py extension, apart from the package it lives in.

discord.py unloads an extension when the bot closes and drops the extension's submodules from
``sys.modules`` with it. Were the package ``cogs.games`` itself the extension, every close would drop
``cogs.games.ui``, ``render`` and the rest, and the next bot in the same process (a restart, a test after
a test) would run on fresh copies of them while earlier importers kept the old ones: two registries of game
UIs, and classes that no longer pickle for the drawing process. This module has no submodules, so closing
a bot leaves the machinery as it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.games.ai_seats import AISeats
from cogs.games.clock import Clock
from cogs.games.commands import Games
from cogs.games.components import DYNAMIC_ITEMS
from cogs.games.dispatch import install as install_dispatch
from cogs.games.history import HISTORY_ITEMS
from cogs.games.records import RECORD_ITEMS
from cogs.games.settings import Settings
from cogs.games.table import Tables

if TYPE_CHECKING:
    from cogs.games.host import GameBot


async def setup(bot: GameBot) -> None:
    bot.tables = Tables(bot)
    bot.ai_players = AISeats(bot)
    bot.turn_clock = Clock(bot)
    bot.timers.start()
    install_dispatch(bot)
    bot.add_dynamic_items(*DYNAMIC_ITEMS, *HISTORY_ITEMS, *RECORD_ITEMS)
    await bot.add_cog(Games(bot))
    await bot.add_cog(Settings(bot))

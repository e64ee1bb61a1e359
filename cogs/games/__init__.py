"""The table machinery every game shares: lobby, table message, private views and their buttons.

Split by concern: ``common`` (locales, replies, the guard every interaction passes), ``components``
(the persistent buttons), ``render`` (embeds and views), ``delivery`` (live DMs and pings), ``table``
(the table message and the follow-up of a move), ``flows`` (what each click does) and ``commands``.
Game cogs use the names re-exported here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.games.ai_seats import AISeats
from cogs.games.clock import Clock
from cogs.games.commands import Games, playable
from cogs.games.common import guarded, reply, user_locale
from cogs.games.components import DYNAMIC_ITEMS
from cogs.games.flows import active_session, refresh_lobby
from cogs.games.history import HISTORY_ITEMS
from cogs.games.records import RECORD_ITEMS
from cogs.games.render import newest_first_fit
from cogs.games.settings import Settings
from cogs.games.table import Tables

if TYPE_CHECKING:
    from cogs.games.host import GameBot

__all__ = ["active_session", "guarded", "newest_first_fit", "playable", "refresh_lobby", "reply", "user_locale"]


async def setup(bot: GameBot) -> None:
    bot.tables = Tables(bot)
    bot.ai_players = AISeats(bot)
    bot.turn_clock = Clock(bot)
    bot.timers.start()
    bot.add_dynamic_items(*DYNAMIC_ITEMS, *HISTORY_ITEMS, *RECORD_ITEMS)
    await bot.add_cog(Games(bot))
    await bot.add_cog(Settings(bot))

"""The table machinery every game shares: lobby, table message, private views and their buttons.

Split by concern: ``common`` (locales, replies, the guard every interaction passes), ``components``
(the persistent buttons), ``payload`` (their dicts as sent), ``render`` (embeds and components),
``delivery`` (live DMs and pings), ``table`` (the table message and the follow-up of a move), ``flows``
(what each click does) and ``commands``.
Game cogs use the names re-exported here; the bot loads the machinery as the extension
``cogs.games.extension``.
"""

from __future__ import annotations

from cogs.games.commands import playable
from cogs.games.common import guarded, reply, user_locale
from cogs.games.flows import active_session, refresh_lobby
from cogs.games.render import newest_first_fit

__all__ = ["active_session", "guarded", "newest_first_fit", "playable", "refresh_lobby", "reply", "user_locale"]

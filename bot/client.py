"""The bot process: settings, storage, session service and cogs wired together."""

from __future__ import annotations

import gc

import logging
import pkgutil
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import CatalogTranslator, locale_of, t
from bot.ratelimit import RateLimit, SeenInteractions
from bot.server_settings import ServerSettingsCache
from bot.sessions import SessionService
from bot.settings import Settings
from bot.storage import Store, open_store

if TYPE_CHECKING:
    from bot.lookup.search import LookupIndex
    from bot.timers import TimerService
    from cogs.games.clock import Clock
    from cogs.games.table import Tables

log = logging.getLogger(__name__)

def extensions() -> list[str]:
    """``cogs.games`` (the shared machinery) first, then every other cog module found in ``cogs/``."""
    import cogs

    names = sorted(info.name for info in pkgutil.iter_modules(cogs.__path__) if not info.name.startswith("_"))
    return ["cogs.games"] + [f"cogs.{n}" for n in names if n != "games"]


class GameBot(commands.Bot):
    """Default intents only: slash commands and components need no privileged intent."""

    store: Store
    sessions: SessionService
    lookup: LookupIndex  # set by cogs.rules_lookup
    tables: Tables  # set by cogs.games
    turn_clock: Clock  # set by cogs.games
    timers: TimerService  # set by cogs.games

    def __init__(self, settings: Settings, *, sync_commands: bool = True) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         help_command=None)
        self.settings = settings
        self.sync_commands = sync_commands
        self.seen = SeenInteractions()
        self.rate_limit = RateLimit(settings.rate_limit_per_second, settings.rate_limit_burst)

    async def setup_hook(self) -> None:
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        self.store = await open_store(self.settings.database_url)
        self.sessions = SessionService(self.store)
        self.server_settings = ServerSettingsCache(self.store)
        await self.tree.set_translator(CatalogTranslator())
        for ext in extensions():
            await self.load_extension(ext)
        if self.sync_commands:
            await self._sync()
        # Everything loaded so far (modules, card data, catalogs, the search index) lives as long as the
        # process; moving it out of the collector's reach keeps each collection to what moves create.
        gc.freeze()

    async def _sync(self) -> None:
        guild_id = self.settings.dev_guild_id
        if guild_id:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands (may take up to an hour to appear)", len(synced))

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Errors the command framework raises before or around our handlers (failed checks, bad
        option values, crashes outside ``guarded``): a short localized answer, a traceback in the log."""
        loc = locale_of(interaction.locale)
        if isinstance(error, app_commands.NoPrivateMessage):
            text = t(loc, "err.guild_only")
        elif isinstance(error, (app_commands.TransformerError, app_commands.CheckFailure)):
            text = t(loc, "err.bad_input")
        else:
            log.error("command %s failed", interaction.command and interaction.command.qualified_name,
                      exc_info=error)
            text = t(loc, "err.internal")
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not report a command error to the user")

    async def on_ready(self) -> None:
        log.info("connected as %s to %d servers", self.user, len(self.guilds))
        # Once per process: finish follow-ups a crash cut short (Discord may send "ready" again on reconnects).
        await self.tables.catch_up()

    async def close(self) -> None:
        timers = getattr(self, "timers", None)
        if timers is not None:
            await timers.stop()
        await super().close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()

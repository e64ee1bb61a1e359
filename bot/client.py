"""The bot process: settings, storage, session service and cogs wired together."""

from __future__ import annotations

import logging
import pkgutil

import discord
from discord.ext import commands

from bot.i18n import CatalogTranslator
from bot.sessions import SessionService
from bot.settings import Settings
from bot.storage import Store, open_store

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

    def __init__(self, settings: Settings, *, sync_commands: bool = True) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         help_command=None)
        self.settings = settings
        self.sync_commands = sync_commands
        from cogs.games import Tables

        self.tables = Tables(self)

    async def setup_hook(self) -> None:
        self.store = await open_store(self.settings.database_url)
        self.sessions = SessionService(self.store)
        await self.tree.set_translator(CatalogTranslator())
        for ext in extensions():
            await self.load_extension(ext)
        if self.sync_commands:
            await self._sync()

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

    async def close(self) -> None:
        await super().close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()

"""The bot process: settings, storage, session service and cogs wired together."""

from __future__ import annotations

import gc
import hashlib
import json
import logging
import pkgutil
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Literal, Protocol

import discord
from discord import app_commands
from discord.ext import commands

from bot.gate import Gate
from bot.i18n import catalog, locale_of, t
from bot.metrics import Metrics, serve
from bot.ratelimit import RateLimit, SeenInteractions
from bot.server_settings import ServerSettingsCache
from bot.sessions import SessionService
from bot.settings import Settings
from bot.storage import Store, Timer, open_store
from bot.timers import TimerService

if TYPE_CHECKING:
    from aiohttp import web

    from bot.lookup.search import LookupIndex

log = logging.getLogger(__name__)

# The bot never joins voice: discord.py's warnings about missing voice libraries would only be noise
# above the one line a failed start prints.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False

def extensions() -> list[str]:
    """The shared machinery (``cogs.games.extension``) first, then every other cog module found in ``cogs/``."""
    import cogs

    names = sorted(info.name for info in pkgutil.iter_modules(cogs.__path__) if not info.name.startswith("_"))
    return ["cogs.games.extension"] + [f"cogs.{n}" for n in names if n != "games"]


class CatchesUp(Protocol):
    """What the bot asks of the table service ``cogs.games`` attaches: finish follow-ups after a start.
    The cogs see the full service (``cogs.games.host``); the bot names no cog module, so nothing circles."""

    async def catch_up(self) -> None: ...


class FiresTimers(Protocol):
    """What the bot asks of the turn clock ``cogs.games`` attaches: act on a timer that fell due."""

    async def fire(self, timer: Timer) -> None: ...


class Closes(Protocol):
    """What the bot asks of the AI seats ``cogs.games`` attaches: stop their workers on shutdown."""

    def close(self) -> None: ...


class CatalogTranslator(app_commands.Translator):
    """discord.py's Translator backed by the catalogs, so command names and descriptions are localized.

    Looks up ``cmd.<message>`` for Russian; English is the source text itself. Names must stay valid Discord
    command names, so only keys the catalog defines are translated. It lives here, not in ``bot.i18n``,
    because the catalogs know nothing of Discord.
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is not discord.Locale.russian:
            return None
        key = string.extras.get("key") or string.message
        full = f"cmd.{key}"
        if not catalog().has("ru", full):
            return None
        return catalog().get("ru", full)


SyncMode = Literal["changed", "force", "never"]
"""When ``setup_hook`` pushes the command tree to Discord: only when it differs from the last push (the
default), always (``python -m bot sync``), or never (tests that do not care)."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord routes a guild's events to (its documented formula)."""
    return (guild_id >> 22) % shard_count


class GameBot(commands.Bot):
    """Default intents only: slash commands and components need no privileged intent.

    One process, one shard. ``make_bot`` builds ``ShardedGameBot`` instead when ``SHARD_COUNT`` is set.
    """

    store: Store
    sessions: SessionService
    lookup: LookupIndex  # set by cogs.rules_lookup
    tables: CatchesUp  # set by cogs.games
    turn_clock: FiresTimers  # set by cogs.games
    timers: TimerService
    ai_players: Closes  # set by cogs.games

    def __init__(self, settings: Settings, *, sync_commands: bool | SyncMode = "changed",
                 **client_options: Any) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         help_command=None, **client_options)
        self.settings = settings
        self.sync_mode: SyncMode = (
            sync_commands if isinstance(sync_commands, str) else "changed" if sync_commands else "never"
        )
        self.seen = SeenInteractions()
        self.rate_limit = RateLimit(settings.rate_limit_per_second, settings.rate_limit_burst)
        self.gate = Gate()
        self.metrics = Metrics()
        self.status_server: web.AppRunner | None = None

    def owns_guild(self, guild_id: int | None) -> bool:
        """Whether this process runs the shard of ``guild_id`` (DMs, ``None``, arrive on shard 0). Work that
        runs on a schedule for a guild (idle expiry, timers) is done by the owning process only."""
        count, ids = self.settings.shard_count, self.settings.shard_ids
        if count is None or ids is None:
            return True
        return shard_of(guild_id or 0, count) in ids

    async def setup_hook(self) -> None:
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        self.store = await open_store(self.settings.store_url())
        self.sessions = SessionService(self.store)
        self.server_settings = ServerSettingsCache(self.store)
        self.timers = TimerService(self.store, self._fire_timer)  # started by cogs.games, which fires them
        if self.settings.metrics_port is not None:
            self.status_server = await serve(self, self.metrics, self.settings.metrics_host, self.settings.metrics_port)
        await self.tree.set_translator(CatalogTranslator())
        for ext in extensions():
            await self.load_extension(ext)
        if self.sync_mode == "force" or (self.sync_mode == "changed" and self.settings.owns_shard_zero()):
            await self._sync()
        await self._learn_command_ids()
        # Everything loaded so far (modules, card data, catalogs, the search index) lives as long as the
        # process; moving it out of the collector's reach keeps each collection to what moves create.
        gc.freeze()

    async def _fire_timer(self, timer: Timer) -> None:
        await self.turn_clock.fire(timer)

    async def command_tree_hash(self, guild: discord.abc.Snowflake | None) -> str:
        """SHA-256 of exactly what ``tree.sync`` would send (translations included)."""
        translator = self.tree.translator
        commands_ = self.tree._get_all_commands(guild=guild)
        if translator:
            payload = [await c.get_translated_payload(self.tree, translator) for c in commands_]
        else:
            payload = [c.to_dict(self.tree) for c in commands_]
        text = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    async def _sync(self) -> None:
        """Push the command tree, unless it is the one pushed last time (its hash is kept in the store):
        global syncs are rate-limited and slow to spread, and most restarts change no command."""
        guild_id = self.settings.dev_guild_id
        guild = discord.Object(id=guild_id) if guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        key = f"commands:guild:{guild_id}" if guild_id else "commands:global"
        digest = await self.command_tree_hash(guild)
        if self.sync_mode != "force" and await self.store.get_meta(key) == digest:
            log.info("commands unchanged since the last sync; not syncing (python -m bot sync forces it)")
            if await self.store.get_meta(f"{key}:ids") is None:  # synced before the ids were kept
                fetched = await self.tree.fetch_commands(guild=guild)
                await self.store.set_meta(f"{key}:ids", json.dumps({c.name: c.id for c in fetched}))
            return
        synced = await self.tree.sync(guild=guild)
        await self.store.set_meta(key, digest)
        await self.store.set_meta(f"{key}:ids", json.dumps({c.name: c.id for c in synced}))
        if guild_id:
            log.info("synced %d commands to guild %s", len(synced), guild_id)
        else:
            log.info("synced %d global commands (may take up to an hour to appear)", len(synced))

    async def _learn_command_ids(self) -> None:
        """Texts mention commands by id (clickable, in the reader's language); the ids of the last sync are
        kept in the store, so every process (shards that do not sync included) learns them without asking
        Discord. Until a sync has recorded them, texts name commands by their localized names."""
        guild_id = self.settings.dev_guild_id
        key = f"commands:guild:{guild_id}" if guild_id else "commands:global"
        ids = await self.store.get_meta(f"{key}:ids")
        if ids:
            catalog().set_command_ids(json.loads(ids))

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

    def gateway_connected(self) -> bool:
        """Ready, not closed, and (sharded) every shard's connection open: what ``/healthz`` reports."""
        if not self.is_ready() or self.is_closed():
            return False
        shards = getattr(self, "shards", None)
        return shards is None or all(not shard.is_closed() for shard in shards.values())

    def gateway_latencies(self) -> Iterator[tuple[int, float]]:
        """Each shard's heartbeat latency in seconds (NaN before its first heartbeat)."""
        latencies = getattr(self, "latencies", None)
        if latencies is not None:
            yield from latencies
        else:
            yield self.shard_id or 0, self.latency

    async def shutdown(self) -> None:
        """What SIGTERM and SIGINT do: take no new interaction, let those in flight finish (their moves are
        committed and answered), then close the timers, the AI workers, the gateway and the database."""
        log.info("stopping: new interactions are turned away; %d in flight", self.gate.in_flight)
        if not await self.gate.close(self.settings.shutdown_grace):
            log.warning("stopping with %d interactions still in flight after %.0f s", self.gate.in_flight,
                        self.settings.shutdown_grace)
        await self.close()

    async def close(self) -> None:
        timers = getattr(self, "timers", None)
        if timers is not None:
            await timers.stop()
        ai_players = getattr(self, "ai_players", None)
        if ai_players is not None:
            ai_players.close()
        server, self.status_server = self.status_server, None
        if server is not None:
            await server.cleanup()
        await super().close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()


class ShardedGameBot(GameBot, commands.AutoShardedBot):
    """The bot over several shards in one process: ``SHARD_COUNT`` in all, this process running
    ``SHARD_IDS`` (all of them when unset). Other processes run the other ids on the same database."""


def make_bot(settings: Settings, *, sync_commands: SyncMode = "changed") -> GameBot:
    """The bot the settings ask for: sharded when ``SHARD_COUNT`` is set, a plain one-shard bot otherwise."""
    if settings.shard_count is None:
        return GameBot(settings, sync_commands=sync_commands)
    return ShardedGameBot(settings, sync_commands=sync_commands, shard_count=settings.shard_count,
                          shard_ids=settings.shard_ids)

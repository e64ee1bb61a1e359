"""``/settings``: what a server's games default to (Manage Server only), stored per server."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands
from pydantic import ValidationError

from bot.i18n import t
from bot.server_settings import ServerSettings
from cogs.games.common import guarded, reply, user_locale
from cogs.games.render import clock_text

if TYPE_CHECKING:
    from cogs.games.host import GameBot


def settings_embed(settings: ServerSettings, locale: str) -> discord.Embed:
    embed = discord.Embed(title=t(locale, "settings.title"), colour=discord.Colour.blurple())
    language = t(locale, "settings.locale_auto") if settings.locale == "auto" else settings.locale
    rows = [
        ("settings.locale", language),
        ("settings.thread", t(locale, "common.on") if settings.thread else t(locale, "common.off")),
        ("settings.remind", clock_text(settings.clock, locale)),
        ("settings.idle", t(locale, "clock.days", count=settings.idle_days)),
        ("settings.abandon", t(locale, f"settings.abandon_{settings.abandon}")),
        ("settings.takeback_host", t(locale, "common.on") if settings.takeback_host else t(locale, "common.off")),
        ("settings.takeback_minutes", t(locale, "clock.minutes", count=settings.takeback_minutes)),
        ("settings.away", t(locale, "clock.days", count=settings.away_days) if settings.away_days
         else t(locale, "common.off")),
    ]
    for key, value in rows:
        embed.add_field(name=t(locale, key), value=value, inline=False)
    return embed


class Settings(commands.Cog):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @app_commands.command(name=_("settings", key="settings"),
                          description=_("This server's game settings (Manage Server)", key="settings.desc"))
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(
        language=_("Language of channel texts", key="settings.language"),
        thread=_("New games in their own thread", key="settings.thread"),
        remind_hours=_("Remind a waiting player after this many hours (0: never)", key="settings.remind_hours"),
        deadline_hours=_("Deadline after this many hours without a move (0: none)", key="settings.deadline_hours"),
        deadline_action=_("What the deadline does to the waiting seat", key="settings.deadline_action"),
        idle_days=_("End a game with no move after this many days", key="settings.idle_days"),
        abandon=_("Who may end a game", key="settings.abandon"),
        takeback_host=_("The host may accept a take-back alone", key="settings.takeback_host"),
        takeback_minutes=_("A take-back request lapses after this many minutes", key="settings.takeback_minutes"),
        away_days=_("Longest time away a member may take, in days (0: none)", key="settings.away_days"),
    )
    @app_commands.rename(
        language=_("language", key="settings.language.name"), thread=_("thread", key="settings.thread.name"),
        remind_hours=_("remind_hours", key="settings.remind_hours.name"),
        deadline_hours=_("deadline_hours", key="settings.deadline_hours.name"),
        deadline_action=_("deadline_action", key="settings.deadline_action.name"),
        idle_days=_("idle_days", key="settings.idle_days.name"), abandon=_("abandon", key="settings.abandon.name"),
        takeback_host=_("takeback_host", key="settings.takeback_host.name"),
        takeback_minutes=_("takeback_minutes", key="settings.takeback_minutes.name"),
        away_days=_("away_days", key="settings.away_days.name"),
    )
    @app_commands.choices(
        language=[app_commands.Choice(name=n, value=v) for n, v in (("auto", "auto"), ("English", "en"),
                                                                    ("Русский", "ru"))],
        abandon=[app_commands.Choice(name="host", value="host"), app_commands.Choice(name="manage", value="manage")],
        deadline_action=[app_commands.Choice(name=_(n, key=f"settings.deadline_action.{v}"), value=v)
                         for n, v in (("an AI takes the seat", "ai"), ("the seat is forfeited", "forfeit"))],
    )
    async def settings(self, interaction: discord.Interaction, language: str | None = None,
                       thread: bool | None = None, remind_hours: app_commands.Range[int, 0, 168] | None = None,
                       idle_days: app_commands.Range[int, 1, 365] | None = None,
                       abandon: str | None = None, away_days: app_commands.Range[int, 0, 90] | None = None,
                       deadline_hours: app_commands.Range[int, 0, 720] | None = None,
                       deadline_action: str | None = None, takeback_host: bool | None = None,
                       takeback_minutes: app_commands.Range[int, 1, 1440] | None = None) -> None:
        async def work() -> None:
            loc = user_locale(interaction)
            perms = interaction.permissions
            if interaction.guild_id is None or not (perms and perms.manage_guild):
                await reply(interaction, t(loc, "settings.forbidden"))
                return
            changes = {k: v for k, v in (("locale", language), ("thread", thread), ("remind_hours", remind_hours),
                                         ("idle_days", idle_days), ("abandon", abandon),
                                         ("away_days", away_days), ("deadline_hours", deadline_hours),
                                         ("deadline_action", deadline_action), ("takeback_host", takeback_host),
                                         ("takeback_minutes", takeback_minutes)) if v is not None}
            try:
                settings = (await self.bot.server_settings.update(interaction.guild_id, changes) if changes
                            else await self.bot.server_settings.get(interaction.guild_id))
            except ValidationError as exc:
                error = exc.errors()[0]
                if error["type"] == "deadline_reminder":
                    await reply(interaction, t(loc, "settings.deadline_reminder"))
                    return
                field = ".".join(str(p) for p in error.get("loc", ()))
                await reply(interaction, t(loc, "settings.bad_value", field=field))
                return
            text = t(loc, "settings.saved") if changes else ""
            await interaction.response.send_message(text or None, embed=settings_embed(settings, loc), ephemeral=True)

        await guarded(interaction, work)

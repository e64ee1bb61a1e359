"""discord.py's Translator backed by the catalogs, so command names and descriptions are localized."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n.catalog import catalog


class CatalogTranslator(app_commands.Translator):
    """Looks up ``cmd.<message>`` for Russian; English is the source text itself.

    Names must stay valid Discord command names, so only keys the catalog defines are translated.
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

"""``/help``'s text, with the command list read from the command tree itself.

A list written by hand went stale as commands were added (``/game log``, ``/settings``, ``/coc`` were
missing from it); walking the tree names every command the app really has, each as a mention (clickable,
in the reader's language) with its localized description.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import catalog, t
from cogs.games.ui import clip
from rules.core import GameSpec

FIELD_LIMIT = 1024


def leaf_commands(tree: app_commands.CommandTree) -> list[app_commands.Command]:
    """Every command a person can type, groups opened up, in the tree's order."""
    out: list[app_commands.Command] = []
    for cmd in tree.get_commands(type=discord.AppCommandType.chat_input):
        if isinstance(cmd, app_commands.Group):
            out.extend(c for c in cmd.walk_commands() if isinstance(c, app_commands.Command))
        elif isinstance(cmd, app_commands.Command):
            out.append(cmd)
    return out


def command_lines(tree: app_commands.CommandTree, locale: str) -> list[str]:
    """One line per command: its mention (or localized name) and what it is for."""
    cat = catalog()
    lines = []
    for cmd in leaf_commands(tree):
        path = cmd.qualified_name
        key = "cmd." + path.replace(" ", ".") + ".desc"
        about = cat.get(locale, key) if locale != "en" and cat.has(locale, key) else cmd.description
        lines.append(f"{cat.command(locale, path)} — {about}")
    return lines


def chunks(lines: list[str], limit: int = FIELD_LIMIT) -> list[str]:
    """Lines packed into as few embed field values as fit, never splitting a line."""
    out: list[str] = []
    for line in lines:
        if out and len(out[-1]) + 1 + len(line) <= limit:
            out[-1] += "\n" + line
        else:
            out.append(clip(line, limit))
    return out


def help_embed(tree: app_commands.CommandTree, locale: str, games: list[GameSpec]) -> discord.Embed:
    embed = discord.Embed(title=t(locale, "help.title"), description=t(locale, "help.intro"),
                          colour=discord.Colour.blurple())
    parts = chunks(command_lines(tree, locale))
    for i, part in enumerate(parts, 1):
        name = t(locale, "help.commands") + (f" ({i}/{len(parts)})" if len(parts) > 1 else "")
        embed.add_field(name=name, value=part, inline=False)
    for spec in games:
        about = spec.about.get(locale) or spec.about.get("en", "")
        line = t(locale, "help.game_line", min=spec.min_seats, max=spec.max_seats, lo=spec.minutes[0],
                 hi=spec.minutes[1])
        embed.add_field(name=spec.name(locale), value=clip(f"{line}\n{about}", FIELD_LIMIT), inline=False)
    embed.add_field(name=t(locale, "help.autopass_title"), value=t(locale, "help.autopass"), inline=False)
    return embed

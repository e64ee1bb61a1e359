"""``/rules`` and ``/card``: the answer a player is looking for, in their language, in seconds.

The index (``bot.lookup``) is built once when the cog loads. Every button here is a ``DynamicItem`` whose
custom_id names the game, section (or card) and page, so answers stay browsable after a restart. Turning a
page keeps the "see also" buttons already on the message: they were chosen for the original question.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.i18n import commands_in, t
from bot.lookup.corpus import Card, Section
from bot.lookup.search import CardHit, LookupIndex, UnknownGameError
from cogs.games import guarded, user_locale
from cogs.games.ui import MAX_LABEL, clip

if TYPE_CHECKING:
    from bot.client import GameBot

log = logging.getLogger(__name__)
PAGE_CHARS = 1800
SEE_ALSO = 4
COLOUR = discord.Colour.teal()
CARD_SUGGESTIONS = 5
ECHO = 100
"""Characters of a typed value (game, query, card name) repeated in an answer: Discord takes up to 6,000
in an option, and an answer quoting all of it would be refused whole."""
SECTION_CUSTOM_ID = re.compile(r"rs:(?P<game>[a-z_]+):(?P<sec>[a-z0-9_]+):(?P<lang>en|ru)")
CARD_CUSTOM_ID = re.compile(r"rc:(?P<game>[a-z_]+):(?P<card>[a-z0-9_-]+):(?P<lang>en|ru)")


def _label(item: discord.ui.Item[Any]) -> str:
    """The label of the button a click rebuilt (discord.py hands ``from_custom_id`` any kind of item)."""
    return (item.label or "") if isinstance(item, discord.ui.Button) else ""


def index_of(interaction: discord.Interaction) -> LookupIndex:
    # discord.py types the client as its base class; the bot's own client is the one that carries the index
    return interaction.client.lookup  # type: ignore[attr-defined]


def pages(text: str, limit: int = PAGE_CHARS) -> list[str]:
    """Split on paragraph, then line boundaries, so a page never cuts a rule in half."""
    out: list[str] = []
    current = ""
    for block in re.split(r"(\n\s*\n)", text.strip()):
        if len(current) + len(block) <= limit:
            current += block
            continue
        if current.strip():
            out.append(current.strip())
        current = ""
        while len(block) > limit:
            cut = block.rfind("\n", 0, limit)
            cut = cut if cut > limit // 2 else limit
            out.append(block[:cut].strip())
            block = block[cut:]
        current = block
    if current.strip():
        out.append(current.strip())
    return out or [""]


def section_embed(
    index: LookupIndex, game: str, section: Section, lang: str, page: int, locale: str
) -> tuple[discord.Embed, int]:
    body = section.lang(lang)
    parts = pages(commands_in(lang, body.text))
    page = max(0, min(page, len(parts) - 1))
    embed = discord.Embed(title=clip(body.title, 256), description=parts[page], colour=COLOUR)
    embed.set_author(name=clip(index.game_name(game, lang), 256))
    footer = t(locale, "lookup.rules_covered", rules=", ".join(section.rules) or "—")
    if len(parts) > 1:
        footer += " · " + t(locale, "lookup.page", page=page + 1, pages=len(parts))
    embed.set_footer(text=clip(footer, 2048))
    return embed, len(parts)


def section_view(game: str, section_id: str, lang: str, page: int, total: int, related: list[tuple[str, str]],
                 locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if total > 1:
        view.add_item(PageButton(game, section_id, lang, page - 1, "◀", disabled=page <= 0))
        view.add_item(PageButton(game, section_id, lang, page + 1, "▶", disabled=page >= total - 1))
    for sid, title in related[:SEE_ALSO]:
        view.add_item(SectionButton(game, sid, lang, clip(title, MAX_LABEL), row=1))
    return view


def related_sections(index: LookupIndex, game: str, query: str, lang: str, exclude: str) -> list[tuple[str, str]]:
    hits = index.search_rules(game, query, lang, limit=SEE_ALSO + 1)
    return [(h.section_id, h.title) for h in hits if h.section_id != exclude][:SEE_ALSO]


def carried_related(message: discord.Message | None, game: str) -> list[tuple[str, str]] | None:
    """The "see also" buttons already on ``message`` as ``(section id, label)``, or None when the
    interaction carries no message. A page turn reuses them so they match the original question on
    every page (and after a restart: they live in the message, not in the bot)."""
    if message is None:
        return None
    out: list[tuple[str, str]] = []
    for row in message.components:
        for item in getattr(row, "children", [row]):
            match = SECTION_CUSTOM_ID.fullmatch(getattr(item, "custom_id", None) or "")
            if match and match["game"] == game:
                out.append((match["sec"], getattr(item, "label", None) or match["sec"]))
    return out


def card_embed(index: LookupIndex, game: str, card: Card, lang: str, locale: str) -> discord.Embed:
    corpus = index.corpus.games[game].cards
    assert corpus is not None
    type_label = corpus.types[card.type].get(lang)
    embed = discord.Embed(title=clip(card.name.get(lang), 256), description=clip(card.text.get(lang), 4000),
                          colour=COLOUR)
    embed.set_author(name=clip(f"{index.game_name(game, lang)} · {type_label}", 256))
    local = card.extra.get(f"stats_{lang}")  # a card file may word its stats per language (faction names)
    for key, value in list(card.stats.items())[:24]:
        label = corpus.stat_labels[key].get(lang)
        if isinstance(local, dict) and key in local:
            value = local[key]
        embed.add_field(name=clip(label, 256), value=clip(str(value), 1024), inline=True)
    other = card.name.get("en" if lang == "ru" else "ru")
    if other != card.name.get(lang):
        embed.set_footer(text=clip(t(locale, "lookup.other_name", name=other), 2048))
    return embed


async def show_section(interaction: discord.Interaction, game: str, section_id: str, lang: str, page: int,
                       *, edit: bool, query: str | None = None, public: bool = False,
                       related: list[tuple[str, str]] | None = None) -> None:
    index = index_of(interaction)
    section = index.section(game, section_id)
    locale = user_locale(interaction)
    if section is None:
        await interaction.response.send_message(t(locale, "lookup.gone"), ephemeral=True)
        return
    embed, total = section_embed(index, game, section, lang, page, locale)
    if related is None:
        related = related_sections(index, game, query or section.lang(lang).title, lang, section_id)
    view = section_view(game, section_id, lang, page, total, related, locale)
    if edit:
        await interaction.response.edit_message(embed=embed, view=view)
    else:
        await interaction.response.send_message(embed=embed, view=view, ephemeral=not public)


class PageButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"rp:(?P<game>[a-z_]+):(?P<sec>[a-z0-9_]+):(?P<lang>en|ru):(?P<page>-?\d+)"):
    def __init__(self, game: str, section: str, lang: str, page: int, label: str = "", disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label or "…", custom_id=f"rp:{game}:{section}:{lang}:{page}",
                                           disabled=disabled, style=discord.ButtonStyle.secondary))
        self.game, self.section, self.lang, self.page = game, section, lang, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> PageButton:
        return cls(match["game"], match["sec"], match["lang"], int(match["page"]), _label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: show_section(
            interaction, self.game, self.section, self.lang, self.page, edit=True,
            related=carried_related(interaction.message, self.game)))


class SectionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=SECTION_CUSTOM_ID):
    def __init__(self, game: str, section: str, lang: str, label: str = "", row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or section, custom_id=f"rs:{game}:{section}:{lang}",
                                           style=discord.ButtonStyle.primary, row=row))
        self.game, self.section, self.lang = game, section, lang

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> SectionButton:
        return cls(match["game"], match["sec"], match["lang"], _label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        # A new private answer: the message clicked may be someone else's public one.
        await guarded(interaction, lambda: show_section(interaction, self.game, self.section, self.lang, 0,
                                                        edit=False))


async def show_card(interaction: discord.Interaction, game: str, card_id: str, lang: str) -> None:
    index = index_of(interaction)
    locale = user_locale(interaction)
    card = index.card(game, card_id)
    if card is None:
        await interaction.response.send_message(t(locale, "lookup.card_gone"), ephemeral=True)
        return
    await interaction.response.send_message(embed=card_embed(index, game, card, lang, locale), ephemeral=True)


class CardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=CARD_CUSTOM_ID):
    def __init__(self, game: str, card_id: str, lang: str, label: str = "", row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or card_id, custom_id=f"rc:{game}:{card_id}:{lang}",
                                           style=discord.ButtonStyle.primary, row=row))
        self.game, self.card_id, self.lang = game, card_id, lang

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> CardButton:
        return cls(match["game"], match["card"], match["lang"], _label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        # A new private answer, like a "see also" section.
        await guarded(interaction, lambda: show_card(interaction, self.game, self.card_id, self.lang))


def card_choices(game: str, hits: list[CardHit]) -> discord.ui.View:
    """One button per suggested card; ids the template cannot carry (or too long) get none."""
    view = discord.ui.View(timeout=None)
    for hit in hits[:CARD_SUGGESTIONS]:
        custom_id = f"rc:{game}:{hit.card_id}:{hit.lang}"
        if len(custom_id) <= 100 and CARD_CUSTOM_ID.fullmatch(custom_id):
            label = clip(f"{hit.name} ({hit.type_label})", MAX_LABEL)
            view.add_item(CardButton(game, hit.card_id, hit.lang, label))
    return view


class RulesLookup(commands.Cog):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    async def _games(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        lang = user_locale(interaction)
        return [app_commands.Choice(name=label, value=value)
                for label, value in index_of(interaction).autocomplete_games(current, lang)[:25]]

    @app_commands.command(name=_("rules", key="rules"), description=_("Look up a rule", key="rules.desc"))
    @app_commands.describe(
        game=_("Which game", key="rules.game"),
        query=_("Your question or a topic", key="rules.query"),
        public=_("Show the answer to everyone in the channel", key="rules.public"),
    )
    @app_commands.rename(game=_("game", key="rules.game.name"), query=_("query", key="rules.query.name"),
                         public=_("public", key="rules.public.name"))
    async def rules(self, interaction: discord.Interaction, game: str,
                    query: app_commands.Range[str, 1, 200], public: bool = False) -> None:
        async def work() -> None:
            index = index_of(interaction)
            locale = user_locale(interaction)
            try:
                answer = index.answer_rules(game, query, locale, limit=SEE_ALSO + 1)
            except UnknownGameError:
                await interaction.response.send_message(t(locale, "lookup.unknown_game", game=clip(game, ECHO)),
                                                        ephemeral=True)
                return
            if answer.hits:
                best = answer.hits[0]
                section = index.section(game, best.section_id)
                assert section is not None
                embed, total = section_embed(index, game, section, best.lang, 0, locale)
                related = [(h.section_id, h.title) for h in answer.hits[1:]]
                view = section_view(game, best.section_id, best.lang, 0, total, related, locale)
                await interaction.response.send_message(embed=embed, view=view, ephemeral=not public)
                return
            embed = discord.Embed(title=t(locale, "lookup.no_match_title"), colour=COLOUR,
                                  description=t(locale, "lookup.no_match", query=clip(query, ECHO)))
            view = discord.ui.View(timeout=None)
            for hit in answer.suggestions[:5]:
                view.add_item(SectionButton(game, hit.section_id, hit.lang, clip(hit.title, MAX_LABEL)))
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

        await guarded(interaction, work)

    @rules.autocomplete("game")
    async def rules_game(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._games(interaction, current)

    @rules.autocomplete("query")
    async def rules_query(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "game", None)
        index = index_of(interaction)
        if not game or game not in index.games():
            return []
        return [app_commands.Choice(name=label, value=value)
                for label, value in index.autocomplete_topics(game, current, user_locale(interaction))[:25]]

    @app_commands.command(name=_("card", key="card"), description=_("Show a card or a game piece", key="card.desc"))
    @app_commands.describe(game=_("Which game", key="card.game"), name=_("Card name", key="card.name_desc"),
                           public=_("Show the card to everyone in the channel", key="card.public"))
    @app_commands.rename(game=_("game", key="card.game.name"), name=_("name", key="card.name.name"),
                         public=_("public", key="card.public.name"))
    async def card(self, interaction: discord.Interaction, game: str, name: app_commands.Range[str, 1, 100],
                   public: bool = False) -> None:
        async def work() -> None:
            index = index_of(interaction)
            locale = user_locale(interaction)
            try:
                hits = index.search_cards(game, name, locale, limit=6)
            except UnknownGameError:
                await interaction.response.send_message(t(locale, "lookup.unknown_game", game=clip(game, ECHO)),
                                                        ephemeral=True)
                return
            if not index.has_cards(game):
                text = t(locale, "lookup.no_cards", game=index.game_name(game, locale))
                await interaction.response.send_message(text, ephemeral=True)
                return
            exact = index.card(game, name)
            best = exact if exact is not None else (hits[0].card if hits and hits[0].score >= 80 else None)
            if best is None:
                key, hits = "lookup.card_not_found", hits[:CARD_SUGGESTIONS]
                if not hits:  # nothing even fuzzily close: the names that look most like it anyway
                    hits = index.closest_cards(game, name, locale, limit=CARD_SUGGESTIONS)
                    key = "lookup.card_closest"
                names = "\n".join(f"• {h.name} ({h.type_label})" for h in hits) or "—"
                text = t(locale, key, query=clip(name, ECHO), names=names, game=index.game_name(game, locale))
                await interaction.response.send_message(clip(text, 2000), view=card_choices(game, hits),
                                                        ephemeral=True)
                return
            lang = hits[0].lang if hits and exact is None else locale
            embed = card_embed(index, game, best, lang, locale)
            await interaction.response.send_message(embed=embed, ephemeral=not public)

        await guarded(interaction, work)

    @card.autocomplete("game")
    async def card_game(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._games(interaction, current)

    @card.autocomplete("name")
    async def card_name(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "game", None)
        index = index_of(interaction)
        if not game or game not in index.games() or not index.has_cards(game):
            return []
        return [app_commands.Choice(name=label, value=value)
                for label, value in index.autocomplete_cards(game, current, user_locale(interaction))[:25]]


@functools.cache
def shared_index() -> LookupIndex:
    """One index per process: it is read-only once built, and the corpus only changes with a deploy."""
    return LookupIndex.build()


async def setup(bot: GameBot) -> None:
    # Building the index takes a moment; do it off the event loop.
    bot.lookup = await asyncio.to_thread(shared_index)
    bot.add_dynamic_items(PageButton, SectionButton, CardButton)
    await bot.add_cog(RulesLookup(bot))

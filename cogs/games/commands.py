"""``/game …`` and ``/help``: the slash commands of the shared machinery."""

from __future__ import annotations

import asyncio
import functools
import importlib.util
import io
from typing import TYPE_CHECKING, Final

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands
from pydantic import ValidationError

from bot.i18n import t
from bot.sessions import SessionError, options_error, parse_option_text
from cogs.games.common import PICTURES, channel_locale, display_name, fit_embed, guarded, user_locale
from cogs.games.components import AbandonButton
from cogs.games.flows import (
    active_session,
    ai_name,
    ask_leave,
    join_running,
    lobby_message,
    lobby_op,
    may_abandon,
    refresh_lobby,
    replace_seat,
    show_hand,
)
from cogs.games.help import help_embed
from cogs.games.hints import ask_hint
from cogs.games.history import log_lines, log_message, pages_of, session_here, stats_embed, tally
from cogs.games.records import leaders, mine_embed, open_replay, past_message, ratings_field
from cogs.games.render import lobby_embed, table_payload
from cogs.games.takeback import ask as ask_takeback
from cogs.games.ui import clip
from rules import registry
from rules.core import GameSpec

if TYPE_CHECKING:
    from cogs.games.host import GameBot

THREAD_ARCHIVE_MINUTES: Final = 10080  # a week: games on Discord stretch over days


def playable() -> list[GameSpec]:
    """Games with both an engine and a Discord cog (``cogs/<game>.py``); an engine alone is not offered."""
    return [spec for spec in registry.all() if importlib.util.find_spec(f"cogs.{spec.id}") is not None]


def game_choices() -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=_(spec.names["en"], key=f"game_name.{spec.id}"), value=spec.id)
        for spec in playable()
    ]


class Games(commands.Cog):
    game = app_commands.Group(
        name=_("game", key="game"), description=_("Play a board game in this channel", key="game.desc"),
        guild_only=True,
    )

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @game.command(name=_("new", key="game.new"), description=_("Open a lobby for a game here", key="game.new.desc"))
    @app_commands.describe(
        game=_("Which game", key="game.new.game"),
        options=_("Variants, e.g. ninja_power imperial_tasks", key="game.new.options"),
        thread=_("Play in a new thread of this channel", key="game.new.thread"),
    )
    @app_commands.rename(game=_("game", key="game.new.game.name"), options=_("options", key="game.new.options.name"),
                         thread=_("thread", key="game.new.thread.name"))
    @app_commands.choices(game=game_choices())
    async def new(self, interaction: discord.Interaction, game: str, options: str | None = None,
                  thread: bool | None = None) -> None:
        async def work() -> None:
            spec = self.bot.sessions.spec(game)
            parsed = parse_option_text(spec, options)
            server = await self.bot.server_settings.get(interaction.guild_id)
            table_loc = channel_locale(interaction) if server.locale == "auto" else server.locale
            if server.thread if thread is None else thread:
                await self._new_in_thread(interaction, spec, parsed, table_loc)
                return
            rec = await self.bot.sessions.open_lobby(
                guild_id=interaction.guild_id, channel_id=interaction.channel_id or 0, game_id=game,
                host_id=interaction.user.id, options=parsed, locale=table_loc,
                host_name=display_name(interaction.user), host_locale=user_locale(interaction),
            )
            try:
                await interaction.response.send_message(**await lobby_message(self.bot, rec))
            except Exception:
                # A lobby nobody can see would keep the channel busy: the host (its only seat) leaves it.
                await self.bot.sessions.leave(rec.id, interaction.user.id)
                raise
            message = await interaction.original_response()
            rec = await self.bot.sessions.set_table_message(rec.id, message.id)
            await self.bot.turn_clock.after_move(rec, None)

        await guarded(interaction, work)

    async def _new_in_thread(self, interaction: discord.Interaction, spec: GameSpec, parsed: dict[str, object],
                             table_loc: str) -> None:
        """The game gets a thread of its own (so one channel can hold several games); the channel keeps
        a short message that links to it."""
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise SessionError("thread_needs_channel")
        if not interaction.app_permissions.create_public_threads:
            raise SessionError("thread_forbidden")
        loc = user_locale(interaction)
        # Validate the options before a thread exists that would then stand empty.
        try:
            spec.parse_options(parsed)
        except ValidationError as exc:
            raise options_error(exc) from None
        await interaction.response.defer()
        name = t(table_loc, "thread.name", game=spec.name(table_loc), host=display_name(interaction.user))
        try:
            created = await channel.create_thread(name=clip(name, 100), type=discord.ChannelType.public_thread,
                                                  auto_archive_duration=THREAD_ARCHIVE_MINUTES)
        except discord.Forbidden:  # a permission the interaction did not show, e.g. taken away meanwhile
            raise SessionError("thread_forbidden") from None
        rec = await self.bot.sessions.open_lobby(
            guild_id=interaction.guild_id, channel_id=created.id, game_id=spec.id,
            host_id=interaction.user.id, options=parsed, locale=table_loc,
            host_name=display_name(interaction.user), host_locale=loc,
        )
        lobby = await created.send(**await lobby_message(self.bot, rec))
        rec = await self.bot.sessions.set_table_message(rec.id, lobby.id)
        await self.bot.turn_clock.after_move(rec, None)
        await interaction.followup.send(t(table_loc, "thread.opened", game=spec.name(table_loc), thread=created.id,
                                          user=interaction.user.id),
                                        allowed_mentions=discord.AllowedMentions.none())

    @game.command(name=_("join", key="game.join"),
                  description=_("Take a seat in this channel's lobby", key="game.join.desc"))
    async def join(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            rec = await active_session(interaction)
            if rec.status == "running":
                await join_running(interaction, rec.id)
                return
            await lobby_op(interaction, rec.id, "join", edit=False)

        await guarded(interaction, work)

    @game.command(name=_("leave", key="game.leave"),
                  description=_("Give up your seat (in a running game, what that means is the game's rule)",
                                key="game.leave.desc"))
    @app_commands.describe(ai=_("Let an AI player play your seat on instead (you may take it back)",
                                key="game.leave.ai"))
    @app_commands.rename(ai=_("ai", key="game.leave.ai.name"))
    async def leave(self, interaction: discord.Interaction, ai: bool = False) -> None:
        async def work() -> None:
            rec = await active_session(interaction)
            if rec.status == "running":
                await ask_leave(interaction, rec.id, ai)
                return
            await lobby_op(interaction, rec.id, "leave", edit=False)

        await guarded(interaction, work)

    @game.command(name=_("replace", key="game.replace"),
                  description=_("Hand a player's seat to another member (host or Manage Server)",
                                key="game.replace.desc"))
    @app_commands.describe(player=_("Who plays the seat now", key="game.replace.player"),
                           member=_("Who takes it over", key="game.replace.member"))
    @app_commands.rename(player=_("player", key="game.replace.player.name"),
                         member=_("member", key="game.replace.member.name"))
    async def replace(self, interaction: discord.Interaction, player: discord.User, member: discord.User) -> None:
        async def work() -> None:
            await replace_seat(interaction, player, member)

        await guarded(interaction, work)

    @game.command(name=_("ai", key="game.ai"),
                  description=_("Seat an AI player in this lobby (host)", key="game.ai.desc"))
    @app_commands.describe(level=_("How strong it plays", key="game.ai.level"))
    @app_commands.rename(level=_("level", key="game.ai.level.name"))
    # "hard" is shown as "thorough": it searches five times longer than normal but was not shown to beat
    # it (benchmarks/results/README.md, issue 27), so its name promises only what it does.
    @app_commands.choices(level=[app_commands.Choice(name=_(label, key=f"ai.level.{n}"), value=n)
                                 for n, label in (("easy", "easy"), ("normal", "normal"), ("hard", "thorough"))])
    async def ai(self, interaction: discord.Interaction, level: str = "normal") -> None:
        async def work() -> None:
            rec = await active_session(interaction)
            if rec.status != "lobby":
                raise SessionError("not_lobby")
            rec = await self.bot.sessions.add_ai(rec.id, interaction.user.id, level,
                                                 await ai_name(self.bot, rec.id, level))
            await interaction.response.send_message(t(user_locale(interaction), "ai.added"), ephemeral=True)
            await refresh_lobby(self.bot, rec)

        await guarded(interaction, work)

    @game.command(name=_("start", key="game.start"), description=_("Start the game (host)", key="game.start.desc"))
    async def start(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            rec = await active_session(interaction)
            await lobby_op(interaction, rec.id, "start", edit=False)

        await guarded(interaction, work)

    @game.command(name=_("status", key="game.status"),
                  description=_("Show this channel's game", key="game.status.desc"))
    async def status(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            rec = await active_session(interaction)
            loc = user_locale(interaction)
            if rec.status == "lobby":
                ai = await self.bot.sessions.ai_seats(rec.id)
                await interaction.response.send_message(embed=lobby_embed(rec, loc, ai=ai), ephemeral=True)
                return
            await interaction.response.defer(ephemeral=True)
            _rec, _spec, state = await self.bot.sessions.load(rec.id)
            assert state is not None
            # The picture is drawn in the same worker as table edits, never on the event loop.
            hinted = (await self.bot.sessions.settings(rec.id)).hinted
            build = functools.partial(table_payload, _rec, state, loc, [],
                                      away=await self.bot.turn_clock.away_marks(_rec), hinted=hinted,
                                      ai=await self.bot.sessions.ai_seats(rec.id))
            payload = await asyncio.get_running_loop().run_in_executor(PICTURES, build)
            payload.pop("view")
            files = payload.pop("attachments", [])
            await interaction.followup.send(**payload, files=files, ephemeral=True)

        await guarded(interaction, work)

    @game.command(name=_("hand", key="game.hand"), description=_("Show your private view again", key="game.hand.desc"))
    async def hand(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            rec = await active_session(interaction)
            await show_hand(interaction, rec.id)

        await guarded(interaction, work)

    @game.command(name=_("takeback", key="game.takeback"),
                  description=_("Ask the table to take back your last move", key="game.takeback.desc"))
    async def takeback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            rec = await active_session(interaction)
            await ask_takeback(interaction, rec.id)
    @game.command(name=_("hint", key="game.hint"),
                  description=_("Ask the AI for your best moves (only you see it)", key="game.hint.desc"))
    async def hint(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            rec = await active_session(interaction)
            await ask_hint(interaction, rec.id)

        await guarded(interaction, work)

    @game.command(name=_("abandon", key="game.abandon"),
                  description=_("End this channel's game (host or Manage Server)", key="game.abandon.desc"))
    async def abandon(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            rec = await active_session(interaction)
            await may_abandon(self.bot, interaction, rec)
            loc = user_locale(interaction)
            view = discord.ui.View(timeout=None)
            view.add_item(AbandonButton(rec.id, rec.version, t(loc, "abandon.confirm_button")))
            await interaction.response.send_message(t(loc, "abandon.confirm"), view=view, ephemeral=True)

        await guarded(interaction, work)

    @game.command(name=_("autopass", key="game.autopass"),
                  description=_("Let the bot pass for you when passing is all you can do", key="game.autopass.desc"))
    @app_commands.describe(enabled=_("On or off", key="game.autopass.enabled"))
    @app_commands.rename(enabled=_("enabled", key="game.autopass.enabled.name"))
    async def autopass(self, interaction: discord.Interaction, enabled: bool) -> None:
        async def work() -> None:
            await self.bot.sessions.set_autopass(interaction.user.id, enabled)
            loc = user_locale(interaction)
            await interaction.response.send_message(t(loc, "autopass.on" if enabled else "autopass.off"),
                                                    ephemeral=True)

        await guarded(interaction, work)

    @game.command(name=_("list", key="game.list"), description=_("Games you can play here", key="game.list.desc"))
    async def list_games(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            loc = user_locale(interaction)
            embed = discord.Embed(title=t(loc, "list.title"), colour=discord.Colour.blurple())
            for spec in playable():
                embed.add_field(
                    name=spec.name(loc),
                    value=t(loc, "list.players", min=spec.min_seats, max=spec.max_seats, id=spec.id),
                    inline=False,
                )
            await interaction.response.send_message(embed=embed, ephemeral=True)

        await guarded(interaction, work)

    @game.command(name=_("log", key="game.log"),
                  description=_("A game's whole history as text (this channel's game by default)", key="game.log.desc"))
    @app_commands.describe(session=_("The session number (shown in table footers)", key="game.session"))
    @app_commands.rename(session=_("session", key="game.session.name"))
    async def log(self, interaction: discord.Interaction,
                  session: app_commands.Range[int, 1, 2**53 - 1] | None = None) -> None:
        async def work() -> None:
            rec = await session_here(interaction, session)
            loc = user_locale(interaction)
            entries = await self.bot.sessions.log(rec.id)
            lines = log_lines(rec, entries, loc, await self.bot.sessions.ai_seats(rec.id))
            pages = pages_of(lines)
            text = "\n".join(lines).encode("utf-8")
            file = discord.File(io.BytesIO(text), filename=f"game-{rec.id}.txt")
            await interaction.response.send_message(**log_message(rec, pages, len(pages) - 1, loc), file=file,
                                                    ephemeral=True)

        await guarded(interaction, work)

    @game.command(name=_("replay", key="game.replay"),
                  description=_("Step through a finished game", key="game.replay.desc"))
    @app_commands.describe(session=_("The session number (shown in table footers)", key="game.session"))
    @app_commands.rename(session=_("session", key="game.session.name"))
    async def replay(self, interaction: discord.Interaction,
                     session: app_commands.Range[int, 1, 2**53 - 1] | None = None) -> None:
        async def work() -> None:
            await open_replay(interaction, await session_here(interaction, session))

        await guarded(interaction, work)

    @game.command(name=_("stats", key="game.stats"),
                  description=_("Games played and won on this server", key="game.stats.desc"))
    @app_commands.describe(member=_("Whose record (everyone's by default)", key="game.stats.member"),
                           game=_("Which game (all by default)", key="game.stats.game"))
    @app_commands.rename(member=_("member", key="game.stats.member.name"), game=_("game", key="game.stats.game.name"))
    @app_commands.choices(game=game_choices())
    async def stats(self, interaction: discord.Interaction, member: discord.User | None = None,
                    game: str | None = None) -> None:
        async def work() -> None:
            loc = user_locale(interaction)
            records = await self.bot.sessions.finished_in_guild(interaction.guild_id or 0)
            table = tally(records, game)
            embed = stats_embed(table, loc, member.id if member else None, game)
            whose = member or interaction.user  # a member's ratings: the one asked about, else the asker's own
            ratings = await self.bot.sessions.ratings(interaction.guild_id or 0, game, whose.id)
            embed.add_field(name=t(loc, "records.stats_title", name=display_name(whose)),
                            value=ratings_field(ratings, loc), inline=False)
            embed.set_footer(text=t(loc, "records.rating_note"))
            await interaction.response.send_message(embed=fit_embed(embed), ephemeral=True)

        await guarded(interaction, work)

    @game.command(name=_("rating", key="game.rating"),
                  description=_("This server's leaderboard of a game", key="game.rating.desc"))
    @app_commands.describe(game=_("Which game", key="game.rating.game"))
    @app_commands.rename(game=_("game", key="game.rating.game.name"))
    @app_commands.choices(game=game_choices())
    async def rating(self, interaction: discord.Interaction, game: str | None = None) -> None:
        async def work() -> None:
            chosen = game or await self._game_here(interaction)
            await interaction.response.send_message(**await leaders(interaction, chosen), ephemeral=True)

        await guarded(interaction, work)

    async def _game_here(self, interaction: discord.Interaction) -> str:
        """The game of this channel's table (running, else the last ended here), or the first game."""
        rec = await self.bot.sessions.latest_in_channel(interaction.channel_id or 0, interaction.guild_id)
        return rec.game_id if rec is not None else playable()[0].id

    @game.command(name=_("mine", key="game.mine"),
                  description=_("Your games on this server: whose turn, and the last finished",
                                key="game.mine.desc"))
    async def mine(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            await interaction.response.defer(ephemeral=True)
            await interaction.followup.send(embed=await mine_embed(interaction), ephemeral=True)

        await guarded(interaction, work)

    @game.command(name=_("history", key="game.history"),
                  description=_("Finished games on this server, each with its replay", key="game.history.desc"))
    @app_commands.describe(member=_("Whose games (everyone's by default)", key="game.history.member"),
                           game=_("Which game (all by default)", key="game.history.game"))
    @app_commands.rename(member=_("member", key="game.history.member.name"),
                         game=_("game", key="game.history.game.name"))
    @app_commands.choices(game=game_choices())
    async def history(self, interaction: discord.Interaction, member: discord.User | None = None,
                      game: str | None = None) -> None:
        async def work() -> None:
            await interaction.response.defer(ephemeral=True)
            payload = await past_message(interaction, member.id if member else 0, game, 0)
            await interaction.followup.send(**payload, ephemeral=True)

        await guarded(interaction, work)

    @game.command(name=_("away", key="game.away"),
                  description=_("Pause your turn clocks in all your games here while you are away",
                                key="game.away.desc"))
    @app_commands.describe(days=_("For how many days (0: I am back)", key="game.away.days"))
    @app_commands.rename(days=_("days", key="game.away.days.name"))
    async def away(self, interaction: discord.Interaction, days: app_commands.Range[int, 0, 365]) -> None:
        async def work() -> None:
            loc, guild, me = user_locale(interaction), interaction.guild_id or 0, interaction.user.id
            if days == 0:
                await self.bot.tables.come_back(guild, me)
                await interaction.response.send_message(t(loc, "away.back"), ephemeral=True)
                return
            cap = (await self.bot.server_settings.get(guild)).away_days
            if cap == 0:
                raise SessionError("away_off")
            if days > cap:
                raise SessionError("away_too_long", max=cap)
            back, games = await self.bot.turn_clock.go_away(guild, me, days)
            await interaction.response.send_message(
                t(loc, "away.set", until=f"<t:{int(back.timestamp())}:f>", count=len(games)), ephemeral=True)
            for rec in games:
                await self.bot.tables.redraw(rec.id)

        await guarded(interaction, work)

    @app_commands.command(name=_("help", key="help"),
                          description=_("How to play here: commands and games", key="help.desc"))
    async def help(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            embed = help_embed(self.bot.tree, user_locale(interaction), playable())
            await interaction.response.send_message(embed=embed, ephemeral=True)

        await guarded(interaction, work)

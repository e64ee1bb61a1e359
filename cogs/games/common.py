"""What every handler of the shared table machinery needs: locales, replies that fit Discord's limits,
and ``guarded``, the one door every interaction goes through (duplicates, rate limit, refusals, bugs)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import discord
from discord.enums import InteractionResponseType
from discord.webhook.async_ import async_context, interaction_message_response_params

from bot.i18n import locale_of, t
from bot.metrics import GAME, Timed
from bot.sessions import SessionError
from bot.storage import SessionNotFound, SessionRecord, UnreadableSession
from bot.workers import WorkerPool
from cogs.games.payload import Components, as_view
from cogs.games.ui import GameUI, Names, clip
from rules.core import RuleError

if TYPE_CHECKING:
    from cogs.games.host import GameBot

log = logging.getLogger(__name__)
MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True)
# Replays, /game status and (in tests) table pictures run one at a time, off the event loop, in a thread.
PICTURES = ThreadPoolExecutor(max_workers=1, thread_name_prefix="table-picture")
_DRAWING: dict[str, Executor] = {}


def drawing_pool(processes: int) -> Executor:
    """Where table pictures are drawn after a move: a process of its own by default, so that drawing a
    map (tens of milliseconds of Python and Pillow) never holds the event loop's GIL while clicks wait;
    ``processes=0`` draws in the thread above (tests). One pool per process, shared by every bot in it."""
    if processes <= 0:
        return PICTURES
    pool = _DRAWING.get("pool")
    if pool is None:
        pool = _DRAWING["pool"] = WorkerPool("pictures", processes)
    return pool


def draw_table(game_id: str, public: Any, locale: str, names: Names) -> bytes | None:
    """In the drawing process: the game's table picture, drawn by its cog's ``UI`` (every game cog names
    its look so)."""
    import importlib

    ui: GameUI = importlib.import_module(f"cogs.{game_id}").UI
    return ui.table_image(public, locale, names)
MAX_CONTENT = 2000
MAX_ID = 2**63 - 1
"""Ids in custom ids are read as text; anything past a signed 64-bit integer cannot be a session."""


def bot_of(interaction: discord.Interaction) -> GameBot:
    return interaction.client  # type: ignore[return-value]


def user_locale(interaction: discord.Interaction) -> str:
    return locale_of(interaction.locale)


def seat_locale(rec: SessionRecord, user_id: int) -> str:
    """The language of a player's private messages: their client's when they sat down (the channel's for
    seats taken before languages were stored). Languages are kept by seat, so a member who took a seat over
    has theirs there."""
    seat = rec.seat_of(user_id) or str(user_id)
    return rec.locales.get(seat, rec.locale)


def channel_locale(interaction: discord.Interaction) -> str:
    return locale_of(interaction.guild_locale or interaction.locale)


def display_name(user: discord.abc.User) -> str:
    return clip(getattr(user, "display_name", None) or user.name, 32)


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """Clip every part of an embed to Discord's limits, so a long name typed by a user can never turn a
    refusal into a 400 from Discord."""
    if embed.title:
        embed.title = clip(embed.title, 256)
    if embed.description:
        embed.description = clip(embed.description, 4096)
    for i, f in enumerate(embed.fields):
        name, value, inline = f.name, f.value, f.inline
        if name and value and len(name) <= 256 and len(value) <= 1024 and isinstance(inline, bool):
            continue  # already fits: rewriting it as it is was a twentieth of building a private message
        embed.set_field_at(i, name=clip(name or "—", 256), value=clip(value or "—", 1024), inline=bool(inline))
    footer = embed.footer
    if footer.text and len(footer.text) > 2048:
        embed.set_footer(text=clip(footer.text, 2048), icon_url=footer.icon_url)
    return embed


async def reply(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """An ephemeral answer whether or not the interaction was already answered, clipped to fit."""
    kwargs.setdefault("ephemeral", True)
    text = clip(text, MAX_CONTENT)
    if "embed" in kwargs and kwargs["embed"] is not None:
        fit_embed(kwargs["embed"])
    if interaction.response.is_done():
        await interaction.followup.send(text, **kwargs)
    else:
        await interaction.response.send_message(text, **kwargs)


async def show_in_place(interaction: discord.Interaction, embed: discord.Embed, view: Components) -> None:
    """``interaction.response.edit_message(embed=embed, view=view)`` (the clicked message shows the new
    view), sent through discord.py as that method sends it, byte for byte, without reading Discord's answer
    into a message: discord.py asks for the edited message back and parses all of it (embed, every
    component, author), which nobody reads here, and that was a twentieth of what a move cost the bot.
    ``view``'s components are dynamic items, so there is no view for discord.py to keep either."""
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    state = interaction._state
    params = interaction_message_response_params(
        type=InteractionResponseType.message_update.value, embed=embed, view=as_view(view),
        previous_allowed_mentions=state.allowed_mentions)
    await async_context.get().create_interaction_response(
        interaction.id, interaction.token, session=interaction._session, proxy=state.http.proxy,
        proxy_auth=state.http.proxy_auth, params=params)
    response._response_type = InteractionResponseType.message_update


def rule_error_text(err: RuleError, locale: str, ui: GameUI | None, names: Names) -> str:
    params = dict(err.params)
    if ui is not None:
        params = ui.rule_error_params(params, locale, names)
    return t(locale, f"rule.{err.code}", **params)


async def guarded(interaction: discord.Interaction, work: Callable[[], Awaitable[None]]) -> None:
    """Every interaction goes through here: a repeated delivery is dropped quietly, a stopping bot turns
    new ones away (and waits for those in flight, see ``bot.gate``), a user clicking too fast is asked to
    slow down, refusals become short localized answers, bugs are logged with a traceback
    and the user gets a one-line apology rather than silence."""
    bot = bot_of(interaction)
    if not bot.seen.first_time(interaction.id):
        log.info("interaction %s delivered twice; ignored", interaction.id)
        return
    loc = user_locale(interaction)
    if bot.gate.closed:
        try:
            await reply(interaction, t(loc, "err.stopping"))
        except discord.HTTPException:
            log.warning("could not tell the user the bot is stopping")
        return
    with bot.gate.passing(), Timed(bot.metrics):
        try:
            if not bot.rate_limit.allow(interaction.user.id):
                bot.metrics.refused("slow_down")
                await reply(interaction, t(loc, "err.slow_down"))
                return
            await work()
        except SessionError as exc:
            bot.metrics.refused(exc.code)
            await reply(interaction, exc.text(loc))
        except SessionNotFound:
            bot.metrics.refused("no_such_game")
            await reply(interaction, t(loc, "err.no_such_game"))
        except RuleError as exc:
            bot.metrics.refused(exc.code)
            await reply(interaction, rule_error_text(exc, loc, None, Names({})))
        except UnreadableSession as exc:  # permanent until a person acts: no "try again", and the log says which
            bot.metrics.failed()
            log.error("interaction %s: session %s cannot be read: %s", interaction.id, exc.session_id, exc)
            await reply(interaction, t(loc, f"err.{exc.code}"))
        except Exception:
            bot.metrics.failed()
            log.exception("interaction %s failed", interaction.id)
            try:
                await reply(interaction, t(loc, "err.internal"))
            except discord.HTTPException:
                log.warning("could not tell the user about the failure")


def session_id(text: str) -> int:
    """A session id read from a custom id (ASCII digits). Past a 64-bit integer it cannot exist: 0 then,
    which no session has, so the handler answers "no such game" instead of the database overflowing."""
    value = int(text)
    return value if value <= MAX_ID else 0


def check_place(interaction: discord.Interaction, rec: SessionRecord) -> None:
    """The door every custom-id handler passes: a custom id is never trusted, session ids are sequential,
    so a forged or copied one must reach nothing its clicker has no part in. In a server, the button must
    belong to that server's and channel's game. In a DM there is no place to compare, so the clicker must
    be seated in the game, and a lobby (where seats are taken) is reachable from its channel only."""
    GAME.set(rec.game_id)
    if interaction.guild_id is None:
        if rec.status == "lobby":
            raise SessionError("lobby_in_dm")
        if rec.seat_of(interaction.user.id) is None:
            raise SessionError("not_seated")
        return
    if rec.guild_id is not None and rec.guild_id != interaction.guild_id:
        raise SessionError("no_session")
    if rec.channel_id != interaction.channel_id:
        raise SessionError("other_channel", channel=rec.channel_id)

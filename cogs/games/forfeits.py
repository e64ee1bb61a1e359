"""Taking a seat out of a running game: a player leaving, a turn deadline, a vote of the table.

All three go the same way (``SessionService.forfeit``): the game's own rule where it has one (a duel is
conceded, a Fluxx player leaves with their cards, Eldritch Horror hands the investigators on), an AI
player where the game goes on without its player, or the end of a game nobody plays any more. Only the
notice in the channel differs, so the table hears why.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Literal

import discord

from bot.i18n import t
from bot.sessions import Forfeit
from bot.storage import SessionRecord
from bot.table.outcome import Departure

if TYPE_CHECKING:
    from cogs.games.host import GameBot

log = logging.getLogger(__name__)

Why = Literal["leave", "deadline", "vote"]
DEPARTURE: dict[Why, Departure] = {"leave": "left", "deadline": "forfeited", "vote": "voted_out"}


async def forfeit_seat(bot: GameBot, rec: SessionRecord, seat: str, why: Why, *, waited: str = "") -> Forfeit:
    """Forfeit ``seat`` for a deadline or a vote and tell the table; SessionError/RuleError when it cannot be
    (then nothing changed). One that the game refuses now (an effect still waits on the seat) hands the
    seat to an AI instead, so a silent player never blocks the table."""
    done = await bot.sessions.forfeit(rec.id, seat, fallback_ai=True, why=DEPARTURE[why])
    await after_forfeit(bot, rec, seat, done, why, waited=waited)
    return done


async def after_forfeit(bot: GameBot, rec: SessionRecord, seat: str, done: Forfeit, why: Why, *,
                        interaction: discord.Interaction | None = None, waited: str = "") -> None:
    """The follow-up of a forfeit for ``why``: the player's live DM loses its buttons, the
    table shows what the game did, the channel hears why."""
    player = rec.player(seat)
    await bot.tables.deliveries.retire(rec.id, player)
    if done.outcome is not None:
        await bot.tables.after_action(done.outcome, interaction)
    if done.how == "ended":
        await bot.tables.ended(done.record)
    elif done.how == "ai":
        await bot.tables.deliveries.tell_ai_took(rec, player)
        await bot.tables.reseated(rec.id)  # the seat shows 🤖 at once, not at the AI's first move
        bot.ai_players.poke(rec.id)
    notice = t(rec.locale, f"forfeit.{why}.{done.how}", user=f"<@{player}>", waited=waited,
               level=t(rec.locale, "ai.level.normal"))
    try:
        await bot.tables.notifier.post(rec.channel_id, notice)
    except discord.HTTPException as exc:
        log.warning("forfeit notice in %s failed (%s %s)", rec.channel_id, exc.status, exc.code)

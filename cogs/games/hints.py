"""A player's 💡 hint: the AI's best moves from their own seat, answered to them alone.

The search is an AI seat's own (``rules.ai.hint``), run in the AI seats' worker at their normal budget,
so it sees only what the seat sees and never holds the event loop. A hint is not a move: the game's state,
version and log stay as they were. The seat's first hint is noted in the table's settings
(``SessionService.note_hint``) and the table names it, so everyone knows who played with advice.
"""

from __future__ import annotations

import logging

import discord
from pydantic import BaseModel

from bot.i18n import t
from bot.sessions import SessionError
from bot.storage import SessionRecord
from cogs.games.common import bot_of, user_locale
from cogs.games.components import HANDLERS
from cogs.games.flows import _seated_running, outdated
from cogs.games.ui import MAX_OPTION_LABEL, Names, clip, ui_for
from rules import registry
from rules.ai import HintMove

log = logging.getLogger(__name__)


async def ask_hint(interaction: discord.Interaction, sid: int, ver: int | None = None) -> None:
    """``ver``: the version the 💡 button was made for; ``/game hint`` asks about the current one. Every
    refusal comes before the search, and the answer comes by followup after an ephemeral "thinking"."""
    bot = bot_of(interaction)
    loc = user_locale(interaction)
    rec, spec, state, seat = await _seated_running(interaction, sid)
    settings = await bot.sessions.settings(sid)
    if seat in settings.ai:
        raise SessionError("already_left")
    if not settings.hints:
        raise SessionError("hints_off")
    if ver is not None and ver != rec.version:
        await outdated(interaction, rec, state, loc)
        return
    if not spec.engine.legal_actions(state, seat):
        raise SessionError("hint_no_decision")
    if not bot.ai_players.hint_limit.allow(interaction.user.id):
        raise SessionError("hint_slow_down")
    await interaction.response.defer(ephemeral=True, thinking=True)
    moves = await bot.ai_players.hint(rec, state, seat)
    now, _spec, current = await bot.sessions.load(sid)
    if now.version != rec.version or current is None:
        # Someone moved while the AI thought: advice about a position that is gone would mislead.
        await interaction.followup.send(t(loc, "hint.moved_on"), ephemeral=True)
        return
    first = await bot.sessions.note_hint(sid, seat)
    await interaction.followup.send(hint_text(rec, state, seat, moves, loc), ephemeral=True)
    if first:
        try:
            await bot.tables.refresh_table(now, current, again=True)
        except discord.HTTPException as exc:  # the hint was given; the table shows the mark with the next move
            log.warning("session %s: table edit after a first hint failed (%s %s)", sid, exc.status, exc.code)


def hint_text(rec: SessionRecord, state: BaseModel, seat: str, moves: list[HintMove], locale: str) -> str:
    """The moves as the seat's own buttons name them, each with its share of simulated games won."""
    ui = ui_for(rec.game_id)
    view = registry.get(rec.game_id).engine.view(state, seat)
    names = Names.of(rec)
    lines = [t(locale, "hint.title")]
    for number, move in enumerate(moves, 1):
        label = clip(ui.action_label(move.action, view, locale, names), MAX_OPTION_LABEL)
        lines.append(t(locale, "hint.move", number=number, move=label, share=round(move.win_share * 100),
                       count=move.simulations))
    lines.append(t(locale, "hint.note"))
    return "\n".join(lines)


HANDLERS.update(hint=ask_hint)

"""What each button and command of the shared machinery does, from the click to the follow-up.

Every handler checks the session against the interaction (its server and channel, the clicker's seat,
the version the button was made for) before anything changes, and answers a refusal in the clicker's
language. Handlers are registered into ``components.HANDLERS`` at import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from pydantic import BaseModel

from bot.i18n import locale_of, t
from bot.sessions import SessionError
from bot.storage import SessionNotFound, SessionRecord
from bot.ui import Names, ui_for
from cogs.games.common import (
    MENTIONS,
    bot_of,
    check_place,
    display_name,
    reply,
    rule_error_text,
    user_locale,
)
from cogs.games.components import HANDLERS, JoinConfirmButton, LeaveButton
from bot.server_settings import CLOCK_CHOICES, TableClock
from cogs.games.render import LobbyView, lobby_embed, private_message
from rules import registry
from rules.core import RuleError

if TYPE_CHECKING:
    from bot.client import GameBot


async def active_session(interaction: discord.Interaction) -> SessionRecord:
    rec = await bot_of(interaction).store.active_in_channel(interaction.channel_id or 0)
    if rec is None:
        raise SessionError("no_session")
    return rec


async def placed(interaction: discord.Interaction, sid: int) -> SessionRecord:
    """The session a button names, refused unless it is this server's and channel's game."""
    try:
        rec = await bot_of(interaction).store.get(sid)
    except SessionNotFound:
        raise SessionError("no_such_game") from None
    check_place(interaction, rec)
    return rec


async def lobby_message(bot: GameBot, rec: SessionRecord, locale: str | None = None) -> dict[str, Any]:
    """The lobby's embed and menus, with the game's turn clock."""
    loc = locale_of(locale or rec.locale)
    clock = await bot.turn_clock.table_clock(rec) if rec.status == "lobby" else None
    return {"embed": lobby_embed(rec, loc, clock), "view": LobbyView(rec, loc, clock)}


async def ai_name(bot: GameBot, sid: int, level: str) -> str:
    """An AI seat's name: numbered at its table, with its level (in the table's language)."""
    rec = await bot.store.get(sid)
    number = sum(1 for s in rec.seats if s < 0) + 1
    return t(rec.locale, "ai.name", number=number, level=t(rec.locale, f"ai.level.{level}"))


async def lobby_op(interaction: discord.Interaction, sid: int, op: str, *, edit: bool = True) -> None:
    bot = bot_of(interaction)
    user = interaction.user
    loc = user_locale(interaction)
    await placed(interaction, sid)
    if op == "join":
        rec = await bot.sessions.join(sid, user.id, display_name(user), user_locale(interaction))
    elif op == "leave":
        rec = await bot.sessions.leave(sid, user.id)
    elif op == "ai_add":
        rec = await bot.sessions.add_ai(sid, user.id, "normal", await ai_name(bot, sid, "normal"))
    elif op == "ai_remove":
        rec = await bot.sessions.remove_ai(sid, user.id)
    else:
        rec, state = await bot.sessions.start(sid, user.id)
        # Refusals above answer at once; only the slow part (picture, DMs) comes after a defer.
        await interaction.response.defer() if edit else await interaction.response.defer(ephemeral=True)
        await start_table(bot, rec, state)
        if not edit:
            await interaction.followup.send(t(loc, "lobby.started"), ephemeral=True)
        return
    if edit:
        await interaction.response.edit_message(**await lobby_message(bot, rec))
    else:
        await interaction.response.send_message(t(loc, f"lobby.{op}_done"), ephemeral=True)
        await refresh_lobby(bot, rec)


async def set_option(interaction: discord.Interaction, sid: int, field: str, values: list[str]) -> None:
    bot = bot_of(interaction)
    rec = await placed(interaction, sid)
    spec = registry.get(rec.game_id)
    if field == "_clock":
        rec = await set_clock(bot, rec, interaction.user.id, values)
        await interaction.response.edit_message(**await lobby_message(bot, rec))
        return
    if field == "_flags":
        flags = [n for n, f in spec.options_model.model_fields.items() if f.annotation is bool]
        changes: dict[str, Any] = {n: n in values for n in flags}
    else:
        changes = {field: values[0] if values else None}
    rec = await bot.sessions.set_options(sid, interaction.user.id, changes)
    await interaction.response.edit_message(**await lobby_message(bot, rec))


async def set_clock(bot: GameBot, rec: SessionRecord, user_id: int, values: list[str]) -> SessionRecord:
    """The host picks the turn clock in the lobby; a value not among the offered ones is refused."""
    if rec.status != "lobby":
        raise SessionError("not_lobby")
    if user_id != rec.host_id:
        raise SessionError("host_only")
    current = await bot.turn_clock.table_clock(rec)
    offered = {TableClock(remind_hours=r, deadline_hours=d).key: (r, d) for r, d in CLOCK_CHOICES}
    offered[current.key] = (current.remind_hours, current.deadline_hours)
    if not values or values[0] not in offered:
        raise SessionError("bad_choice")
    remind, deadline = offered[values[0]]
    settings = await bot.store.table_settings(rec.id)  # AI seats live here too: keep them
    await bot.store.set_table_settings(rec.id, {**settings, "remind_hours": remind, "deadline_hours": deadline})
    bot.turn_clock.release(rec.id)
    return rec


async def join_running(interaction: discord.Interaction, sid: int) -> None:
    """A newcomer sits down in a running game that allows it (e.g. Cthulhu Fluxx)."""
    bot = bot_of(interaction)
    await placed(interaction, sid)
    outcome = await bot.sessions.join_running(sid, interaction.user.id, display_name(interaction.user),
                                              user_locale(interaction))
    await interaction.response.send_message(t(user_locale(interaction), "lobby.join_done"), ephemeral=True)
    await bot.tables.after_action(outcome, interaction, newcomers=frozenset({interaction.user.id}))


async def take_back(interaction: discord.Interaction, sid: int) -> None:
    """``/game join`` by a player whose seat an AI plays since they left: the seat is theirs again."""
    bot = bot_of(interaction)
    rec = await bot.sessions.take_back(sid, interaction.user.id)
    await interaction.response.send_message(t(user_locale(interaction), "leave.back"), ephemeral=True)
    await bot.tables.channel(rec.channel_id).send(t(rec.locale, "leave.back_announce", user=f"<@{interaction.user.id}>"),
                                                  allowed_mentions=MENTIONS)
    await bot.tables.deliveries.deliver(sid, newcomers=frozenset({interaction.user.id}))


async def ask_join(interaction: discord.Interaction, sid: int) -> None:
    """The table's Join button asks first (privately); only its confirm button seats the player."""
    rec = await placed(interaction, sid)
    loc = user_locale(interaction)
    if interaction.user.id in rec.seats:
        raise SessionError("already_seated")
    view = discord.ui.View(timeout=None)
    view.add_item(JoinConfirmButton(sid, t(loc, "table.join_confirm_button")))
    game = registry.get(rec.game_id).name(loc)
    await interaction.response.send_message(t(loc, "table.join_confirm", game=game), view=view, ephemeral=True)


async def ask_leave(interaction: discord.Interaction, sid: int) -> None:
    """Leaving a running game asks first: where the game takes leavers out (Fluxx) their cards go, in
    the others an AI plays the seat on."""
    rec = await placed(interaction, sid)
    loc = user_locale(interaction)
    if interaction.user.id not in rec.seats:
        raise SessionError("not_seated")
    joinable = registry.get(rec.game_id).joinable
    view = discord.ui.View(timeout=None)
    button = "table.leave_confirm_button" if joinable else "leave.confirm_button"
    view.add_item(LeaveButton(sid, t(loc, button), confirm=True))
    await interaction.response.send_message(t(loc, "table.leave_confirm" if joinable else "leave.confirm"),
                                            view=view, ephemeral=True)


async def leave(interaction: discord.Interaction, sid: int) -> None:
    """A confirmed leave: the game's own leave action where it has one (the engine says when a player
    may), else the AI plays the seat from now on. Either way the player's private message goes, so no
    stale button is left with them."""
    bot = bot_of(interaction)
    rec = await placed(interaction, sid)
    loc = user_locale(interaction)
    if registry.get(rec.game_id).joinable:
        outcome = await bot.sessions.leave_running(sid, interaction.user.id)
        await interaction.response.edit_message(content=t(loc, "table.leave_done"), view=None)
        await bot.tables.deliveries.retire(sid, interaction.user.id)
        await bot.tables.after_action(outcome, interaction)
        return
    await bot.sessions.hand_to_ai(sid, interaction.user.id)
    await interaction.response.edit_message(content=t(loc, "leave.done"), view=None)
    await bot.tables.deliveries.retire(sid, interaction.user.id)
    await bot.tables.channel(rec.channel_id).send(
        t(rec.locale, "leave.announce", user=f"<@{interaction.user.id}>", level=t(rec.locale, "ai.level.normal")),
        allowed_mentions=MENTIONS)
    bot.ai_players.poke(sid)


async def refresh_lobby(bot: GameBot, rec: SessionRecord) -> None:
    if rec.table_message_id is None:
        return
    message = bot.tables.channel(rec.channel_id).get_partial_message(rec.table_message_id)  # type: ignore[attr-defined]
    await message.edit(**await lobby_message(bot, rec))


async def start_table(bot: GameBot, rec: SessionRecord, state: BaseModel) -> None:
    spec = registry.get(rec.game_id)
    notice = ui_for(rec.game_id).start_notice(spec.parse_options(rec.options), rec.locale)
    await bot.tables.start(rec, state, notice)


async def show_hand(interaction: discord.Interaction, sid: int) -> None:
    bot = bot_of(interaction)
    await placed(interaction, sid)
    rec, _spec, state = await bot.sessions.load(sid)
    if interaction.user.id not in rec.seats:
        raise SessionError("not_seated")
    if state is None:
        raise SessionError("not_running")
    embed, view = private_message(rec, state, str(interaction.user.id), user_locale(interaction))
    await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def _seated_running(interaction: discord.Interaction, sid: int) -> tuple[SessionRecord, Any, BaseModel]:
    bot = bot_of(interaction)
    try:
        rec, spec, state = await bot.sessions.load(sid)
    except SessionNotFound:
        raise SessionError("no_such_game") from None
    check_place(interaction, rec)
    if interaction.user.id not in rec.seats:
        raise SessionError("not_seated")
    if rec.status != "running" or state is None:
        raise SessionError("not_running")
    return rec, spec, state


async def turn_page(interaction: discord.Interaction, sid: int, ver: int, page: int) -> None:
    loc = user_locale(interaction)
    rec, _spec, state = await _seated_running(interaction, sid)
    if ver != rec.version:
        await outdated(interaction, rec, state, loc)
        return
    embed, view = private_message(rec, state, str(interaction.user.id), loc, page)
    await interaction.response.edit_message(embed=embed, view=view)


async def take_action(interaction: discord.Interaction, sid: int, ver: int, idx: int) -> None:
    bot = bot_of(interaction)
    loc = user_locale(interaction)
    rec, spec, state = await _seated_running(interaction, sid)
    if ver != rec.version:
        await outdated(interaction, rec, state, loc)
        return
    user_id = interaction.user.id
    seat = str(user_id)
    legal = spec.engine.legal_actions(state, seat)
    if idx >= len(legal):
        if not legal:
            prompts = spec.engine.pending(state)
            raise RuleError("waiting_for", seats=[p.seat for p in prompts], kind=prompts[0].kind if prompts else "")
        raise SessionError("bad_choice")
    try:
        outcome = await bot.sessions.act(sid, user_id, ver, legal[idx])
    except SessionError as exc:
        if exc.code != "stale":
            raise
        rec, spec, state = await bot.sessions.load(sid)
        assert state is not None
        await outdated(interaction, rec, state, loc)
        return
    except RuleError as exc:
        await reply(interaction, rule_error_text(exc, loc, ui_for(rec.game_id), Names.of(rec)))
        return
    # The move is stored. The clicked message shows the new view; if that fails, the player is still
    # told the move counted, and the follow-up runs whatever happens here.
    embed, view = private_message(outcome.record, outcome.state, seat, loc,
                                  place=bot.tables.deliveries.place(outcome.record))
    clicked = None
    try:
        await interaction.response.edit_message(embed=embed, view=view)
        if interaction.message is not None:
            clicked = (user_id, interaction.message.id, outcome.record.version)
    except discord.HTTPException:
        try:
            await interaction.followup.send(t(loc, "move.counted"), ephemeral=True)
        except discord.HTTPException:
            pass  # the next view reaches them by the delivery below
    await bot.tables.after_action(outcome, interaction, clicked)


async def outdated(interaction: discord.Interaction, rec: SessionRecord, state: BaseModel, loc: str) -> None:
    """A click on an old version: nothing is applied; the player gets the current view to act from."""
    if interaction.user.id in rec.seats:
        embed, view = private_message(rec, state, str(interaction.user.id), loc)
        await interaction.response.send_message(t(loc, "err.stale"), embed=embed, view=view, ephemeral=True)
    else:
        await reply(interaction, t(loc, "err.stale"))


async def may_abandon(bot: GameBot, interaction: discord.Interaction, rec: SessionRecord) -> None:
    """The host or Manage Server may end a game; a server may keep it to Manage Server alone."""
    perms = interaction.permissions
    manage = bool(perms and perms.manage_guild)
    if manage:
        return
    if (await bot.server_settings.get(rec.guild_id)).abandon == "manage":
        raise SessionError("abandon_manage_only")
    if interaction.user.id != rec.host_id:
        raise SessionError("abandon_forbidden")


async def confirm_abandon(interaction: discord.Interaction, sid: int, ver: int) -> None:
    bot = bot_of(interaction)
    await may_abandon(bot, interaction, await placed(interaction, sid))
    perms = interaction.permissions
    # The version the confirmation was issued for is checked under the session's lock, with the change.
    rec = await bot.sessions.abandon(sid, interaction.user.id, can_manage=bool(perms and perms.manage_guild),
                                     expected_version=ver)
    loc = user_locale(interaction)
    await interaction.response.edit_message(content=t(loc, "abandon.done"), view=None)
    table_loc = locale_of(rec.locale)
    await bot.tables.ended(rec)  # the table and the live DMs lose their buttons, the timers go
    await bot.tables.channel(rec.channel_id).send(
        t(table_loc, "abandon.announce", user=f"<@{interaction.user.id}>"), allowed_mentions=MENTIONS
    )


async def rematch(interaction: discord.Interaction, sid: int) -> None:
    """A finished game's player opens a new lobby here with the same options and the same clock; the
    other players are invited by mention and take their seats with Join."""
    bot = bot_of(interaction)
    old = await placed(interaction, sid)
    if old.status != "finished":
        raise SessionError("not_finished")
    if interaction.user.id not in old.seats:
        raise SessionError("not_seated")
    rec = await bot.sessions.open_lobby(
        guild_id=old.guild_id, channel_id=old.channel_id, game_id=old.game_id, host_id=interaction.user.id,
        options=old.options, locale=old.locale, host_name=display_name(interaction.user),
        host_locale=user_locale(interaction),
    )
    clock = await bot.store.table_settings(old.id)
    if clock:
        await bot.store.set_table_settings(rec.id, clock)
    others = " ".join(f"<@{uid}>" for uid in old.seats if uid != interaction.user.id)
    content = t(rec.locale, "lobby.rematch", host=f"<@{interaction.user.id}>", players=others)
    try:
        await interaction.response.send_message(content, allowed_mentions=MENTIONS, **await lobby_message(bot, rec))
    except Exception:
        await bot.sessions.leave(rec.id, interaction.user.id)  # a lobby nobody can see frees the channel
        raise
    message = await interaction.original_response()
    rec = await bot.sessions.set_table_message(rec.id, message.id)
    await bot.turn_clock.after_move(rec, None)


async def vote(interaction: discord.Interaction, sid: int, seat: int) -> None:
    bot = bot_of(interaction)
    await placed(interaction, sid)
    votes, needed, passed = await bot.turn_clock.vote(sid, interaction.user.id, str(seat))
    if not passed:
        await reply(interaction, t(user_locale(interaction), "clock.vote_counted", votes=votes, needed=needed))
    elif not interaction.response.is_done():
        await interaction.response.defer()


HANDLERS.update(ask_join=ask_join, ask_leave=ask_leave, leave=leave, vote=vote, rematch=rematch, 
    lobby=lobby_op, option=set_option, hand=show_hand, join_running=join_running, act=take_action,
    page=turn_page, abandon=confirm_abandon,
)

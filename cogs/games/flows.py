"""What each button and command of the shared machinery does, from the click to the follow-up.

Every handler checks the session against the interaction (its server and channel, the clicker's seat,
the version the button was made for) before anything changes, and answers a refusal in the clicker's
language. Handlers are registered into ``components.HANDLERS`` at import.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

import discord
from pydantic import BaseModel

from bot.i18n import locale_of, t
from bot.metrics import GAME
from bot.sessions import Forfeit, SessionError
from bot.storage import SessionNotFound, SessionRecord
from cogs.games.common import (
    MENTIONS,
    bot_of,
    check_place,
    display_name,
    reply,
    rule_error_text,
    show_in_place,
    user_locale,
)
from cogs.games.components import HANDLERS, JoinConfirmButton, LeaveButton, VoteButton
from cogs.games.forfeits import after_forfeit
from cogs.games.payload import as_view
from cogs.games.render import TABLE_PAGE, LobbyView, lobby_embed, lobby_pages, private_message
from cogs.games.takeback import offer as offer_takeback
from cogs.games.ui import Names, ui_for
from rules import registry
from rules.core import RuleError

if TYPE_CHECKING:
    from cogs.games.host import GameBot


async def active_session(interaction: discord.Interaction) -> SessionRecord:
    rec = await bot_of(interaction).sessions.active_in_channel(interaction.channel_id or 0)
    if rec is None:
        raise SessionError("no_session")
    GAME.set(rec.game_id)
    return rec


async def placed(interaction: discord.Interaction, sid: int) -> SessionRecord:
    """The session a button names, refused unless it is this server's and channel's game."""
    rec = await bot_of(interaction).sessions.record(sid)
    check_place(interaction, rec)
    return rec


async def lobby_message(bot: GameBot, rec: SessionRecord, locale: str | None = None, page: int = 0) -> dict[str, Any]:
    """The lobby's embed and menus at ``page``, with the table's turn clock and switches."""
    loc = locale_of(locale or rec.locale)
    clock = await bot.turn_clock.table_clock(rec) if rec.status == "lobby" else None
    settings = await bot.sessions.settings(rec.id)
    ai = dict(settings.ai)
    shown = settings if clock is not None else None
    return {"embed": lobby_embed(rec, loc, clock, ai, shown), "view": LobbyView(rec, loc, clock, settings, page)}


def lobby_page_of(rec: SessionRecord, page: int) -> int:
    """``page`` of a click, refused unless this lobby has it (a custom id is never trusted)."""
    if page >= lobby_pages(rec, locale_of(rec.locale)):
        raise SessionError("bad_choice")
    return page


async def lobby_page(interaction: discord.Interaction, sid: int, page: int) -> None:
    """Shows the lobby's other page; anyone may look, only the host changes what it shows."""
    bot = bot_of(interaction)
    rec = await placed(interaction, sid)
    if rec.status != "lobby":
        raise SessionError("not_lobby")
    await interaction.response.edit_message(**await lobby_message(bot, rec, page=lobby_page_of(rec, page)))


async def ai_name(bot: GameBot, sid: int, level: str) -> str:
    """An AI seat's name: numbered at its table, with its level (in the table's language)."""
    rec = await bot.sessions.record(sid)
    number = sum(1 for s in rec.seats if s < 0) + 1
    return t(rec.locale, "ai.name", number=number, level=t(rec.locale, f"ai.level.{level}"))


async def lobby_op(interaction: discord.Interaction, sid: int, op: str, *, edit: bool = True, page: int = 0) -> None:
    """A lobby button (``edit``: the lobby message shows the result, at the ``page`` the button was on) or
    its command (the lobby is refreshed as it is)."""
    bot = bot_of(interaction)
    user = interaction.user
    loc = user_locale(interaction)
    page = lobby_page_of(await placed(interaction, sid), page)
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
        await interaction.response.edit_message(**await lobby_message(bot, rec, page=page))
    else:
        await interaction.response.send_message(t(loc, f"lobby.{op}_done"), ephemeral=True)
        await refresh_lobby(bot, rec)


async def set_option(interaction: discord.Interaction, sid: int, field: str, values: list[str]) -> None:
    bot = bot_of(interaction)
    rec = await placed(interaction, sid)
    spec = registry.get(rec.game_id)
    if field in ("_clock", "_switches"):  # the table's menus, on its page where the lobby has two
        if field == "_clock":
            rec = await set_clock(bot, rec, interaction.user.id, values)
        else:
            rec = await bot.sessions.set_switches(sid, interaction.user.id, set(values))
        page = TABLE_PAGE if lobby_pages(rec, locale_of(rec.locale)) > 1 else 0
        await interaction.response.edit_message(**await lobby_message(bot, rec, page=page))
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
    if not values:
        raise SessionError("bad_choice")
    return await bot.sessions.set_clock(rec.id, user_id, values[0], await bot.turn_clock.default_clock(rec))


async def join_running(interaction: discord.Interaction, sid: int) -> None:
    """Joining a running game: a player whose seat the AI plays takes it back; in a game open to newcomers
    (Cthulhu Fluxx) a newcomer takes an AI seat if there is one, else a new seat."""
    bot = bot_of(interaction)
    rec = await placed(interaction, sid)
    ai = await bot.sessions.ai_seats(sid)
    mine = rec.seat_of(interaction.user.id)
    if (mine is not None and mine in ai) or (mine is None and ai and registry.get(rec.game_id).joinable):
        await take_seat(interaction, sid)
        return
    outcome = await bot.sessions.join_running(sid, interaction.user.id, display_name(interaction.user),
                                              user_locale(interaction))
    await interaction.response.send_message(t(user_locale(interaction), "lobby.join_done"), ephemeral=True)
    await bot.tables.after_action(outcome, interaction, newcomers=frozenset({interaction.user.id}))


async def replace_seat(interaction: discord.Interaction, old: discord.abc.User, new: discord.abc.User) -> None:
    """``/game replace``: the host (or Manage Server) hands ``old``'s seat to ``new``."""
    bot = bot_of(interaction)
    rec = await active_session(interaction)
    if new.bot:
        raise SessionError("replace_bot")
    perms = interaction.permissions
    rec, _seat = await bot.sessions.replace(rec.id, interaction.user.id, can_manage=bool(perms and perms.manage_guild),
                                           old=old.id, new=new.id, name=display_name(new),
                                           locale=rec.locales.get(str(new.id)))
    await interaction.response.send_message(t(user_locale(interaction), "replace.done"), ephemeral=True)
    await bot.tables.deliveries.retire(rec.id, old.id)
    await bot.tables.channel(rec.channel_id).send(
        t(rec.locale, "replace.announce", old=f"<@{old.id}>", new=f"<@{new.id}>"), allowed_mentions=MENTIONS)
    await bot.tables.deliveries.deliver(rec.id, newcomers=frozenset({new.id}))
    _rec, _spec, state = await bot.sessions.load(rec.id)
    assert state is not None  # a seat is replaced only in a running game, which has a state
    await bot.tables.refresh_table(rec, state, [])


async def take_seat(interaction: discord.Interaction, sid: int) -> None:
    """``/game join`` for a seat the AI plays: the player who left it takes it back, or, in a game open to
    newcomers, a newcomer takes an AI seat."""
    bot = bot_of(interaction)
    user = interaction.user
    _seat, back = await bot.sessions.take_seat(sid, user.id, display_name(user), user_locale(interaction))
    rec = await bot.sessions.record(sid)
    await interaction.response.send_message(t(user_locale(interaction), "leave.back" if back else "leave.took"),
                                            ephemeral=True)
    key = "leave.back_announce" if back else "leave.took_ai_seat"
    await bot.tables.channel(rec.channel_id).send(t(rec.locale, key, user=f"<@{user.id}>"), allowed_mentions=MENTIONS)
    await bot.tables.deliveries.deliver(sid, newcomers=frozenset({user.id}))
    await bot.tables.reseated(sid)


async def ask_join(interaction: discord.Interaction, sid: int) -> None:
    """The table's Join button asks first (privately); only its confirm button seats the player."""
    rec = await placed(interaction, sid)
    loc = user_locale(interaction)
    if rec.seat_of(interaction.user.id) is not None:
        raise SessionError("already_seated")
    view = discord.ui.View(timeout=None)
    view.add_item(JoinConfirmButton(sid, t(loc, "table.join_confirm_button")))
    game = registry.get(rec.game_id).name(loc)
    await interaction.response.send_message(t(loc, "table.join_confirm", game=game), view=view, ephemeral=True)


async def ask_leave(interaction: discord.Interaction, sid: int, to_ai: bool = False) -> None:
    """Leaving a running game asks first, saying what the game does with a leaver's seat (its own rule, or
    an AI playing it on); ``to_ai``: the player asks for an AI to play their seat on instead."""
    bot = bot_of(interaction)
    await placed(interaction, sid)
    rec, spec, state = await bot.sessions.load(sid)
    loc = user_locale(interaction)
    seat = rec.seat_of(interaction.user.id)
    if seat is None or seat in await bot.sessions.ai_seats(sid):
        raise SessionError("not_seated")
    if rec.status != "running" or state is None:
        raise SessionError("not_running")
    action = None if to_ai else spec.engine.forfeit(state, seat, rec.seats.index(int(seat)))
    alone = not [s for s in bot.sessions.humans(rec, await bot.sessions.ai_seats(sid)) if s != seat]
    if action is not None:
        kind = "concede" if getattr(action, "type", "") == "concede" else f"leave_{rec.game_id}"
    else:
        kind = "ended" if alone else "ai"
    if to_ai and alone:
        raise SessionError("last_player")
    view = discord.ui.View(timeout=None)
    view.add_item(LeaveButton(sid, t(loc, "leave.confirm_button"), confirm=True, to_ai=to_ai))
    await interaction.response.send_message(t(loc, f"leave.confirm.{kind}"), view=view, ephemeral=True)


async def leave(interaction: discord.Interaction, sid: int, to_ai: bool = False) -> None:
    """A confirmed leave: the game's own forfeit where it has one, else (or when asked, ``to_ai``) an AI plays
    the seat on (see ``forfeits``). Either way the player's private message goes, so no stale button is
    left with them."""
    bot = bot_of(interaction)
    rec = await placed(interaction, sid)
    seat = rec.seat_of(interaction.user.id)
    if seat is None:
        raise SessionError("not_seated")
    if to_ai:
        await bot.sessions.hand_to_ai(sid, seat)
        done = Forfeit("ai", rec)
    else:
        done = await bot.sessions.forfeit(sid, seat)
    await interaction.response.edit_message(content=t(user_locale(interaction), "leave.done"), view=None)
    await after_forfeit(bot, rec, seat, done, "leave", interaction=interaction)


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
    seat = rec.seat_of(interaction.user.id)
    if seat is None:
        raise SessionError("not_seated")
    if state is None:
        raise SessionError("not_running")
    embed, view = private_message(rec, state, seat, user_locale(interaction),
                                  hints=await bot.sessions.offers_hints(sid, seat), ai=await bot.sessions.ai_seats(sid))
    await interaction.response.send_message(embed=embed, view=as_view(view), ephemeral=True)


async def _seated_running(interaction: discord.Interaction, sid: int,
                          acting_on: int | None = None) -> tuple[SessionRecord, Any, BaseModel, str]:
    """The running game a button names and the seat the clicker plays in it (``acting_on``: the version a
    move from the button will be committed against, see ``SessionService.load``)."""
    bot = bot_of(interaction)
    try:
        rec, spec, state = await bot.sessions.load(sid, acting_on=acting_on)
    except SessionNotFound:
        raise SessionError("no_such_game") from None
    check_place(interaction, rec)
    seat = rec.seat_of(interaction.user.id)
    if seat is None:
        raise SessionError("not_seated")
    if rec.status != "running" or state is None:
        raise SessionError("not_running")
    return rec, spec, state, seat


async def turn_page(interaction: discord.Interaction, sid: int, ver: int, page: int) -> None:
    loc = user_locale(interaction)
    rec, _spec, state, seat = await _seated_running(interaction, sid)
    if ver != rec.version:
        await outdated(interaction, rec, state, loc)
        return
    sessions = bot_of(interaction).sessions
    embed, view = private_message(rec, state, seat, loc, page, hints=await sessions.offers_hints(sid, seat),
                                  ai=await sessions.ai_seats(sid), glance=sessions.glance(rec, state))
    await show_in_place(interaction, embed, view)


async def take_action(interaction: discord.Interaction, sid: int, ver: int, idx: int) -> None:
    bot = bot_of(interaction)
    loc = user_locale(interaction)
    rec, _spec, state, seat = await _seated_running(interaction, sid, acting_on=ver)
    if ver != rec.version:
        await outdated(interaction, rec, state, loc)
        return
    user_id = interaction.user.id
    glance = bot.sessions.glance(rec, state)
    legal = glance.legal(seat)
    if idx >= len(legal):
        if not legal:
            prompts, names = glance.prompts, Names.of(rec, await bot.sessions.ai_seats(sid), loc)
            awaited = ", ".join(dict.fromkeys(names(p.seat) for p in prompts)) or "—"  # display names, never ids
            raise RuleError("waiting_for", seats=awaited, kind=prompts[0].kind if prompts else "")
        raise SessionError("bad_choice")
    try:
        outcome = await bot.sessions.act(sid, user_id, ver, legal[idx])
    except SessionError as exc:
        if exc.code != "stale":
            raise
        rec, _spec, fresh = await bot.sessions.load(sid)
        assert fresh is not None
        await outdated(interaction, rec, fresh, loc)
        return
    except RuleError as exc:
        names = Names.of(rec, await bot.sessions.ai_seats(sid), loc)
        await reply(interaction, rule_error_text(exc, loc, ui_for(rec.game_id), names))
        return
    # The move is stored. The clicked message shows the new view; if that fails, the player is still
    # told the move counted, and the follow-up runs whatever happens here.
    embed, view = private_message(outcome.record, outcome.state, seat, loc,
                                  place=bot.tables.deliveries.place(outcome.record),
                                  hints=await bot.sessions.offers_hints(sid, seat),
                                  ai=await bot.sessions.ai_seats(sid), glance=outcome.glance)
    offer_takeback(outcome, view, loc)
    clicked = None
    try:
        await show_in_place(interaction, embed, view)
        if interaction.message is not None:
            clicked = (user_id, interaction.message.id, outcome.record.version)
    except discord.HTTPException:
        with contextlib.suppress(discord.HTTPException):  # the next view reaches them by the delivery below
            await interaction.followup.send(t(loc, "move.counted"), ephemeral=True)
    await bot.tables.after_action(outcome, interaction, clicked)


async def outdated(interaction: discord.Interaction, rec: SessionRecord, state: BaseModel, loc: str) -> None:
    """A click on an old version: nothing is applied; the player gets the current view to act from."""
    seat = rec.seat_of(interaction.user.id)
    if seat is not None:
        sessions = bot_of(interaction).sessions
        embed, view = private_message(rec, state, seat, loc, hints=await sessions.offers_hints(rec.id, seat),
                                      ai=await sessions.ai_seats(rec.id))
        await interaction.response.send_message(t(loc, "err.stale"), embed=embed, view=as_view(view),
                                                ephemeral=True)
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
    if old.seat_of(interaction.user.id) is None:
        raise SessionError("not_seated")
    rec = await bot.sessions.open_lobby(
        guild_id=old.guild_id, channel_id=old.channel_id, game_id=old.game_id, host_id=interaction.user.id,
        options=old.options, locale=old.locale, host_name=display_name(interaction.user),
        host_locale=user_locale(interaction),
    )
    await bot.sessions.carry_settings(old.id, rec.id)
    players = (old.player(str(s)) for s in old.seats)
    others = " ".join(f"<@{uid}>" for uid in players if uid > 0 and uid != interaction.user.id)
    content = t(rec.locale, "lobby.rematch", host=f"<@{interaction.user.id}>", players=others)
    try:
        await interaction.response.send_message(content, allowed_mentions=MENTIONS, **await lobby_message(bot, rec))
    except Exception:
        await bot.sessions.leave(rec.id, interaction.user.id)  # a lobby nobody can see frees the channel
        raise
    message = await interaction.original_response()
    rec = await bot.sessions.set_table_message(rec.id, message.id)
    await bot.turn_clock.after_move(rec, None)


async def vote(interaction: discord.Interaction, sid: int, seat: int, confirmed: bool = False) -> None:
    bot = bot_of(interaction)
    rec = await placed(interaction, sid)
    loc = user_locale(interaction)
    votes, needed, passed = await bot.turn_clock.vote(sid, interaction.user.id, str(seat), confirmed)
    if passed is None:  # the vote would end the game: the voter says so first
        view = discord.ui.View(timeout=None)
        view.add_item(VoteButton(sid, seat, t(loc, "clock.vote_confirm_button"), confirmed=True))
        name = Names.of(rec, await bot.sessions.ai_seats(sid), loc)(str(seat))
        await interaction.response.send_message(t(loc, "clock.vote_confirm", user=name), view=view, ephemeral=True)
        return
    if not passed:
        await reply(interaction, t(user_locale(interaction), "clock.vote_counted", votes=votes, needed=needed))
    elif not interaction.response.is_done():
        await interaction.response.defer()


HANDLERS.update(ask_join=ask_join, ask_leave=ask_leave, leave=leave, vote=vote, rematch=rematch,
    lobby=lobby_op, option=set_option, hand=show_hand, join_running=join_running, act=take_action,
    page=turn_page, abandon=confirm_abandon, lobby_page=lobby_page,
)

"""A server's and a member's record: ``/game rating`` (the leaderboard), the ratings ``/game stats`` adds,
``/game mine`` (my games here), ``/game history`` (finished games with a replay each) and ``/game away``.

Everything is read through the session service and drawn here; a rating is what ``bot.ratings`` made of
the games when they ended, never worked out again on the way to the screen.
"""

from __future__ import annotations

import asyncio
import functools
import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.i18n import t
from bot.ratings import Rating
from bot.sessions import SessionError
from bot.storage import RatingRow, SessionRecord, Settled
from bot.table.outcome import SeatEnd, counted_winners
from cogs.games.common import PICTURES, bot_of, fit_embed, session_id, user_locale
from cogs.games.components import HANDLERS, ID, SMALL, as_button, handle
from cogs.games.history import replay_message, session_here
from cogs.games.render import jump_url
from cogs.games.ui import MAX_LABEL, Names, clip
from rules import registry

LEADERS_PER_PAGE = 20
PAST_PER_PAGE = 5
"""Finished games per page of ``/game history``: each has its own replay button, in one row."""
MINE_FINISHED = 5
"""Finished games ``/game mine`` lists after the running ones: the latest few; ``/game history`` has all."""
GAME = r"[a-z_]{1,40}"


def shown(row: RatingRow) -> int:
    return Rating(mu=row.mu, sigma=row.sigma).shown


def member_name(row: RatingRow) -> str:
    """The display name the member had when the rating last changed (a mention only when none was known)."""
    return clip(row.name, 32) if row.name else f"<@{row.user_id}>"


def ranked(rows: Sequence[RatingRow], cooperative: bool) -> list[RatingRow]:
    """Best first: by the conservative rating; in a co-operative game, which rates nobody, by wins."""
    if cooperative:
        return sorted(rows, key=lambda r: (-r.wins, -r.games, r.name, r.user_id))
    return sorted(rows, key=lambda r: (-shown(r), -r.games, r.name, r.user_id))


def leaders_message(rows: Sequence[RatingRow], game_id: str, locale: str, page: int) -> dict[str, Any]:
    """One page of a game's leaderboard on this server, with buttons to turn pages."""
    spec = registry.get(game_id)
    order = ranked(rows, spec.cooperative)
    pages = max(1, -(-len(order) // LEADERS_PER_PAGE))
    page = min(max(page, 0), pages - 1)
    first = page * LEADERS_PER_PAGE
    lines = []
    for place, row in enumerate(order[first:first + LEADERS_PER_PAGE], start=first + 1):
        key = "records.leader_coop" if spec.cooperative else "records.leader"
        lines.append(t(locale, key, place=place, name=member_name(row), rating=shown(row), games=row.games,
                       wins=row.wins))
    embed = discord.Embed(title=t(locale, "records.leaders_title", game=spec.name(locale)),
                          description="\n".join(lines) or t(locale, "records.leaders_none"),
                          colour=discord.Colour.gold())
    note = t(locale, "records.coop_note" if spec.cooperative else "records.rating_note")
    embed.set_footer(text=t(locale, "records.leaders_footer", note=note, page=page + 1, pages=pages))
    view = discord.ui.View(timeout=None)
    if pages > 1:
        view.add_item(LeadersPageButton(game_id, max(page - 1, 0), "◀", disabled=page == 0))
        view.add_item(LeadersPageButton(game_id, min(page + 1, pages - 1), "▶", disabled=page == pages - 1))
    return {"embed": fit_embed(embed), "view": view}


class LeadersPageButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                        template=rf"grt:(?P<game>{GAME}):(?P<page>{SMALL})"):
    def __init__(self, game_id: str, page: int, label: str = "", disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=clip(label or str(page + 1), MAX_LABEL), disabled=disabled,
                                           style=discord.ButtonStyle.secondary, custom_id=f"grt:{game_id}:{page}"))
        self.game_id, self.page = game_id, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> LeadersPageButton:
        return cls(match["game"], int(match["page"]), as_button(item).label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle(interaction, "leaders_page", self.game_id, self.page)


async def leaders(interaction: discord.Interaction, game_id: str, page: int = 0) -> dict[str, Any]:
    """The leaderboard of ``game_id`` on the interaction's server (``unknown_game`` for an id that names
    none: a custom id is never trusted)."""
    spec = bot_of(interaction).sessions.spec(game_id)
    rows = await bot_of(interaction).sessions.ratings(interaction.guild_id or 0, spec.id)
    return leaders_message(rows, spec.id, user_locale(interaction), page)


async def turn_leaders_page(interaction: discord.Interaction, game_id: str, page: int) -> None:
    await interaction.response.edit_message(**await leaders(interaction, game_id, page))


def ratings_field(rows: Sequence[RatingRow], locale: str) -> str:
    """A member's rating in each game they played here, one line per game."""
    lines = []
    for row in sorted(rows, key=lambda r: registry.get(r.game_id).name(locale)):
        spec = registry.get(row.game_id)
        key = "records.stats_coop" if spec.cooperative else "records.stats_rating"
        lines.append(t(locale, key, game=spec.name(locale), rating=shown(row), games=row.games, wins=row.wins))
    return "\n".join(lines) or t(locale, "records.stats_unrated")


# ---------------------------------------------------------------------- /game mine
def fitting(lines: Sequence[str], limit: int, more_text: str) -> str:
    """As many whole lines as fit in ``limit`` characters, then how many did not (``more_text`` has
    ``{count}``)."""
    kept: list[str] = []
    size = 0
    for i, line in enumerate(lines):
        tail = len(more_text) + 8 if i < len(lines) - 1 else 0
        if size + len(line) + 1 + tail > limit:
            kept.append(more_text.format(count=len(lines) - i))
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(kept)


def place_text(rec: SessionRecord) -> str:
    """Where a game is played: its channel or thread, and a link to its table message."""
    link = jump_url(rec)
    return f"<#{rec.channel_id}> · [#{rec.id}]({link})" if link else f"<#{rec.channel_id}> · #{rec.id}"


def ending_text(ending: SeatEnd | None, locale: str) -> str:
    return t(locale, f"records.end.{ending or 'lost'}")


async def mine_embed(interaction: discord.Interaction) -> discord.Embed:
    """The member's games on this server: running ones (whose turn, since when, where) first, then the
    last few finished."""
    bot, loc, me = bot_of(interaction), user_locale(interaction), interaction.user.id
    guild = interaction.guild_id or 0
    running: list[tuple[bool, str]] = []  # (not my move, line): the games waiting for me come first
    for rec in await bot.sessions.games_of(guild, me, "running"):
        _rec, spec, state = await bot.sessions.load(rec.id)
        if state is None:
            continue
        names = Names.of(_rec, await bot.sessions.ai_seats(rec.id), loc)
        waiting = list(dict.fromkeys(p.seat for p in spec.engine.pending(state)))
        mine = _rec.seat_of(me) in waiting
        turn = (t(loc, "records.your_turn") if mine
                else t(loc, "records.their_turn", names=", ".join(names(s) for s in waiting) or "—"))
        running.append((not mine, t(loc, "records.mine_running", game=spec.name(loc), turn=turn,
                                    since=f"<t:{int(_rec.updated_at.timestamp())}:R>", place=place_text(_rec))))
    running.sort(key=lambda entry: entry[0])  # stable: newest first within each group
    finished = []
    for rec in (await bot.sessions.games_of(guild, me, "finished"))[:MINE_FINISHED]:
        endings = await bot.sessions.endings(rec)
        seat = rec.seat_of(me) or str(me)
        finished.append(t(loc, "records.mine_finished", game=registry.get(rec.game_id).name(loc),
                          ending=ending_text(endings.get(seat), loc),
                          when=f"<t:{int(rec.updated_at.timestamp())}:R>", place=place_text(rec)))
    embed = discord.Embed(title=t(loc, "records.mine_title"), colour=discord.Colour.blurple())
    more = t(loc, "records.more")
    embed.add_field(name=t(loc, "records.mine_running_title", count=len(running)),
                    value=fitting([line for _later, line in running], 1024, more) or t(loc, "records.mine_none"),
                    inline=False)
    embed.add_field(name=t(loc, "records.mine_finished_title"),
                    value=fitting(finished, 1024, more) or t(loc, "records.mine_none"), inline=False)
    return fit_embed(embed)


# ---------------------------------------------------------------------- /game history
def changes_text(how: Settled, names: dict[int, str]) -> str:
    """Each player's shown rating before and after the game: ``Ann 1000 → 1043 (+43)``."""
    out = []
    for user, (mu, sigma) in how.after.items():
        before = Rating(*how.before[user]) if user in how.before else Rating()
        old, new = before.shown, Rating(mu=mu, sigma=sigma).shown
        out.append(f"{names.get(user, '—')} {old} → {new} ({new - old:+d})")
    return ", ".join(out)



class PastPageButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=rf"gpg:(?P<member>{ID}):(?P<game>{GAME}|-):(?P<page>{SMALL})"):
    """A page of ``/game history``; the filters (member 0: everyone, game ``-``: all) ride in the id."""

    def __init__(self, member: int, game_id: str | None, page: int, label: str = "", disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=clip(label or str(page + 1), MAX_LABEL), disabled=disabled,
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"gpg:{member}:{game_id or '-'}:{page}"))
        self.member, self.game_id, self.page = member, game_id, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> PastPageButton:
        game = match["game"]
        return cls(int(match["member"]), None if game == "-" else game, int(match["page"]),
                   as_button(item).label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle(interaction, "past_page", self.member, self.game_id, self.page)


class PastReplayButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"gpr:(?P<sid>{ID})"):
    """Opens the replay of one finished game of ``/game history``, for the clicker alone."""

    def __init__(self, sid: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=clip(label or f"#{sid}", MAX_LABEL), emoji="🎞",
                                           style=discord.ButtonStyle.secondary, custom_id=f"gpr:{sid}"))
        self.sid = sid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> PastReplayButton:
        return cls(session_id(match["sid"]), as_button(item).label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle(interaction, "past_replay", self.sid)


async def past_message(interaction: discord.Interaction, member: int, game_id: str | None,
                       page: int) -> dict[str, Any]:
    """One page of the server's finished games (of one member, of one game), newest first: when, who won,
    how each player ended, whether it counted toward ratings, and a replay button each."""
    bot, loc = bot_of(interaction), user_locale(interaction)
    guild = interaction.guild_id or 0
    if game_id is not None:
        game_id = bot.sessions.spec(game_id).id
    if member:
        games = await bot.sessions.games_of(guild, member, "finished")
    else:
        games = sorted(await bot.sessions.finished_records(guild), key=lambda r: r.id, reverse=True)
    games = [r for r in games if game_id is None or r.game_id == game_id]
    pages = max(1, -(-len(games) // PAST_PER_PAGE))
    page = min(max(page, 0), pages - 1)
    shown_games = games[page * PAST_PER_PAGE:(page + 1) * PAST_PER_PAGE]
    settled = await bot.sessions.settled([r.id for r in shown_games])
    embed = discord.Embed(title=t(loc, "records.past_title"), colour=discord.Colour.blurple())
    view = discord.ui.View(timeout=None)
    for rec in shown_games:
        spec = registry.get(rec.game_id)
        # Read from the record, not loaded through the service: a finished game is not kept in its cache.
        state = spec.state_model.model_validate_json(rec.state_json or "")
        endings = await bot.sessions.endings(rec, state)
        names = Names.of(rec, (await bot.sessions.settings_read(rec.id)).ai, loc)
        result = spec.engine.result(state)
        winners = [names(s) for s in counted_winners(result, endings)]
        lines = [t(loc, "records.past_winners", names=", ".join(winners)) if winners
                 else t(loc, "records.past_no_winner")]
        lines.append(" · ".join(f"{names(seat)}: {ending_text(ending, loc)}" for seat, ending in endings.items()))
        how = settled.get(rec.id)
        if how is not None and how.unrated:
            lines.append(t(loc, f"records.unrated.{how.unrated}"))
        elif how is not None and not spec.cooperative:
            by_member = {rec.player(seat): names(seat) for seat in endings}
            lines.append(t(loc, "records.rated", changes=changes_text(how, by_member)))
        lines.append(place_text(rec))
        embed.add_field(name=t(loc, "records.past_game", game=spec.name(loc), session=rec.id,
                               when=rec.updated_at.strftime("%Y-%m-%d")),
                        value=clip("\n".join(lines), 1024), inline=False)
        view.add_item(PastReplayButton(rec.id, f"#{rec.id}"))
    if not shown_games:
        embed.description = t(loc, "records.past_none")
    embed.set_footer(text=t(loc, "records.past_page", page=page + 1, pages=pages))
    if pages > 1:
        view.add_item(PastPageButton(member, game_id, max(page - 1, 0), "◀", disabled=page == 0))
        view.add_item(PastPageButton(member, game_id, min(page + 1, pages - 1), "▶", disabled=page == pages - 1))
    return {"embed": fit_embed(embed), "view": view}


async def turn_past_page(interaction: discord.Interaction, member: int, game_id: str | None, page: int) -> None:
    await interaction.response.edit_message(**await past_message(interaction, member, game_id, page))


async def open_replay(interaction: discord.Interaction, rec: SessionRecord) -> None:
    """The replay of a game that is over, from its start, for the clicker alone; where its lobby allowed
    it, the replay offers every hand."""
    if rec.status not in ("finished", "abandoned") or rec.state_json is None:
        raise SessionError("replay_running")
    bot, loc = bot_of(interaction), user_locale(interaction)
    entries = await bot.sessions.log(rec.id)
    hands = False if await bot.sessions.replay_hands(rec) else None
    await interaction.response.defer(ephemeral=True)
    payload = await asyncio.get_running_loop().run_in_executor(
        PICTURES, functools.partial(replay_message, rec, entries, 0, loc, hands, await bot.sessions.ai_seats(rec.id)))
    files = payload.pop("attachments")
    await interaction.followup.send(**payload, files=files, ephemeral=True)


async def replay_past(interaction: discord.Interaction, sid: int) -> None:
    await open_replay(interaction, await session_here(interaction, sid))


HANDLERS.update(leaders_page=turn_leaders_page, past_page=turn_past_page, past_replay=replay_past)
RECORD_ITEMS = (LeadersPageButton, PastPageButton, PastReplayButton)

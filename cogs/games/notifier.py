"""The notifier: the five things a commit's follow-up does on Discord, and nothing else.

The follow-up plan (``bot.table.plan``) decides who hears what; the table service and the deliveries
turn that into messages; this is where they go out: a DM, an edit of a DM, a deletion, a post in the
game's channel, an edit of the table message. Discord's errors pass through unchanged, since what each
caller falls back to differs (a closed DM becomes a channel ping, a deleted table is posted anew).

The messages go out through discord.py's HTTP layer, as ``Messageable.send`` and ``PartialMessage.edit``
send them, but Discord's answer is not parsed into a ``discord.Message``: the follow-up keeps only a
message's id, its channel and its picture's URL (``Sent``), and parsing the whole answer (its embed, every
component, the author) for each DM and table edit was a tenth of what a click cost the bot.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import discord
from discord.http import handle_message_parameters
from discord.ui.dynamic import DynamicItem

from bot.storage import SessionRecord
from cogs.games.common import MENTIONS
from cogs.games.host import Sent

if TYPE_CHECKING:
    from cogs.games.host import GameBot

DM_CHANNELS_KEPT = 10_000


class DiscordNotifier:
    """``NotifierPort`` on discord.py."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self._dm_channels: OrderedDict[int, int] = OrderedDict()  # player -> DM channel id

    def channel(self, channel_id: int) -> discord.abc.Messageable:
        found = self.bot.get_channel(channel_id)
        if isinstance(found, discord.abc.Messageable):
            return found
        return self.bot.get_partial_messageable(channel_id)

    async def dm_channel(self, user_id: int) -> int:
        """The DM channel with a player. Its id never changes, so it is opened once per player: discord.py
        keeps only the newest 128 DM channels, and a bot with more players would otherwise look the user up
        and reopen the channel (two extra requests) before every DM."""
        known = self._dm_channels.get(user_id)
        if known is not None:
            self._dm_channels.move_to_end(user_id)
            return known
        channel = await self.bot.create_dm(discord.Object(id=user_id))
        self._dm_channels[user_id] = channel.id
        while len(self._dm_channels) > DM_CHANNELS_KEPT:
            self._dm_channels.popitem(last=False)
        return channel.id

    async def dm(self, user_id: int, *, content: str | None = None, silent: bool = False,
                 **shown: Any) -> Sent:
        """A new DM to a player (``shown``: its embed and view)."""
        if silent:
            flags = discord.MessageFlags._from_value(0)
            flags.suppress_notifications = True
            shown["flags"] = flags
        return await self.send(await self.dm_channel(user_id), content=content, **shown)

    async def edit_dm(self, channel_id: int, message_id: int, **shown: Any) -> None:
        await self.edit(channel_id, message_id, **shown)

    async def delete(self, channel_id: int, message_id: int) -> None:
        """Delete a message the bot sent: a DM that a newer one replaced, or a channel mention."""
        await self.bot.http.delete_message(channel_id, message_id)

    async def post(self, channel_id: int, content: str, *, mentions: bool = True,
                   view: discord.ui.View | None = None) -> Sent:
        """A message in the game's channel; ``mentions`` False posts it without pinging anyone."""
        allowed = MENTIONS if mentions else discord.AllowedMentions.none()
        return await self.send(channel_id, content=content, allowed_mentions=allowed,
                                **({} if view is None else {"view": view}))

    async def edit_table(self, rec: SessionRecord, payload: dict[str, Any]) -> Sent:
        """Edit the table message; one that was deleted is posted anew and remembered."""
        assert rec.table_message_id is not None
        try:
            return await self.edit(rec.channel_id, rec.table_message_id, **payload)
        except discord.NotFound:
            files = payload.pop("attachments", [])
            sent = await self.send(rec.channel_id, **payload, files=files)
            await self.bot.sessions.set_table_message(rec.id, sent.id)
            return sent

    async def send(self, channel_id: int, **message: Any) -> Sent:
        """Any message to a channel, as ``Messageable.send`` takes it."""
        with handle_message_parameters(previous_allowed_mentions=self.bot.allowed_mentions, **message) as params:
            data = await self.bot.http.send_message(channel_id, params=params)
        sent = _sent(data, channel_id)
        self._listen(message.get("view"), sent.id)
        return sent

    async def edit(self, channel_id: int, message_id: int, **message: Any) -> Sent:
        """Any edit of a message the bot sent, as ``PartialMessage.edit`` takes it."""
        view = message.get("view")
        if isinstance(view, discord.ui.View) and not _dynamic_only(view):
            self.bot._connection.prevent_view_updates_for(message_id)
        previous = self.bot.allowed_mentions if "content" in message else None  # as PartialMessage.edit does
        with handle_message_parameters(previous_allowed_mentions=previous, **message) as params:
            data = await self.bot.http.edit_message(channel_id, message_id, params=params)
        self._listen(view, message_id)
        return _sent(data, channel_id)

    def _listen(self, view: Any, message_id: int) -> None:
        """Components that are not dynamic items (which the bot registered once for every message) are
        dispatched through the view that sent them, so that view is kept, as discord.py does."""
        if isinstance(view, discord.ui.View) and not view.is_finished() and not _dynamic_only(view) \
                and view.is_dispatchable():
            self.bot._connection.store_view(view, message_id)


def _dynamic_only(view: discord.ui.View) -> bool:
    return all(isinstance(item, DynamicItem) for item in view.children)


def _sent(data: Any, channel_id: int) -> Sent:
    embeds = data.get("embeds") or [{}]
    image = (embeds[0].get("image") or {}).get("url")
    return Sent(id=int(data["id"]), channel_id=int(data.get("channel_id", channel_id)), image_url=image)

"""The notifier: the five things a commit's follow-up does on Discord, and nothing else.

The follow-up plan (``bot.table.plan``) decides who hears what; the table service and the deliveries
turn that into messages; this is where they go out: a DM, an edit of a DM, a deletion, a post in the
game's channel, an edit of the table message. Discord's errors pass through unchanged, since what each
caller falls back to differs (a closed DM becomes a channel ping, a deleted table is posted anew).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import discord

from bot.storage import SessionRecord
from cogs.games.common import MENTIONS

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

    async def dm_channel(self, user_id: int) -> discord.abc.Messageable:
        """The DM channel with a player. Its id never changes, so it is opened once per player: discord.py
        keeps only the newest 128 DM channels, and a bot with more players would otherwise look the user up
        and reopen the channel (two extra requests) before every DM."""
        known = self._dm_channels.get(user_id)
        if known is not None:
            self._dm_channels.move_to_end(user_id)
            return self.bot.get_partial_messageable(known, type=discord.ChannelType.private)
        channel = await self.bot.create_dm(discord.Object(id=user_id))
        self._dm_channels[user_id] = channel.id
        while len(self._dm_channels) > DM_CHANNELS_KEPT:
            self._dm_channels.popitem(last=False)
        return channel

    async def dm(self, user_id: int, *, content: str | None = None, silent: bool = False,
                 **shown: Any) -> discord.Message:
        """A new DM to a player (``shown``: its embed and view)."""
        return await (await self.dm_channel(user_id)).send(content=content, silent=silent, **shown)

    async def edit_dm(self, channel_id: int, message_id: int, **shown: Any) -> None:
        message = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private) \
            .get_partial_message(message_id)
        await message.edit(**shown)

    async def delete(self, channel_id: int, message_id: int) -> None:
        """Delete a message the bot sent: a DM that a newer one replaced, or a channel mention."""
        await self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).delete()

    async def post(self, channel_id: int, content: str, *, mentions: bool = True,
                   view: discord.ui.View | None = None) -> discord.Message:
        """A message in the game's channel; ``mentions`` False posts it without pinging anyone."""
        allowed = MENTIONS if mentions else discord.AllowedMentions.none()
        if view is None:
            return await self.channel(channel_id).send(content, allowed_mentions=allowed)
        return await self.channel(channel_id).send(content, allowed_mentions=allowed, view=view)

    async def edit_table(self, rec: SessionRecord, payload: dict[str, Any]) -> discord.Message:
        """Edit the table message; one that was deleted is posted anew and remembered."""
        channel = self.channel(rec.channel_id)
        message = channel.get_partial_message(rec.table_message_id)  # type: ignore[attr-defined]
        try:
            return await message.edit(**payload)
        except discord.NotFound:
            files = payload.pop("attachments", [])
            sent = await channel.send(**payload, files=files)
            await self.bot.sessions.set_table_message(rec.id, sent.id)
            return sent

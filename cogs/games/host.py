"""The bot as the game cogs see it: ``bot.client.GameBot`` with the table services the cogs attach.

The services (``Tables``, ``Clock``, ``AISeats``) reach each other through the bot, and the bot module must
not import cogs, so their types are described here as protocols: this module imports no other cog module,
which keeps the cogs' imports and the bot's free of any circle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from datetime import datetime

    import discord
    from pydantic import BaseModel

    from bot.client import GameBot as BaseBot
    from bot.ratelimit import RateLimit
    from bot.server_settings import TableClock
    from bot.sessions import Outcome
    from bot.storage import SessionRecord, Timer
    from bot.table.outcome import TableOutcome
    from bot.table.plan import FollowUp
    from rules.ai import HintMove


@dataclass(frozen=True)
class Sent:
    """What the follow-up keeps of a message it sent: where it is, and the URL Discord gave its picture
    (the table's, kept so an unchanged picture is not uploaded again)."""

    id: int
    channel_id: int
    image_url: str | None = None


class NotifierPort(Protocol):
    """What a commit's follow-up does on Discord, five operations (``cogs.games.notifier.DiscordNotifier``):
    the plan decides, the table service and the deliveries word it, this sends it."""

    def channel(self, channel_id: int) -> discord.abc.Messageable: ...

    async def dm(self, user_id: int, *, content: str | None = None, silent: bool = False,
                 **shown: Any) -> Sent: ...

    async def edit_dm(self, channel_id: int, message_id: int, **shown: Any) -> None: ...

    async def delete(self, channel_id: int, message_id: int) -> None: ...

    async def post(self, channel_id: int, content: str, *, mentions: bool = True,
                   view: discord.ui.View | None = None) -> Sent: ...

    async def edit_table(self, rec: SessionRecord, payload: dict[str, Any]) -> Sent: ...


class DeliveriesPort(Protocol):
    """The live DMs and pings, as other services use them (``cogs.games.delivery.Deliveries``)."""

    def place(self, rec: SessionRecord) -> str: ...

    async def deliver(self, session_id: int, *, clicked: tuple[int, int, int] | None = None,
                      newcomers: frozenset[int] = frozenset(), outcome: TableOutcome | None = None,
                      plan: FollowUp | None = None) -> None: ...

    async def retire(self, session_id: int, uid: int) -> None: ...

    async def tell_ai_took(self, rec: SessionRecord, uid: int) -> None: ...

    async def remind(self, session_id: int, uid: int, waited: float) -> None: ...


class TablesPort(Protocol):
    """The table message and a move's follow-up (``cogs.games.table.Tables``)."""

    @property
    def deliveries(self) -> DeliveriesPort: ...

    @property
    def notifier(self) -> NotifierPort: ...

    def channel(self, channel_id: int) -> discord.abc.Messageable: ...

    def recap(self, session_id: int, seat: str, locale: str) -> str | None: ...

    def cached(self) -> int: ...

    async def after_action(self, outcome: Outcome, interaction: discord.Interaction | None,
                           clicked: tuple[int, int, int] | None = None,
                           newcomers: frozenset[int] = frozenset()) -> None: ...

    async def ended(self, rec: SessionRecord) -> None: ...

    async def start(self, rec: SessionRecord, state: BaseModel, notice: str | None) -> None: ...

    async def catch_up(self) -> None: ...

    async def refresh_table(self, rec: SessionRecord, state: BaseModel,
                            notices: list[str] | None = None, *, again: bool = False) -> None: ...

    async def redraw(self, session_id: int) -> None: ...

    async def come_back(self, guild_id: int, user_id: int) -> None: ...

    async def reseated(self, session_id: int) -> None: ...


class ClockPort(Protocol):
    """Reminders, deadlines and votes (``cogs.games.clock.Clock``)."""

    def release(self, session_id: int) -> None: ...

    async def default_clock(self, rec: SessionRecord) -> TableClock: ...

    async def table_clock(self, rec: SessionRecord) -> TableClock: ...

    async def after_move(self, rec: SessionRecord, state: BaseModel | None) -> None: ...

    async def reminded(self, rec: SessionRecord) -> set[str]: ...

    async def carry_out(self, rec: SessionRecord, plan: FollowUp) -> None: ...

    async def fire(self, timer: Timer) -> None: ...

    async def vote(self, session_id: int, voter: int, seat: str,
                   confirmed: bool = False) -> tuple[int, int, bool | None]: ...

    async def away_marks(self, rec: SessionRecord) -> dict[str, int]: ...

    async def go_away(self, guild_id: int, user_id: int, days: int) -> tuple[datetime, list[SessionRecord]]: ...

    async def come_back(self, guild_id: int, user_id: int) -> list[SessionRecord]: ...


class AISeatsPort(Protocol):
    """The AI players (``cogs.games.ai_seats.AISeats``)."""

    def close(self) -> None: ...

    hint_limit: RateLimit

    def poke(self, session_id: int) -> None: ...

    async def hint(self, rec: SessionRecord, state: BaseModel, seat: str) -> list[HintMove]: ...

    async def catch_up(self) -> None: ...


if TYPE_CHECKING:
    class GameBot(BaseBot):
        """Only for type checking: at run time the bot is ``bot.client.GameBot`` itself."""

        tables: TablesPort
        turn_clock: ClockPort
        ai_players: AISeatsPort

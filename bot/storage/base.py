"""The narrow storage port that cogs and the session service depend on.

Callers see only this interface and the errors in ``models``, so a PostgreSQL backend can be added by
writing one more subclass and one more branch in ``open_store``; no caller changes.

Every change except ``set_table_message`` is a compare-and-swap on ``version``: the caller passes the
version it loaded, the store applies the change only if the row still has it, and bumps it. That is what
stops two racing clicks, or a second bot process, from both applying an action to the same state.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from datetime import datetime
from types import TracebackType
from typing import Any, NamedTuple, Self

from bot.storage.models import (
    Away,
    Delivery,
    Extras,
    LogEntry,
    RatingRow,
    SessionRecord,
    SessionStatus,
    Settled,
    Step,
    Timer,
)


class StoreCounts(NamedTuple):
    open_games: dict[tuple[str, str], int]
    """(game id, status) -> sessions in the lobby or running."""
    timers_due: int


class Store(ABC):
    """Durable sessions and their action logs. Use as ``async with store:`` or call ``open``/``close``."""

    @abstractmethod
    async def open(self) -> None:
        """Connect and bring the schema up to date; calling it on an open store does nothing."""

    @abstractmethod
    async def close(self) -> None:
        """Release the connection; calling it on a closed store does nothing."""

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @abstractmethod
    async def create_session(
        self,
        guild_id: int | None,
        channel_id: int,
        game_id: str,
        host_id: int,
        options: dict[str, Any],
        seed: int,
        locale: str,
        names: dict[str, str] | None = None,
        locales: dict[str, str] | None = None,
    ) -> SessionRecord:
        """Open a lobby seating only the host, at version 0.

        Raises ``ChannelBusy`` when the channel already has a lobby or running session.
        """

    @abstractmethod
    async def get(self, session_id: int) -> SessionRecord:
        """The session as stored now. Raises ``SessionNotFound``."""

    @abstractmethod
    async def version(self, session_id: int) -> int:
        """The session's stored version alone: the cheap read that tells a process whether the copy it
        keeps in memory is still the newest (another process may have moved the game). Raises
        ``SessionNotFound``."""

    @abstractmethod
    async def active_in_channel(self, channel_id: int) -> SessionRecord | None:
        """The channel's lobby or running session, if any."""

    @abstractmethod
    async def update_lobby(
        self,
        session_id: int,
        expected_version: int,
        *,
        seats: list[int] | None = None,
        options: dict[str, Any] | None = None,
        host_id: int | None = None,
        names: dict[str, str] | None = None,
        locales: dict[str, str] | None = None,
    ) -> SessionRecord:
        """Change the given lobby fields (``None`` keeps a field). Raises ``VersionConflict``,
        ``InvalidTransition`` when the session is no longer a lobby, ``SessionNotFound``."""

    @abstractmethod
    async def start(self, session_id: int, expected_version: int, state_json: str, seats: list[int]) -> SessionRecord:
        """Lobby → running with the first state snapshot and the final seat order.
        Raises ``VersionConflict``, ``InvalidTransition``, ``SessionNotFound``."""

    @abstractmethod
    async def commit_action(
        self,
        session_id: int,
        expected_version: int,
        *,
        seat: str,
        action_json: str,
        state_json: str,
        status: SessionStatus = "running",
        seats: list[int] | None = None,
        names: dict[str, str] | None = None,
        locales: dict[str, str] | None = None,
        auto: bool = False,
    ) -> SessionRecord:
        """Record one applied action atomically: the new state, version + 1, and a log entry with
        ``seq`` = the new version. ``status`` may end the game (finished/abandoned) in the same step;
        ``"lobby"`` is a ``ValueError``. ``seats``/``names``/``locales`` change the seating in the same step (a player
        joining a running game).

        Either all of it is stored or none. Raises ``VersionConflict`` when the row is not at
        ``expected_version``, ``InvalidTransition`` when the session is not running, ``SessionNotFound``.
        ``auto`` marks an action the bot took for the seat (stored with the log entry).
        """

    async def commit_steps(self, session_id: int, expected_version: int, steps: list[Step], *, state_json: str,
                           status: SessionStatus = "running") -> SessionRecord:
        """Record several actions applied one after the other (a move and the steps the bot took for seats
        after it) atomically: ``state_json`` is the state after the last, the version goes up by
        ``len(steps)``, and step i is logged with ``seq`` = ``expected_version`` + i + 1. Either all of it is
        stored or none, in one round trip where the database is a server. Same refusals as
        ``commit_action``; an empty ``steps`` is a ``ValueError``. One step is simply ``commit_action``."""
        if not steps:
            raise ValueError("commit at least one step")
        if len(steps) == 1:
            seat, action_json, auto = steps[0]
            return await self.commit_action(session_id, expected_version, seat=seat, action_json=action_json,
                                            state_json=state_json, status=status, auto=auto)
        if status == "lobby":
            raise ValueError("an action cannot return a session to the lobby")
        return await self._commit_several(session_id, expected_version, steps, state_json, status)

    @abstractmethod
    async def _commit_several(self, session_id: int, expected_version: int, steps: list[Step], state_json: str,
                              status: SessionStatus) -> SessionRecord:
        """``commit_steps`` for two steps or more, its arguments already checked."""

    @abstractmethod
    async def set_status(self, session_id: int, expected_version: int, status: SessionStatus) -> SessionRecord:
        """End a session (lobby/running → finished/abandoned) outside an action, e.g. a host cancel or a
        timeout. A non-terminal ``status`` is a ``ValueError`` (``start`` is how a session runs).
        Raises ``VersionConflict``, ``InvalidTransition``, ``SessionNotFound``."""

    @abstractmethod
    async def set_table_message(self, session_id: int, message_id: int | None) -> SessionRecord:
        """Remember which message shows the table. It is presentation, not game state, so the version
        is not bumped and an in-flight action is not invalidated. Raises ``SessionNotFound``."""

    @abstractmethod
    async def set_players(self, session_id: int, expected_version: int, players: dict[str, int],
                          names: dict[str, str], locales: dict[str, str]) -> SessionRecord:
        """Hand seats of a running game to other members (``SessionRecord.players``), with their names and
        languages. Who plays a seat is not game state: the version is not bumped, but it must match, so a
        hand-over cannot cross a move made elsewhere. Raises ``VersionConflict``, ``InvalidTransition``,
        ``SessionNotFound``."""

    @abstractmethod
    async def actions(self, session_id: int) -> list[LogEntry]:
        """The session's action log in play order. Raises ``SessionNotFound``."""

    @abstractmethod
    async def sessions_with_status(self, *statuses: SessionStatus) -> list[SessionRecord]:
        """Every session in any of ``statuses``, oldest first (e.g. running games to re-arm after a restart).
        Raises ``ValueError`` when no status is given."""

    @abstractmethod
    async def deliveries(self, session_id: int) -> dict[int, Delivery]:
        """Every player's delivery record of a session, by user id (players never delivered to are absent)."""

    @abstractmethod
    async def save_delivery(self, delivery: Delivery) -> None:
        """Insert or replace one player's delivery record. Presentation only: no version is bumped."""

    @abstractmethod
    async def autopass(self, user_id: int) -> bool:
        """Whether the bot passes for this player when passing is all they can do (on unless turned off)."""

    @abstractmethod
    async def set_autopass(self, user_id: int, enabled: bool) -> None:
        """Store the player's auto-pass preference (it applies to every game they play)."""

    @abstractmethod
    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """A server's settings as stored (empty: every default)."""

    @abstractmethod
    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        """Replace a server's settings."""

    @abstractmethod
    async def table_settings(self, session_id: int) -> dict[str, Any]:
        """One game's table settings (its clock), empty when it has none of its own."""

    @abstractmethod
    async def set_table_settings(self, session_id: int, settings: dict[str, Any]) -> None:
        """Replace one game's table settings."""

    @abstractmethod
    async def sessions_in_guild(self, guild_id: int, *statuses: SessionStatus) -> list[SessionRecord]:
        """A server's sessions in any of ``statuses``, oldest first (statistics)."""

    async def get_meta(self, key: str) -> str | None:
        """A small value the bot kept under ``key`` (e.g. the hash of the last synced command tree).

        Not abstract: a store that keeps nothing answers None, which callers read as "not known yet"."""
        return None

    @abstractmethod
    async def set_meta(self, key: str, value: str) -> None:
        """Keep ``value`` under ``key``, replacing what was there."""

    @abstractmethod
    async def import_session(self, record: SessionRecord, log: list[LogEntry]) -> None:
        """Store a session exactly as another store holds it (same id, version, timestamps) with its whole
        log, in one transaction: how ``python -m bot migrate`` moves a deployment between backends.
        Raises ``StorageError`` when the id is taken; later ``create_session`` ids continue above it."""

    @abstractmethod
    async def row_counts(self) -> dict[str, int]:
        """How many rows each of ``models.DATA_TABLES`` holds: what a move between databases must carry over,
        and whether a target is empty."""

    @abstractmethod
    async def export_extras(self) -> Extras:
        """Everything but sessions and logs (settings, preferences, timers, deliveries, meta), read in one go."""

    @abstractmethod
    async def import_extras(self, extras: Extras) -> None:
        """Store ``export_extras`` of another store, in one transaction, after its sessions were imported
        (timers, deliveries and table settings name them). Raises ``StorageError`` on a clash."""

    # --- ratings and time away -----------------------------------------------------------------------

    @abstractmethod
    async def settle_ratings(self, session_id: int, guild_id: int, game_id: str, players: list[int], unrated: str,
                             rate: Callable[[dict[int, RatingRow]], list[RatingRow]]) -> bool:
        """Settle a finished game's ratings once: in one transaction, mark the game settled (``unrated``: why it
        changes no rating, '' when it counts) and, when it counts, store ``rate`` of its players' current
        ratings (those never rated are absent), keeping both figures with the game (``Settled``). False, and
        nothing changed, when the game was settled before: a second finish, or a catch-up after a restart,
        counts nothing twice. ``SessionNotFound`` for an unknown session."""

    @abstractmethod
    async def ratings(self, guild_id: int, game_id: str | None = None,
                      user_id: int | None = None) -> list[RatingRow]:
        """A server's ratings, of one game and/or one member when named."""

    @abstractmethod
    async def settled(self, session_ids: list[int]) -> dict[int, Settled]:
        """Of these games, those whose ratings were settled, and how."""

    @abstractmethod
    async def set_away(self, guild_id: int, user_id: int, until: datetime | None) -> None:
        """A member is away on a server until ``until``; None: back."""

    @abstractmethod
    async def away(self, guild_id: int) -> list[Away]:
        """The server's members who set a time away (some of them may be back by now)."""

    # --- durable timers ------------------------------------------------------------------------------
    # One row per (session, kind, seat). Claiming marks due timers as taken for ``lease`` seconds in one
    # atomic step, so among processes sharing the database exactly one holds each timer at a time; if it
    # dies before ``complete_timer``, the lease runs out and another claims it (its action is then guarded
    # by the timer's session version, so it takes effect at most once).

    @abstractmethod
    async def set_timer(self, session_id: int, kind: str, seat: str | None, due_at: datetime,
                        version: int) -> Timer:
        """Add the timer, or move it (new due time and version, any claim dropped) if it exists.
        Raises ``SessionNotFound``."""

    @abstractmethod
    async def cancel_timer(self, session_id: int, kind: str, seat: str | None) -> bool:
        """Remove the timer; False when there was none."""

    @abstractmethod
    async def timers(self, session_id: int) -> list[Timer]:
        """The session's timers, soonest first."""

    @abstractmethod
    async def next_timer_at(self) -> datetime | None:
        """When the next timer can be claimed (its due time, or the end of a lapsed claim); None if none."""

    @abstractmethod
    async def claim_due_timers(self, now: datetime, *, limit: int = 100, lease: float = 60.0) -> list[Timer]:
        """Claim up to ``limit`` timers due at ``now`` (unclaimed, or whose claim lapsed) for ``lease``
        seconds, soonest first. Atomic: two processes claiming at once never get the same timer."""

    @abstractmethod
    async def retry_timer(self, timer: Timer, ready_at: datetime) -> bool:
        """Keep a claimed timer whose action failed, claimable again from ``ready_at`` (its due time stays,
        so the action can tell how late it is), unless it was moved or re-set since the claim. True when
        it was kept."""

    @abstractmethod
    async def complete_timer(self, timer: Timer) -> bool:
        """Remove a claimed timer once its action is done, unless it was moved or re-set since the claim
        (then it stays, for its new time). True when it was removed."""

    @abstractmethod
    async def counts(self, now: datetime) -> StoreCounts:
        """Open sessions by game and status (lobby, running) and timers due at ``now``: what an operator's
        dashboard shows, in two cheap aggregate queries (which also tell that the database answers)."""

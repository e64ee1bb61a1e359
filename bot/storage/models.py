"""What the storage layer hands back, and the errors it raises.

Records are frozen snapshots of a row at one version: code that wants to change a session must go back
through the ``Store`` with that version, never mutate a record and hope it gets saved.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any, Final, Literal, NamedTuple, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field

log = logging.getLogger(__name__)

SessionStatus = Literal["lobby", "running", "finished", "abandoned"]

ACTIVE_STATUSES: Final[tuple[SessionStatus, ...]] = ("lobby", "running")
"""A channel may hold at most one session in one of these statuses."""

STATE_FORMAT: Final = 1
"""The layout of stored game states (``state_json``) this build writes and can read. Every state written is
stamped with it; a row stamped with a higher number came from a newer build, whose states this one might
misread, so it is refused (``NewerStateFormat``) rather than guessed at. Raise it with any change to a game's
state model that an older build would read wrongly, and teach the loader the older layouts (or rebuild them
from the log, which replays from the seed)."""


class Row(Protocol):
    """A stored row read by column name: ``sqlite3.Row`` and ``asyncpg.Record`` both are."""

    def __getitem__(self, column: str) -> Any: ...


_PLAIN_COLUMNS = ("id", "guild_id", "channel_id", "game_id", "status", "host_id", "locale", "state_json", "version",
                  "table_message_id", "state_format")
_JSON_COLUMNS = ("seats", "options", "names", "locales", "players")


class SessionRecord(BaseModel):
    """One game session as stored: enough (seed, options, seats plus the action log) to rebuild the game."""

    model_config = ConfigDict(frozen=True)

    id: int
    guild_id: int | None
    channel_id: int
    game_id: str
    status: SessionStatus
    host_id: int
    seats: list[int]
    """Discord user ids in seat order."""
    options: dict[str, Any]
    seed: int
    locale: str
    state_json: str | None
    """The engine state snapshot: a cache, since seed + options + log can rebuild it."""
    version: int
    """Bumped by every change except ``set_table_message``; the compare-and-swap token."""
    table_message_id: int | None
    state_format: int = STATE_FORMAT
    """The ``STATE_FORMAT`` the state was written in (that of the build that wrote it last)."""
    created_at: datetime
    updated_at: datetime
    names: dict[str, str] = Field(default_factory=dict)
    """Display names by seat (user id as text), as seen when each player sat down."""
    locales: dict[str, str] = Field(default_factory=dict)
    """Catalog language by seat, from the client each player sat down with; their private messages use it
    (``locale`` is the channel's, for what everyone reads)."""
    players: dict[str, int] = Field(default_factory=dict)
    """Who plays a seat now where it is not the member who sat down there (``/game replace``): seat (the
    first player's id as text) -> the Discord user id playing it. The engine keeps the seat's first id, so
    the log replays unchanged; everything the bot says or asks of that seat goes to this member."""

    @classmethod
    def from_row(cls, row: Row, *, json_suffix: str = "",
                 timestamp: Callable[[Any], datetime] = lambda value: value,
                 state_json: str | None = None) -> SessionRecord:
        """From a stored row. Both stores keep the same columns and JSON as text; SQLite's JSON columns end
        in ``json_suffix`` and its times are ISO text (``timestamp`` reads them). ``state_json``: the state
        the caller has just written, for a row read back without it (a commit does not fetch its own snapshot
        back from the database).

        Raises ``NewerStateFormat`` for a state a newer build wrote: refusing one session keeps the others
        playable, where misreading it could corrupt it for good."""
        if row["state_format"] > STATE_FORMAT:
            raise NewerStateFormat(row["id"], row["state_format"])
        plain = {name: row[name] for name in _PLAIN_COLUMNS if name != "state_json"}
        return cls(
            **plain, state_json=row["state_json"] if state_json is None else state_json,
            **{name: json.loads(row[name + json_suffix]) for name in _JSON_COLUMNS},
            seed=int(row["seed"]),  # 64-bit unsigned: text in SQLite, NUMERIC in PostgreSQL
            created_at=timestamp(row["created_at"]),
            updated_at=timestamp(row["updated_at"]),
        )

    def player(self, seat: str) -> int:
        """The Discord user who plays ``seat`` now (negative: an AI seat added in the lobby)."""
        found = self.players.get(seat)
        return found if found is not None else int(seat)

    def seat_of(self, user_id: int) -> str | None:
        """The seat ``user_id`` plays now, or None (never seated, left, or replaced)."""
        for s in self.seats:
            if self.player(str(s)) == user_id:
                return str(s)
        return None


class LogEntry(BaseModel):
    """One applied action. ``seq`` is the session version the action produced, so entries sort in play order."""

    model_config = ConfigDict(frozen=True)

    session_id: int
    seq: int
    seat: str
    action_json: str
    created_at: datetime
    auto: bool = False
    """Taken by the bot for the seat (a forced step or an auto-pass), not clicked."""


class Step(NamedTuple):
    """One action of several committed together (``Store.commit_steps``): who took it, what it was, and
    whether the bot took it for the seat."""

    seat: str
    action_json: str
    auto: bool = False


class Delivery(BaseModel):
    """Where one player's private view of one game lives and what they were last told.

    ``owed`` is whether the player owed a decision when the bot last delivered their view: a decision
    that arrives to a player who owed none notifies them, one that follows another is an edit. Kept in
    the database so a restarted bot edits the same message and notifies nobody twice."""

    model_config = ConfigDict(frozen=True)

    session_id: int
    user_id: int
    channel_id: int | None = None
    """The DM channel of the live message (``None``: no live DM yet)."""
    message_id: int | None = None
    ping_id: int | None = None
    """The last mention posted in the game's channel for a player whose DMs are closed."""
    dm_closed: bool = False
    owed: bool = False
    version: int = -1
    """The session version the player's view was last delivered at."""


_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)
_MS: Final = timedelta(milliseconds=1)


def epoch_ms(moment: datetime) -> int:
    """``moment`` as integer milliseconds since the Unix epoch, how timers store time (naive means UTC).
    Integer arithmetic, not float seconds, so a time read back and written again is the same number."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return (moment - _EPOCH) // _MS


def from_epoch_ms(ms: int) -> datetime:
    return _EPOCH + ms * _MS


class Timer(BaseModel):
    """A durable timer: something to do to a session at ``due_at`` (a turn clock running out, an idle table
    expiring). One per (session, kind, seat); ``seat`` None is a timer of the whole table.

    ``version`` is the session version it was set for: when it fires, the action it causes is committed
    against that version, so a timer made stale by a move meanwhile fails its compare-and-swap instead of
    acting on a game that moved on, and a timer fired twice (its claimer died mid-way) acts at most once.
    """

    model_config = ConfigDict(frozen=True)

    session_id: int
    kind: str
    seat: str | None
    due_at: datetime
    version: int
    claimed_until: datetime | None = None
    """Set while a process holds the claim; after it passes, another process may claim the timer again."""

    @classmethod
    def from_row(cls, session_id: int, kind: str, seat: str, due_at: int, ready_at: int, version: int) -> Timer:
        """From the stored columns (milliseconds; seat '' is the whole table)."""
        return cls(session_id=session_id, kind=kind, seat=seat or None, due_at=from_epoch_ms(due_at),
                   version=version, claimed_until=from_epoch_ms(ready_at) if ready_at > due_at else None)


class RatingRow(BaseModel):
    """One member's rating in one game on one server, as stored (``bot.ratings`` reckons it)."""

    model_config = ConfigDict(frozen=True)

    guild_id: int
    game_id: str
    user_id: int
    mu: float
    sigma: float
    games: int
    wins: int
    name: str = ""
    """The member's display name when the rating last changed (leaderboards name people, not ids)."""

    def values(self) -> tuple[Any, ...]:
        """The row's values in the order of ``RATING_COLUMNS``."""
        return tuple(getattr(self, name) for name in RatingRow.model_fields)


RATING_COLUMNS: Final = ", ".join(RatingRow.model_fields)


class Settled(BaseModel):
    """How a finished game's ratings were settled: ``unrated`` says why it changed none ('' when it counted);
    ``before`` and ``after`` are the (mu, sigma) of its players before (those rated already) and after it."""

    model_config = ConfigDict(frozen=True)

    unrated: str = ""
    before: dict[int, tuple[float, float]] = Field(default_factory=dict)
    after: dict[int, tuple[float, float]] = Field(default_factory=dict)

    def stored(self) -> str:
        """The ``changes`` column: the figures alone (``unrated`` has a column of its own)."""
        return self.model_dump_json(include={"before", "after"})

    @classmethod
    def from_row(cls, unrated: str, changes: str) -> Settled:
        return cls.model_validate_json(changes).model_copy(update={"unrated": unrated})


def rating_changes(current: dict[int, RatingRow], new: list[RatingRow]) -> Settled:
    """What a counted game did to its players' figures, from the rows before (those rated already) and after."""
    return Settled(before={u: (r.mu, r.sigma) for u, r in current.items()},
                   after={r.user_id: (r.mu, r.sigma) for r in new})


class Away(BaseModel):
    """A member's time away on one server: their turn clocks there wait until ``until``."""

    model_config = ConfigDict(frozen=True)

    guild_id: int
    user_id: int
    until: datetime


class Extras(BaseModel):
    """Everything a store keeps besides sessions and their logs, in the form both backends read and write,
    so ``python -m bot migrate`` can copy it and compare the copy with the original."""

    model_config = ConfigDict(frozen=True)

    guild_settings: dict[int, dict[str, Any]] = Field(default_factory=dict)
    player_prefs: dict[int, bool] = Field(default_factory=dict)
    """Auto-pass choices by user id."""
    table_settings: dict[int, dict[str, Any]] = Field(default_factory=dict)
    timers: list[Timer] = Field(default_factory=list)
    deliveries: list[Delivery] = Field(default_factory=list)
    meta: dict[str, str] = Field(default_factory=dict)
    ratings: list[RatingRow] = Field(default_factory=list)
    rated_games: dict[int, Settled] = Field(default_factory=dict)
    """Finished games whose ratings were settled, and how."""
    away: list[Away] = Field(default_factory=list)


DATA_TABLES: Final = ("sessions", "action_log", "guild_settings", "player_prefs", "table_settings", "timers",
                      "deliveries", "bot_meta", "ratings", "rated_games", "time_away")
"""Every table holding the deployment's data (both backends name them alike; ``schema_version`` is not data)."""


_R = TypeVar("_R")


def readable_records(rows: Iterable[_R], record: Callable[[_R], SessionRecord]) -> list[SessionRecord]:
    """``record`` of each row, leaving out (and logging) the sessions that cannot be read, so one bad game
    does not stop a listing of all of them (the start-up catch-up of tables and AI seats)."""
    records = []
    for row in rows:
        try:
            records.append(record(row))
        except UnreadableSession as exc:
            log.error("session %s left out: %s", exc.session_id, exc)
    return records


class StorageError(Exception):
    """Base of every storage failure, so callers need not know which backend is behind the ``Store``."""


class SessionNotFound(StorageError):
    """No session has this id (a stale button, or a typo in an admin command)."""

    def __init__(self, session_id: int) -> None:
        super().__init__(f"session {session_id} does not exist")
        self.session_id = session_id


class ChannelBusy(StorageError):
    """The channel already holds a lobby or running session; ``existing`` is it, so the caller can point to it."""

    def __init__(self, existing: SessionRecord) -> None:
        super().__init__(
            f"channel {existing.channel_id} already has {existing.status} session {existing.id} ({existing.game_id})"
        )
        self.existing = existing


class VersionConflict(StorageError):
    """Someone else changed the session since the caller loaded it; reload and retry or tell the user."""

    def __init__(self, session_id: int, expected: int, actual: int) -> None:
        super().__init__(f"session {session_id} is at version {actual}, not the expected {expected}")
        self.session_id = session_id
        self.expected = expected
        self.actual = actual


class InvalidTransition(StorageError):
    """The requested change does not fit the session's status (e.g. an action on a finished game)."""

    def __init__(self, session_id: int, current: SessionStatus, requested: str) -> None:
        super().__init__(f"session {session_id} is {current}; cannot {requested}")
        self.session_id = session_id
        self.current = current
        self.requested = requested


class UnreadableSession(StorageError):
    """One session's stored data cannot be used; that session alone fails, the others play on.

    ``code`` is a stable name for the reason; the catalogs' ``err.<code>`` says it to players."""

    code: str

    def __init__(self, message: str, session_id: int | None = None) -> None:
        super().__init__(message)
        self.session_id = session_id


class DataDamaged(UnreadableSession):
    """The database file is damaged where this data lives (SQLite reports corruption). Retrying cannot
    help: a person must restore the file from a backup, so nobody is told "try again"."""

    code = "storage_damaged"


class NewerStateFormat(UnreadableSession):
    """The session's state was stored by a newer build (``STATE_FORMAT`` above this one's)."""

    code = "storage_newer_format"

    def __init__(self, session_id: int, stored: int) -> None:
        super().__init__(f"session {session_id}'s state is in format {stored}, newer than this build's "
                         f"{STATE_FORMAT}; upgrade the bot instead of running an older one", session_id)
        self.stored = stored

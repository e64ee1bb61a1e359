"""Sessions: lobby management and the one code path through which an action reaches a game.

Applying an action is: the session's lock → load the stored state → ``engine.apply`` (and the steps the bot
then takes for seats with a single move) → compare-and-swap on the version with the log entries, in one
transaction. The lock makes two clicks in this process queue up; the version check makes the second one
fail cleanly (and guards against another process too).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import zlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from bot import history
from bot import takeback as takebacks
from bot.ratings import Rating, game_places, record, unrated_reason
from bot.server_settings import CLOCK_CHOICES, TableClock
from bot.storage import (
    ChannelBusy,
    Delivery,
    InvalidTransition,
    LogEntry,
    RatingRow,
    SessionLocks,
    SessionNotFound,
    SessionRecord,
    SessionStatus,
    Settled,
    Store,
    Timer,
    VersionConflict,
)
from bot.storage import Step as StoredStep  # a step as stored; ``Step`` here also carries its events
from bot.table.glance import Glance
from bot.table.outcome import Departure, SeatEnd, TableOutcome, counted_winners, seat_endings
from bot.table.settings import SWITCHES, TableSettings, TakebackRequest
from rules import registry
from rules.core import Event, GameResult, GameSpec, RuleError
from rules.core.rng import Rng

log = logging.getLogger(__name__)


class SessionError(Exception):
    """A refusal the user should read (``err.<code>`` in the catalogs); nothing was changed."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def text(self, locale: str) -> str:
        """``err.<code>.<reason>`` when the catalog has a more precise text for the reason."""
        from bot.i18n import catalog, t

        key = f"err.{self.code}"
        reason = self.params.get("reason")
        if reason and catalog().has(locale, f"{key}.{reason}"):
            key = f"{key}.{reason}"
        return t(locale, key, **self.params)


AI_LEVELS = ("easy", "normal", "hard")

AUTOPASS_KEPT = 10_000
"""Players whose auto-pass choice is kept in memory (the others are read again when they next play)."""

SETTLED_BATCH = 500
"""Sessions asked about in one query when a start looks for finished games not settled yet: far below the
number of parameters SQLite takes in one statement."""

MAX_AUTO_STEPS = 500
"""A bound on the steps the bot takes in a row for seats with one move: no game needs more between two
choices, and a bug that made a step lead to itself would otherwise hold the session's lock forever."""


@dataclass(frozen=True)
class Step:
    """One action stored for a seat: the click itself, or one the bot took for a seat (``auto``)."""

    seat: str
    action: BaseModel
    events: list[Event]
    auto: bool = False


@dataclass
class Outcome:
    """What one commit produced, for the cog to carry out: ``table`` is how it left the table (worked out
    once, here), ``glance`` the engine's answers about the new state, shared by every surface that shows it."""

    record: SessionRecord
    spec: GameSpec
    state: BaseModel
    events: list[Event]
    seat: str
    table: TableOutcome
    glance: Glance
    steps: list[Step] = field(default_factory=list)  # the click, then what the bot did for seats after it
    undone: int = 0  # a take-back: how many steps of ``seat``'s it undid (the commit applied no action)
    previous: BaseModel | None = None  # the state before the commit (whether the move showed anything)

    @property
    def finished(self) -> bool:
        return self.record.status == "finished"


class TakebackBarrier(SessionError):
    """``takeback_barrier``: the seat's last decision cannot be taken back; ``barrier`` says why, with the
    step in the way (its events name what was revealed, for the caller to put in words)."""

    def __init__(self, barrier: takebacks.Barrier, **params: Any) -> None:
        super().__init__("takeback_barrier", reason=barrier.reason, **params)
        self.barrier = barrier


@dataclass(frozen=True)
class TakebackAnswer:
    """What an answer to a take-back request came to: ``waiting`` for more answers, ``refused``, or
    ``done`` (the game went back: ``outcome`` is that commit's)."""

    how: Literal["waiting", "refused", "done"]
    request: TakebackRequest
    outcome: Outcome | None = None
    waiting: tuple[str, ...] = ()
    """The seats whose answer is still needed (``waiting``)."""
    replaced: TakebackRequest | None = None
    """A stale request (a move came after it) that this one took the place of: its post is to be closed."""


@dataclass(frozen=True)
class Forfeit:
    """What taking a seat out of a running game came to: the game's own forfeit applied (``engine``), an AI
    playing the seat on (``ai``), or the game ended because nobody is left to play it (``ended``)."""

    how: Literal["engine", "ai", "ended"]
    record: SessionRecord
    outcome: Outcome | None = None


def options_error(exc: ValidationError) -> SessionError:
    """Pydantic's error types are stable codes; the first one decides the message."""
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err.get("loc", ()))
    return SessionError("bad_options", reason=err["type"], field=loc or "-")


def parse_option_text(spec: GameSpec, text: str | None) -> dict[str, Any]:
    """Read ``ninja_power quick first_player=random`` style options typed after ``/game new``."""
    out: dict[str, Any] = {}
    fields = spec.options_model.model_fields
    for token in (text or "").replace(",", " ").split():
        name, sep, value = token.partition("=")
        name = name.strip().lower().replace("-", "_")
        if name not in fields:
            raise SessionError("unknown_option", option=name, known=", ".join(sorted(fields)))
        out[name] = value if sep else True
    return out


FORCED_SAMPLES = 6
"""How many re-dealt versions of the hidden cards ``forced_publicly`` tries."""


def forced_publicly(spec: GameSpec, state: BaseModel, seat: str, action: BaseModel, seats: list[str]) -> bool:
    """Whether a seat's only move is forced by what everyone can see: in every state another player cannot
    tell apart from this one (the seat's own hidden cards re-dealt by ``determinize``), the seat has that
    move and no other. Such a step is taken at once whatever the seat's auto-pass choice, since taking it
    gives nothing away. Alone at the table, there is nobody to give anything away to."""
    observers = [p for p in seats if p != seat]
    if not observers:
        return True
    rng = Rng.from_seed(zlib.crc32(f"{seat}:{spec.dump_action(action)}".encode()))
    for i in range(FORCED_SAMPLES):
        sample = spec.engine.determinize(state, observers[i % len(observers)], rng)
        if spec.engine.legal_actions(sample, seat) != [action]:
            return False
    return True


class SessionService:
    """Every write to a session goes through here, so the service keeps the newest record and parsed
    state of recently used sessions in memory and serves reads from it once the stored version says the
    copy is current. Another process writing the same session is caught by that check on load and by
    the version check at commit, either of which drops the cached copy."""

    def __init__(self, store: Store, *, cache_size: int = 1024) -> None:
        self.store = store
        self.locks = SessionLocks()
        self._cache: OrderedDict[int, tuple[SessionRecord, BaseModel | None]] = OrderedDict()
        self._cache_size = cache_size
        self._autopass: OrderedDict[int, bool] = OrderedDict()  # the most recent players' choices
        self._settings: dict[int, TableSettings] = {}  # session -> its table settings as stored
        self._points: dict[int, tuple[int, takebacks.Point]] = {}  # session -> (version, open request's point)
        self._away: dict[int, dict[int, datetime]] = {}  # guild -> member -> back at (as stored)
        self._glances: dict[int, Glance] = {}  # session -> the engine's answers about its cached state

    # ------------------------------------------------------------------ lobby
    async def open_lobby(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game_id: str,
        host_id: int,
        options: dict[str, Any],
        locale: str,
        host_name: str,
        host_locale: str | None = None,
    ) -> SessionRecord:
        spec = self.spec(game_id)
        try:
            parsed = spec.parse_options(options)
        except ValidationError as exc:
            raise options_error(exc) from None
        try:
            return await self.store.create_session(
                guild_id=guild_id,
                channel_id=channel_id,
                game_id=game_id,
                host_id=host_id,
                options=parsed.model_dump(mode="json"),
                seed=secrets.randbits(63),
                locale=locale,
                names={str(host_id): host_name},
                locales={str(host_id): host_locale or locale},
            )
        except ChannelBusy as busy:
            raise SessionError(
                "channel_busy", channel=busy.existing.channel_id, game=busy.existing.game_id
            ) from None

    async def join(self, session_id: int, user_id: int, name: str, locale: str | None = None) -> SessionRecord:
        async with self.locks.lock_for(session_id):
            rec = await self._lobby(session_id)
            spec = self.spec(rec.game_id)
            if user_id in rec.seats:
                raise SessionError("already_seated")
            if len(rec.seats) >= spec.max_seats:
                raise SessionError("lobby_full", max=spec.max_seats)
            names = {**rec.names, str(user_id): name}
            locales = {**rec.locales, str(user_id): locale or rec.locale}
            return await self._lobby_update(rec, seats=[*rec.seats, user_id], names=names, locales=locales)

    async def leave(self, session_id: int, user_id: int) -> SessionRecord:
        """Leaving hands the host role on; the last one out closes the lobby."""
        async with self.locks.lock_for(session_id):
            rec = await self._lobby(session_id)
            if user_id not in rec.seats:
                raise SessionError("not_seated")
            seats = [s for s in rec.seats if s != user_id]
            if not seats:
                self._forget(rec.id)
                return await self.store.set_status(rec.id, rec.version, "abandoned")
            host = rec.host_id if rec.host_id != user_id else seats[0]
            return await self._lobby_update(rec, seats=seats, host_id=host)

    async def ai_seats(self, session_id: int) -> dict[str, str]:
        """Seats the AI plays, with their level: seats added as AI in the lobby (negative ids) and seats
        a player handed over during the game (their own id)."""
        return dict((await self.settings(session_id)).ai)

    async def settings(self, session_id: int) -> TableSettings:
        """The table's settings, read once and then kept: they are written only through this service."""
        known = self._settings.get(session_id)
        if known is None:
            known = self._settings[session_id] = TableSettings.from_stored(await self.store.table_settings(session_id))
        return known

    async def settings_read(self, session_id: int) -> TableSettings:
        """The table's settings without keeping them: for finished games (history, endings), which the
        cache would otherwise fill with tables nobody plays at any more."""
        known = self._settings.get(session_id)
        return known or TableSettings.from_stored(await self.store.table_settings(session_id))

    async def _write_settings(self, session_id: int, **changes: Any) -> TableSettings:
        """Change parts of the table's settings; called under the session's lock, so a change to one part
        (a ballot) never undoes another made meanwhile (an AI seat)."""
        new = (await self.settings(session_id)).model_copy(update=changes)
        await self.store.set_table_settings(session_id, new.stored())
        self._settings[session_id] = new
        return new

    async def _set_ai_seats(self, session_id: int, ai: dict[str, str]) -> None:
        await self._write_settings(session_id, ai=dict(ai))

    # ------------------------------------------------------------------ the turn clock and votes
    async def table_clock(self, session_id: int, default: TableClock) -> TableClock:
        """The table's clock; ``default`` (the server's) until its lobby chose one."""
        return (await self.settings(session_id)).clock or default

    async def set_clock(self, session_id: int, user_id: int, choice: str, default: TableClock) -> SessionRecord:
        """The host picks the lobby's turn clock among the offered ones (or keeps the current one)."""
        async with self.locks.lock_for(session_id):
            rec = await self._lobby(session_id)
            if user_id != rec.host_id:
                raise SessionError("host_only")
            current = await self.table_clock(session_id, default)
            clocks = [TableClock(remind_hours=r, deadline_hours=d, deadline_action=a) for r, d, a in CLOCK_CHOICES]
            offered = {c.key: c for c in [*clocks, current]}
            if choice not in offered:
                raise SessionError("bad_choice")
            await self._write_settings(session_id, clock=offered[choice])
            return rec

    async def set_switches(self, session_id: int, user_id: int, on: set[str]) -> SessionRecord:
        """The host sets the lobby's table switches (``SWITCHES``): those named in ``on`` on, the rest off."""
        async with self.locks.lock_for(session_id):
            rec = await self._lobby(session_id)
            if user_id != rec.host_id:
                raise SessionError("host_only")
            if not on <= set(SWITCHES):
                raise SessionError("bad_choice")
            await self._write_settings(session_id, **{name: name in on for name in SWITCHES})
            return rec

    async def offers_hints(self, session_id: int, seat: str) -> bool:
        """Whether ``seat``'s private view carries the 💡 button: the lobby left hints on and a person, not
        the AI, plays the seat."""
        settings = await self.settings(session_id)
        return settings.hints and seat not in settings.ai

    async def note_hint(self, session_id: int, seat: str) -> bool:
        """Record that ``seat`` asked for a hint in this game (the table marks it, and the game goes
        unrated); True the first time. Only the table's settings are written: the game's state, version and
        log stay as they were, since a hint is not a move."""
        async with self.locks.lock_for(session_id):
            rec, _spec, state = await self.load(session_id)
            if rec.status != "running" or state is None:
                raise SessionError("not_running")
            if seat not in {str(s) for s in rec.seats}:
                raise SessionError("not_seated")
            hinted = (await self.settings(session_id)).hinted
            if seat in hinted:
                return False
            await self._write_settings(session_id, hinted=(*hinted, seat))
            return True

    async def carry_settings(self, old_id: int, new_id: int) -> None:
        """A rematch keeps the old table's clock and switches; not its AI seats, ballots or hint marks,
        which name seats of the old game."""
        old = await self.settings(old_id)
        async with self.locks.lock_for(new_id):
            await self._write_settings(new_id, clock=old.clock, **{name: getattr(old, name) for name in SWITCHES})

    async def vote(self, session_id: int, voter: int, seat: str,
                   confirmed: bool = False) -> tuple[SessionRecord, int, int, bool]:
        """A seated player votes to take a waiting seat out: (the record, votes, votes needed, whether the
        voter must confirm first). A majority of the other human players carries it (the caller then
        forfeits the seat). A ballot that would carry and end the game (a duel) is not written until the
        voter confirms it: one click must not end a game by surprise.

        Checked and written under the session's lock, like a move: a move cannot land between the check
        that the seat still waits and the write, so a ballot for a seat that has just moved is never
        stored (it would count in a later vote on that seat)."""
        async with self.locks.lock_for(session_id):
            rec, spec, state = await self.load(session_id)
            ai = await self.ai_seats(session_id)
            if rec.status != "running" or state is None:
                raise SessionError("not_running")
            mine = rec.seat_of(voter)
            if mine is None or mine in ai:
                raise SessionError("not_seated")
            if mine == seat:
                raise SessionError("vote_self")
            if seat not in self.glance(rec, state).owing or seat in ai:
                raise SessionError("vote_stale")
            votes = dict((await self.settings(session_id)).votes)
            ballot = sorted(set(votes.get(seat, [])) | {voter})
            needed = len([s for s in self.humans(rec, ai) if s != seat]) // 2 + 1
            if len(ballot) >= needed and not confirmed and self._forfeit_ends(spec, state, rec, seat):
                return rec, len(ballot), needed, True
            await self._write_settings(session_id, votes={**votes, seat: ballot})
        return rec, len(ballot), needed, False

    @staticmethod
    def _forfeit_ends(spec: GameSpec, state: BaseModel, rec: SessionRecord, seat: str) -> bool:
        """Whether the game's forfeit of ``seat`` would end it (tried in memory, nothing stored)."""
        action = spec.engine.forfeit(state, seat, rec.seats.index(int(seat)))
        if action is None:
            return False
        try:
            after, _events = spec.engine.apply(state, seat, action)
        except RuleError:
            return False
        return spec.engine.result(after) is not None

    async def clear_votes(self, session_id: int, seats: set[str]) -> None:
        """Drop the ballots on seats that no longer wait (no write when there are none)."""
        async with self.locks.lock_for(session_id):
            votes = (await self.settings(session_id)).votes
            if any(s in votes for s in seats):
                await self._write_settings(session_id, votes={k: v for k, v in votes.items() if k not in seats})

    # ------------------------------------------------------------------ reads for the cogs
    async def record(self, session_id: int) -> SessionRecord:
        """The session as stored; ``no_such_game`` for an id that names none."""
        try:
            return await self.store.get(session_id)
        except SessionNotFound:
            raise SessionError("no_such_game") from None

    async def active_in_channel(self, channel_id: int) -> SessionRecord | None:
        return await self.store.active_in_channel(channel_id)

    async def latest_in_channel(self, channel_id: int, guild_id: int | None) -> SessionRecord | None:
        """The channel's running game, else the last one that ended there: ``/game log`` right after the
        end must still find it."""
        active = await self.store.active_in_channel(channel_id)
        if active is not None or guild_id is None:
            return active
        ended = [r for r in await self.store.sessions_in_guild(guild_id, "finished", "abandoned")
                 if r.channel_id == channel_id and r.state_json is not None]
        return max(ended, key=lambda r: r.id, default=None)

    async def log(self, session_id: int) -> list[LogEntry]:
        return await self.store.actions(session_id)

    async def running(self) -> list[SessionRecord]:
        return await self.store.sessions_with_status("running")

    async def finished_in_guild(self, guild_id: int) -> list[tuple[SessionRecord, dict[str, SeatEnd]]]:
        """The server's finished games, each with how every seat ended (for ``/game stats``)."""
        out = []
        for rec in await self.store.sessions_in_guild(guild_id, "finished"):
            if rec.state_json is not None:
                out.append((rec, await self.endings(rec)))
        return out

    async def endings(self, rec: SessionRecord, state: BaseModel | None = None,
                      result: GameResult | None = None) -> dict[str, SeatEnd]:
        """How each seat of a finished game ended, from the engine's result and the departures recorded
        in the table's settings: one answer for the post, the table, the DMs and the stats. Seats that left
        the seating (a Fluxx player who walked out) are included. ``result``: the engine's result of
        ``state`` where the caller has it already (a commit's glance)."""
        if rec.status != "finished" or (state is None and rec.state_json is None):
            return {}
        spec = self.spec(rec.game_id)
        if state is None:
            state = spec.state_model.model_validate_json(rec.state_json or "")
        settings = await self.settings_read(rec.id)
        return self._endings_of(rec, result if result is not None else spec.engine.result(state), settings)

    @staticmethod
    def _endings_of(rec: SessionRecord, result: GameResult | None, settings: TableSettings) -> dict[str, SeatEnd]:
        """How each seat ended (empty while ``result`` is None): the seats still seated and those that left
        the seating, with the departures and the seats handed to the AI as ``settings`` record them."""
        seats = [str(s) for s in rec.seats]
        seats += [s for s in settings.departed if s not in seats]
        return seat_endings(seats, result, departed=settings.departed,
                            handed_to_ai=[s for s in settings.ai if s.lstrip("-").isdigit() and int(s) > 0])

    async def _outcome(self, rec: SessionRecord, spec: GameSpec, before: Glance, after: Glance, steps: list[Step],
                       mover: str | None, *, departed: int | None = None, undone: int = 0) -> Outcome:
        """The one outcome of a commit, worked out once under the session's lock after everything the
        commit writes (a departure included): who owed before and after (the prompts themselves, so no
        surface asks the engine again), who plays each seat now, and how each seat ended if the game did."""
        settings = await self.settings(rec.id)
        result = after.result if rec.status == "finished" else None
        table = TableOutcome(
            status=rec.status, version=rec.version, owing_before=before.owing, owing_after=after.owing,
            humans={s: rec.player(s) for s in self.humans(rec, settings.ai)}, ai=dict(settings.ai), mover=mover,
            result=result, endings=self._endings_of(rec, result, settings), departed=departed,
            prompts_before=before.prompts, prompts_after=after.prompts)
        events = [e for step in steps for e in step.events]
        return Outcome(rec, spec, after.state, events, mover or steps[0].seat, table, after, steps, undone,
                       previous=before.state)

    async def standing(self, rec: SessionRecord, state: BaseModel | None) -> TableOutcome:
        """How the table stands at ``rec``'s version, for a change that commits no move (a start, a game
        abandoned or expired, a restart catching up): the same outcome a move would have left, with nobody
        owing anything before. A game that is over has its settings read, not kept (like ``endings``)."""
        known = self._settings.get(rec.id)
        if known is None and rec.status not in ("lobby", "running"):
            known = TableSettings.from_stored(await self.store.table_settings(rec.id))
        settings = known or await self.settings(rec.id)
        glance = self.glance(rec, state) if state is not None else None
        prompts = glance.prompts if glance is not None and rec.status == "running" else ()
        result = glance.result if glance is not None and rec.status == "finished" else None
        return TableOutcome(
            status=rec.status, version=rec.version, owing_before=frozenset(),
            owing_after=frozenset(p.seat for p in prompts),
            humans={s: rec.player(s) for s in self.humans(rec, settings.ai)}, ai=dict(settings.ai), result=result,
            endings=self._endings_of(rec, result, settings), prompts_after=prompts)

    async def deliveries(self, session_id: int) -> dict[int, Delivery]:
        """What each player's live message last showed (the table's row is user 0)."""
        return await self.store.deliveries(session_id)

    async def save_delivery(self, row: Delivery) -> None:
        await self.store.save_delivery(row)

    async def timers(self, session_id: int) -> list[Timer]:
        return await self.store.timers(session_id)

    async def cancel_timer(self, session_id: int, kind: str, seat: str | None) -> None:
        await self.store.cancel_timer(session_id, kind, seat)

    async def add_ai(self, session_id: int, user_id: int, level: str, name: str) -> SessionRecord:
        """The host seats an AI player at ``level``. Its id is negative, which no Discord user has."""
        if level not in AI_LEVELS:
            raise SessionError("bad_choice")
        async with self.locks.lock_for(session_id):
            rec = await self._lobby(session_id)
            if user_id != rec.host_id:
                raise SessionError("host_only")
            spec = self.spec(rec.game_id)
            if len(rec.seats) >= spec.max_seats:
                raise SessionError("lobby_full", max=spec.max_seats)
            ai_id = min([s for s in rec.seats if s < 0], default=0) - 1
            ai = await self.ai_seats(session_id)
            updated = await self._lobby_update(rec, seats=[*rec.seats, ai_id], names={**rec.names, str(ai_id): name},
                                               locales={**rec.locales, str(ai_id): rec.locale})
            await self._set_ai_seats(session_id, {**ai, str(ai_id): level})
            return updated

    async def remove_ai(self, session_id: int, user_id: int) -> SessionRecord:
        """The host takes the last AI seat away."""
        async with self.locks.lock_for(session_id):
            rec = await self._lobby(session_id)
            if user_id != rec.host_id:
                raise SessionError("host_only")
            bots = [s for s in rec.seats if s < 0]
            if not bots:
                raise SessionError("no_ai_seat")
            gone = bots[-1]
            updated = await self._lobby_update(rec, seats=[s for s in rec.seats if s != gone])
            ai = await self.ai_seats(session_id)
            ai.pop(str(gone), None)
            await self._set_ai_seats(session_id, ai)
            return updated

    @staticmethod
    def humans(rec: SessionRecord, ai: dict[str, str]) -> list[str]:
        """Seats a person plays now (not an AI seat of the lobby, not one handed to the AI)."""
        return [str(s) for s in rec.seats if str(s) not in ai and rec.player(str(s)) > 0]

    async def forfeit(self, session_id: int, seat: str, *, fallback_ai: bool = False,
                      level: str = "normal", why: Departure = "left") -> Forfeit:
        """Take a seat out of a running game for good: its player left, or was voted or timed out.

        What that means is the game's rule (``engine.forfeit``): an action that ends the game or takes the
        seat out of it, applied and logged like a move; or, where the game cannot go on without the seat,
        an AI player takes it. A game with no person left playing is ended as abandoned (nobody would watch
        the AI seats finish it). ``fallback_ai``: when the game refuses its forfeit now (an effect still
        waits on the seat), an AI takes the seat instead of the refusal being raised."""
        async with self.locks.lock_for(session_id):
            rec, spec, state, ai, others = await self._leaving(session_id, seat)
            action = spec.engine.forfeit(state, seat, rec.seats.index(int(seat)))
            if action is not None:
                player = rec.player(seat)
                try:
                    new_rec, before, after, steps = await self._apply_forfeit(rec, spec, state, seat, action)
                except RuleError:
                    if not (fallback_ai and others):
                        raise
                else:
                    # Whatever the engine made of it (a duel conceded may score as a tie), the seat's
                    # player left and is never counted a winner.
                    await self._depart(session_id, seat, why)
                    await self._settle_safely(new_rec, after)
                    outcome = await self._outcome(new_rec, spec, before, after, steps, seat, departed=player)
                    if outcome.record.status == "running" and not self.humans(outcome.record, ai):
                        return Forfeit("ended", await self._mark_abandoned(outcome.record), outcome)
                    return Forfeit("engine", outcome.record, outcome)
            await self._depart(session_id, seat, why)
            if not others:
                return Forfeit("ended", await self._mark_abandoned(rec))
            await self._set_ai_seats(session_id, {**ai, seat: level})
            return Forfeit("ai", rec)

    async def hand_to_ai(self, session_id: int, seat: str, level: str = "normal",
                         why: Departure = "left") -> SessionRecord:
        """An AI plays ``seat`` from now on (a deadline, or a player who chose to leave their seat to it):
        its moves are logged, marked automatic; the player may take the seat back with ``/game join``."""
        async with self.locks.lock_for(session_id):
            rec, _spec, _state, ai, others = await self._leaving(session_id, seat)
            if not others:
                raise SessionError("last_player")
            await self._depart(session_id, seat, why)
            await self._set_ai_seats(session_id, {**ai, seat: level})
            return rec

    async def _depart(self, session_id: int, seat: str, why: Departure) -> None:
        departed = (await self.settings(session_id)).departed
        await self._write_settings(session_id, departed={**departed, seat: why})

    async def _leaving(
        self, session_id: int, seat: str
    ) -> tuple[SessionRecord, GameSpec, BaseModel, dict[str, str], list[str]]:
        """A running game a person plays ``seat`` of, its AI seats and the other seats people play; called
        under the session's lock."""
        rec, spec, state = await self.load(session_id)
        if rec.status != "running" or state is None:
            raise SessionError("not_running")
        if seat not in {str(s) for s in rec.seats}:
            raise SessionError("not_seated")
        ai = await self.ai_seats(session_id)
        if seat in ai or rec.player(seat) < 0:
            raise SessionError("already_left")
        return rec, spec, state, ai, [s for s in self.humans(rec, ai) if s != seat]

    async def _apply_forfeit(
        self, rec: SessionRecord, spec: GameSpec, state: BaseModel, seat: str, action: BaseModel
    ) -> tuple[SessionRecord, Glance, Glance, list[Step]]:
        """The game's forfeit action, stored like a move; a ``leave`` (it logs the seat's place, for a
        rebuild from the log) also takes the seat out of the session's seating in the same step, unless
        it ended the game. Returns the record, the glances before and after, and the steps taken."""
        before = self.glance(rec, state)
        new_state, events = spec.engine.apply(state, seat, action)  # RuleError: not now
        leaves = getattr(action, "type", None) == "leave"
        after = Glance(spec, new_state)
        result = after.result
        try:
            rec = await self.store.commit_action(
                rec.id, rec.version, seat=seat, action_json=spec.dump_action(action),
                state_json=new_state.model_dump_json(), status="finished" if result is not None else "running",
                # A leave that ends the game keeps the seat on record: it played, and lost.
                seats=[s for s in rec.seats if str(s) != seat] if leaves and result is None else None,
            )
        except (VersionConflict, InvalidTransition):
            self._forget(rec.id)
            raise SessionError("stale") from None
        self._remember(rec, new_state, after)
        steps = [Step(seat, action, events)]
        rec, after = await self._auto_steps(rec, spec, after, steps)
        return rec, before, after, steps

    async def _mark_abandoned(self, rec: SessionRecord) -> SessionRecord:
        return await self._keeping_state(rec.id, self.store.set_status(rec.id, rec.version, "abandoned"))

    async def _keeping_state(self, session_id: int, write: Awaitable[SessionRecord]) -> SessionRecord:
        """Await a stored change that leaves the game's state as it is (its status, who sits where). The
        cache keeps the state beside the new record; a version conflict means another process moved the
        game on, so the cached copy goes and the caller hears "stale"."""
        try:
            rec = await write
        except (VersionConflict, InvalidTransition):
            self._forget(session_id)
            raise SessionError("stale") from None
        cached = self._cache.get(session_id)
        self._remember(rec, cached[1] if cached else None)
        return rec

    async def take_seat(self, session_id: int, user_id: int, name: str,
                        locale: str | None = None) -> tuple[str, bool]:
        """``/game join`` in a running game, for a seat the AI plays: the player who left it takes it back;
        in a game open to newcomers, anyone not seated takes the first AI seat. Returns the seat and
        whether it was the player's own."""
        async with self.locks.lock_for(session_id):
            rec, spec, state = await self.load(session_id)
            if rec.status != "running" or state is None:
                raise SessionError("not_running")
            ai = await self.ai_seats(session_id)
            mine = rec.seat_of(user_id)
            if mine is not None:
                if mine not in ai:
                    raise SessionError("already_seated")
                ai.pop(mine)
                await self._set_ai_seats(session_id, ai)
                departed = (await self.settings(session_id)).departed
                await self._write_settings(session_id, departed={k: v for k, v in departed.items() if k != mine})
                return mine, True
            free = [str(s) for s in rec.seats if str(s) in ai]
            if not spec.joinable or not free:
                raise SessionError("not_seated")
            seat = free[0]
            rec = await self._hand_over(rec, seat, user_id, name, locale)
            ai.pop(seat)
            await self._set_ai_seats(session_id, ai)
            return seat, False

    async def replace(self, session_id: int, by: int, *, can_manage: bool, old: int, new: int, name: str,
                      locale: str | None = None) -> tuple[SessionRecord, str]:
        """The host (or Manage Server) hands ``old``'s seat to another member, ``new``: from now on the seat's
        private view, decisions and mentions go to them, and ``old``'s buttons answer "not seated". A seat
        the AI plays since its player left goes to the newcomer too. Returns the record and the seat."""
        async with self.locks.lock_for(session_id):
            rec, _spec, state = await self.load(session_id)
            if rec.status != "running" or state is None:
                raise SessionError("not_running")
            if by != rec.host_id and not can_manage:
                raise SessionError("host_only")
            seat = rec.seat_of(old)
            if seat is None:
                raise SessionError("replace_not_seated")
            if rec.seat_of(new) is not None:
                raise SessionError("already_seated")
            rec = await self._hand_over(rec, seat, new, name, locale)
            ai = await self.ai_seats(session_id)
            if seat in ai:
                ai.pop(seat)
                await self._set_ai_seats(session_id, ai)
            return rec, seat

    async def _hand_over(self, rec: SessionRecord, seat: str, user_id: int, name: str,
                         locale: str | None) -> SessionRecord:
        players = {k: v for k, v in rec.players.items() if k != seat}
        if user_id != int(seat):
            players[seat] = user_id
        return await self._keeping_state(rec.id, self.store.set_players(
            rec.id, rec.version, players, {**rec.names, seat: name}, {**rec.locales, seat: locale or rec.locale}))

    async def set_options(self, session_id: int, user_id: int, options: dict[str, Any],
                          own_seat: int | None = None) -> SessionRecord:
        """Change lobby options (the host's right). ``own_seat``: the options belong to that seat (a
        player's own deck), so the player sitting there may set them too."""
        async with self.locks.lock_for(session_id):
            rec = await self._lobby(session_id)
            mine = own_seat is not None and 0 <= own_seat < len(rec.seats) and rec.seats[own_seat] == user_id
            if user_id != rec.host_id and not mine:
                raise SessionError("host_only")
            spec = self.spec(rec.game_id)
            try:
                parsed = spec.parse_options({**rec.options, **options})
            except ValidationError as exc:
                raise options_error(exc) from None
            return await self._lobby_update(rec, options=parsed.model_dump(mode="json"))

    async def start(self, session_id: int, user_id: int) -> tuple[SessionRecord, BaseModel]:
        async with self.locks.lock_for(session_id):
            rec = await self._lobby(session_id)
            if user_id != rec.host_id:
                raise SessionError("host_only")
            spec = self.spec(rec.game_id)
            if not spec.min_seats <= len(rec.seats) <= spec.max_seats:
                raise SessionError(
                    "seat_count", count=len(rec.seats), min=spec.min_seats, max=spec.max_seats
                )
            state = spec.engine.new_game(
                [str(s) for s in rec.seats], spec.parse_options(rec.options), rec.seed
            )
            try:
                rec = await self.store.start(rec.id, rec.version, state.model_dump_json(), rec.seats)
            except (VersionConflict, InvalidTransition):
                raise SessionError("stale") from None
            self._remember(rec, state)
            return rec, state

    async def abandon(
        self, session_id: int, user_id: int, *, can_manage: bool, expected_version: int | None = None
    ) -> SessionRecord:
        """End a game. ``expected_version`` is the version a confirmation was issued for: checked here,
        under the lock, so a move made between the question and the answer makes the answer stale."""
        async with self.locks.lock_for(session_id):
            rec = await self.store.get(session_id)
            if rec.status not in ("lobby", "running"):
                raise SessionError("not_active")
            if expected_version is not None and rec.version != expected_version:
                raise SessionError("stale")
            if user_id != rec.host_id and not can_manage:
                raise SessionError("abandon_forbidden")
            return await self._mark_abandoned(rec)

    async def expire(self, session_id: int, expected_version: int) -> SessionRecord | None:
        """End a game nobody moved in for too long, unless it moved since ``expected_version`` (then
        None: the idle timer was moved with that move)."""
        async with self.locks.lock_for(session_id):
            rec = await self.store.get(session_id)
            if rec.status not in ("lobby", "running") or rec.version != expected_version:
                return None
            try:
                return await self._mark_abandoned(rec)
            except SessionError:
                return None  # moved on in another process meanwhile

    async def set_table_message(self, session_id: int, message_id: int | None) -> SessionRecord:
        rec = await self.store.set_table_message(session_id, message_id)
        cached = self._cache.get(session_id)
        if cached is not None and cached[0].version == rec.version:
            self._remember(rec, cached[1])
        else:
            self._forget(session_id)
        return rec

    # ------------------------------------------------------------------ play
    async def load(self, session_id: int, *, acting_on: int | None = None,
                   ) -> tuple[SessionRecord, GameSpec, BaseModel | None]:
        """The session's newest record and state. A cached copy is served only after a read of the stored
        version says it is still the newest: with several shard processes on one database, another one
        may have moved the game, and a stale copy would show an old state and refuse fresh buttons.

        ``acting_on``: the version a move is about to be committed against. A cached copy at that version
        needs no read, since the commit's compare-and-swap refuses it if the game moved on meanwhile; this
        keeps a click at one version read instead of one per load on its path."""
        cached = self._cache.get(session_id)
        if cached is not None:
            if cached[0].version == acting_on or await self.store.version(session_id) == cached[0].version:
                self._cache.move_to_end(session_id)
                return cached[0], self.spec(cached[0].game_id), cached[1]
            self._forget(session_id)
        rec = await self.store.get(session_id)
        spec = self.spec(rec.game_id)
        if rec.state_json is None:
            return rec, spec, None
        try:
            state = spec.state_model.model_validate_json(rec.state_json)
        except ValidationError:
            # A snapshot this build cannot read: the seed and the log rebuild the game exactly.
            log.warning("session %s: snapshot unreadable, replaying %s", rec.id, rec.version)
            state = history.rebuild(rec, await self.store.actions(rec.id))
        self._remember(rec, state)
        return rec, spec, state

    async def act(
        self, session_id: int, user_id: int, expected_version: int, action: BaseModel | dict[str, Any],
        *, auto: bool = False,
    ) -> Outcome:
        """Apply one seat's action. ``auto`` marks an action the bot took for the seat (an AI's move)."""
        async with self.locks.lock_for(session_id):
            rec, spec, state = await self.load(session_id, acting_on=expected_version)
            if rec.status != "running" or state is None:
                raise SessionError("not_running")
            seat = str(user_id) if auto else rec.seat_of(user_id)  # the bot acts for a seat by its id
            if seat is None or int(seat) not in rec.seats:
                raise SessionError("not_seated")
            if rec.version != expected_version:
                raise SessionError("stale")
            if not auto and seat in await self.ai_seats(session_id):
                raise SessionError("already_left")  # the AI plays this seat now
            before = self.glance(rec, state)  # the last commit's answers: no engine call
            new_state, events = spec.engine.apply(state, seat, action)  # RuleError propagates
            after = Glance(spec, new_state)
            parsed = action if isinstance(action, BaseModel) else spec.parse_action(action)
            steps = [Step(seat, parsed, events, auto=auto)]
            # The steps the bot takes for seats after the move are stored with it, in one commit: one
            # round trip before the mover's answer however many there are.
            after, status = await self._plan_steps(rec, spec, after, steps,
                                                   "finished" if after.result is not None else "running")
            try:
                rec = await self.store.commit_steps(rec.id, expected_version, self._stored(spec, steps),
                                                    state_json=after.state.model_dump_json(), status=status)
            except (VersionConflict, InvalidTransition):
                self._forget(session_id)  # someone else (another process) moved the game on
                raise SessionError("stale") from None
            self._remember(rec, after.state, after)
            await self._settle_safely(rec, after)
            return await self._outcome(rec, spec, before, after, steps, seat)

    async def settle(self, session_id: int) -> Outcome | None:
        """Take the steps owed to seats with a single move (after a start, or a restart that cut them
        short); None when there were none."""
        async with self.locks.lock_for(session_id):
            rec, spec, state = await self.load(session_id)
            if rec.status != "running" or state is None:
                return None
            steps: list[Step] = []
            before = self.glance(rec, state)
            new_rec, after = await self._auto_steps(rec, spec, before, steps)
            if not steps:
                return None
            await self._settle_safely(new_rec, after)
            return await self._outcome(new_rec, spec, before, after, steps, None)

    async def autopass(self, user_id: int) -> bool:
        known = self._autopass.get(user_id)
        if known is None:
            known = self._autopass[user_id] = await self.store.autopass(user_id)
            while len(self._autopass) > AUTOPASS_KEPT:
                self._autopass.popitem(last=False)
        return known

    async def learn_autopass(self, rec: SessionRecord) -> None:
        """Read the auto-pass choice of everyone seated into memory, so that no move's first answer waits
        on that read (the first time a seat has a single move, its player's choice decides whether the bot
        takes it). For a game that just started, once its own first answer is out."""
        for seat in rec.seats:
            player = rec.player(str(seat))
            if player > 0:
                await self.autopass(player)

    def surely_without_ai(self, session_id: int) -> bool:
        """Known here to have no AI seat (without a read): most games, after every move."""
        known = self._settings.get(session_id)
        return known is not None and not known.ai

    def release(self, session_id: int) -> None:
        """Forget what is kept for a game that is over, its cached record and state included: a finished
        game is seldom read again (an old button, a replay), and the bounded cache would otherwise hold
        the states of the last thousand finished games in place of running ones."""
        self._settings.pop(session_id, None)
        self._points.pop(session_id, None)
        self._forget(session_id)

    async def set_autopass(self, user_id: int, enabled: bool) -> None:
        await self.store.set_autopass(user_id, enabled)
        self._autopass[user_id] = enabled

    async def _auto_steps(
        self, rec: SessionRecord, spec: GameSpec, start: Glance, steps: list[Step]
    ) -> tuple[SessionRecord, Glance]:
        """Take the steps owed to seats with a single move after ``start`` (``_plan_steps``) and store them
        in one commit, appending them to ``steps``. If another process moved the game on meanwhile, none
        is stored or appended. Called under the session's lock."""
        taken: list[Step] = []
        after, status = await self._plan_steps(rec, spec, start, taken, rec.status)
        if not taken:
            return rec, start
        try:
            rec = await self.store.commit_steps(rec.id, rec.version, self._stored(spec, taken),
                                                state_json=after.state.model_dump_json(), status=status)
        except (VersionConflict, InvalidTransition):
            self._forget(rec.id)
            return rec, start
        self._remember(rec, after.state, after)
        steps.extend(taken)
        return rec, after

    async def _plan_steps(
        self, rec: SessionRecord, spec: GameSpec, glance: Glance, steps: list[Step], status: SessionStatus
    ) -> tuple[Glance, SessionStatus]:
        """Apply in memory, one after the other, every decision that leaves its seat a single legal move
        the seat has agreed to have taken for it (auto-pass, on by default) or that nothing hidden decides
        (see ``forced_publicly``), appending each to ``steps`` marked automatic; return the glance at the
        state after the last (whose prompts and legal actions looking for another step already asked for)
        and the game's status then. Each goes through ``engine.apply`` and will be logged, so a replay
        of the log rebuilds the same game; the caller stores them. Called under the session's lock."""
        for _ in range(MAX_AUTO_STEPS):
            if status != "running":
                break
            step = await self._single_move(rec, glance)
            if step is None:
                break
            seat, action = step
            state, events = spec.engine.apply(glance.state, seat, action)
            glance = Glance(spec, state)
            status = "finished" if glance.result is not None else "running"
            steps.append(Step(seat, action, events, auto=True))
        return glance, status

    @staticmethod
    def _stored(spec: GameSpec, steps: list[Step]) -> list[StoredStep]:
        """What the log keeps of each step (its events are the engine's to make again on a replay)."""
        return [StoredStep(s.seat, spec.dump_action(s.action), s.auto) for s in steps]

    async def _agrees(self, rec: SessionRecord, seat: str) -> bool:
        if not seat.lstrip("-").isdigit() or int(seat) not in rec.seats:
            return False
        return seat in await self.ai_seats(rec.id) or await self.autopass(rec.player(seat))

    async def _single_move(self, rec: SessionRecord, glance: Glance) -> tuple[str, BaseModel] | None:
        for seat in glance.waiting():
            legal = glance.legal(seat)
            if len(legal) != 1:
                continue
            # The cheap question first: a seat that agreed to auto-pass (or that the AI plays) needs no
            # re-dealing of hidden cards to be moved on.
            if await self._agrees(rec, seat) or forced_publicly(glance.spec, glance.state, seat, legal[0],
                                                                [str(s) for s in rec.seats]):
                return seat, legal[0]
        return None

    async def join_running(self, session_id: int, user_id: int, name: str, locale: str | None = None) -> Outcome:
        """Seat a newcomer in a running game that allows it: the engine's ``join`` action and the new
        seating are stored in one step, so replaying the log seats them at the same moment."""
        async with self.locks.lock_for(session_id):
            rec, spec, state = await self.load(session_id)
            if rec.status != "running" or state is None:
                raise SessionError("not_running")
            if not spec.joinable:
                raise SessionError("not_lobby")
            if user_id in rec.seats or rec.seat_of(user_id) is not None:
                raise SessionError("already_seated")
            if len(rec.seats) >= spec.max_seats:
                raise SessionError("lobby_full", max=spec.max_seats)
            seat = str(user_id)
            action = spec.parse_action({"type": "join"})
            before = self.glance(rec, state)
            new_state, events = spec.engine.apply(state, seat, action)
            try:
                rec = await self.store.commit_action(
                    rec.id, rec.version, seat=seat, action_json=spec.dump_action(action),
                    state_json=new_state.model_dump_json(), seats=[*rec.seats, user_id],
                    names={**rec.names, seat: name}, locales={**rec.locales, seat: locale or rec.locale},
                )
            except (VersionConflict, InvalidTransition):
                self._forget(session_id)
                raise SessionError("stale") from None
            after = Glance(spec, new_state)
            self._remember(rec, new_state, after)
            return await self._outcome(rec, spec, before, after, [Step(seat, action, events)], seat)

    # ------------------------------------------------------------------ take-backs
    async def request_takeback(self, session_id: int, user_id: int) -> TakebackAnswer:
        """A seated player asks to take back their last decision. Refused with a reason when it cannot be
        (``nothing_to_take_back``, ``takeback_barrier``, ``takeback_open`` while another request waits);
        otherwise the request is stored for the other players to answer, or, when no other person plays
        at the table (AI seats always agree), the game goes back at once (``done``)."""
        async with self.locks.lock_for(session_id):
            rec, spec, state, seat = await self._seated(session_id, user_id)
            current = (await self.settings(session_id)).takeback
            if current is not None and current.version == rec.version:
                raise SessionError("takeback_open")
            found = await self._takeback_point(rec, seat)
            if isinstance(found, takebacks.Barrier):
                if found.reason == "nothing":
                    raise SessionError("nothing_to_take_back")
                raise TakebackBarrier(found, step=found.entry.seq if found.entry else 0)
            request = TakebackRequest(seat=seat, version=rec.version, undo=found.undo)
            if not self._takeback_voters(rec, await self.ai_seats(session_id), request):
                outcome = await self._take_back(rec, spec, state, request)
                return TakebackAnswer("done", request, outcome, replaced=current)
            await self._write_settings(session_id, takeback=request)
            self._points[session_id] = (rec.version, found)
            return TakebackAnswer("waiting", request, waiting=self._takeback_voters(
                rec, await self.ai_seats(session_id), request), replaced=current)

    async def answer_takeback(self, session_id: int, user_id: int, version: int, accept: bool, *,
                              host_decides: bool = False) -> TakebackAnswer:
        """Another seated player answers the request made at ``version``: one refusal ends it; when every
        other person at the table accepted, the game goes back. ``host_decides``: the server lets the host
        accept alone (the host's refusal ends it too). A request a move made stale is ``stale``."""
        async with self.locks.lock_for(session_id):
            rec, spec, state = await self.load(session_id)
            request = (await self.settings(session_id)).takeback
            if rec.status != "running" or state is None:
                raise SessionError("not_running")
            if request is None or request.version != version:
                raise SessionError("takeback_over")
            if rec.version != version:
                await self._drop_takeback(session_id)
                raise SessionError("stale")
            ai = await self.ai_seats(session_id)
            seat = rec.seat_of(user_id)
            host = host_decides and user_id == rec.host_id and seat != request.seat
            if not host and (seat is None or seat in ai):
                raise SessionError("not_seated")
            if seat == request.seat and not host:
                raise SessionError("takeback_own")
            if not accept:
                await self._drop_takeback(session_id)
                return TakebackAnswer("refused", request)
            mine = (seat,) if seat is not None and seat not in request.accepted else ()
            accepted = request.model_copy(update={"accepted": (*request.accepted, *mine)})
            waiting = () if host else self._takeback_voters(rec, ai, accepted)
            if waiting:
                await self._write_settings(session_id, takeback=accepted)
                return TakebackAnswer("waiting", accepted, waiting=waiting)
            return TakebackAnswer("done", accepted, await self._take_back(rec, spec, state, accepted))

    async def set_takeback_message(self, session_id: int, version: int, message_id: int) -> None:
        """Remember the post asking the table, if the request it asks about is still open."""
        async with self.locks.lock_for(session_id):
            request = (await self.settings(session_id)).takeback
            if request is not None and request.version == version:
                await self._write_settings(session_id, takeback=request.model_copy(update={"message_id": message_id}))

    async def lapse_takeback(self, session_id: int, version: int, seat: str) -> TakebackRequest | None:
        """``seat``'s request made at ``version`` ran out of time (or went stale): it is dropped and returned,
        None when it was settled already."""
        async with self.locks.lock_for(session_id):
            request = (await self.settings(session_id)).takeback
            if request is None or request.version != version or request.seat != seat:
                return None
            await self._drop_takeback(session_id)
            return request

    async def _drop_takeback(self, session_id: int) -> None:
        """The open request is settled or gone: neither it nor its kept point stays."""
        self._points.pop(session_id, None)
        await self._write_settings(session_id, takeback=None)

    async def _takeback_point(self, rec: SessionRecord, seat: str) -> takebacks.Point | takebacks.Barrier:
        """``takebacks.find`` on the stored log, in a thread: it replays the whole game (a long card game
        takes a fifth of a second), which would otherwise hold up every other table's clicks. The point of
        an open request is kept, so accepting it does not replay again."""
        entries = await self.store.actions(rec.id)
        return await asyncio.to_thread(takebacks.find, rec, entries, seat)

    def _takeback_voters(self, rec: SessionRecord, ai: dict[str, str], request: TakebackRequest) -> tuple[str, ...]:
        """The seats whose acceptance the request still needs: every other person at the table."""
        return tuple(s for s in self.humans(rec, ai) if s != request.seat and s not in request.accepted)

    async def _seated(self, session_id: int, user_id: int) -> tuple[SessionRecord, GameSpec, BaseModel, str]:
        """A running game and the seat a person (not the AI) plays in it; called under the session's lock."""
        rec, spec, state = await self.load(session_id)
        if rec.status != "running" or state is None:
            raise SessionError("not_running")
        seat = rec.seat_of(user_id)
        if seat is None or seat in await self.ai_seats(session_id):
            raise SessionError("not_seated")
        return rec, spec, state, seat

    async def _take_back(self, rec: SessionRecord, spec: GameSpec, state: BaseModel,
                         request: TakebackRequest) -> Outcome:
        """Commit the take-back: the point is found again from the log (the version is unchanged, so it is
        the same one), the state goes back to it under a new version and the log keeps a ``Takeback`` step,
        so every button made before answers "outdated" and a replay goes back where the table did."""
        kept = self._points.pop(rec.id, None)
        found = kept[1] if kept is not None and kept[0] == rec.version and kept[1].seat == request.seat \
            else await self._takeback_point(rec, request.seat)
        if not isinstance(found, takebacks.Point) or found.undo != request.undo:
            await self._drop_takeback(rec.id)
            raise SessionError("stale")
        step = history.Takeback(undo=found.undo)
        try:
            new = await self.store.commit_action(rec.id, rec.version, seat=request.seat,
                                                 action_json=step.model_dump_json(),
                                                 state_json=found.state.model_dump_json())
        except (VersionConflict, InvalidTransition):
            self._forget(rec.id)
            raise SessionError("stale") from None
        before, after = self.glance(rec, state), Glance(spec, found.state)
        self._remember(new, found.state, after)
        await self._write_settings(rec.id, takeback=None)
        return await self._outcome(new, spec, before, after, [], request.seat, undone=found.undo)
    # ------------------------------------------------------------------ ratings, records, time away
    async def settle_ratings(self, rec: SessionRecord, state: BaseModel | None = None,
                             result: GameResult | None = None) -> bool:
        """Count a finished game toward its players' ratings on its server, once: the store keys the
        settling by the session, so a second call (two paths ending one game, a restart's catch-up) does
        nothing. A game with an AI seat, a hint or the lobby's "unrated" is settled with its reason and
        changes no rating. False when there was nothing (left) to settle. Called once the seats'
        departures are written, since a forfeit is a loss whatever the engine made of the seat. ``result``:
        the engine's result of ``state`` where the caller has it (the commit's glance)."""
        if rec.status != "finished" or rec.guild_id is None or (state is None and rec.state_json is None):
            return False
        spec = self.spec(rec.game_id)
        if state is None:
            state = spec.state_model.model_validate_json(rec.state_json or "")
        if result is None:
            result = spec.engine.result(state)
        if result is None:
            return False
        endings = await self.endings(rec, state, result)
        settings = self._settings.get(rec.id) or TableSettings.from_stored(await self.store.table_settings(rec.id))
        players = {seat: rec.player(seat) for seat in endings}
        members = {seat: p for seat, p in players.items() if p > 0}
        why = unrated_reason(ai_seats=len(members) < len(players), hints_used=bool(settings.hinted),
                             lobby_unrated=not settings.rated, finished=True)
        placed = game_places(result.ranking, endings, members)
        winners = {members[s] for s in counted_winners(result, endings) if s in members}
        guild, game = rec.guild_id, rec.game_id

        def rate(current: dict[int, RatingRow]) -> list[RatingRow]:
            before = {u: Rating(mu=r.mu, sigma=r.sigma, games=r.games, wins=r.wins) for u, r in current.items()}
            after = record(before, placed, winners, cooperative=spec.cooperative)
            return [RatingRow(guild_id=guild, game_id=game, user_id=u, name=rec.names.get(seat, ""), **asdict(after[u]))
                    for seat, u in members.items()]

        return await self.store.settle_ratings(rec.id, guild, game, sorted(members.values()),
                                               why.value if why else "", rate)

    async def _settle_safely(self, rec: SessionRecord, after: Glance) -> None:
        """``settle_ratings`` after a move that ended the game (``after``: the commit's glance, whose result
        every surface shows): the move is stored and counted whatever happens here, so a failure is logged,
        never raised to the mover; the next start settles it."""
        if rec.status != "finished":
            return
        try:
            await self.settle_ratings(rec, after.state, after.result)
        except Exception:
            log.exception("session %s: settling its ratings failed; the next start retries", rec.id)

    async def settle_owed_ratings(self, owned: Callable[[int | None], bool]) -> int:
        """Settle every finished game of the ``owned`` guilds not settled yet (the bot stopped between a
        game's end and its settling, or it ended before ratings existed), oldest first so ratings grow
        in the order the games were played; how many were settled."""
        finished = [r for r in await self.store.sessions_with_status("finished") if owned(r.guild_id)]
        done: dict[int, Settled] = {}
        for first in range(0, len(finished), SETTLED_BATCH):
            done |= await self.store.settled([r.id for r in finished[first:first + SETTLED_BATCH]])
        count = 0
        for rec in finished:
            if rec.id not in done and rec.guild_id is not None:
                count += await self.settle_ratings(rec)
        return count

    async def finished_records(self, guild_id: int) -> list[SessionRecord]:
        """The server's finished games that can be shown (a game whose state was never stored cannot)."""
        return [r for r in await self.store.sessions_in_guild(guild_id, "finished") if r.state_json is not None]

    async def replay_hands(self, rec: SessionRecord) -> bool:
        """Whether the replay of this game may show every hand: its lobby said so and the game is over
        (while it runs, never). Read without keeping it: a finished game's settings are seldom asked for."""
        if rec.status not in ("finished", "abandoned"):
            return False
        known = self._settings.get(rec.id) or TableSettings.from_stored(await self.store.table_settings(rec.id))
        return known.replay_hands

    async def ratings(self, guild_id: int, game_id: str | None = None,
                      user_id: int | None = None) -> list[RatingRow]:
        return await self.store.ratings(guild_id, game_id, user_id)

    async def settled(self, session_ids: list[int]) -> dict[int, Settled]:
        """How each of these games was settled (absent: not yet)."""
        return await self.store.settled(session_ids)

    async def games_of(self, guild_id: int, user_id: int, *statuses: SessionStatus) -> list[SessionRecord]:
        """The server's games in ``statuses`` where the member plays or played, newest first: a member
        who walked out of a game that went on without them played it too (their departure is recorded;
        having sat in its lobby for a while is not playing)."""
        out = []
        for rec in await self.store.sessions_in_guild(guild_id, *statuses):
            if rec.seat_of(user_id) is not None:
                out.append(rec)
            elif str(user_id) in rec.names and rec.status != "lobby":
                departed = (self._settings.get(rec.id)
                            or TableSettings.from_stored(await self.store.table_settings(rec.id))).departed
                if str(user_id) in departed:
                    out.append(rec)
        return sorted(out, key=lambda r: r.id, reverse=True)

    async def away(self, guild_id: int) -> dict[int, datetime]:
        """When each member of the server who set a time away comes back (past times included: a member
        whose absence ran out is back without a word); kept after the first read, since every table
        edit consults it and only this service writes it."""
        known = self._away.get(guild_id)
        if known is None:
            known = self._away[guild_id] = {a.user_id: a.until for a in await self.store.away(guild_id)}
        return known

    async def set_away(self, guild_id: int, user_id: int, until: datetime | None) -> None:
        """A member is away on the server until ``until`` (None: back)."""
        away = await self.away(guild_id)
        if until is None and user_id not in away:
            return
        await self.store.set_away(guild_id, user_id, until)
        if until is None:
            away.pop(user_id, None)
        else:
            away[user_id] = until

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def spec(game_id: str) -> GameSpec:
        try:
            return registry.get(game_id)
        except KeyError:
            raise SessionError("unknown_game", game=game_id) from None

    async def _lobby(self, session_id: int) -> SessionRecord:
        rec = await self.store.get(session_id)
        if rec.status != "lobby":
            raise SessionError("not_lobby")
        return rec

    async def _lobby_update(self, rec: SessionRecord, **changes: Any) -> SessionRecord:
        self._forget(rec.id)
        try:
            return await self.store.update_lobby(rec.id, rec.version, **changes)
        except (VersionConflict, InvalidTransition):
            raise SessionError("stale") from None

    def glance(self, rec: SessionRecord, state: BaseModel) -> Glance:
        """The engine's answers about ``state``, shared by everyone who reads this version of the game: the
        one kept beside the cached state when ``state`` is that state, else a fresh one (kept if it is)."""
        known = self._glances.get(rec.id)
        if known is not None and known.state is state:
            return known
        glance = Glance(self.spec(rec.game_id), state)
        cached = self._cache.get(rec.id)
        if cached is not None and cached[1] is state:
            self._glances[rec.id] = glance
        return glance

    def _remember(self, rec: SessionRecord, state: BaseModel | None, glance: Glance | None = None) -> None:
        self._cache[rec.id] = (rec, state)
        self._cache.move_to_end(rec.id)
        if glance is not None and glance.state is state:
            self._glances[rec.id] = glance
        else:  # answers are kept only for a state handed over with them (one changed in place has none)
            self._glances.pop(rec.id, None)
        while len(self._cache) > self._cache_size:
            gone, _ = self._cache.popitem(last=False)
            self._glances.pop(gone, None)

    def _forget(self, session_id: int) -> None:
        self._cache.pop(session_id, None)
        self._glances.pop(session_id, None)

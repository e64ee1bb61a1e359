"""``python -m bot migrate --from URL --to URL``: move a deployment's whole database to another one.

The typical move is from the default SQLite file to PostgreSQL when a community outgrows one process.
Everything is copied: each session as it is (same id, version, timestamps, log), each in one transaction,
then the rest in one more (server settings, players' preferences, table clocks, timers, live-message
records, the bot's own notes). Then it is checked: every table holds as many rows as the source's, every
session and log reads back equal to the original, the rest reads back equal as a whole, and replaying each
game's log from its seed through the engine gives exactly the stored state. The bot must be stopped while
it runs: a move made meanwhile would not be copied. The target must hold nothing yet, so ids cannot clash
and no older data is mixed in.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel

from bot import history
from bot.settings import bot_home
from bot.storage import (
    DATA_TABLES,
    LogEntry,
    SessionRecord,
    SessionStatus,
    StorageError,
    Store,
    check_file,
    database_backend,
    open_store,
    sqlite_file_path,
)

ALL_STATUSES: tuple[SessionStatus, ...] = ("lobby", "running", "finished", "abandoned")


@dataclass
class TransferReport:
    """What a move did: rows copied per table, games replayed, and every mismatch found."""

    sessions: int = 0
    actions: int = 0
    replayed: int = 0
    rows: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        verdict = "verified" if not self.problems else f"{len(self.problems)} PROBLEM(S)"
        others = ", ".join(f"{table} {n}" for table, n in self.rows.items() if table not in ("sessions", "action_log"))
        return (f"{self.sessions} sessions and {self.actions} logged actions moved ({others}); {self.replayed} "
                f"games replayed from their logs; {verdict}")


def replay_record(record: SessionRecord, log: list[LogEntry]) -> BaseModel:
    """The game state that ``record``'s seed, options and seats plus its ``log`` rebuild."""
    return history.rebuild(record, log)


def check_replay(record: SessionRecord, log: list[LogEntry]) -> str | None:
    """Why replaying ``record``'s log does not give its stored state, or None when it does."""
    try:
        state = replay_record(record, log)
    except Exception as exc:  # noqa: BLE001 - any engine failure is a finding to report, not a crash of the tool
        return f"session {record.id} ({record.game_id}): replay failed: {type(exc).__name__}: {exc}"
    if state.model_dump_json() != record.state_json:
        return f"session {record.id} ({record.game_id}): replaying {len(log)} actions gives another state"
    return None


async def verify_store(store: Store, report: TransferReport | None = None) -> TransferReport:
    """Replay every game with a state in ``store`` and compare with what is stored."""
    report = report or TransferReport()
    for record in await store.sessions_with_status(*ALL_STATUSES):
        if record.state_json is None:
            continue  # a lobby: nothing played yet
        problem = check_replay(record, await store.actions(record.id))
        report.replayed += 1
        if problem:
            report.problems.append(problem)
    return report


async def transfer(source: Store, target: Store) -> TransferReport:
    """Copy every table of ``source`` into the empty ``target``, then verify the copy and replay it."""
    filled = {table: n for table, n in (await target.row_counts()).items() if n}
    if filled:
        held = ", ".join(f"{table} {n}" for table, n in filled.items())
        raise StorageError(f"the target database is not empty ({held} rows); migrate into an empty one")
    report = TransferReport()
    counts = await source.row_counts()
    originals: list[tuple[SessionRecord, list[LogEntry]]] = []
    for record in await source.sessions_with_status(*ALL_STATUSES):
        log = await source.actions(record.id)
        await target.import_session(record, log)
        originals.append((record, log))
        report.sessions += 1
        report.actions += len(log)
    extras = await source.export_extras()
    await target.import_extras(extras)
    copied = await target.row_counts()
    report.rows = copied
    for table in DATA_TABLES:
        if copied[table] != counts[table]:
            report.problems.append(f"{table}: {counts[table]} rows in the source, {copied[table]} in the copy")
    for record, log in originals:
        if await target.get(record.id) != record or await target.actions(record.id) != log:
            report.problems.append(f"session {record.id}: the copy differs from the original")
    if await target.export_extras() != extras:
        report.problems.append("settings, preferences, timers, deliveries or meta: the copy differs from the original")
    await verify_store(target, report)
    return report


def resolve(url: str) -> str:
    """``url`` as the bot would open it: a relative SQLite path is relative to the bot's home (``BOT_HOME``,
    else the working directory), exactly as ``Settings.store_url`` makes it."""
    if database_backend(url) == "sqlite":
        return f"sqlite:///{sqlite_file_path(url, base=bot_home())}"
    return url.strip()


def _check_files(source_url: str, target_url: str) -> None:
    """Refuse before connecting: a missing or damaged SQLite source, or a damaged target, would otherwise be
    quietly replaced by a fresh empty database."""
    if database_backend(source_url) == "sqlite":
        path = Path(sqlite_file_path(source_url))
        if not path.exists():
            raise StorageError(f"the source database {path} does not exist")
        problem = check_file(path)
        if problem:
            raise StorageError(problem)
    if database_backend(target_url) == "sqlite":
        problem = check_file(Path(sqlite_file_path(target_url)))
        if problem:
            raise StorageError(problem)


async def migrate(source_url: str, target_url: str) -> TransferReport:
    """Open both databases (the source must exist and be sound; the target is created and migrated) and move."""
    source_url, target_url = resolve(source_url), resolve(target_url)
    # Reading the files blocks; a thread keeps the event loop free meanwhile.
    await asyncio.to_thread(_check_files, source_url, target_url)
    source = await open_store(source_url)
    try:
        target = await open_store(target_url)
        try:
            return await transfer(source, target)
        finally:
            await target.close()
    finally:
        await source.close()

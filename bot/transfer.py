"""``python -m bot migrate --from URL --to URL``: move a deployment's sessions and logs between databases.

The typical move is from the default SQLite file to PostgreSQL when a community outgrows one process.
Every session is copied as it is (same id, version, timestamps, log), each in one transaction, and then
checked: the copy reads back equal to the original, and replaying each game's log from its seed through the
engine gives exactly the stored state. The bot must be stopped while it runs: a move made meanwhile
would not be copied. The target must hold no session yet, so ids cannot clash.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel

from bot import history
from bot.storage import (
    LogEntry,
    SessionRecord,
    StorageError,
    Store,
    database_backend,
    open_store,
    sqlite_file_path,
)

ALL_STATUSES = ("lobby", "running", "finished", "abandoned")


@dataclass
class TransferReport:
    """What a move did: sessions and log entries copied, games replayed, and every mismatch found."""

    sessions: int = 0
    actions: int = 0
    replayed: int = 0
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        verdict = "verified" if not self.problems else f"{len(self.problems)} PROBLEM(S)"
        return (f"{self.sessions} sessions and {self.actions} logged actions moved; {self.replayed} games "
                f"replayed from their logs; {verdict}")


def replay_record(record: SessionRecord, log: list[LogEntry]) -> BaseModel:
    """The game state that ``record``'s seed, options and seats plus its ``log`` rebuild."""
    return history.rebuild(record, log)


def check_replay(record: SessionRecord, log: list[LogEntry]) -> str | None:
    """Why replaying ``record``'s log does not give its stored state, or None when it does."""
    try:
        state = replay_record(record, log)
    except Exception as exc:  # any engine failure is a finding to report, not a crash of the tool
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
    """Copy every session of ``source`` into the empty ``target``, then verify the copy and replay it."""
    if await target.sessions_with_status(*ALL_STATUSES):
        raise StorageError("the target database already holds sessions; migrate into an empty one")
    report = TransferReport()
    originals: list[tuple[SessionRecord, list[LogEntry]]] = []
    for record in await source.sessions_with_status(*ALL_STATUSES):
        log = await source.actions(record.id)
        await target.import_session(record, log)
        originals.append((record, log))
        report.sessions += 1
        report.actions += len(log)
    for record, log in originals:
        if await target.get(record.id) != record or await target.actions(record.id) != log:
            report.problems.append(f"session {record.id}: the copy differs from the original")
    await verify_store(target, report)
    return report


async def migrate(source_url: str, target_url: str) -> TransferReport:
    """Open both databases (the source must exist; the target is created and migrated) and move."""
    if database_backend(source_url) == "sqlite" and not Path(sqlite_file_path(source_url)).exists():
        raise StorageError(f"the source database {sqlite_file_path(source_url)} does not exist")
    source = await open_store(source_url)
    try:
        target = await open_store(target_url)
        try:
            return await transfer(source, target)
        finally:
            await target.close()
    finally:
        await source.close()

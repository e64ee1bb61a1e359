"""``python -m bot migrate``: a deployment's sessions and logs move to another database (SQLite → PostgreSQL
in practice) and are verified by replaying every log through the engines."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot import __main__ as cli
from bot.sessions import SessionService
from bot.storage import SqliteStore, StorageError, Store, open_store
from bot.transfer import migrate, transfer, verify_store

from .conftest import Backend

GAMES = ("call_to_glory", "fluxx_cthulhu", "cthulhu_wars_duel", "coc_lcg", "eldritch_horror")


async def fill(store: Store, moves: int = 12) -> dict[int, str]:
    """One game of each kind in its own channel, played ``moves`` random legal moves (some finish, one is
    abandoned, one stays a lobby); returns session id → status."""
    service = SessionService(store)
    rnd = random.Random(7)
    for channel, game in enumerate(GAMES, start=100):
        rec = await service.open_lobby(guild_id=1, channel_id=channel, game_id=game, host_id=1, options={},
                                       locale="ru", host_name="Аня")
        await service.join(rec.id, 2, "Bob", "en")
        rec, _ = await service.start(rec.id, 1)
        for _ in range(moves):
            rec, spec, state = await service.load(rec.id)
            if rec.status != "running":
                break
            seat = spec.engine.pending(state)[0].seat
            await service.act(rec.id, int(seat), rec.version, rnd.choice(spec.engine.legal_actions(state, seat)))
    first = (await store.sessions_with_status("running"))[0]
    await store.set_status(first.id, first.version, "abandoned")
    await service.open_lobby(guild_id=1, channel_id=999, game_id="call_to_glory", host_id=3, options={},
                             locale="en", host_name="Cy")
    return {r.id: r.status for r in await store.sessions_with_status("lobby", "running", "finished", "abandoned")}


async def test_migrate_moves_every_session_and_log_and_replays_them(tmp_path: Path, backend: Backend) -> None:
    source_url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    async with SqliteStore(tmp_path / "old.sqlite3") as source:
        statuses = await fill(source)
        logs = {sid: await source.actions(sid) for sid in statuses}
        records = {sid: await source.get(sid) for sid in statuses}
    target_url = backend.url if backend.name == "postgres" else f"sqlite:///{tmp_path / 'new.sqlite3'}"
    report = await migrate(source_url, target_url)
    assert report.problems == []
    assert report.sessions == len(statuses) == 6
    assert report.actions == sum(len(v) for v in logs.values()) > 0
    assert report.replayed == 5  # every game but the lobby
    async with (await open_store(target_url)) as target:
        for sid in statuses:
            assert await target.get(sid) == records[sid]
            assert await target.actions(sid) == logs[sid]
        # the moved games go on: a new lobby gets a fresh id above the moved ones
        fresh = await target.create_session(1, 5000, "call_to_glory", 9, {}, 1, "en")
        assert fresh.id > max(statuses)


async def test_a_tampered_log_is_caught_by_the_replay(store: Store) -> None:
    statuses = await fill(store, moves=6)
    rec = await store.get(next(sid for sid, st in statuses.items() if st == "running"))
    assert (await verify_store(store)).problems == []
    # a logged action the engine never produced, beside an unchanged state (as a corrupted copy would hold)
    await store.commit_action(rec.id, rec.version, seat=str(rec.seats[0]), action_json='{"type":"bogus"}',
                              state_json=rec.state_json or "{}")
    problems = (await verify_store(store)).problems
    assert len(problems) == 1 and f"session {rec.id}" in problems[0]


async def test_migrate_refuses_a_target_that_already_has_sessions(tmp_path: Path) -> None:
    async with SqliteStore(tmp_path / "a.sqlite3") as a, SqliteStore(tmp_path / "b.sqlite3") as b:
        await fill(a, moves=1)
        await b.create_session(1, 1, "call_to_glory", 1, {}, 1, "en")
        with pytest.raises(StorageError, match="already holds sessions"):
            await transfer(a, b)


def test_migrate_command_reports_and_exits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = f"sqlite:///{tmp_path / 'nope.sqlite3'}"
    assert cli.main(["migrate", "--from", missing, "--to", f"sqlite:///{tmp_path / 'new.sqlite3'}"]) == 1
    assert "does not exist" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    source = f"sqlite:///{tmp_path / 'empty' / 'old.sqlite3'}"

    async def make() -> None:
        async with SqliteStore(tmp_path / "empty" / "old.sqlite3") as s:
            await fill(s, moves=2)

    asyncio.run(make())
    assert cli.main(["migrate", "--from", source, "--to", f"sqlite:///{tmp_path / 'new.sqlite3'}"]) == 0
    assert "6 sessions" in capsys.readouterr().out

"""``python -m bot migrate``: a deployment's sessions and logs move to another database (SQLite → PostgreSQL
in practice) and are verified by replaying every log through the engines."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot import __main__ as cli
from bot.sessions import SessionService
from bot.storage import (
    DATA_TABLES,
    Delivery,
    Extras,
    LogEntry,
    RatingRow,
    SessionRecord,
    SqliteStore,
    StorageError,
    Store,
    open_store,
)
from bot.transfer import migrate, transfer, verify_store

from .conftest import Backend, needs_postgres

GAMES = ("call_to_glory", "fluxx_cthulhu", "cthulhu_wars_duel", "coc_lcg", "eldritch_horror")


async def fill(store: Store, moves: int = 12) -> dict[int, str]:
    """One game of each kind in its own channel, played ``moves`` random legal moves (some finish, one is
    abandoned, one stays a lobby), and a row in every other table; returns session id → status."""
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
    lobby = await service.open_lobby(guild_id=1, channel_id=999, game_id="call_to_glory", host_id=3, options={},
                                     locale="en", host_name="Cy")
    await store.set_guild_settings(1, {"clock": {"turn": 300}, "язык": "ru"})
    await store.set_guild_settings(2, {})
    await store.set_autopass(1, False)
    await store.set_autopass(2, True)
    await store.set_table_settings(first.id, {"clock": {"turn": 60, "policy": "forfeit"}})
    await store.set_timer(lobby.id, "idle", None, datetime(2030, 1, 1, 12, 0, 0, 123000, tzinfo=UTC), 0)
    await store.set_timer(first.id, "turn", "2", datetime(2001, 1, 1, tzinfo=UTC), first.version)
    assert len(await store.claim_due_timers(datetime(2001, 1, 2, tzinfo=UTC), lease=90)) == 1  # a claim moves too
    await store.save_delivery(Delivery(session_id=first.id, user_id=1, channel_id=77, message_id=88, ping_id=None,
                                       dm_closed=False, owed=True, version=3))
    await store.save_delivery(Delivery(session_id=first.id, user_id=2, dm_closed=True, ping_id=99))
    await store.set_meta("commands:global", "ab" * 32)
    other = (await store.sessions_with_status("running"))[0]  # (the store does not ask whether it finished)
    await store.settle_ratings(other.id, 1, other.game_id, [1, 2], "", lambda _current: [
        RatingRow(guild_id=1, game_id=other.game_id, user_id=u, mu=25.0 + u / 3, sigma=7.5, games=1, wins=u - 1)
        for u in (1, 2)])
    await store.settle_ratings(first.id, 1, first.game_id, [1, 2], "abandoned", lambda _current: [])
    await store.set_away(1, 2, datetime(2030, 2, 3, 4, 5, 6, 789000, tzinfo=UTC))
    return {r.id: r.status for r in await store.sessions_with_status("lobby", "running", "finished", "abandoned")}


async def snapshot(store: Store) -> tuple[dict[str, int], list[SessionRecord], list[list[LogEntry]], Extras]:
    """Everything ``store`` holds, read through the port: counts, sessions, logs and the rest."""
    records = await store.sessions_with_status("lobby", "running", "finished", "abandoned")
    return (await store.row_counts(), records, [await store.actions(r.id) for r in records],
            await store.export_extras())


async def test_migrate_copies_every_table_there_and_back(tmp_path: Path, backend: Backend) -> None:
    """SQLite → the backend → a second SQLite file: every table of the last equals the first's, and the
    moved games go on (a new lobby gets an id above theirs)."""
    first = tmp_path / "old.sqlite3"
    async with SqliteStore(first) as source:
        statuses = await fill(source)
        original = await snapshot(source)
    counts = original[0]
    assert all(counts[table] > 0 for table in DATA_TABLES), counts  # every table is exercised
    middle = backend.url if backend.name == "postgres" else f"sqlite:///{tmp_path / 'middle.sqlite3'}"
    report = await migrate(f"sqlite:///{first}", middle)
    assert report.problems == []
    assert report.sessions == len(statuses) == 6
    assert report.actions == counts["action_log"]
    assert report.replayed == 5  # every game but the lobby
    assert report.rows == counts
    back = f"sqlite:///{tmp_path / 'back.sqlite3'}"
    assert (await migrate(middle, back)).problems == []
    for url in (middle, back):
        async with (await open_store(url)) as copy:
            assert await snapshot(copy) == original
            fresh = await copy.create_session(1, 5000, "call_to_glory", 9, {}, 1, "en")
            assert fresh.id > max(statuses)


async def test_a_difference_in_the_copy_is_reported(tmp_path: Path) -> None:
    async with SqliteStore(tmp_path / "a.sqlite3") as a, SqliteStore(tmp_path / "b.sqlite3") as b:
        await fill(a, moves=2)
        original = b.import_extras

        async def lossy(extras: Extras) -> None:  # a copy that drops one player's preference
            await original(extras.model_copy(update={"player_prefs": {1: False}}))

        b.import_extras = lossy  # type: ignore[method-assign]
        problems = (await transfer(a, b)).problems
    assert any(p.startswith("player_prefs: 2 rows in the source, 1 in the copy") for p in problems)
    assert any("the copy differs" in p for p in problems)


async def test_a_tampered_log_is_caught_by_the_replay(store: Store) -> None:
    statuses = await fill(store, moves=6)
    rec = await store.get(next(sid for sid, st in statuses.items() if st == "running"))
    assert (await verify_store(store)).problems == []
    # a logged action the engine never produced, beside an unchanged state (as a corrupted copy would hold)
    await store.commit_action(rec.id, rec.version, seat=str(rec.seats[0]), action_json='{"type":"bogus"}',
                              state_json=rec.state_json or "{}")
    problems = (await verify_store(store)).problems
    assert len(problems) == 1 and f"session {rec.id}" in problems[0]


async def test_migrate_refuses_a_target_that_holds_anything(tmp_path: Path) -> None:
    async with SqliteStore(tmp_path / "a.sqlite3") as a, SqliteStore(tmp_path / "b.sqlite3") as b:
        await fill(a, moves=1)
        await b.set_autopass(5, False)  # no session at all, one preference
        with pytest.raises(StorageError, match=r"not empty \(player_prefs 1 rows\)"):
            await transfer(a, b)
        assert (await b.row_counts())["sessions"] == 0  # nothing was copied


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
    out = capsys.readouterr().out
    assert "6 sessions" in out and "player_prefs 2" in out and "verified" in out
    # again into the now filled target: refused, exit 1
    assert cli.main(["migrate", "--from", source, "--to", f"sqlite:///{tmp_path / 'new.sqlite3'}"]) == 1
    assert "not empty" in capsys.readouterr().err


def test_a_relative_source_is_under_bot_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """``--from sqlite:///./data/bot.sqlite3`` names the file the bot uses: under ``BOT_HOME``, not the
    working directory."""
    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere"
    elsewhere.mkdir()

    async def make() -> None:
        async with SqliteStore(home / "data" / "bot.sqlite3") as s:
            await fill(s, moves=1)

    asyncio.run(make())
    monkeypatch.setenv("BOT_HOME", str(home))
    monkeypatch.chdir(elsewhere)
    status = cli.main(["migrate", "--from", "sqlite:///./data/bot.sqlite3", "--to", "sqlite:///./data/new.sqlite3"])
    assert status == 0, capsys.readouterr().err
    assert (home / "data" / "new.sqlite3").exists() and not (elsewhere / "data").exists()


async def test_migrate_knows_every_table_of_the_schema(tmp_path: Path) -> None:
    """A table added by a later migration must be added to ``DATA_TABLES`` too, or migrate would leave it
    behind (as it once left six of them)."""
    async with SqliteStore(tmp_path / "bot.sqlite3"):
        pass
    with sqlite3.connect(tmp_path / "bot.sqlite3") as conn:
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables - {"schema_version", "sqlite_sequence"} == set(DATA_TABLES)


@needs_postgres
async def test_migrate_knows_every_table_of_the_postgres_schema(pg_url: str) -> None:
    import asyncpg

    async with (await open_store(pg_url)):
        pass
    conn = await asyncpg.connect(pg_url)
    try:
        rows = await conn.fetch("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")
    finally:
        await conn.close()
    assert {r[0] for r in rows} - {"schema_version"} == set(DATA_TABLES)

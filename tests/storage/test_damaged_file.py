"""A damaged SQLite file (issue 25): found before the bot starts (``check_file``), and, where damage is
met while running, confined to the sessions it touches and named for what it is (``DataDamaged``)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.storage import DataDamaged, SqliteStore, StorageError, Timer, check_file
from bot.timers import TimerService

from .damage import break_one_session, break_table, cut_in_half, three_games


async def test_one_damaged_game_leaves_the_others_readable(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "bot.sqlite3"
    first, broken, last = await three_games(path)
    break_one_session(path, broken)
    async with SqliteStore(path) as store:
        listed = await store.sessions_with_status("running")
        assert [r.id for r in listed] == [first, last]
        assert f"session {broken} left out" in caplog.text
        with pytest.raises(DataDamaged) as raised:
            await store.get(broken)
        assert raised.value.session_id == broken
        rec = await store.get(last)
        moved = await store.commit_action(last, rec.version, seat="444", action_json="{}", state_json='{"turn":1}')
        assert moved.version == rec.version + 1, "the other games play on"


async def test_a_damaged_action_log_is_named_as_damage(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    game = (await three_games(path))[0]
    break_table(path, "action_log")
    async with SqliteStore(path) as store:
        rec = await store.get(game)
        with pytest.raises(DataDamaged) as raised:
            await store.commit_action(game, rec.version, seat="444", action_json="{}", state_json='{"turn":1}')
        assert raised.value.session_id == game
        assert raised.value.code == "storage_damaged"
        with pytest.raises(DataDamaged):
            await store.actions(game)
        assert (await store.get(game)).version == rec.version, "nothing was stored"


async def test_a_sound_file_and_a_missing_one_pass_the_check(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    assert check_file(path) is None  # the first start creates it
    await three_games(path)
    assert check_file(path) is None


@pytest.mark.parametrize(("damage", "says"), [
    (lambda p: p.write_bytes(b""), "exists but is empty (0 bytes)"),
    (lambda p: p.write_bytes(b"these are not the games you are looking for\n" * 200), "is damaged"),
    (lambda p: break_table(p, "action_log"), "is damaged (SQLite"),
    (lambda p: break_one_session(p, 2), "is damaged (SQLite"),
    (cut_in_half, "is damaged (SQLite"),
], ids=["empty", "not-a-database", "damaged-log", "damaged-game", "cut-in-half"])
async def test_the_check_finds_each_kind_of_damage(tmp_path: Path, damage: object, says: str) -> None:
    path = tmp_path / "bot.sqlite3"
    await three_games(path)
    damage(path)  # type: ignore[operator]
    problem = check_file(path)
    assert problem is not None and says in problem and "\n" not in problem
    assert str(path) in problem


async def test_opening_a_damaged_file_is_refused_as_damage(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "bot.sqlite3"
    path.write_bytes(b"garbage" * 1000)
    with caplog.at_level(logging.ERROR), pytest.raises(StorageError, match="damaged|cannot"):
        await SqliteStore(path).open()


async def test_a_damaged_games_timer_does_not_hold_up_the_others(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    games = await three_games(path)
    async with SqliteStore(path) as store:
        for sid in games:
            await store.set_timer(sid, "remind", "444", datetime(2026, 1, 1, tzinfo=UTC), 1)
    break_one_session(path, games[0])
    fired: list[int] = []

    async def fire(timer: Timer) -> None:  # what the turn clock does first: read the game
        await store.get(timer.session_id)
        fired.append(timer.session_id)

    async with SqliteStore(path) as store:
        timers = TimerService(store, fire, clock=lambda: datetime(2026, 1, 2, tzinfo=UTC).timestamp())
        assert await timers.run_due() == 3
        assert fired == games[1:]
        remaining = {t.session_id for sid in games for t in await store.timers(sid)}
        assert remaining == {games[0]}, "kept, to be tried again, while the other two are done"

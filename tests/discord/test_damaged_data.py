"""A damaged database, as players and the operator meet it (issue 25): the bot refuses to start on an
emptied or damaged SQLite file, with one line and exit status 2, before it connects to Discord; damage met
while running is confined to the games it touches, and a player in such a game is told plainly that its
stored data is damaged (not "something went wrong, try again", which no retry would make true)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path

import discord
import pytest

from bot import __main__ as cli
from bot.client import GameBot
from bot.i18n import locale_of, t
from bot.storage import DataDamaged
from tests.storage.damage import (
    break_one_session,
    break_table,
    cut_in_half,
    three_games,
)

from .harness import Harness
from .tables import Table


@pytest.fixture
def bot_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The bot's environment with its default database, ``data/bot.sqlite3`` under ``BOT_HOME``."""
    for name in ("DEV_GUILD_ID", "SHARD_COUNT", "SHARD_IDS", "DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "not.a.token")
    monkeypatch.setenv("BOT_HOME", str(tmp_path))

    async def no_login(*_args: object) -> None:
        raise AssertionError("the bot connected to Discord with a damaged database")

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", no_login)
    return tmp_path / "data" / "bot.sqlite3"


@pytest.mark.parametrize(("damage", "says"), [
    (lambda p: p.write_bytes(b""), "exists but is empty"),
    (lambda p: break_one_session(p, 2), "is damaged"),
    (lambda p: break_table(p, "action_log"), "is damaged"),
    (cut_in_half, "is damaged"),
], ids=["empty", "damaged-game", "damaged-log", "cut-in-half"])
def test_the_bot_refuses_a_damaged_file_before_connecting(bot_home: Path, capsys: pytest.CaptureFixture[str],
                                                          damage: Callable[[Path], None], says: str) -> None:
    asyncio.run(three_games(bot_home))
    damage(bot_home)
    before = bot_home.read_bytes()
    assert cli.main([]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Cannot use the database (DATABASE_URL): ") and says in lines[0]
    assert bot_home.read_bytes() == before, "the file is left as it was found, for whoever restores it"


def _damaged_text(user_locale: str) -> str:
    return t(locale_of(user_locale), "err.storage_damaged")


async def test_a_damaged_game_says_so_and_the_others_play_on(h: Harness, make_bot: Callable[[], GameBot],
                                                             tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    alice, boris = h.user("alice"), h.user("boris", locale="ru")
    tables = []
    for name in ("first", "second"):
        h.channel = h.text_channel(name)
        table = Table(h, [alice, boris])
        await table.open(alice)
        await table.seat_all()
        tables.append(table)
    broken, fine = tables
    rec, spec, state = await broken.load()
    user = broken.users[spec.engine.pending(state)[0].seat]
    button = broken.private_message(user, rec.version)
    assert button is not None

    def damaged_while_stopped() -> GameBot:
        break_one_session(tmp_path / "bot.sqlite3", broken.sid)
        return make_bot()

    await h.restart(damaged_while_stopped)  # the start-up catch-up goes past the damaged game, no traceback
    assert f"session {broken.sid} left out" in caplog.text
    answer = await broken.press(user, button, 0, rec.version)
    assert answer.ephemeral and answer.content == _damaged_text(user.locale)
    assert f"session {broken.sid} cannot be read" in caplog.text
    rnd = random.Random(3)
    version = (await fine.load())[0].version
    for _ in range(3):
        assert await fine.step(rnd)
    assert (await fine.load())[0].version >= version + 3, "the other game plays on"


async def test_a_damaged_action_log_says_so(h: Harness, make_bot: Callable[[], GameBot], tmp_path: Path,
                                            caplog: pytest.LogCaptureFixture) -> None:
    alice, boris = h.user("alice", locale="ru"), h.user("boris")
    table = Table(h, [alice, boris])
    await table.open(alice)
    await table.seat_all()
    rec, spec, state = await table.load()
    user = table.users[spec.engine.pending(state)[0].seat]
    button = table.private_message(user, rec.version)
    assert button is not None

    def damaged_while_stopped() -> GameBot:
        break_table(tmp_path / "bot.sqlite3", "action_log")
        return make_bot()

    h.raise_logged_errors = False  # catching up this game at the restart fails on the log: logged with a traceback
    await h.restart(damaged_while_stopped)
    assert all(isinstance(r.exc_info[1], DataDamaged) for r in h.take_logged_errors() if r.exc_info)
    h.raise_logged_errors = True
    answer = await table.press(user, button, 0, rec.version)
    assert answer.ephemeral and answer.content == _damaged_text(user.locale)
    assert f"session {table.sid} cannot be read" in caplog.text
    assert (await h.bot.store.get(table.sid)).version == rec.version, "nothing was applied"

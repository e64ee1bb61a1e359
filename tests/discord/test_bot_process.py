"""The bot process as an operator sees it: where and when commands are synced, what a failed start prints,
and what happens when a command breaks (a short localized apology for the user, the traceback for the log)."""

from __future__ import annotations

import logging
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

import aiohttp
import discord

from bot import __main__ as cli
from bot.client import GameBot, ShardedGameBot, make_bot, shard_of
from bot.settings import Settings

from .harness import Harness

DEV_GUILD = 4242


async def test_dev_guild_id_syncs_commands_to_that_guild_only(
    harness: Callable[..., Awaitable[Harness]], tmp_path: Path
) -> None:
    """With DEV_GUILD_ID the commands go to that one guild (they show up at once) and none globally."""
    url = f"sqlite:///{tmp_path / 'bot.sqlite3'}"
    h = await harness(lambda: GameBot(Settings(database_url=url, discord_token=None, dev_guild_id=DEV_GUILD,
                                               table_edit_interval=0)))
    to_guild = h.fake.requests_to("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
    assert len(to_guild) == 1 and to_guild[0].params["guild_id"] == str(DEV_GUILD)
    assert {c["name"] for c in to_guild[0].json} >= {"game", "rules", "card"}
    assert not h.fake.requests_to("PUT", "/applications/{application_id}/commands")


GLOBAL_SYNC = ("PUT", "/applications/{application_id}/commands")


async def test_without_dev_guild_commands_are_synced_globally(h: Harness) -> None:
    assert len(h.fake.requests_to(*GLOBAL_SYNC)) == 1
    assert not h.fake.requests_to("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")


async def test_a_restart_with_the_same_commands_does_not_sync_again(h: Harness) -> None:
    """The tree's hash is kept in the database: an unchanged tree is not pushed again on restart."""
    assert len(h.fake.requests_to(*GLOBAL_SYNC)) == 1
    await h.restart()
    assert len(h.fake.requests_to(*GLOBAL_SYNC)) == 1
    assert await h.bot.store.get_meta("commands:global") == await h.bot.command_tree_hash(None)


async def test_a_changed_command_tree_is_synced_on_restart(h: Harness) -> None:
    await h.bot.store.set_meta("commands:global", "the hash of an older build's commands")
    await h.restart()
    assert len(h.fake.requests_to(*GLOBAL_SYNC)) == 2


async def test_forced_sync_pushes_even_an_unchanged_tree(
    harness: Callable[..., Awaitable[Harness]], tmp_path: Path
) -> None:
    """What ``python -m bot sync`` does."""
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'bot.sqlite3'}", discord_token=None,
                        dev_guild_id=None, table_edit_interval=0)
    h = await harness(lambda: GameBot(settings))
    await h.restart(lambda: make_bot(settings, sync_commands="force"))
    assert len(h.fake.requests_to(*GLOBAL_SYNC)) == 2


async def test_only_the_process_with_shard_zero_syncs(
    harness: Callable[..., Awaitable[Harness]], tmp_path: Path
) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'bot.sqlite3'}", discord_token=None,
                        dev_guild_id=None, table_edit_interval=0, shard_count=2, shard_ids=[1])
    h = await harness(lambda: GameBot(settings))
    assert not h.fake.requests_to(*GLOBAL_SYNC)


# --- shards ------------------------------------------------------------------------------------------


def test_shard_settings_build_a_sharded_bot_that_owns_its_guilds_only(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'bot.sqlite3'}"
    plain = make_bot(Settings(database_url=url))
    assert type(plain) is GameBot and plain.owns_guild(12345 << 22)
    sharded = make_bot(Settings(database_url=url, shard_count=4, shard_ids=[1, 3]))
    assert isinstance(sharded, ShardedGameBot) and isinstance(sharded, discord.AutoShardedClient)
    assert (sharded.shard_count, sharded.shard_ids) == (4, [1, 3])
    guilds = [g << 22 for g in range(8)]
    assert [shard_of(g, 4) for g in guilds] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert [sharded.owns_guild(g) for g in guilds] == [False, True, False, True] * 2
    assert not sharded.owns_guild(None)  # DMs come on shard 0


# --- a failed start: one line, no traceback -----------------------------------------------------------


@pytest.fixture
def bot_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("DEV_GUILD_ID", "SHARD_COUNT", "SHARD_IDS", "DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "not.a.token")
    monkeypatch.setenv("BOT_HOME", str(tmp_path))


@pytest.mark.parametrize(("failure", "says", "status"), [
    (discord.LoginFailure("Improper token has been passed."), "Discord refused the token", 2),
    (aiohttp.ClientConnectionError("Cannot connect to host discord.com:443"), "Cannot reach Discord", 1),
    (OSError(101, "Network is unreachable"), "Cannot reach Discord", 1),
])
def test_a_failed_login_prints_one_clear_line(bot_env: None, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str], failure: Exception,
                                              says: str, status: int) -> None:
    """One line, no traceback; status 2 (fix a setting, do not restart) or 1 (may pass by itself)."""
    async def refuse(*_args: object) -> None:
        raise failure

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", refuse)
    assert cli.main([]) == status
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(says), err
    assert "Traceback" not in err


def test_an_unreachable_database_prints_one_clear_line(bot_env: None, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    async def login_then_set_up(bot: discord.Client, _token: str) -> None:
        await bot.setup_hook()  # what a login Discord accepted goes on to do

    monkeypatch.setattr(discord.Client, "login", login_then_set_up)
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot@127.0.0.1:1/bot")  # nothing listens on port 1
    assert cli.main([]) == 1
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Cannot use the database (DATABASE_URL): cannot connect")


@pytest.mark.parametrize(("locale", "apology"), [("en-US", "Something went wrong"), ("ru", "что-то пошло не так")])
async def test_a_failing_command_apologizes_in_the_users_language_and_logs_the_traceback(
    h: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, locale: str, apology: str
) -> None:
    def broken(*_args: object) -> None:
        raise RuntimeError("lobby drawing broke")

    games = sys.modules["cogs.games.flows"]  # the module that draws the lobby for the command
    monkeypatch.setattr(games, "lobby_embed", broken)
    alice = h.user("alice", locale=locale)
    h.raise_logged_errors = False  # the error is this test's subject
    with caplog.at_level(logging.ERROR, logger="cogs.games"):
        r = await h.slash(alice, h.channel, "game new", game="call_to_glory")
    assert r.ephemeral and apology in r.content
    assert "lobby drawing broke" not in r.content, "internals stay in the log"
    errors = [rec for rec in caplog.records if rec.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is not None
    assert isinstance(errors[0].exc_info[1], RuntimeError)
    # The harness kept the same record for the test to inspect, and handing it over clears it.
    taken = h.take_logged_errors()
    assert [rec.exc_info[1] for rec in taken if rec.exc_info] == [errors[0].exc_info[1]]
    assert h.take_logged_errors() == []
    # The lobby that could not be shown does not keep the channel busy: trying again works.
    monkeypatch.undo()
    r = await h.slash(alice, h.channel, "game new", game="call_to_glory")
    assert not r.ephemeral and (await h.bot.store.active_in_channel(h.channel.id)) is not None


async def test_a_shard_process_catches_up_only_its_own_guilds_games(h: Harness, tmp_path: Path) -> None:
    """Several processes share one database: after a start each brings only its own guilds' tables up to
    date, so a stale table is edited once, by the process that owns its shard."""
    from bot.storage import Delivery
    from cogs.games.table import TABLE

    from .tables import Table

    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    await h.bot.store.save_delivery(Delivery(session_id=table.sid, user_id=TABLE, version=0))  # looks stale
    base = {"database_url": f"sqlite:///{tmp_path / 'bot.sqlite3'}", "discord_token": None, "dev_guild_id": None,
            "table_edit_interval": 0, "rate_limit_per_second": 0, "ai_processes": 0, "ai_move_delay": 0,
            "picture_processes": 0, "shard_count": 2}
    mine = shard_of(h.guild.id, 2)
    edits = ("PATCH", "/channels/{channel_id}/messages/{message_id}")
    before = len(h.fake.requests_to(*edits))
    await h.restart(lambda: GameBot(Settings(**base, shard_ids=[1 - mine])))
    await h.drain()
    assert len(h.fake.requests_to(*edits)) == before, "another shard's table is left alone"
    await h.restart(lambda: GameBot(Settings(**base, shard_ids=[mine])))
    await h.drain()
    assert len(h.fake.requests_to(*edits)) > before, "the owning process brings it up to date"

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


# --- stopping: SIGTERM / SIGINT ------------------------------------------------------------------------


async def test_a_stop_finishes_the_move_in_flight_and_turns_new_clicks_away(h: Harness, tmp_path: Path) -> None:
    """What SIGTERM does (``GameBot.shutdown``): a click arriving after it is answered "restarting" and
    applies nothing; the move already being made is committed and answered; then the database closes."""
    import asyncio

    from bot.storage import open_store

    from . import payloads as P
    from .tables import Table

    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    rec, spec, state = await table.load()
    mover = table.users[spec.engine.pending(state)[0].seat]
    other = next(u for u in table.users.values() if u is not mover)
    message = table.private_message(mover, rec.version)
    assert message is not None
    entered, release = asyncio.Event(), asyncio.Event()
    act = h.bot.sessions.act

    async def slow_act(*args: object, **kwargs: object) -> object:
        entered.set()
        await release.wait()
        return await act(*args, **kwargs)  # type: ignore[arg-type]

    h.bot.sessions.act = slow_act  # type: ignore[method-assign]
    click = P.interaction_payload(snowflakes=h.snowflakes, application_id=h.fake.application_id,
                                  type=P.MESSAGE_COMPONENT, ctx=h._context(mover, h.dm(mover)),
                                  data=P.button_click_data(f"gb:{table.sid}:{rec.version}:0"), message=message)
    h.fake.register_interaction(click)
    h.bot._connection.parse_interaction_create(click)  # type: ignore[arg-type]
    await entered.wait()
    stopping = asyncio.create_task(h.bot.shutdown())
    await asyncio.sleep(0)  # let the stop close the gate
    late = await h.click(other, table.table_id, f"gh:{table.sid}")
    assert late.ephemeral and "restarting" in late.content
    assert not stopping.done(), "the stop waits for the move in flight"
    release.set()
    await stopping
    answer = h.fake.interaction(click["token"])
    assert answer.acknowledged, "the move in flight was answered"
    assert h.bot.is_closed()
    async with await open_store(f"sqlite:///{tmp_path / 'bot.sqlite3'}") as store:
        after = await store.get(table.sid)
        log = await store.actions(table.sid)
    assert after.version > rec.version and [e for e in log if not e.auto][-1].seq == rec.version + 1


STOPPED_PROCESS = """
import asyncio, sys
import discord
from bot import __main__ as cli
from bot.client import GameBot

gateway = asyncio.Event()  # the fake gateway connection: open until the bot closes it
stop_asked = asyncio.Event()
close, shutdown = discord.Client.close, GameBot.shutdown

async def shutting_down(self):
    stop_asked.set()
    await shutdown(self)

async def closed(self):
    await close(self)
    gateway.set()

async def login(self, _token):
    self.sync_mode = "never"  # no application id without Discord
    await self.setup_hook()  # what a login Discord accepted goes on to do

async def connect(self, **_kwargs):
    asyncio.get_running_loop().create_task(move_in_flight(self))
    await gateway.wait()

async def move_in_flight(bot):
    # A player's move, held in the gate the way guarded holds a click, still running when SIGTERM comes.
    s = bot.sessions
    rec = await s.open_lobby(guild_id=1, channel_id=2, game_id="call_to_glory", host_id=11, options={},
                             locale="en", host_name="a", host_locale="en")
    await s.join(rec.id, 12, "b", "en")
    rec, state = await s.start(rec.id, 11)
    spec = s.spec(rec.game_id)
    seat = spec.engine.pending(state)[0].seat
    with bot.gate.passing():
        print("in flight", flush=True)
        await stop_asked.wait()
        await s.act(rec.id, int(seat), rec.version, spec.engine.legal_actions(state, seat)[0])

discord.Client.close = closed
GameBot.shutdown = shutting_down
discord.Client.login = login
discord.Client.connect = connect
sys.exit(cli.main([]))
"""


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
def test_a_signal_stops_the_process_with_nothing_lost_and_status_0(tmp_path: Path, sig: str) -> None:
    """A real process (as under systemd, or PID 1 in Docker): the signal lets the move in flight commit,
    closes the database and the workers, and the process exits 0."""
    import asyncio
    import os
    import signal
    import subprocess

    from bot.storage import open_store

    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SHARD_COUNT", "SHARD_IDS")}
    env.update(PYTHONPATH=str(root), BOT_HOME=str(tmp_path), DISCORD_TOKEN="not.a.token", AI_PROCESSES="1",
               PICTURE_PROCESSES="1")
    child = subprocess.Popen([sys.executable, "-c", STOPPED_PROCESS], cwd=tmp_path, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "in flight"
    child.send_signal(getattr(signal, sig))
    _out, err = child.communicate(timeout=120)
    assert child.returncode == 0, err
    assert "Traceback" not in err

    async def stored() -> tuple[int, int]:
        async with await open_store(f"sqlite:///{tmp_path / 'data' / 'bot.sqlite3'}") as store:
            (rec,) = await store.sessions_with_status("running", "finished")
            return rec.version, len([e for e in await store.actions(rec.id) if not e.auto])

    version, moves = asyncio.run(stored())
    assert moves == 1 and version >= 2, "the move in flight was committed"

"""The bot process as an operator sees it: where commands are synced, and what happens when a command
breaks (a short localized apology for the user, the traceback for the log)."""

from __future__ import annotations

import logging
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.client import GameBot
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


async def test_without_dev_guild_commands_are_synced_globally(h: Harness) -> None:
    assert len(h.fake.requests_to("PUT", "/applications/{application_id}/commands")) == 1
    assert not h.fake.requests_to("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")


@pytest.mark.parametrize(("locale", "apology"), [("en-US", "Something went wrong"), ("ru", "что-то пошло не так")])
async def test_a_failing_command_apologizes_in_the_users_language_and_logs_the_traceback(
    h: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, locale: str, apology: str
) -> None:
    def broken(*_args: object) -> None:
        raise RuntimeError("lobby drawing broke")

    games = sys.modules["cogs.games"]  # the copy the bot loaded as an extension
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

"""Fixtures for bot tests: a fresh FakeDiscord per test and a way to start Harnesses on it.

The OpenAPI spec is loaded once per process (``fake_discord.load_spec`` is cached), so a fresh
fake per test costs nothing noticeable.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.client import GameBot
from bot.settings import Settings

from .fake_discord import FakeDiscord, OpenAPISpec, load_spec
from .harness import BotFactory, Harness


@pytest.fixture(scope="session")
def discord_spec() -> OpenAPISpec:
    """Discord's OpenAPI document, indexed once for the whole session."""
    return load_spec()


@pytest.fixture
def discord_fake(discord_spec: OpenAPISpec) -> FakeDiscord:
    """A fresh fake Discord; state (messages, DMs, tokens) lives as long as the test."""
    return FakeDiscord(spec=discord_spec)


@pytest.fixture
async def harness(discord_fake: FakeDiscord) -> AsyncIterator[Callable[..., Awaitable[Harness]]]:
    """``h = await harness(make_bot, **options)`` starts a Harness on ``discord_fake``; it is
    closed (and unreported problems raised) when the test ends."""
    started: list[Harness] = []

    async def start(factory: BotFactory, **kwargs: object) -> Harness:
        h = Harness(factory, fake=discord_fake, **kwargs)  # type: ignore[arg-type]
        await h.start()
        started.append(h)
        return h

    yield start
    for h in reversed(started):
        await h.close()


@pytest.fixture(autouse=True)
def reproducible_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lobbies draw their game seed from ``secrets``; tests draw them from a fixed sequence instead,
    so every run plays the same games."""
    import random

    import bot.sessions

    rng = random.Random(20261122)
    monkeypatch.setattr(bot.sessions.secrets, "randbits", lambda k: rng.getrandbits(k))


@pytest.fixture
def make_bot(tmp_path: Path) -> Callable[[], GameBot]:
    """A bot over a fresh SQLite file; called again it is the same bot restarted over the same file."""
    url = f"sqlite:///{tmp_path / 'bot.sqlite3'}"
    return lambda: GameBot(Settings(database_url=url, discord_token=None, dev_guild_id=None, table_edit_interval=0,
                                     rate_limit_per_second=0, ai_processes=0, ai_move_delay=0,
                                     picture_processes=0))


@pytest.fixture
async def h(harness: Callable[..., Awaitable[Harness]], make_bot: Callable[[], GameBot]) -> Harness:
    return await harness(make_bot)

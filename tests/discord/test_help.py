"""/help through the real discord.py stack: every command listed, each as a mention in the reader's
language once the sync has told the bot the ids."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.client import GameBot
from bot.i18n import catalog, t, t_cached
from bot.settings import Settings
from cogs.games.help import leaf_commands

from .harness import Harness


@pytest.fixture
def make_bot(tmp_path: Path) -> Callable[[], GameBot]:
    url = f"sqlite:///{tmp_path / 'bot.sqlite3'}"
    return lambda: GameBot(Settings(database_url=url, discord_token=None, table_edit_interval=0,
                                    rate_limit_per_second=0))


@pytest.fixture
async def h(harness: Any, make_bot: Callable[[], GameBot]) -> Harness:
    return await harness(make_bot)


def help_text(message: dict[str, Any]) -> str:
    embed = message["embeds"][0]
    return "\n".join([embed.get("description", "")] + [f["value"] for f in embed["fields"]])


@pytest.mark.parametrize("locale", ["en-US", "ru"])
async def test_help_lists_every_command_as_a_mention(h: Harness, locale: str) -> None:
    r = await h.slash(h.user("anna", locale=locale), h.channel, "help")
    text = help_text(r.message)
    paths = [c.qualified_name for c in leaf_commands(h.bot.tree)]
    assert {"game log", "game replay", "game stats", "game ai", "settings", "coc deck", "coc discard"} <= set(paths)
    for path in paths:
        cid = h.fake.command_id(path.split(" ")[0])
        assert f"</{path}:{cid}>" in text, path
    # No command is named by hand any more: every slash in the text is inside a mention.
    assert not re.search(r"(?<![<\w])/(game|rules|card|help|settings|coc)\b", text)


async def test_texts_mention_commands_by_the_ids_of_the_sync(h: Harness) -> None:
    """The ids come from the sync (kept in the store), so any catalog text naming a command is clickable."""
    cid = h.fake.command_id("game")
    assert f"</game new:{cid}>" in t("ru", "err.no_session")
    await h.restart()  # an unchanged tree is not synced again: the ids are read back from the store
    assert catalog().command_ids["game"] == cid


def test_without_ids_a_command_is_named_in_the_reader_language() -> None:
    cat = type(catalog())(catalog().messages)
    assert cat.resolve("ru", "{/game new} · {opt:game.new.thread}") == "/игра новая · ветка"
    assert cat.resolve("en", "{/game new} · {opt:game.new.thread}") == "/game new · thread"
    cat.set_command_ids({"game": 42})
    assert cat.resolve("ru", "{/game new}") == "</game new:42>"


def test_texts_kept_before_the_ids_are_known_turn_into_mentions_after() -> None:
    """``t`` prepares each text once and ``t_cached`` keeps whole answers: learning the commands' ids after a
    sync must reach both, or a text asked before the sync would name its command in plain words for ever."""
    cat = catalog()
    known = dict(cat.command_ids)
    try:
        cat.set_command_ids({})
        assert t("en", "err.no_session").endswith("/game new.") and t_cached("en", "err.no_session") == t(
            "en", "err.no_session")
        cat.set_command_ids({**known, "game": 42})
        assert "</game new:42>" in t("en", "err.no_session")
        assert "</game new:42>" in t_cached("en", "err.no_session")
    finally:
        cat.set_command_ids(known)

"""A game asked to open in a thread of its own where the bot may not create threads gets an answer that
says which permission is missing, in the reader's language, and leaves nothing behind."""

from __future__ import annotations

import discord
import pytest

from bot.i18n import t

from . import payloads as P
from .harness import Harness


@pytest.mark.parametrize("locale", ["en-US", "ru"])
async def test_no_create_public_threads_permission_is_named(h: Harness, locale: str) -> None:
    alice = h.user("alice", locale=locale)
    lacking = P.DEFAULT_APP_PERMISSIONS & ~discord.Permissions(create_public_threads=True)
    r = await h.slash(alice, h.channel, "game new", game="call_to_glory", thread=True, app_permissions=lacking)
    lang = "ru" if locale == "ru" else "en"
    assert r.ephemeral and r.content == t(lang, "err.thread_forbidden")
    assert not h.fake.requests_to("POST", "/channels/{channel_id}/threads")
    assert not await h.bot.store.sessions_with_status("lobby")


async def test_a_403_from_discord_on_creating_the_thread_is_not_an_internal_error(h: Harness) -> None:
    """The interaction showed the permission, Discord refused anyway (an overwrite changed meanwhile)."""
    alice = h.user("alice")
    h.fake.fail("POST", "/channels/{channel_id}/threads", status=403, code=50013, message="Missing Permissions")
    r = await h.slash(alice, h.channel, "game new", game="call_to_glory", thread=True)
    texts = [r.content, *(f.get("content") for f in r.followups)]
    assert t("en", "err.thread_forbidden") in texts and t("en", "err.internal") not in texts
    assert not await h.bot.store.sessions_with_status("lobby")
    # the channel is still free for a game without a thread
    ok = await h.slash(alice, h.channel, "game new", game="call_to_glory", thread=False)
    assert not ok.ephemeral


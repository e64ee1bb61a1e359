"""A click on a dynamic item goes through discord.py's dispatch, which here rebuilds only the component
clicked (``cogs.games.dispatch``), never the whole message as a view; as discord.py decides, a click whose
message does not hold the custom id reaches nothing; and a move's answer in place is not read back."""

from __future__ import annotations

import json
from typing import Any

import discord
import pytest

from . import payloads as P
from .harness import Harness
from .tables import Table, components


async def test_a_move_builds_no_view_and_is_applied(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    rec, spec, state = await table.load()
    user = table.users[spec.engine.pending(state)[0].seat]
    message = table.private_message(user, rec.version)
    assert message is not None
    built: list[discord.ui.View] = []
    init = discord.ui.View.__init__

    def counted(view: discord.ui.View, *args: Any, **kwargs: Any) -> None:
        built.append(view)
        init(view, *args, **kwargs)

    monkeypatch.setattr(discord.ui.View, "__init__", counted)
    await table.press(user, message, 0, rec.version)
    assert (await table.load())[0].version > rec.version, "the move was applied"
    assert built == [], "neither the clicked message nor the next one became a view"


async def test_a_move_is_answered_in_place_without_reading_the_answer_back(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The clicked message shows the next view (a message update, as ``edit_message`` sends it); Discord's
    answer, the whole edited message, is not parsed into a ``discord.Message``."""
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    rec, spec, state = await table.load()
    user = table.users[spec.engine.pending(state)[0].seat]
    message = table.private_message(user, rec.version)
    assert message is not None
    parsed: list[Any] = []
    monkeypatch.setattr(discord.interactions, "InteractionCallbackResponse", lambda **kw: parsed.append(kw))
    r = await table.press(user, message, 0, rec.version)
    callback = r.callback()
    assert callback is not None and callback.json["type"] == 7 and r.message_id == int(message["id"])
    assert list(callback.json["data"]) == ["tts", "embeds", "components"]
    assert parsed == []
    assert (await table.load())[0].version > rec.version
    shown, sent = h.fake.message(message["id"])["embeds"][0], callback.json["data"]["embeds"][0]
    assert (shown["description"], shown["fields"]) == (sent["description"], sent["fields"]), "it shows the move"


async def test_a_menu_choice_reaches_its_item(h: Harness) -> None:
    """The chosen value travels in the interaction's data, which the rebuilt menu reads."""
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob], game="coc_lcg")
    await table.open(alice)
    await table.seat_all()
    for _ in range(40):
        rec, spec, state = await table.load()
        user = table.users[spec.engine.pending(state)[0].seat]
        message = table.private_message(user, rec.version)
        assert message is not None
        menus = [c for c in components(message) if c["type"] == 3]
        if menus:
            value = menus[0]["options"][-1]["value"]
            await h.select(user, message["id"], menus[0]["custom_id"], [value])
            log = await h.bot.store.actions(table.sid)
            chosen = spec.engine.legal_actions(state, spec.engine.pending(state)[0].seat)[int(value)]
            applied = next(e for e in log if e.seq == rec.version + 1)
            assert json.loads(applied.action_json) == chosen.model_dump(mode="json")
            return
        await table.press(user, message, 0, rec.version)
    pytest.fail("no menu was offered in 40 moves")


async def test_a_click_its_message_does_not_hold_reaches_nothing(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    rec, spec, state = await table.load()
    user = table.users[spec.engine.pending(state)[0].seat]
    message = table.private_message(user, rec.version)
    assert message is not None
    custom_id = f"gb:{rec.id}:{rec.version}:0"
    elsewhere = {**message, "components": [{"type": 1, "components": [
        {"type": 2, "style": 2, "label": "x", "custom_id": f"gh:{rec.id}"}]}]}
    r = await h.dispatch(P.interaction_payload(
        snowflakes=h.snowflakes, application_id=h.fake.application_id, type=P.MESSAGE_COMPONENT,
        ctx=h._context(user, h.dm(user)), data=P.button_click_data(custom_id), message=elsewhere))
    assert not r.requests and not r.acknowledged
    assert (await table.load())[0].version == rec.version

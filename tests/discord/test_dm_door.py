"""The DM door: a click from a DM carries no server or channel to compare, and session ids are sequential,
so a forged custom id in a stranger's own DM must reach nothing. Such a click acts only on a game where
the clicker is seated, and never on a lobby (seats are taken in the table's channel). Every refusal is
answered in the clicker's language and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from . import payloads as P
from .harness import Harness
from .tables import Table


def forged_in_dm(h: Harness, user: P.User, base: dict[str, Any], custom_id: str, *,
                 locale: str | None = None) -> dict[str, Any]:
    """A click on ``custom_id`` as a forged client would send it from ``user``'s DM with the bot: the
    message is ``base`` moved into that DM and carrying the button (discord.py runs a dynamic item only
    when the clicked message holds its custom id)."""
    dm = h.dm(user)
    message = {**base, "channel_id": str(dm.id),
               "components": [{"type": 1, "components": [{"type": 2, "style": 1, "label": "x",
                                                          "custom_id": custom_id}]}]}
    message.pop("guild_id", None)
    return P.interaction_payload(snowflakes=h.snowflakes, application_id=h.fake.application_id,
                                 type=P.MESSAGE_COMPONENT, ctx=h._context(user, dm, locale=locale),
                                 data=P.button_click_data(custom_id), message=message)


@pytest.mark.parametrize(("locale", "says"), [("en-US", "only in the game's channel"),
                                              ("ru", "только в канале игры")])
async def test_a_forged_lobby_click_from_a_dm_is_refused(h: Harness, locale: str, says: str) -> None:
    alice, bob, mallory = h.user("alice"), h.user("bob"), h.user("mallory", locale=locale)
    table = Table(h, [alice, bob])
    await table.open(alice)
    await h.click(bob, table.table_id, f"gl:{table.sid}:join")
    before = await h.bot.store.get(table.sid)
    # A stranger, and a seated player too: lobby buttons answer only in the table's channel.
    for op in ("join", "leave", "start", "ai_add", "ai_remove"):
        for user in (mallory, bob):
            r = await h.dispatch(forged_in_dm(h, user, h.fake.message(table.table_id), f"gl:{table.sid}:{op}",
                                              locale=locale))
            assert r.ephemeral
            if user is mallory:
                assert says in r.content
    after = await h.bot.store.get(table.sid)
    assert after == before, "nothing changed"
    assert mallory.id not in after.seats


@pytest.mark.parametrize("button", ["gj", "gjc"])
async def test_a_forged_fluxx_join_from_a_dm_seats_no_stranger(h: Harness, button: str) -> None:
    """Cthulhu Fluxx takes newcomers mid-game from the table's Join button; a forged one in a DM must not
    seat a stranger or deal them a hand."""
    alice, bob, mallory = h.user("alice"), h.user("bob"), h.user("mallory")
    table = Table(h, [alice, bob], game="fluxx_cthulhu")
    await table.open(alice)
    await table.seat_all()
    rec, _spec, state = await table.load()
    r = await h.dispatch(forged_in_dm(h, mallory, h.fake.message(table.table_id), f"{button}:{table.sid}"))
    assert r.ephemeral and "not seated" in r.content
    after, _spec, after_state = await table.load()
    assert after.version == rec.version and after.seats == rec.seats and after_state == state
    assert all("not seated" in (m.get("content") or "") for m in h.fake.dms_to(mallory.id)), "no hand was dealt"


@pytest.mark.parametrize("custom_id", ["gh:{sid}", "gq:{sid}", "gqc:{sid}", "gqa:{sid}", "gm:{sid}", "gv:{sid}:{seat}",
                                       "ga:{sid}:{ver}", "gk:{sid}:0", "gb:{sid}:{ver}:0", "gp:{sid}:{ver}:1"])
async def test_a_strangers_forged_click_in_a_dm_is_refused(h: Harness, custom_id: str) -> None:
    alice, bob, mallory = h.user("alice"), h.user("bob"), h.user("mallory")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    rec, _spec, state = await table.load()
    settings = await h.bot.store.table_settings(table.sid)  # where votes and AI seats are kept
    forged = custom_id.format(sid=table.sid, ver=rec.version, seat=alice.id)
    r = await h.dispatch(forged_in_dm(h, mallory, h.fake.message(table.table_id), forged))
    assert r.ephemeral and "not seated" in r.content
    after, _spec, after_state = await table.load()
    assert after == rec and after_state == state
    assert await h.bot.store.table_settings(table.sid) == settings


async def test_a_seated_player_still_plays_from_their_dm(h: Harness) -> None:
    """The door stays open for the players: their own DM's buttons work as before."""
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    rec, spec, state = await table.load()
    seat = spec.engine.pending(state)[0].seat
    message = table.private_message(table.users[seat], rec.version)
    assert message is not None and int(message["channel_id"]) == h.dm(table.users[seat]).id
    await table.press(table.users[seat], message, 0, rec.version)
    after, _spec, _state = await table.load()
    assert after.version > rec.version


async def test_a_click_on_another_seats_button_names_the_awaited_player(h: Harness) -> None:
    """The answer names whom the game waits for by display name, never by a user id."""
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    rec, spec, state = await table.load()
    mover = table.users[spec.engine.pending(state)[0].seat]
    other = bob if mover is alice else alice
    message = table.private_message(mover, rec.version)
    assert message is not None
    r = await h.dispatch(forged_in_dm(h, other, message, f"gb:{table.sid}:{rec.version}:0"))
    assert rec.names[str(mover.id)] == mover.username.capitalize()  # the display name the harness gives
    assert r.ephemeral and r.content == f"Not your move: waiting for {mover.username.capitalize()}."
    after, _spec, _state = await table.load()
    assert after.version == rec.version

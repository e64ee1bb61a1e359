"""Leaving a running game, voting a player out, a forfeiting deadline and /game replace, through Discord.

What a forfeited seat means is each game's rule (its ``leaving`` reference section; the engine tests in
``tests/rules/*/test_forfeit.py`` cover the rules themselves). Here: the bot applies it through the log,
tells the table, retires the leaver's buttons, ends a game nobody plays any more, and hands seats over.
"""

from __future__ import annotations

import pytest

from . import payloads as P
from .harness import Harness
from .tables import Table, custom_ids
from .test_time import HOUR, FakeTime, stopped_clock


async def leave(h: Harness, user: P.User, *, ai: bool = False) -> str:
    """``/game leave`` and its confirmation; the question's text."""
    r = await h.slash(user, h.channel, "game leave", **({"ai": True} if ai else {}))
    assert r.ephemeral, r.content
    question = r.content
    await h.click(user, r.message_id, custom_ids(r.message)[0])
    await h.drain()
    return question


def said(h: Harness, text: str) -> list[str]:
    return [m["content"] for m in h.fake.messages_in(h.channel.id, include_ephemeral=False) if text in m["content"]]


@pytest.mark.parametrize("game", ["cthulhu_wars_duel", "coc_lcg", "call_to_glory"])
async def test_leaving_a_two_player_game_concedes_it_to_the_other_player(h: Harness, game: str) -> None:
    """Bot ruling (each game's 'leaving' section): a duel cannot go on without one of its players."""
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob], game=game)
    await table.open(alice)
    await table.seat_all()
    question = await leave(h, bob)
    assert "concede" in question
    rec, spec, state = await table.load()
    result = spec.engine.result(state)
    assert rec.status == "finished" and result is not None and result.winners == [str(alice.id)]
    assert result.reason == "conceded"
    log = await h.bot.store.actions(table.sid)
    assert log[-1].seat == str(bob.id) and '"concede"' in log[-1].action_json, "the forfeit is a logged move"
    assert said(h, f"<@{bob.id}> left the game.")
    assert f"gm:{table.sid}" in custom_ids(h.fake.message(table.table_id)), "a finished table offers a rematch"
    for m in h.fake.dms_to(bob.id):
        assert not [c for c in custom_ids(h.fake.message(m["id"])) if c.startswith(f"gb:{table.sid}:")]
    assert not h.fake.take_problems()


async def test_leaving_eldritch_horror_hands_the_investigators_to_the_next_player(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob], game="eldritch_horror")
    await table.open(alice, "pick=random")
    await table.seat_all()
    question = await leave(h, alice)
    assert "investigators pass to the next player" in question
    rec, spec, state = await table.load()
    assert rec.status == "running" and rec.seats == [bob.id]
    assert {i["seat"] for i in state.investigators} == {str(bob.id)} and len(state.investigators) == 2
    assert {p.seat for p in spec.engine.pending(state)} == {str(bob.id)}
    r = await h.slash(alice, h.channel, "game hand")
    assert r.ephemeral and "not seated" in r.content
    # The log rebuilds the same game, seating the leaver where they sat.
    from bot.history import rebuild

    assert rebuild(rec, await h.bot.store.actions(table.sid)) == state


async def test_the_last_person_leaving_a_table_of_ai_seats_ends_it(h: Harness) -> None:
    ann = h.user("ann")
    table = Table(h, [ann], game="call_to_glory")
    await table.open(ann, "quick")
    for _ in range(2):
        await h.click(ann, table.table_id, f"gl:{table.sid}:ai_add")
    await h.click(ann, table.table_id, f"gl:{table.sid}:start")
    await h.drain()
    await leave(h, ann)
    rec = await h.bot.store.get(table.sid)
    assert rec.status == "abandoned"
    assert said(h, "nobody else plays this game")


async def test_a_player_may_leave_their_seat_to_the_ai_instead_and_take_it_back(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob], game="cthulhu_wars_duel")
    await table.open(alice)
    await table.seat_all()
    question = await leave(h, bob, ai=True)
    assert "AI player (normal) will play your seat" in question
    rec = await h.bot.store.get(table.sid)
    assert rec.status == "running" and str(bob.id) in await h.bot.sessions.ai_seats(table.sid)
    r = await h.slash(bob, h.channel, "game join")
    assert r.ephemeral and "yours again" in r.content
    assert str(bob.id) not in await h.bot.sessions.ai_seats(table.sid)


async def test_two_players_of_fluxx_leaving_gives_the_other_the_win(h: Harness) -> None:
    """Bot ruling beside FLX-R23: a Fluxx table plays on without a leaver, and with two the one left wins."""
    ann, ben = h.user("ann"), h.user("ben")
    table = Table(h, [ann, ben], game="fluxx_cthulhu")
    await table.open(ann)
    await table.seat_all()
    rec, spec, state = await table.load()
    on_turn = spec.engine.pending(state)[0].seat
    leaver = ann if str(ann.id) == on_turn else ben  # the player on turn may leave between plays
    await leave(h, leaver)
    rec, spec, state = await table.load()
    other = ben if leaver is ann else ann
    assert rec.status == "finished" and spec.engine.result(state).winners == [str(other.id)]
    assert leaver.id in rec.seats, "a leave that ends the game keeps the seat on record"


async def test_a_newcomer_takes_an_ai_seat_in_a_game_open_to_joiners(h: Harness) -> None:
    ann, dan = h.user("ann"), h.user("dan")
    table = Table(h, [ann], game="fluxx_cthulhu")
    await table.open(ann)
    await h.click(ann, table.table_id, f"gl:{table.sid}:ai_add")
    await h.click(ann, table.table_id, f"gl:{table.sid}:start")
    await h.drain()
    r = await h.slash(dan, h.channel, "game join")
    assert r.ephemeral and "take over the seat" in r.content
    await h.drain()
    rec = await h.bot.store.get(table.sid)
    seat = rec.seat_of(dan.id)
    assert seat is not None and int(seat) < 0 and seat not in await h.bot.sessions.ai_seats(table.sid)
    assert len(rec.seats) == 2, "no new seat: the AI's seat changed hands"
    assert h.fake.dms_to(dan.id), "the newcomer gets the seat's private view"
    assert said(h, f"<@{dan.id}> takes over a seat the AI played")


async def test_the_host_replaces_a_player_and_the_old_buttons_stop_working(h: Harness) -> None:
    alice, bob, dan = h.user("alice"), h.user("bob"), h.user("dan")
    table = Table(h, [alice, bob], game="call_to_glory")
    await table.open(alice)
    await table.seat_all()
    rec, _spec, _state = await table.load()
    old_dm = table.private_message(bob, rec.version) or h.fake.message(h.fake.dms_to(bob.id)[-1]["id"])
    # Refusals change nothing.
    r = await h.slash(bob, h.channel, "game replace", player=bob, member=dan)
    assert r.ephemeral and "host" in r.content
    r = await h.slash(alice, h.channel, "game replace", player=dan, member=bob)
    assert r.ephemeral and "plays no seat" in r.content
    r = await h.slash(alice, h.channel, "game replace", player=bob, member=alice)
    assert r.ephemeral and "already" in r.content
    robot = P.User(id=h.snowflakes.next(), username="robot", bot=True)
    h.fake.add_user(robot)
    r = await h.slash(alice, h.channel, "game replace", player=bob, member=robot)
    assert r.ephemeral and "bot cannot take a seat" in r.content
    assert (await h.bot.store.get(table.sid)).players == {}

    r = await h.slash(alice, h.channel, "game replace", player=bob, member=dan)
    assert r.ephemeral and "new player" in r.content
    await h.drain()
    rec = await h.bot.store.get(table.sid)
    assert rec.players == {str(bob.id): dan.id} and rec.seat_of(dan.id) == str(bob.id) and rec.seat_of(bob.id) is None
    assert said(h, f"<@{dan.id}> takes over the seat of <@{bob.id}>")
    assert h.fake.dms_to(dan.id), "the newcomer gets the private view"
    r = await h.click(bob, table.table_id, f"gh:{table.sid}")
    assert r.ephemeral and "not seated" in r.content
    button = next((c for c in custom_ids(old_dm) if c.startswith(f"gb:{table.sid}:")), None)
    if button is not None:
        r = await h.click(bob, old_dm["id"], button)
        assert r.ephemeral and "not seated" in r.content
    r = await h.click(dan, table.table_id, f"gh:{table.sid}")
    assert r.ephemeral and r.message["embeds"], "the seat's view answers its new player"
    # The seat's result counts for whoever finished it.
    await leave(h, dan)
    r = await h.slash(alice, h.channel, "game stats")
    value = r.message["embeds"][0]["fields"][0]["value"]
    assert f"<@{dan.id}>: played 1, won 0" in value and f"<@{alice.id}>: played 1, won 1" in value
    assert f"<@{bob.id}>" not in value


async def test_the_table_votes_a_silent_duellist_out_and_the_voter_wins(h: Harness) -> None:
    clock = FakeTime()
    await stopped_clock(h, clock)
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob], game="cthulhu_wars_duel")
    await table.open(alice)
    await table.seat_all()
    rec, spec, state = await table.load()
    waiting = spec.engine.pending(state)[0].seat
    other = bob if str(alice.id) == waiting else alice
    clock.now += 13 * HOUR
    await h.bot.timers.run_due()
    await h.drain()
    reminder = next(m for m in h.fake.messages_in(h.channel.id, include_ephemeral=False)
                    if "has been waiting" in m["content"])
    r = await h.click(other, reminder["id"], f"gv:{table.sid}:{waiting}")
    assert r.ephemeral and "ends this game" in r.content and "Are you sure" in r.content
    rec, _spec, _state = await table.load()
    assert rec.status == "running", "one click on the vote ends nothing before the voter confirms"
    assert custom_ids(r.message) == [f"gv:{table.sid}:{waiting}:y"]
    await h.click(other, r.message_id, f"gv:{table.sid}:{waiting}:y")
    await h.drain()
    rec, spec, state = await table.load()
    assert rec.status == "finished" and spec.engine.result(state).winners == [str(other.id)]
    assert said(h, "The table voted") and said(h, "out for being idle")


async def test_a_deadline_chosen_to_forfeit_concedes_the_silent_seat(h: Harness) -> None:
    clock = FakeTime()
    await stopped_clock(h, clock)
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob], game="cthulhu_wars_duel")
    await table.open(alice)
    await h.click(alice, table.table_id, f"glp:{table.sid}:1")  # the clock is on the table's page
    lobby = h.fake.message(table.table_id)
    select = next(c for c in custom_ids(lobby) if c.endswith(":_clock"))
    await h.select(alice, table.table_id, select, ["1:4:forfeit"])
    assert "forfeited after 4 hours" in str(h.fake.message(table.table_id)["embeds"])
    await h.click(alice, table.table_id, f"glp:{table.sid}:0")
    await table.seat_all()
    rec, spec, state = await table.load()
    waiting = spec.engine.pending(state)[0].seat
    clock.now += 3 * HOUR
    await h.bot.timers.run_due()
    await h.drain()
    assert (await h.bot.store.get(table.sid)).status == "running", "a reminder comes first"
    clock.now += 2 * HOUR
    await h.bot.timers.run_due()
    await h.drain()
    rec, spec, state = await table.load()
    assert rec.status == "finished" and waiting not in spec.engine.result(state).winners
    assert said(h, "forfeits their seat")

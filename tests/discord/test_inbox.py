"""A quiet inbox: one live DM per player per game, a notification only when a decision arrives, pings
for closed DMs, auto-pass, links back to the table, threads, /help; and the follow-up of a committed move
failing step by step instead of as a whole."""

from __future__ import annotations

import random

import pytest

from . import payloads as P
from .harness import Harness
from .tables import Table, components, custom_ids


def live_dms(h: Harness, user: P.User) -> list[dict]:
    return [m for m in h.fake.dms_to(user.id) if not h.fake.is_deleted(m["id"])]


def dm_posts(h: Harness, user: P.User) -> int:
    channel = str(h.fake.dm_channel_id(user.id))
    return len([r for r in h.fake.requests_to("POST", "/channels/{channel_id}/messages")
                if r.params["channel_id"] == channel and r.ok])


async def play(h: Harness, table: Table, rnd: random.Random, moves: int) -> int:
    done = 0
    for _ in range(moves):
        if not await table.step(rnd):
            break
        done += 1
    return done


async def test_a_whole_lcg_game_keeps_one_live_dm_per_player_and_notifies_only_on_arrival(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob], game="coc_lcg")
    await table.open(alice)
    await table.seat_all()
    rnd = random.Random(3)
    arrivals = {alice.id: 0, bob.id: 0}
    owed = {alice.id: False, bob.id: False}
    for _ in range(3000):
        rec, spec, state = await table.load()
        waiting = {int(p.seat) for p in spec.engine.pending(state)}
        for uid in arrivals:
            arrivals[uid] += uid in waiting and not owed[uid]
            owed[uid] = uid in waiting
        if rec.status != "running" or not await table.step(rnd):
            break
        for uid, user in ((alice.id, alice), (bob.id, bob)):
            assert len(live_dms(h, user)) == 1, "exactly one live private message per player and game"
    rec, _spec, _state = await table.load()
    assert rec.status == "finished"
    for user in (alice, bob):
        # The first view at the start is quiet (flag 4096) unless a decision came with it; every other
        # new message was a decision arriving to a player who owed none, or the end of the game (told once).
        notifying = [r for r in h.fake.requests_to("POST", "/channels/{channel_id}/messages")
                     if r.params["channel_id"] == str(h.fake.dm_channel_id(user.id)) and r.ok
                     and not (r.json or {}).get("flags", 0) & 4096]
        assert 0 < len(notifying) <= arrivals[user.id] + 1
        assert sum(((r.json or {}).get("content") or "").startswith("🏁") for r in notifying) <= 1
        log = await h.bot.store.actions(table.sid)
        clicks = [e for e in log if e.seat == str(user.id) and not e.auto]
        assert len(notifying) < len(clicks), "consecutive decisions are edits, not new messages"


async def test_a_dm_names_the_game_links_to_the_table_and_welcomes_the_player(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob", locale="ru")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    for user, welcome in ((alice, "Welcome to Call to Glory"), (bob, "Добро пожаловать в «Зов Славы»")):
        first = h.fake.dms_to(user.id)[0]
        assert first["content"].startswith(welcome) and "/game autopass" in first["content"]
        embed = live_dms(h, user)[0]["embeds"][0]
        assert embed["url"].endswith(f"/{h.channel.id}/{table.table_id}")
        assert "Call to Glory" in embed["footer"]["text"] or "Зов Славы" in embed["footer"]["text"]
    footer = h.fake.message(table.table_id)["embeds"][0]["footer"]["text"]
    assert footer.startswith("Call to Glory · waiting for ")


async def test_with_auto_pass_no_seat_is_left_waiting_on_a_single_move(h: Harness) -> None:
    users = [h.user(n) for n in ("ann", "ben", "cat")]
    table = Table(h, users, game="fluxx_cthulhu")
    await table.open(users[0])
    await table.seat_all()
    rnd = random.Random(11)
    for _ in range(120):
        rec, spec, state = await table.load()
        for p in spec.engine.pending(state):
            assert len(spec.engine.legal_actions(state, p.seat)) > 1, "a lone pass is taken for the player"
        if rec.status != "running" or not await table.step(rnd):
            break
    from bot import history

    log = await h.bot.store.actions(table.sid)
    assert [e for e in log if e.auto]
    rec, spec, _state = await table.load()
    state = history.initial_state(spec, rec, log)
    for step in history.steps(rec, log):
        if step.entry.auto:  # each automatic step was the seat's one legal move
            assert spec.engine.legal_actions(state, step.entry.seat) == [spec.parse_action(step.entry.action_json)]
        state = step.state


async def test_with_auto_pass_off_the_player_presses_the_lone_pass_and_the_table_shows_automatic_steps(
    h: Harness,
) -> None:
    users = [h.user(n) for n in ("ann", "ben", "cat")]
    await h.slash(users[1], h.channel, "game autopass", enabled=False)
    r = await h.slash(users[1], h.channel, "game autopass", enabled=False)
    assert r.ephemeral and "Auto-pass is off" in r.content
    table = Table(h, users, game="fluxx_cthulhu")
    await table.open(users[0])
    await table.seat_all()
    rnd = random.Random(11)
    seen_lone = False
    for _ in range(200):
        rec, spec, state = await table.load()
        for p in spec.engine.pending(state):
            if len(spec.engine.legal_actions(state, p.seat)) == 1:
                assert p.seat == str(users[1].id), "only the player with full control is asked a lone pass"
                seen_lone = True
        if rec.status != "running" or not await table.step(rnd):
            break
    assert seen_lone
    log = await h.bot.store.actions(table.sid)
    assert [e for e in log if e.auto]
    # The full-control player's only automatic steps are those nothing hidden decides (public, forced).
    from bot import history
    from bot.sessions import forced_publicly

    rec, spec, _state = await table.load()
    state = history.initial_state(spec, rec, log)
    for step in history.steps(rec, log):
        if step.entry.auto and step.entry.seat == str(users[1].id):
            action = spec.parse_action(step.entry.action_json)
            assert forced_publicly(spec, state, step.entry.seat, action, [str(s) for s in rec.seats])
        state = step.state
    shown = [f["value"] for version in h.fake.message_history(table.table_id) for e in version.get("embeds", [])
             for f in e.get("fields", []) if f["name"] == "Last moves"]
    assert any("(automatic)" in value or "automatic steps" in value for value in shown), \
        "the table marks the steps the bot took"


async def test_a_live_dm_keeps_working_across_a_restart_and_is_edited_in_place(h: Harness, make_bot) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    await play(h, table, random.Random(4), 6)
    rec, spec, state = await table.load()
    seat = spec.engine.pending(state)[0].seat
    user = table.users[seat]
    live = live_dms(h, user)
    assert len(live) == 1
    await h.restart(make_bot)
    await table.press(user, live[0], 0, rec.version)
    after, _spec, _state = await table.load()
    assert after.version > rec.version
    assert live_dms(h, user)[0]["id"] == live[0]["id"], "the clicked live message itself shows the new view"


async def test_a_crash_between_commit_and_delivery_is_caught_up_once_after_restart(h: Harness, make_bot) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    rnd = random.Random(8)
    # Commit moves without their follow-up (the process "dies" right after the commit) until the turn
    # passes to the other player.
    rec, spec, state = await table.load()
    first = spec.engine.pending(state)[0].seat
    for _ in range(30):
        rec, spec, state = await table.load()
        seat = spec.engine.pending(state)[0].seat
        if seat != first:
            break
        legal = spec.engine.legal_actions(state, seat)
        await h.bot.sessions.act(rec.id, int(seat), rec.version, legal[rnd.randrange(len(legal))])
    rec, spec, state = await table.load()
    waiting = table.users[spec.engine.pending(state)[0].seat]
    assert waiting.id != int(first)
    before = dm_posts(h, waiting)
    await h.restart(make_bot)
    await h.drain()
    assert dm_posts(h, waiting) == before + 1, "the owed decision is delivered after the restart"
    assert table.private_message(waiting, rec.version) is not None
    table_footer = h.fake.message(table.table_id)["embeds"][0]["footer"]["text"]
    assert f"action {rec.version}" in table_footer, "the table is brought up to date"
    await h.restart(make_bot)
    await h.drain()
    assert dm_posts(h, waiting) == before + 1, "and not a second time"


async def test_a_failing_dm_falls_back_to_a_ping_and_the_mover_still_sees_the_move(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    rnd = random.Random(2)
    # Every DM to the waiting player fails with a 500 from now on: the next arrival goes to the channel.
    h.fake.fail("POST", "/channels/{channel_id}/messages", status=500, code=0, message="Internal Server Error",
                times=None, when=lambda r: r.params["channel_id"] in {str(h.fake.dm_channel_id(u.id))
                                                                       for u in (alice, bob)})
    h.raise_logged_errors = False
    pinged = False
    for _ in range(40):
        rec, spec, state = await table.load()
        mover = spec.engine.pending(state)[0].seat
        await table.step(rnd)
        after, _spec, after_state = await table.load()
        assert after.version > rec.version, "the move counted"
        nxt = [p.seat for p in _spec.engine.pending(after_state)]
        if nxt and nxt[0] != mover:
            posts = [m["content"] for m in h.fake.messages_in(h.channel.id, include_ephemeral=False)]
            assert any(f"<@{nxt[0]}>, your move" in p for p in posts)
            pinged = True
            break
    assert pinged
    assert not [r for r in h.take_logged_errors() if r.exc_info], "no traceback for a Discord outage"


async def test_a_deleted_live_dm_is_replaced_quietly(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    rec, spec, state = await table.load()
    idle = next(u for u in (alice, bob) if str(u.id) not in {p.seat for p in spec.engine.pending(state)})
    gone = live_dms(h, idle)[0]
    h.fake._delete_message(int(gone["id"]))
    await play(h, table, random.Random(6), 12)
    assert len(live_dms(h, idle)) == 1


async def test_a_game_in_its_own_thread(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    r = await h.slash(alice, h.channel, "game new", game="call_to_glory", thread=True)
    assert not r.ephemeral
    rec = (await h.bot.store.sessions_with_status("lobby"))[0]
    assert rec.channel_id != h.channel.id and f"<#{rec.channel_id}>" in r.followups[0]["content"]
    thread = h.channel_by_id(rec.channel_id)
    lobby = h.fake.message(rec.table_message_id)
    assert lobby["channel_id"] == str(rec.channel_id) and "Call to Glory" in lobby["embeds"][0]["title"]
    # The channel stays free for another game, in the channel itself or in another thread.
    again = await h.slash(bob, h.channel, "game new", game="fluxx_cthulhu", thread=True)
    assert not again.ephemeral
    await h.click(bob, rec.table_message_id, f"gl:{rec.id}:join")
    # A lobby button copied into another channel is refused there.
    wrong = await h.dispatch(P.interaction_payload(
        snowflakes=h.snowflakes, application_id=h.fake.application_id, type=P.MESSAGE_COMPONENT,
        ctx=h._context(alice, h.channel), data=P.button_click_data(f"gl:{rec.id}:start"), message=lobby))
    assert "belongs to the game in" in wrong.content
    await h.click(alice, rec.table_message_id, f"gl:{rec.id}:start")
    rec = await h.bot.store.get(rec.id)
    assert rec.status == "running" and thread.id == rec.channel_id


async def test_a_thread_cannot_be_opened_from_a_thread(h: Harness) -> None:
    alice = h.user("alice")
    await h.slash(alice, h.channel, "game new", game="call_to_glory", thread=True)
    rec = (await h.bot.store.sessions_with_status("lobby"))[0]
    r = await h.slash(alice, h.channel_by_id(rec.channel_id), "game new", game="fluxx_cthulhu", thread=True)
    assert r.ephemeral and "only from a text channel" in r.content


@pytest.mark.parametrize(("locale", "title", "game"), [("en-US", "How to play here", "Eldritch Horror"),
                                                       ("ru", "Как здесь играть", "Древний ужас")])
async def test_help_lists_commands_and_games(h: Harness, locale: str, title: str, game: str) -> None:
    r = await h.slash(h.user("zed", locale=locale), h.channel, "help")
    embed = r.message["embeds"][0]
    assert r.ephemeral and embed["title"] == title
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert game in fields and ("min" in fields[game] or "мин" in fields[game])
    assert "/game autopass" in str(fields)


async def test_a_lobby_says_what_the_game_is_and_where_to_learn_it(h: Harness) -> None:
    r = await h.slash(h.user("ann"), h.channel, "game new", game="cthulhu_wars_duel")
    description = r.message["embeds"][0]["description"]
    assert "Two Great Old Ones" in description
    # Commands are mentions (clickable, in the reader's language), and no raw game id is shown.
    assert f"</rules:{h.fake.command_id('rules')}>" in description and "cthulhu_wars_duel" not in description


# ---------------------------------------------------------------- bad input


async def test_the_same_interaction_delivered_twice_is_a_quiet_no_op(h: Harness) -> None:
    alice = h.user("alice")
    payload = h._command_payload(alice, h.channel, "game new", {"game": "call_to_glory"}, locale=None,
                                 permissions=None, app_permissions=None)
    await h.dispatch(payload)
    again = await h.dispatch(payload)
    assert not again.requests, "nothing was sent for the repeat"
    assert len(await h.bot.store.sessions_with_status("lobby")) == 1


def with_component(message: dict, component: dict) -> dict:
    """``message`` as a forged client would present it, carrying ``component`` (discord.py only runs a
    dynamic item whose custom id the clicked message holds)."""
    return {**message, "components": [{"type": 1, "components": [component]}]}


@pytest.mark.parametrize("custom_id", ["gh:" + "9" * 30, "gh:" + "9" * 19, "gh:99999"])
async def test_a_forged_session_id_gets_a_clear_answer(h: Harness, custom_id: str) -> None:
    alice = h.user("alice")
    table = Table(h, [alice, h.user("bob")])
    await table.open(alice)
    message = with_component(h.fake.message(table.table_id), {"type": 2, "style": 1, "label": "x",
                                                                "custom_id": custom_id})
    r = await h.dispatch(P.interaction_payload(
        snowflakes=h.snowflakes, application_id=h.fake.application_id, type=P.MESSAGE_COMPONENT,
        ctx=h._context(alice, h.channel), data=P.button_click_data(custom_id), message=message))
    assert r.ephemeral and "no longer exists" in r.content


async def test_a_select_value_that_is_not_an_ascii_number_is_refused(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    rec, spec, state = await table.load()
    user = table.users[spec.engine.pending(state)[0].seat]
    custom_id = f"gs:{rec.id}:{rec.version}:0.0"
    message = with_component(table.private_message(user, rec.version), {
        "type": 3, "custom_id": custom_id, "options": [{"label": "x", "value": "²"}]})
    payload = P.interaction_payload(
        snowflakes=h.snowflakes, application_id=h.fake.application_id, type=P.MESSAGE_COMPONENT,
        ctx=h._context(user, h.dm(user)), message=message,
        data={"custom_id": custom_id, "component_type": 3, "values": ["²"]})
    r = await h.dispatch(payload)
    assert r.ephemeral and "not available" in r.content
    assert (await h.bot.store.get(rec.id)).version == rec.version


async def test_a_refusal_that_echoes_a_long_input_is_clipped_to_fit(h: Harness) -> None:
    r = await h.slash(h.user("ann"), h.channel, "game new", options={"game": "call_to_glory",
                                                                      "options": "x" * 3000})
    assert r.ephemeral and len(r.content) <= 2000 and "has no option" in r.content


async def test_clicking_too_fast_is_answered_politely(h: Harness) -> None:
    h.bot.rate_limit.rate, h.bot.rate_limit.burst = 1.0, 3
    now = [0.0]
    h.bot.rate_limit.clock = lambda: now[0]
    alice = h.user("alice")
    answers = [await h.slash(alice, h.channel, "help") for _ in range(4)]
    assert "How to play here" in answers[2].message["embeds"][0]["title"]
    assert "a lot of clicks" in answers[3].content
    now[0] += 1.5
    assert (await h.slash(alice, h.channel, "help")).message["embeds"]


async def test_an_abandon_confirmed_after_a_move_is_stale(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    r = await h.slash(alice, h.channel, "game abandon")
    confirm = custom_ids(r.message)[0]
    await table.step(random.Random(1))
    done = await h.click(alice, r.message_id, confirm)
    assert "outdated" in done.content
    assert (await h.bot.store.get(table.sid)).status == "running"


async def test_a_finished_game_releases_its_memory(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice, "quick")
    await table.seat_all()
    await play(h, table, random.Random(9), 2000)
    rec, _spec, _state = await table.load()
    assert rec.status == "finished"
    assert h.bot.tables.cached() == 0
    assert not any(components(m) for m in live_dms(h, alice) + live_dms(h, bob) if custom_ids(m))


async def test_a_step_nothing_hidden_decides_is_taken_even_with_full_control(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    for u in (alice, bob):
        await h.slash(u, h.channel, "game autopass", enabled=False)
    table = Table(h, [alice, bob], game="coc_lcg")
    await table.open(alice)
    await table.seat_all()
    rnd = random.Random(6)
    for _ in range(150):
        rec, _spec, _state = await table.load()
        if rec.status != "running" or not await table.step(rnd):
            break
    log = await h.bot.store.actions(table.sid)
    forced = [e for e in log if e.auto]
    assert forced, "public forced steps (e.g. nothing left to commit) were taken and logged as automatic"
    clicks = [e for e in log if not e.auto]
    assert len(forced) + len(clicks) == len(log)


async def play_until_turn_passes_to(h: Harness, table: Table, target: P.User, rnd: random.Random) -> None:
    for _ in range(60):
        rec, spec, state = await table.load()
        if spec.engine.pending(state)[0].seat == str(target.id):
            return
        before = rec.version
        await table.step(rnd)
        assert (await table.load())[0].version > before, "every move counted"
    raise AssertionError("the turn never came")


async def test_dms_closing_mid_game_move_the_next_decision_to_a_channel_ping(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    rnd = random.Random(3)
    await play_until_turn_passes_to(h, table, alice, rnd)
    bob_dm = str(h.fake.dm_channel_id(bob.id))
    h.fake.block_dms(bob.id)  # new messages refused, and edits of the old one too
    h.fake.fail("PATCH", "/channels/{channel_id}/messages/{message_id}", status=403, code=50007,
                message="Cannot send messages to this user", times=None, when=lambda r: r.params["channel_id"] == bob_dm)
    h.raise_logged_errors = False
    await play_until_turn_passes_to(h, table, bob, rnd)
    await h.drain()
    posts = [m["content"] for m in h.fake.messages_in(h.channel.id, include_ephemeral=False)]
    assert any(f"<@{bob.id}>, your move" in p for p in posts), "bob hears of his turn in the channel"
    assert not [r for r in h.take_logged_errors() if r.exc_info]


async def test_a_rate_limited_table_edit_loses_no_move_and_logs_no_traceback(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    table_msg = str(table.table_id)
    h.fake.fail("PATCH", "/channels/{channel_id}/messages/{message_id}", status=429, code=0,
                message="You are being rate limited.", times=None, when=lambda r: r.params["message_id"] == table_msg)
    h.raise_logged_errors = False
    rnd = random.Random(8)
    await play_until_turn_passes_to(h, table, bob, rnd)
    await play_until_turn_passes_to(h, table, alice, rnd)
    assert not [r for r in h.take_logged_errors() if r.exc_info], "a Discord refusal is a warning, not a crash"
    assert table.private_message(alice, (await table.load())[0].version) is not None, "the next player was told"


async def test_a_deleted_game_channel_does_not_stop_the_game_in_dms(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    channel = str(h.channel.id)
    for method, path in (("PATCH", "/channels/{channel_id}/messages/{message_id}"),
                         ("POST", "/channels/{channel_id}/messages")):
        h.fake.fail(method, path, status=404, code=10003, message="Unknown Channel", times=None,
                    when=lambda r: r.params["channel_id"] == channel)
    h.raise_logged_errors = False
    rnd = random.Random(4)
    await play_until_turn_passes_to(h, table, bob, rnd)
    await play_until_turn_passes_to(h, table, alice, rnd)
    assert not [r for r in h.take_logged_errors() if r.exc_info]

"""Call to Glory played through the real discord.py stack: lobby, DMs, buttons, restarts, races."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest

from bot.client import GameBot

from . import payloads as P
from .harness import Harness
from .tables import Table, components, custom_ids

pytestmark = pytest.mark.asyncio


def prefer_sets(legal: list[Any], rnd: random.Random) -> int:
    """Lay out the biggest set most of the time, so rounds end the way real games do."""
    lays = [i for i, a in enumerate(legal) if a.type == "lay_out"]
    if lays and rnd.random() < 0.8:
        return max(lays, key=lambda i: legal[i].count)
    return rnd.randrange(len(legal))


async def test_whole_three_player_game_from_new_to_final_scores(h: Harness) -> None:
    alice, bob, carol = h.user("alice"), h.user("bob"), h.user("carol")
    table = Table(h, [alice, bob, carol])
    await table.open(alice)
    lobby = h.fake.message(table.table_id)
    assert "Call to Glory" in lobby["embeds"][0]["title"]
    await table.seat_all()
    # Everyone got a private hand by DM; only the first player has buttons.
    for u in (alice, bob, carol):
        assert h.fake.dms_to(u.id), f"{u.username} got no DM"
    rec, _spec, _state = await table.load()
    assert rec.status == "running"
    table_msg = h.fake.message(table.table_id)
    assert f"<@{alice.id}>" in table_msg["content"]
    assert table_msg["attachments"] and table_msg["attachments"][0]["filename"] == "table.png"
    rnd = random.Random(3)
    moves = 0
    while await table.step(rnd, prefer_sets):
        moves += 1
        assert moves < 2000
    rec, spec, state = await table.load()
    assert rec.status == "finished"
    result = spec.engine.result(state)
    assert result is not None and len(state.rounds) == 4
    # The final scores were announced in the channel, and the table shows the end.
    posts = [m["content"] for m in h.fake.messages_in(h.channel.id, include_ephemeral=False)]
    assert any("The game is over" in p for p in posts)
    final = next(p for p in reversed(posts) if "The game is over" in p)
    for seat, total in result.scores.items():
        assert f"<@{seat}> — {total}" in final
    assert h.fake.message(table.table_id)["content"] == "The game is over."
    assert await h.bot.store.active_in_channel(h.channel.id) is None
    log = await h.bot.store.actions(rec.id)
    assert len([e for e in log if not e.auto]) == moves  # the rest the bot took for seats with one move


async def test_restart_mid_round_old_buttons_still_work(h: Harness, make_bot: Callable[[], GameBot]) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    rnd = random.Random(1)
    for _ in range(7):
        await table.step(rnd, prefer_sets)
    rec, spec, state = await table.load()
    seat = spec.engine.pending(state)[0].seat
    user = table.users[seat]
    old_message = table.private_message(user, rec.version)
    assert old_message is not None
    await h.restart(make_bot)
    # A brand-new bot object over the same database: the old message's buttons are matched again.
    await table.press(user, old_message, 0, rec.version)
    after, _spec, after_state = await table.load()
    clicked = [e for e in await h.bot.store.actions(table.sid) if e.seq > rec.version]
    assert clicked[0].seat == seat and not clicked[0].auto and all(e.auto for e in clicked[1:])
    assert spec.parse_action(clicked[0].action_json) == spec.engine.legal_actions(state, seat)[0]
    assert after.version == rec.version + len(clicked)
    # Play on after the restart through the normal flow.
    for _ in range(5):
        await table.step(rnd, prefer_sets)


async def test_outdated_button_answers_with_a_fresh_view_and_changes_nothing(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    rec, _spec, _state = await table.load()
    first = table.private_message(alice, rec.version)
    assert first is not None
    snapshot = dict(first)
    await table.press(alice, first, 0, rec.version)  # the DM is edited in place to the next version
    after, _spec, _ = await table.load()
    # Click the old button again, as if from a stale copy of the message.
    r = await h.dispatch(
        P.interaction_payload(
            snowflakes=h.snowflakes, application_id=h.fake.application_id, type=P.MESSAGE_COMPONENT,
            ctx=h._context(alice, h.dm(alice)), data=P.button_click_data(f"gb:{table.sid}:{rec.version}:0"),
            message=snapshot,
        )
    )
    assert r.ephemeral and "outdated" in r.content
    assert r.message["components"], "the outdated answer carries fresh buttons"
    now, _spec, _ = await table.load()
    assert now.version == after.version


async def test_two_identical_clicks_at_once_apply_once(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    rec, _spec, _state = await table.load()
    message = table.private_message(alice, rec.version)
    assert message is not None
    custom_id = f"gb:{table.sid}:{rec.version}:0"
    payloads = [
        P.interaction_payload(
            snowflakes=h.snowflakes, application_id=h.fake.application_id, type=P.MESSAGE_COMPONENT,
            ctx=h._context(alice, h.dm(alice)), data=P.button_click_data(custom_id), message=message,
        )
        for _ in range(2)
    ]
    for p in payloads:
        h.fake.register_interaction(p)
    for p in payloads:
        h.bot._connection.parse_interaction_create(p)
    await h.drain()
    log = await h.bot.store.actions(table.sid)
    assert len([e for e in log if not e.auto]) == 1  # one click applied; any more are the bot's forced steps
    answers = [h.fake.interaction(p["token"]) for p in payloads]
    assert all(a.acknowledged for a in answers)


async def test_stranger_and_out_of_turn_clicks_are_refused(h: Harness) -> None:
    alice, bob, mallory = h.user("alice"), h.user("bob"), h.user("mallory")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    rec, _spec, state = await table.load()
    # A stranger presses "My hand" on the table.
    r = await h.click(mallory, table.table_id, f"gh:{table.sid}")
    assert r.ephemeral and "not seated" in r.content
    # Bob, not on turn, opens his hand: it has no move buttons; a forged move is refused.
    r = await h.click(bob, table.table_id, f"gh:{table.sid}")
    assert r.ephemeral and not [c for c in custom_ids(r.message) if c.startswith("gb:")]
    forged = P.interaction_payload(
        snowflakes=h.snowflakes, application_id=h.fake.application_id, type=P.MESSAGE_COMPONENT,
        ctx=h._context(bob, h.dm(bob)), data=P.button_click_data(f"gb:{table.sid}:{rec.version}:0"),
        message={**table.private_message(alice, rec.version), "channel_id": str(h.dm(bob).id)},
    )
    r = await h.dispatch(forged)
    assert r.ephemeral and "Not your move" in r.content
    forged_stranger = P.interaction_payload(
        snowflakes=h.snowflakes, application_id=h.fake.application_id, type=P.MESSAGE_COMPONENT,
        ctx=h._context(mallory, h.dm(mallory)), data=P.button_click_data(f"gb:{table.sid}:{rec.version}:0"),
        message={**table.private_message(alice, rec.version), "channel_id": str(h.dm(mallory).id)},
    )
    r = await h.dispatch(forged_stranger)
    assert r.ephemeral and "not seated" in r.content
    after, _spec, after_state = await table.load()
    assert after.version == rec.version and after_state == state


async def test_closed_dms_fall_back_to_the_my_hand_button(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    h.fake.block_dms(bob.id)
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    assert h.fake.dms_to(bob.id) == []
    rnd = random.Random(5)
    # Play until Bob has moved at least twice: his moves go through ephemeral "My hand" messages.
    bob_moves = 0
    for _ in range(40):
        rec, spec, state = await table.load()
        mover = spec.engine.pending(state)[0].seat
        await table.step(rnd, prefer_sets)
        bob_moves += mover == str(bob.id)
        if bob_moves >= 2:
            break
    assert bob_moves >= 2
    assert h.fake.ephemeral_responses(bob.id)
    # Each decision that arrived to Bob was a mention in the channel; the previous one is removed each
    # time, so the channel holds at most one of them.
    pings = [m for m in h.fake.requests_to("POST") if m.path.endswith("/messages") and f"<@{bob.id}>" in
             str((m.json or {}).get("content", "")) and "DMs are closed" in str((m.json or {}).get("content", ""))]
    assert pings, "Bob was pinged in the channel when his decisions arrived"
    live = [m for m in h.fake.messages_in(h.channel.id, include_ephemeral=False)
            if f"<@{bob.id}>" in m["content"] and "DMs are closed" in m["content"]]
    assert len(live) <= 1


async def test_lobby_abandoned_frees_the_channel(h: Harness) -> None:
    alice, bob, mod = h.user("alice"), h.user("bob"), h.user("mod")
    table = Table(h, [alice, bob])
    await table.open(alice)
    second = await h.slash(bob, h.channel, "game new", game="call_to_glory")
    assert second.ephemeral and "already has a game" in second.content
    r = await h.slash(bob, h.channel, "game abandon")
    assert r.ephemeral and "Only the host" in r.content
    r = await h.slash(alice, h.channel, "game abandon")
    assert r.ephemeral and r.message["components"]
    confirm = custom_ids(r.message)[0]
    done = await h.click(alice, r.message_id, confirm)
    assert done.response_type == 7
    rec = await h.bot.store.get(table.sid)
    assert rec.status == "abandoned"
    assert await h.bot.store.active_in_channel(h.channel.id) is None
    lobby = h.fake.message(table.table_id)
    assert all(c.get("disabled") for c in components(lobby) if c["type"] == 2)
    again = await h.slash(bob, h.channel, "game new", game="call_to_glory")
    assert not again.ephemeral
    del mod


async def test_lobby_rules_seat_count_host_and_options(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    bad = await h.slash(alice, h.channel, "game new", options={"game": "call_to_glory", "options": "quick imperial_tasks"})
    assert bad.ephemeral and "cannot be combined" in bad.content
    bad = await h.slash(alice, h.channel, "game new", options={"game": "call_to_glory", "options": "first_player=youngest"})
    assert bad.ephemeral and "first_player" in bad.content
    bad = await h.slash(alice, h.channel, "game new", options={"game": "call_to_glory", "options": "teleport"})
    assert bad.ephemeral and "has no option" in bad.content
    assert await h.bot.store.active_in_channel(h.channel.id) is None
    table = Table(h, [alice, bob])
    await table.open(alice, "ninja_power")
    r = await h.click(alice, table.table_id, f"gl:{table.sid}:start")
    assert r.ephemeral and "needs 2–4 players" in r.content
    await h.click(bob, table.table_id, f"gl:{table.sid}:join")
    r = await h.click(bob, table.table_id, f"gl:{table.sid}:join")
    assert r.ephemeral and "already have a seat" in r.content
    r = await h.click(bob, table.table_id, f"gl:{table.sid}:start")
    assert r.ephemeral and "Only the host" in r.content
    # The host switches variants in the lobby menu.
    await h.select(alice, table.table_id, f"go:{table.sid}:_flags", ["imperial_tasks", "ninja_power"])
    rec = await h.bot.store.get(table.sid)
    assert rec.options["imperial_tasks"] and rec.options["ninja_power"]
    r = await h.select(bob, table.table_id, f"go:{table.sid}:_flags", [])
    assert r.ephemeral and "Only the host" in r.content
    await h.click(alice, table.table_id, f"gl:{table.sid}:start")
    rec, _spec, state = await table.load()
    assert rec.status == "running" and state.rounds_total == 3 and all(len(p.tasks) == 3 for p in state.players)
    dm = h.fake.message(h.fake.dms_to(bob.id)[-1]["id"])
    assert "Imperial Tasks" in str(dm["embeds"])


async def test_russian_and_english_output(h: Harness) -> None:
    h.guild.preferred_locale = "ru"
    anna, bob = h.user("anna", locale="ru"), h.user("bob", locale="en-US")
    table = Table(h, [anna, bob])
    await table.open(anna)
    lobby = h.fake.message(table.table_id)
    assert "Зов Славы" in lobby["embeds"][0]["title"]
    assert [c["label"] for c in components(lobby) if c["type"] == 2] == ["Сесть", "Встать", "Начать", "🤖 Добавить ИИ", "🤖 Убрать ИИ"]
    # Bob's own answers follow his client language; the channel follows the server's.
    r = await h.click(bob, table.table_id, f"gl:{table.sid}:start")
    assert r.ephemeral and "Only the host" in r.content
    r = await h.click(anna, table.table_id, f"gl:{table.sid}:start")
    assert r.ephemeral and "Для этой игры нужно от 2 до 4 игроков" in r.content
    await h.click(bob, table.table_id, f"gl:{table.sid}:join")
    await h.click(anna, table.table_id, f"gl:{table.sid}:start")
    table_msg = h.fake.message(table.table_id)
    assert "раунд 1/4" in table_msg["embeds"][0]["title"]
    # Each player's DMs speak the language of the client they sat down with, from the very first one.
    first_dm = {u.id: h.fake.message(h.fake.dms_to(u.id)[0]["id"])["embeds"][0]["title"] for u in (anna, bob)}
    assert first_dm[bob.id].startswith("Your hand") and first_dm[anna.id].startswith("Ваша рука")
    r = await h.click(bob, table.table_id, f"gh:{table.sid}")
    assert r.ephemeral and "Your hand" in r.message["embeds"][0]["title"]
    r = await h.click(anna, table.table_id, f"gh:{table.sid}")
    assert "Ваша рука" in r.message["embeds"][0]["title"]
    sync = h.fake.requests_to("PUT", "/applications/{application_id}/commands")[-1].json
    game = next(c for c in sync if c["name"] == "game")
    assert game["name_localizations"]["ru"] == "игра"
    assert {o["name_localizations"]["ru"] for o in game["options"]} >= {"новая", "сесть", "начать"}


async def test_status_list_and_hand_commands(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    r = await h.slash(alice, h.channel, "game status")
    assert r.ephemeral and "no game in this channel" in r.content
    r = await h.slash(alice, h.channel, "game list")
    assert r.ephemeral and "Call to Glory" in str(r.message["embeds"])
    table = Table(h, [alice, bob])
    await table.open(alice)
    r = await h.slash(bob, h.channel, "game join")
    assert r.ephemeral
    r = await h.slash(alice, h.channel, "game start")
    r = await h.slash(bob, h.channel, "game status")
    assert r.followups and r.followups[0]["attachments"]
    r = await h.slash(alice, h.channel, "game hand")
    assert r.ephemeral and any(c.startswith("gb:") for c in custom_ids(r.message))


async def test_every_sent_payload_fits_discords_limits_during_random_play(h: Harness) -> None:
    """The fake validates every body against Discord's schema; a long random game exercises them all."""
    users = [h.user(f"p{i}") for i in range(4)]
    table = Table(h, users)
    await table.open(users[0], "ninja_power imperial_tasks")
    await table.seat_all()
    rnd = random.Random(11)
    for _ in range(120):
        if not await table.step(rnd, prefer_sets):
            break
    assert not h.fake.take_problems()


async def test_concurrent_tables_in_two_channels(h: Harness) -> None:
    other = h.text_channel("other")
    alice, bob, carol, dave = (h.user(n) for n in ("alice", "bob", "carol", "dave"))
    r1 = await h.slash(alice, h.channel, "game new", game="call_to_glory")
    r2 = await h.slash(carol, other, "game new", game="call_to_glory")
    assert not r1.ephemeral and not r2.ephemeral
    s1 = await h.bot.store.active_in_channel(h.channel.id)
    s2 = await h.bot.store.active_in_channel(other.id)
    assert s1 and s2 and s1.id != s2.id
    await asyncio.sleep(0)
    del bob, dave


async def test_a_player_hit_by_someone_elses_move_sees_it_in_their_dm(h: Harness) -> None:
    """CTG-R8 through Discord: Carol's Farmers are beaten on Alice's turn while Bob plays next; Carol's
    DM is updated in place instead of a new message."""
    alice, bob, carol = h.user("alice"), h.user("bob"), h.user("carol")
    table = Table(h, [alice, bob, carol])
    await table.open(alice)
    await table.seat_all()
    rec, spec, state = await table.load()
    # Arrange the position in the engine's state (test-only): Carol has 2 Farmers out, Alice holds 3
    # and has drawn her two cards; the empty discard pile takes the beaten set without asking.
    state.players[2].sets = {20: 2}
    state.players[0].hand = [20, 20, 20]
    state.phase = "act"
    state.drawn_from = [0, 1]
    h.bot.sessions._remember(rec, state)
    carol_dm = h.fake.dms_to(carol.id)[-1]
    edits_before = len(h.fake.message_history(carol_dm["id"]))
    dms_before = len(h.fake.dms_to(carol.id))
    legal = spec.engine.legal_actions(state, str(alice.id))
    index = next(i for i, a in enumerate(legal) if a.type == "lay_out" and a.count == 3)
    r = await h.click(alice, table.table_id, f"gh:{table.sid}")
    await table.press(alice, r.message, index, rec.version)
    after = h.fake.message(carol_dm["id"])
    assert len(h.fake.message_history(carol_dm["id"])) == edits_before + 1, "Carol's DM was edited in place"
    assert len(h.fake.dms_to(carol.id)) == dms_before, "and no new DM was sent for it"
    sets_field = next(f for f in after["embeds"][0]["fields"] if f["name"] == "Your sets")
    assert sets_field["value"] == "—"


# ---------------------------------------------------------------------- how the texts read (UX review)


def _ctg_ui() -> tuple[Any, Any, Any]:
    from cogs.call_to_glory import UI
    from cogs.games.ui import Names
    from rules.call_to_glory import events as ev

    return UI, Names({"p0": "Аня", "p1": "Боря", "p2": "Вика", "p3": "Гена"}), ev


async def test_russian_table_and_hand_read_as_russian_and_say_what_a_player_needs() -> None:
    """The empty sets line once read "Наборы: — — 0 оч.", the score "Счёт: 0 (0)", a discard pile
    "сверху Монах (18) (1)"; the hand showed no values and nothing said when a round ends."""
    from tests.rules.call_to_glory.helpers import ENGINE, FARMER, MONK, arrange, new

    UI, names, _ev = _ctg_ui()
    s = arrange(new(3), hands={0: [MONK, MONK, FARMER]}, discards=([FARMER], []))
    table = UI.table_embed(ENGINE.view(s, None), "ru", names)
    block = table.fields[0].value
    assert "Наборов пока нет" in block and "— —" not in block
    assert "Счёт: 0" in block and "(0)" not in block
    assert "🂡 Сброс 1 (1): сверху Фермер (20)" in table.description
    assert "у кого-то 5 разных персонажей" in table.description
    four = UI.table_embed(ENGINE.view(new(4), None), "ru", names)
    assert "у кого-то 4 разных персонажа," in four.description
    two = UI.table_embed(ENGINE.view(new(2), None), "en", names)
    assert "someone has 6 different characters" in two.description
    private = UI.private_embed(ENGINE.view(s, "p0"), "ru", names)
    hand = next(f.value for f in private.fields if f.name == "Рука")
    assert hand == "Монах (18) ×2, Фермер (20) ×1"
    assert any(f.name == "Стопки" for f in private.fields)


async def test_private_view_shows_opponents_and_why_a_pair_of_dotted_characters_is_not_a_set() -> None:
    """Beating a set (CTG-R8) or cutting one with a Ninja is decided in the DM, so it shows every
    opponent's sets and score; with 3–4 players a pair of 12/14/16 offers no lay-out (CTG-R7) and the
    hand says why."""
    from tests.rules.call_to_glory.helpers import ENGINE, FARMER, MONK, NINJA, SAMURAI, arrange, new

    UI, names, _ev = _ctg_ui()
    s = arrange(new(3), hands={0: [SAMURAI, SAMURAI, NINJA, NINJA, NINJA, MONK]},
                sets={1: {MONK: 4, SAMURAI: 5}, 2: {}})
    s.players[1].round_scores = [31]
    private = UI.private_embed(ENGINE.view(s, "p0"), "ru", names)
    others = next(f.value for f in private.fields if f.name == "Соперники").splitlines()
    assert others == ["Боря: Самурай ×5, Монах ×4; счёт 31", "Вика: —; счёт 0"]
    hand = next(f.value for f in private.fields if f.name == "Рука").splitlines()
    # Three Ninja are enough, one Monk is no pair: only the Samurai pair gets the note.
    assert hand[1:] == ["⚠ Самурай (12): при 3–4 игроках в наборе нужно минимум 3 карты, одной пары мало."]
    two = arrange(new(2), hands={0: [SAMURAI, SAMURAI, FARMER]})
    hand2 = next(f.value for f in UI.private_embed(ENGINE.view(two, "p0"), "en", names).fields if f.name == "Hand")
    assert "⚠" not in hand2  # two players lay out pairs of every character


async def test_table_picture_follows_discard_tops_and_the_turn() -> None:
    """The picture shows whose turn it is and both discard tops, so it is redrawn when they change."""
    from cogs.call_to_glory import draw_table
    from tests.rules.call_to_glory.helpers import ENGINE, FARMER, MONK, arrange, new, to_act_phase

    UI, names, _ev = _ctg_ui()
    s = arrange(new(3), hands={0: [MONK]}, discards=([FARMER], []))
    key = UI.image_key(ENGINE.view(s, None))
    drawn, _ = ENGINE.apply(s, "p0", {"type": "draw", "pile": "discard1"})
    assert UI.image_key(ENGINE.view(drawn, None)) != key  # the top of discard 1 went
    acted = to_act_phase(s)
    done, _ = ENGINE.apply(acted, "p0", {"type": "discard", "character": MONK, "pile": 2})
    assert ENGINE.view(done, None).current_seat == "p1"
    assert UI.image_key(ENGINE.view(done, None)) != UI.image_key(ENGINE.view(acted, None))
    png = draw_table(ENGINE.view(done, None), "ru", names)
    assert png.startswith(b"\x89PNG")


async def test_russian_buttons_name_cards_and_players_grammatically() -> None:
    """"Взять Фермер из «Сброс 1»", "Сбросить Императрица (7) → стопка 1" and "Ниндзя против Боря" put
    names in the wrong case; the old-set note nested a second pair of brackets. A pile named inside a
    sentence takes the genitive: «из колоды 1», «из сброса 1»."""
    from rules.call_to_glory.actions import Discard, Draw, LayOut, UseNinja
    from tests.rules.call_to_glory.helpers import ENGINE, FARMER, MONK, arrange, new

    UI, names, _ev = _ctg_ui()
    view = ENGINE.view(arrange(new(3), discards=([FARMER], [])), None)
    label = lambda a: UI.action_label(a, view, "ru", names)  # noqa: E731
    assert label(Draw(pile="discard1")) == "Взять «Фермер» из сброса 1"
    assert label(Draw(pile="deck2")) == "Взять из колоды 2"
    assert label(Discard(character=MONK, pile=2)) == "Сбросить «Монах (18)» → сброс 2"
    assert label(UseNinja(target="p1", character=MONK)) == "Ниндзя: убрать «Монах (18)» у игрока Боря"
    assert label(LayOut(character=MONK, count=3, pile=1)) == "Выложить 3 × Монах (18), старый набор → сброс 1"
    assert UI.action_label(LayOut(character=MONK, count=3, pile=1), view, "en", names) == (
        "Lay out 3 × Monk (18), old set → discard 1")


async def test_russian_move_log_reads_grammatically() -> None:
    UI, names, ev = _ctg_ui()
    text = lambda e, loc="ru": UI.event_text(e, loc, names)  # noqa: E731
    assert text(ev.SetLaid(seat="p0", character=18, count=2)) == "Аня выкладывает 2 × Монах (18)."
    assert text(ev.SetLaid(seat="p0", character=18, count=3, beaten_seat="p1", beaten_count=2)) == (
        "Аня выкладывает 3 × Монах (18) и бьёт набор игрока Боря из 2 карт.")
    assert text(ev.SetLaid(seat="p0", character=18, count=3, replaced=1)) == (
        "Аня выкладывает 3 × Монах (18) вместо своего набора из 1 карты.")
    assert text(ev.SetLaid(seat="p0", character=18, count=3, replaced=2), "en") == (
        "Аня laid out 3 × Monk (18) in place of their set of 2 cards.")
    assert text(ev.CardDrawn(seat="p0", pile="discard1", card=20)) == "Аня берёт «Фермер (20)» из сброса 1."
    assert text(ev.CardDrawn(seat="p0", pile="deck1")) == "Аня берёт карту из колоды 1."
    assert text(ev.CardDiscarded(seat="p0", character=20, pile=2)) == "Аня сбрасывает «Фермер (20)» в сброс 2."
    assert text(ev.NinjaUsed(seat="p0", target="p1", character=12)) == (
        "Аня возвращает фигурку Ниндзя и убирает «Самурай (12)» из набора игрока Боря.")
    assert text(ev.SetDiscarded(seat="p1", character=7, count=2, pile=1)) == (
        "Набор игрока Боря уходит в сброс 1: 2 × Императрица (7).")
    assert "{" not in text(ev.CardGivenUp(seat="p1", character=7, pile=1, remaining=1))


async def test_round_end_names_the_player_whose_sets_ended_it() -> None:
    """CTG-R12 (a): "Round 1 is over (a player has enough different characters)" left the table guessing."""
    UI, names, ev = _ctg_ui()
    ended = ev.RoundEnded(round=1, reason="characters_per_player", set_points={"p0": 40, "p1": 9},
                          task_bonus={"p0": 0, "p1": 0}, totals={"p0": 40, "p1": 9}, seat="p0", characters=6)
    assert UI.event_text(ended, "ru", names) == "Раунд 1 окончен: у игрока Аня на столе 6 разных персонажей."
    assert UI.event_text(ended, "en", names) == "Round 1 is over: Аня has 6 different characters on the table."
    assert "Аня на столе 6 разных персонажей" in UI.announcements([ended], "ru", names)[0]


async def test_round_scores_mention_tasks_only_when_tasks_scored() -> None:
    """Without Imperial Tasks every line used to say "(21 за наборы + 0 за поручения)"."""
    UI, names, ev = _ctg_ui()
    plain = ev.RoundEnded(round=1, reason="deck_empty", set_points={"p0": 21, "p1": 9},
                          task_bonus={"p0": 0, "p1": 0}, totals={"p0": 21, "p1": 9})
    [post] = UI.announcements([plain], "ru", names)
    assert "**Аня**: 21 — всего 21" in post and "поручения" not in post
    tasks = plain.model_copy(update={"task_bonus": {"p0": 10, "p1": 0}, "totals": {"p0": 31, "p1": 9}})
    [post] = UI.announcements([tasks], "ru", names)
    assert "**Аня**: 31 (21 за наборы + 10 за поручения) — всего 31" in post


async def test_task_prompt_says_who_scores_and_errors_show_no_raw_ids() -> None:
    from bot.i18n import t
    from rules.core import Prompt

    UI, names, _ev = _ctg_ui()
    prompt = UI.prompt_text(Prompt(seat="p0", kind="reveal_task"), "ru", names)
    assert "бонус за каждую карту" in prompt
    for loc in ("ru", "en"):
        assert "{" not in t(loc, "rule.ctg.wrong_phase") and "act" not in t(loc, "rule.ctg.wrong_phase").split()
        assert "{" not in t(loc, "rule.ctg.answer_expected")
    params = UI.rule_error_params({"pile": "discard1"}, "ru", names)
    assert t("ru", "rule.ctg.pile_empty", **params) == "Из сброса 1 брать нечего: там нет карт."
    params = UI.rule_error_params({"pile": "deck2"}, "ru", names)
    assert t("ru", "rule.ctg.same_pile", **params).startswith("Из колоды 2 вы уже брали")

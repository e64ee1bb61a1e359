"""Cthulhu Wars: Duel played through the real discord.py stack: whole games on both maps, battle answers
owed by the player not on turn (by DM and by the ephemeral "My hand"), hidden Elder Sign values, both
languages, an outdated button. Every payload passes the fake Discord's schema check (the harness raises
otherwise)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from . import payloads as P
from .harness import Harness
from .tables import Table, components, custom_ids

GAME = "cthulhu_wars_duel"
# Decisions inside a battle; any of them may be owed by the player who is not on turn.
BATTLE_FRAMES = {"nexus", "howl", "howl_victim", "sacrifice", "assign", "eternal", "retreat", "retreat_elim",
                 "cannibalism"}


def warlike(legal: list[Any], rnd: random.Random) -> int:
    """Fight whenever possible, otherwise build up and march; perform Rituals so games end in time.
    Battle answers are picked at random, like a player would."""
    def pick(*types: str) -> list[int]:
        return [i for i, a in enumerate(legal) if a.type in types]

    for types, chance in ((("battle",), 1.0), (("ritual",), 0.9), (("capture",), 0.8), (("move_unit",), 0.7),
                          (("recruit", "summon", "awaken", "build_gate", "move"), 0.8)):
        options = pick(*types)
        if options and rnd.random() < chance:
            return rnd.choice(options)
    useful = [i for i, a in enumerate(legal) if a.type not in ("pass", "reveal", "abandon_gate")] or list(range(len(legal)))
    return rnd.choice(useful)


def channel_texts(h: Harness) -> list[str]:
    """Everything posted in the channel for everyone to read: contents and embeds, edits included."""
    out = []
    for m in h.fake.messages_in(h.channel.id, include_ephemeral=False):
        out.append(json.dumps({"content": m.get("content"), "embeds": m.get("embeds")}, ensure_ascii=False))
    return out


async def play(h: Harness, table: Table, rnd: random.Random, limit: int = 2500) -> dict[str, int]:
    """Play to the end; count battle answers given by the player not on turn, by the path they took."""
    off_turn = {"dm": 0, "ephemeral": 0}
    for _ in range(limit):
        rec, spec, state = await table.load()
        prompts = spec.engine.pending(state)
        if not prompts:
            assert rec.status == "finished"
            return off_turn
        prompt = prompts[0]
        owed_off_turn = prompt.kind in BATTLE_FRAMES and prompt.seat != state.seats[state.turn]
        if owed_off_turn:
            user = table.users[prompt.seat]
            message = table.private_message(user, rec.version)
            # The machinery DMs whoever a prompt names; a closed DM leaves the "My hand" path.
            path = "dm" if message is not None and message in [h.fake.message(m["id"]) for m in h.fake.dms_to(user.id)] else "ephemeral"
            off_turn[path] += 1
        await table.step(rnd, warlike)
    raise AssertionError("the game did not end")


async def start(h: Harness, users: list[P.User], options: str | None = None) -> Table:
    table = Table(h, users, game=GAME)
    await table.open(users[0], options)
    lobby = h.fake.message(table.table_id)
    assert lobby["embeds"][0]["title"].startswith(("Cthulhu Wars: Duel", "Войны Ктулху: Дуэль"))
    await table.seat_all()
    return table


async def test_whole_game_on_the_reconstructed_map_with_an_off_turn_battle_answer_by_dm(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = await start(h, [alice, bob])
    rec, spec, state = await table.load()
    assert rec.status == "running" and state.map == "extinction"
    msg = h.fake.message(table.table_id)
    # The Windwalker picks a start area first; the table names them and says the map is reconstructed.
    windwalker = state.seats[1]
    assert f"<@{windwalker}>" in msg["content"]
    embed = msg["embeds"][0]
    assert "Reconstructed map" in embed["description"]
    last = next(f["value"] for f in embed["fields"] if f["name"] == "Last moves")
    assert sum("reconstruct" in line for line in last.splitlines()) == 1, "the notice is said once, not twice"
    assert msg["attachments"] and msg["attachments"][0]["filename"] == "table.png"
    for u in (alice, bob):
        assert h.fake.dms_to(u.id), f"{u.username} got no DM"

    rnd = random.Random(11)
    counts = await play(h, table, rnd)
    games = 1
    while counts["dm"] == 0 and games < 5:  # battles are random: play on at the same table if needed
        table = await start(h, [alice, bob])
        counts = await play(h, table, rnd)
        games += 1
    assert counts["dm"] > 0, "a battle answer owed by the player not on turn was given through their DM"

    rec, spec, state = await table.load()
    result = spec.engine.result(state)
    assert rec.status == "finished" and result is not None
    posts = [m["content"] for m in h.fake.messages_in(h.channel.id, include_ephemeral=False)]
    final = next(p for p in reversed(posts) if p and "The game is over" in p)
    for seat in state.seats:
        assert f"<@{seat}>" in final, "the final post mentions both players"
    assert h.fake.message(table.table_id)["content"] == "The game is over."
    table_embed = h.fake.message(table.table_id)["embeds"][0]
    assert any(f["name"] == "Result" for f in table_embed["fields"])
    # Hidden Elder Sign values never reach the channel; each DM shows only its reader's values.
    assert not any("Your Elder Signs" in text for text in channel_texts(h))
    assert not h.fake.take_problems()


async def test_earth_map_game_with_closed_dms_answers_through_my_hand(h: Harness,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # Battles are rare in random play (none in most games), so the games are dealt from fixed seeds, and
    # both players' DMs are closed: whoever owes a battle answer off their turn must answer through "My hand".
    seeds = random.Random(4)
    monkeypatch.setattr("bot.sessions.secrets.randbits", seeds.getrandbits)
    alice, bob = h.user("alice"), h.user("bob")
    h.fake.block_dms(alice.id)
    h.fake.block_dms(bob.id)
    table = await start(h, [alice, bob], "map=earth")
    rec, _spec, state = await table.load()
    assert state.map == "earth"
    embed = h.fake.message(table.table_id)["embeds"][0]
    assert "Earth" in embed["description"] and "Reconstructed" not in embed["description"]
    rnd = random.Random(4)
    counts = await play(h, table, rnd)
    games = 1
    while counts["ephemeral"] == 0 and games < 8:
        table = await start(h, [alice, bob], "map=earth")
        counts = await play(h, table, rnd)
        games += 1
    assert counts["ephemeral"] > 0, "with DMs closed, the off-turn battle answer went through 'My hand'"
    assert h.fake.dms_to(alice.id) == h.fake.dms_to(bob.id) == []
    assert not h.fake.take_problems()


async def test_elder_sign_values_only_in_the_owners_private_view(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    rnd = random.Random(3)
    state: Any = None
    holders: list[int] = []
    for _game in range(6):
        table = await start(h, [alice, bob])
        for _ in range(3000):
            rec, spec, state = await table.load()
            holders = [i for i, p in enumerate(state.players) if p["signs"]]
            if holders or rec.status != "running":
                break
            await table.step(rnd, warlike)
        if holders:
            break
    assert holders, "an Elder Sign was drawn in one of the games"
    owner_seat = state.seats[holders[0]]
    other_seat = state.seats[1 - holders[0]]
    owner, other = table.users[owner_seat], table.users[other_seat]
    values = ", ".join(str(v) for v in sorted(state.players[holders[0]]["signs"]))
    r = await h.click(owner, table.table_id, f"gh:{table.sid}")
    assert r.ephemeral
    field = next(f for f in r.message["embeds"][0]["fields"] if f["name"].startswith("Your Elder Signs"))
    assert field["value"] == values
    r = await h.click(other, table.table_id, f"gh:{table.sid}")
    mine = next(f for f in r.message["embeds"][0]["fields"] if f["name"].startswith("Your Elder Signs"))
    other_values = ", ".join(str(v) for v in sorted(state.players[1 - holders[0]]["signs"])) or "—"
    assert mine["value"] == other_values
    # Every DM a player got is their own view (their faction in the title), so Elder Sign values in it
    # are their own; the channel never shows any.
    for seat, user in table.users.items():
        faction = ("The Sleeper", "The Windwalker")[state.seats.index(seat)]
        dms = [h.fake.message(m["id"]) for m in h.fake.dms_to(user.id)]
        assert dms and all(faction in m["embeds"][0]["title"] for m in dms)
    assert not any("Your Elder Signs" in text for text in channel_texts(h))
    assert not h.fake.take_problems()


async def test_russian_and_english_output(h: Harness) -> None:
    h.guild.preferred_locale = "ru"
    anna, bob = h.user("anna", locale="ru"), h.user("bob", locale="en-US")
    table = await start(h, [anna, bob])
    msg = h.fake.message(table.table_id)
    embed = msg["embeds"][0]
    assert embed["title"].startswith("Войны Ктулху: Дуэль — раунд 1")
    assert "реконструирована" in embed["description"]
    rnd = random.Random(8)
    for _ in range(40):
        await table.step(rnd, warlike)
    # The table speaks the channel's language; each player's own view follows their client.
    last = next(f for f in h.fake.message(table.table_id)["embeds"][0]["fields"] if f["name"] == "Последние ходы")
    assert last["value"]
    # Names cannot be declined, so Russian lines keep them in the nominative after a colon or an arrow.
    logs = "\n".join(f["value"] for m in h.fake.message_history(table.table_id) for f in m["embeds"][0]["fields"]
                     if f["name"] == "Последние ходы")
    assert "передвигает фигуру:" in logs and "→" in logs
    assert not re.search(r"передвигает \w+ из |призывает \w+ в зону|У (anna|bob) нет", logs, re.I)
    assert "(ритуал)" not in logs or re.search(r"к судьбе \(ритуал\) — всего \d+", logs)
    # A button that spends Power says how much it costs.
    rec, spec, state = await table.load()
    r = await h.click(anna, table.table_id, f"gh:{table.sid}")
    spending = [c["label"] for c in components(r.message) if c.get("type") == 2 and c["label"].startswith(("Призвать", "Нанять"))]
    spending += [o["label"] for c in components(r.message) if c.get("type") == 3 for o in c["options"]
                 if o["label"].startswith(("Призвать", "Нанять"))]
    assert all(re.search(r"\(\d+\)$", x) for x in spending), spending
    r = await h.click(anna, table.table_id, f"gh:{table.sid}")
    assert r.message["embeds"][0]["title"].startswith("Ваш обзор")
    r = await h.click(bob, table.table_id, f"gh:{table.sid}")
    assert r.message["embeds"][0]["title"].startswith("Your view")
    assert not h.fake.take_problems()


async def test_outdated_button_is_refused_and_changes_nothing(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = await start(h, [alice, bob])
    rec, spec, state = await table.load()
    seat = spec.engine.pending(state)[0].seat
    user = table.users[seat]
    first = table.private_message(user, rec.version)
    assert first is not None
    snapshot = dict(first)
    await table.press(user, first, 0, rec.version)
    after, _spec, after_state = await table.load()
    assert after.version == rec.version + 1
    stale = next(c for c in custom_ids(snapshot) if c.startswith(f"gb:{table.sid}:{rec.version}:"))
    r = await h.dispatch(
        P.interaction_payload(
            snowflakes=h.snowflakes, application_id=h.fake.application_id, type=P.MESSAGE_COMPONENT,
            ctx=h._context(user, h.dm(user)), data=P.button_click_data(stale), message=snapshot,
        )
    )
    assert r.ephemeral and "outdated" in r.content
    assert r.message["embeds"], "the outdated answer carries the current view"
    assert all(c.split(":")[2] == str(after.version) for c in custom_ids(r.message)), "and only current buttons"
    now, _spec, now_state = await table.load()
    assert now.version == after.version and now_state == after_state


async def test_a_player_not_asked_anything_reveals_an_elder_sign_from_my_hand(h: Harness) -> None:
    """CWD-R121 at the table: the player who is not on turn opens My hand, finds a reveal button for each
    sign they hold, and revealing raises their Doom while the turn stays with the opponent."""
    alice, bob = h.user("alice"), h.user("bob")
    rnd = random.Random(5)
    for _game in range(6):
        table = await start(h, [alice, bob])
        for _ in range(3000):
            rec, spec, state = await table.load()
            if rec.status != "running":
                break
            owing = {p.seat for p in spec.engine.pending(state)}
            idle = [i for i, seat in enumerate(state.seats) if seat not in owing and state.players[i]["signs"]]
            if idle:
                break
            await table.step(rnd, warlike)
        if rec.status == "running" and idle:
            break
    assert idle, "a player held an Elder Sign while the other was asked"
    i = idle[0]
    seat = state.seats[i]
    user = table.users[seat]
    doom, value = state.players[i]["doom"], state.players[i]["signs"][0]
    await h.click(user, table.table_id, f"gh:{table.sid}")
    message = table.private_message(user, rec.version)
    assert message is not None and "You may still reveal an Elder Sign now" in message["embeds"][0]["description"]
    legal = spec.engine.legal_actions(state, seat)
    index = next(k for k, a in enumerate(legal) if a.type == "reveal" and a.value == value)
    assert all(a.type in ("reveal", "take_any_time_book") for a in legal)
    await table.press(user, message, index, rec.version)
    after, _spec, new_state = await table.load()
    assert after.version == rec.version + 1
    assert new_state.players[i]["doom"] == doom + value
    assert {p.seat for p in spec.engine.pending(new_state)} == owing, "the turn did not move"
    assert not h.fake.take_problems()

"""Cthulhu Fluxx played through the real discord.py stack: a whole game, a surprise played off turn,
a player joining mid-game, reaction prompts sent to every other seat."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest


from .harness import Harness
from .tables import Table, custom_ids


def eager_surprises(legal: list[Any], rnd: random.Random) -> int:
    """Answer a reaction window with a surprise whenever one fits; otherwise play at random."""
    plays = [i for i, a in enumerate(legal) if a.type == "play"]
    if any(a.type == "pass" for a in legal) and plays:
        return rnd.choice(plays)
    return rnd.randrange(len(legal))


async def play_to_the_end(h: Harness, table: Table, rnd: random.Random) -> bool:
    """Play a whole game; True if a surprise was played by someone whose turn it was not."""
    off_turn = False
    for _ in range(1500):
        rec, spec, state = await table.load()
        prompts = spec.engine.pending(state)
        if not prompts:
            assert rec.status == "finished"
            return off_turn
        if prompts[0].kind == "react" and prompts[0].params.get("by"):
            # The card's player is never asked to answer their own card.
            assert prompts[0].params["by"] not in {p.seat for p in prompts}
        before = len(await h.bot.store.actions(table.sid))
        await table.step(rnd, eager_surprises)
        log = await h.bot.store.actions(table.sid)
        assert len(log) == before + 1, "every click applies exactly once"
        move = json.loads(log[-1].action_json)
        if prompts[0].kind == "react" and move["type"] == "play" and log[-1].seat != state.players[state.current].seat:
            off_turn = True
    raise AssertionError("the game did not end")


async def test_whole_game_with_an_off_turn_surprise_and_a_late_joiner(h: Harness) -> None:
    users = [h.user(n) for n in ("alice", "bob", "carol")]
    late = h.user("dave")
    table = Table(h, users, game="fluxx_cthulhu")
    await table.open(users[0])
    await table.seat_all()
    lobby = h.fake.message(table.table_id)
    assert "Cthulhu Fluxx" in lobby["embeds"][0]["title"]
    # Dave sits down while the game runs, from the table's Join button.
    assert f"gj:{table.sid}" in custom_ids(lobby)
    r = await h.click(late, table.table_id, f"gj:{table.sid}")
    assert r.ephemeral
    table.users[str(late.id)] = late
    rec, _spec, state = await table.load()
    assert late.id in rec.seats and len(state.players) == 4
    assert h.fake.dms_to(late.id), "the newcomer gets their hand by DM"
    r = await h.click(late, table.table_id, f"gj:{table.sid}")
    assert r.ephemeral and "already" in r.content

    rnd = random.Random(2)
    games = [await play_to_the_end(h, table, rnd)]
    posts = [m["content"] for m in h.fake.messages_in(h.channel.id, include_ephemeral=False)]
    assert any("wins" in p or "Everyone loses" in p for p in posts)
    # Surprises are in few hands; play further games at the same table until one is played off turn.
    while not any(games) and len(games) < 6:
        table = Table(h, users, game="fluxx_cthulhu")
        await table.open(users[0])
        await table.seat_all()
        games.append(await play_to_the_end(h, table, rnd))
    assert any(games), "a surprise was played out of turn through a DM or ephemeral prompt"
    assert not h.fake.take_problems()


async def test_reaction_window_prompts_every_other_seat_by_dm(h: Harness) -> None:
    users = [h.user(n) for n in ("ann", "ben", "cat")]
    table = Table(h, users, game="fluxx_cthulhu")
    await table.open(users[0], "meta_rule")
    await table.seat_all()
    rnd = random.Random(7)
    for _ in range(400):
        rec, spec, state = await table.load()
        prompts = spec.engine.pending(state)
        if not prompts:
            break
        if prompts[0].kind == "react":
            waiting = [p.seat for p in prompts]
            for seat in waiting:
                message = table.private_message(table.users[seat], rec.version)
                assert message is not None, "every seat in the window has its own pass/play buttons"
                assert any(c.startswith(f"gb:{table.sid}:{rec.version}:") for c in custom_ids(message))
            # One seat passes; the window stays open for the other, whose DM moves to the new version
            # in place (no "outdated" detour).
            first, rest = waiting[0], waiting[1:]
            dms_before = len(h.fake.dms_to(table.users[rest[0]].id))
            message = table.private_message(table.users[first], rec.version)
            legal = spec.engine.legal_actions(state, first)
            await table.press(table.users[first], message, next(i for i, a in enumerate(legal) if a.type == "pass"),
                              rec.version)
            after, _spec, _state = await table.load()
            assert [p.seat for p in spec.engine.pending(_state)] == rest
            message = table.private_message(table.users[rest[0]], after.version)
            assert message is not None and message["id"] in [m["id"] for m in h.fake.dms_to(table.users[rest[0]].id)]
            assert len(h.fake.dms_to(table.users[rest[0]].id)) == dms_before, "edited, not sent again"
            return
        await table.step(rnd)
    pytest.fail("no reaction window opened in 400 moves")


async def test_russian_table(h: Harness) -> None:
    h.guild.preferred_locale = "ru"
    users = [h.user("аня", locale="ru"), h.user("боря", locale="ru")]
    table = Table(h, users, game="fluxx_cthulhu")
    await table.open(users[0])
    await table.seat_all()
    msg = h.fake.message(table.table_id)
    assert msg["embeds"][0]["title"].startswith("Fluxx Ктулху")
    r = await h.click(users[1], table.table_id, f"gh:{table.sid}")
    assert r.message["embeds"][0]["title"].startswith("Ваша рука")


@pytest.mark.parametrize(("locale", "hint"), [("en", "You may still turn up"), ("ru", "Можно и сейчас открыть")])
def test_the_elder_signs_owner_sees_the_reveal_offered_off_turn(locale: str, hint: str) -> None:
    """Off turn, the private view of the Elder Sign's owner says the hidden creeper may be turned up now
    (its button comes with the view's actions); other players are told nothing of the kind."""
    from bot.ui import Names
    from cogs.fluxx_cthulhu import UI
    from rules.fluxx_cthulhu import SPEC
    from tests.rules.fluxx_cthulhu.helpers import arrange, new

    s = arrange(new(3), keepers={1: ["elder_sign"]}, creepers={1: ["mi_go"]}, current=0)
    s.hidden = "mi_go"
    names = Names({"p0": "Ann", "p1": "Ben", "p2": "Cat"})
    owner = UI.private_embed(SPEC.engine.view(s, "p1"), locale, names)
    other = UI.private_embed(SPEC.engine.view(s, "p2"), locale, names)
    assert hint in (owner.description or "") and hint not in (other.description or "")
    assert [a.type for a in SPEC.engine.legal_actions(s, "p1")] == ["use_power"]

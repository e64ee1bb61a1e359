"""No game is lost across a restart, whatever the game: a new bot over the same database reloads the very
state, the buttons of a DM sent before the restart still work, and play goes on to the end."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from bot.client import GameBot
from rules.core import replay

from .harness import Harness
from .tables import Table

SEATS = {"call_to_glory": 2, "fluxx_cthulhu": 3, "cthulhu_wars_duel": 2, "coc_lcg": 2, "eldritch_horror": 2}


@pytest.mark.parametrize("game", sorted(SEATS))
async def test_a_restart_mid_game_loses_nothing(h: Harness, make_bot: Callable[[], GameBot], game: str) -> None:
    users = [h.user(f"{game[:4]}{i}") for i in range(SEATS[game])]
    table = Table(h, users, game=game)
    await table.open(users[0])
    await table.seat_all()
    rnd = random.Random(11)
    for _ in range(12):
        await table.step(rnd)
    rec, spec, state = await table.load()
    seat = spec.engine.pending(state)[0].seat
    user = table.users[seat]
    old = table.private_message(user, rec.version)
    assert old is not None, "the player owing a move holds a DM with buttons for this version"

    await h.restart(make_bot)

    again, _spec, reloaded = await table.load()
    assert again.version == rec.version and reloaded == state, "the state is read back exactly"
    legal = spec.engine.legal_actions(state, seat)
    await table.press(user, old, len(legal) - 1, rec.version)  # a button from before the restart
    after, _spec, after_state = await table.load()
    expected, _ = spec.engine.apply(state, seat, legal[-1])
    assert after.version == rec.version + 1 and after_state == expected
    for _ in range(3000):
        if not await table.step(rnd):
            break
    final, _spec, final_state = await table.load()
    assert final.status == "finished"
    # The log alone rebuilds the finished game: what recovery falls back on when a snapshot is unreadable.
    log = [(e.seat, e.action_json) for e in await h.bot.store.actions(table.sid)]
    assert replay(spec, [str(u) for u in final.seats], final.options, final.seed, log) == final_state

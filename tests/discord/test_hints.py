"""The 💡 hint (issue 27) through Discord: a player asks from their private view or with ``/game hint``
and alone reads the AI's best moves, named as their own buttons, each with its share of simulated games
won. Asking is not a move (nothing of the game is stored anew), the table names the seats that asked,
the lobby's switch can turn hints off, and a flood of asks meets the hint limit."""

from __future__ import annotations

import json
import re
import sys
import threading
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import BaseModel

from bot.client import GameBot
from cogs.games.ai_seats import HINT_LEVEL, compute_hint
from cogs.games.commands import playable
from cogs.games.render import private_message
from rules import registry
from rules.ai import hint
from rules.core import Rng

from .harness import Harness
from .tables import Table, components, custom_ids

GAMES = [spec.id for spec in playable()]
MOVE_LINE = re.compile(r"^(\d)\. \*\*(.+)\*\* — wins (\d{1,3}) % of (\d+) simulated games?$")


async def started(h: Harness, game: str = "call_to_glory", switches: set[str] | None = None) -> Table:
    """A running game at its smallest human table; ``switches``: the lobby's switches set by the host."""
    spec = registry.get(game)
    table = Table(h, [h.user(name) for name in ("alice", "bob", "carol", "dan")[:max(2, spec.min_seats)]], game)
    host = next(iter(table.users.values()))
    await table.open(host)
    if switches is not None:
        await h.bot.sessions.set_switches(table.sid, host.id, switches)
    await table.seat_all()
    return table


async def to_move(table: Table) -> tuple[Any, Any, Any, str]:
    rec, spec, state = await table.load()
    return rec, spec, state, spec.engine.pending(state)[0].seat


async def stored(h: Harness, sid: int) -> tuple[int, str | None, int]:
    """What a move would change: the version, the state and the length of the log."""
    rec = await h.bot.store.get(sid)
    return rec.version, rec.state_json, len(await h.bot.store.actions(sid))


def hint_lines(message: dict[str, Any]) -> list[re.Match[str]]:
    return [m for line in message["content"].splitlines() if (m := MOVE_LINE.match(line))]


def labels_by_index(rec: Any, state: Any, seat: str) -> dict[str, int]:
    """The seat's moves as its buttons and menu options name them (every page of them)."""
    out: dict[str, int] = {}
    page, pages = 0, 1
    while page < pages:
        _embed, view = private_message(rec, state, seat, "en", page)
        for comp in components({"components": view.to_components()}):
            kind = comp.get("custom_id", "")[:3]
            if kind == "gb:":
                out[comp["label"]] = int(comp["custom_id"].rsplit(":", 1)[1])
            elif kind == "gs:":
                out.update({o["label"]: int(o["value"]) for o in comp["options"]})
            elif kind == "gp:":
                pages = max(pages, int(comp["custom_id"].rsplit(":", 1)[1]) + 1)
        page += 1
    return out


@pytest.mark.parametrize("game", GAMES)
async def test_every_game_gives_a_hint_of_legal_moves_and_stores_nothing_new(h: Harness, game: str) -> None:
    table = await started(h, game)
    rec, spec, state, seat = await to_move(table)
    before = await stored(h, table.sid)
    r = await h.slash(table.users[seat], h.channel, "game hint")
    assert r.response_type == 5 and r.ephemeral, "the search runs after an ephemeral 'thinking'"
    (answer,) = r.followups
    lines = hint_lines(answer)
    legal = spec.engine.legal_actions(state, seat)
    named = labels_by_index(rec, state, seat)
    assert 1 <= len(lines) <= min(3, len(legal)) and [int(m[1]) for m in lines] == list(range(1, len(lines) + 1))
    assert all(m[2] in named for m in lines), "each move is named as its button is"
    assert all(0 <= int(m[3]) <= 100 and int(m[4]) > 0 for m in lines)
    assert await stored(h, table.sid) == before, "a hint is not a move"
    assert (await h.bot.sessions.settings(table.sid)).hinted == (seat,)


async def test_a_player_who_uses_hints_is_named_on_the_table_and_the_game_goes_on(h: Harness) -> None:
    table = await started(h)
    rec, _spec, _state, seat = await to_move(table)
    user = table.users[seat]
    dm = table.private_message(user, rec.version)
    assert dm is not None and f"gi:{table.sid}:{rec.version}" in custom_ids(dm)
    button = next(c for c in components(dm) if c.get("custom_id", "").startswith("gi:"))
    assert button["label"] == "Hint" and button["emoji"]["name"] == "💡"
    before = await stored(h, table.sid)
    first = await h.click(user, dm["id"], f"gi:{table.sid}:{rec.version}")
    assert first.response_type == 5 and first.ephemeral
    assert hint_lines(first.followups[0]) and "nothing changed in the game" in first.followups[0]["content"]
    again = await h.click(user, dm["id"], f"gi:{table.sid}:{rec.version}")
    assert again.followups[0]["content"] == first.followups[0]["content"], "one decision, one hint"
    assert await stored(h, table.sid) == before
    await h.drain()
    fields = h.fake.message(table.table_id)["embeds"][0]["fields"]
    marked = [f for f in fields if f["name"].startswith("💡")]
    assert marked == [{"name": "💡 Asked the AI for hints", "value": rec.names[seat], "inline": False}]
    import random

    rnd = random.Random(3)
    for _ in range(6):
        await table.step(rnd)
    await h.drain()
    fields = h.fake.message(table.table_id)["embeds"][0]["fields"]
    assert any(f["name"].startswith("💡") and f["value"] == rec.names[seat] for f in fields), "the mark stays"
    assert (await table.load())[0].version > before[0], "hinted players play on as usual"


async def test_an_old_hint_button_answers_outdated_and_a_seat_without_a_decision_is_told_so(h: Harness) -> None:
    table = await started(h)
    rec, spec, state, seat = await to_move(table)
    user = table.users[seat]
    dm = table.private_message(user, rec.version)
    assert dm is not None
    # "My hand" gives an ephemeral copy of the view, which keeps its buttons after the move below.
    old = await h.click(user, table.table_id, f"gh:{table.sid}")
    await table.press(user, dm, 0, rec.version)
    assert old.message_id is not None
    r = await h.click(user, old.message_id, f"gi:{table.sid}:{rec.version}")
    assert r.response_type == 4 and r.ephemeral and "outdated" in (r.content or "")
    rec, spec, state, _seat = await to_move(table)
    idle = next(s for s in table.users if not spec.engine.legal_actions(state, s))
    r = await h.slash(table.users[idle], h.channel, "game hint")
    assert r.ephemeral and "no decision to make" in (r.content or "")
    stranger = h.user("mallory")
    r = await h.slash(stranger, h.channel, "game hint")
    assert r.ephemeral and "not seated" in (r.content or "")
    assert (await h.bot.sessions.settings(table.sid)).hinted == ()


async def test_with_hints_switched_off_there_is_no_button_and_asking_is_refused_politely(h: Harness) -> None:
    table = await started(h, switches={"rated"})
    rec, _spec, _state, seat = await to_move(table)
    dm = table.private_message(table.users[seat], rec.version)
    assert dm is not None and not any(c.startswith("gi:") for c in custom_ids(dm))
    before = await stored(h, table.sid)
    r = await h.slash(table.users[seat], h.channel, "game hint", locale="ru")
    assert r.response_type == 4 and r.ephemeral
    assert r.content == "Подсказки за этим столом выключены: так решил ведущий в лобби."
    assert await stored(h, table.sid) == before and (await h.bot.sessions.settings(table.sid)).hinted == ()


async def test_a_flood_of_hint_asks_meets_the_hint_limit(h: Harness) -> None:
    table = await started(h)
    h.bot.ai_players.hint_limit.clock = lambda: 1000.0  # no time passes during the flood
    rec, _spec, _state, seat = await to_move(table)
    user = table.users[seat]
    dm = table.private_message(user, rec.version)
    assert dm is not None
    answers = [await h.click(user, dm["id"], f"gi:{table.sid}:{rec.version}") for _ in range(5)]
    burst = h.bot.settings.hint_burst
    assert all(a.response_type == 5 for a in answers[:burst])
    assert all(a.response_type == 4 and "rationed" in (a.content or "") for a in answers[burst:])
    h.bot.ai_players.hint_limit.clock = lambda: 1000.0 + 60.0 / h.bot.settings.hints_per_minute
    assert (await h.click(user, dm["id"], f"gi:{table.sid}:{rec.version}")).response_type == 5, "a token came back"


async def test_the_search_runs_in_the_ai_worker_not_on_the_event_loop(h: Harness,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    table = await started(h)
    threads: list[str] = []
    # The bot's own copy of the module: discord.py drops a cog's modules when a bot closes, and imports them
    # afresh for the next one.
    ai_seats = sys.modules[type(h.bot.ai_players).__module__]
    real = ai_seats.compute_hint

    def watched(*args: Any) -> str:
        threads.append(threading.current_thread().name)
        return real(*args)

    monkeypatch.setattr(ai_seats, "compute_hint", watched)
    _rec, _spec, _state, seat = await to_move(table)
    r = await h.slash(table.users[seat], h.channel, "game hint")
    assert len(threads) == 1 and hint_lines(r.followups[0])
    assert threads[0].startswith("ai") and threads[0] != threading.main_thread().name


async def test_the_hint_is_the_same_for_every_state_the_seat_cannot_tell_apart(h: Harness) -> None:
    """Another deal of what the seat cannot see (opponents' hands, deck order) gives the same hint."""
    table = await started(h)
    rec, spec, state, seat = await to_move(table)
    twin = spec.engine.determinize(state, seat, Rng.from_seed(99))
    assert spec.engine.view(twin, seat) == spec.engine.view(state, seat)
    assert spec.engine.hidden_piles(twin) != spec.engine.hidden_piles(state), "the twin really differs"

    def seen(moves: list[Any]) -> list[tuple[BaseModel, float, int]]:
        return [(m.action, m.win_share, m.simulations) for m in moves]

    assert seen(await h.bot.ai_players.hint(rec, state, seat)) == seen(await h.bot.ai_players.hint(rec, twin, seat))


async def test_a_russian_player_reads_the_hint_in_russian(h: Harness) -> None:
    table = await started(h)
    _rec, _spec, _state, seat = await to_move(table)
    r = await h.slash(table.users[seat], h.channel, "game hint", locale="ru")
    text = r.followups[0]["content"]
    assert text.startswith("💡 Лучшие ходы") and "Подсказка — это совет, а не ход" in text
    assert re.search(r"победа в \d+ % из \d+ смоделированн(ой партии|ых партий)$", text.splitlines()[1])


async def test_advice_about_a_position_that_moved_on_while_the_ai_thought_is_withheld(h: Harness) -> None:
    table = await started(h)
    rec, spec, state, seat = await to_move(table)
    thinking = h.bot.ai_players.hint

    async def meanwhile(*args: Any) -> list[Any]:
        moves = await thinking(*args)
        await h.bot.sessions.act(table.sid, int(seat), rec.version, spec.engine.legal_actions(state, seat)[0])
        return moves

    h.bot.ai_players.hint = meanwhile  # type: ignore[method-assign]
    r = await h.slash(table.users[seat], h.channel, "game hint")
    assert "moved on while the AI was thinking" in r.followups[0]["content"] and not hint_lines(r.followups[0])
    assert (await h.bot.sessions.settings(table.sid)).hinted == (), "no advice given, no mark"


def test_the_worker_sends_back_the_searchs_own_ranking_as_json() -> None:
    """What crosses the process boundary is text both ways: the hint read back equals the search's own."""
    spec = registry.get("fluxx_cthulhu")
    state = spec.engine.new_game(["1", "2", "3"], spec.options_model(), 5)
    seat = spec.engine.pending(state)[0].seat
    sent = json.loads(compute_hint(spec.id, state.model_dump_json(), seat, 77))
    own = hint(spec, state, seat, seed=77, level=HINT_LEVEL)
    assert [(spec.parse_action(a), s, n) for a, s, n in sent] == [(m.action, m.win_share, m.simulations) for m in own]


async def test_the_hint_button_and_the_tables_mark_outlive_a_restart(h: Harness,
                                                                     make_bot: Callable[[], GameBot]) -> None:
    table = await started(h)
    rec, _spec, _state, seat = await to_move(table)
    user = table.users[seat]
    dm = table.private_message(user, rec.version)
    assert dm is not None
    first = await h.click(user, dm["id"], f"gi:{table.sid}:{rec.version}")
    await h.restart(make_bot)
    assert (await h.bot.sessions.settings(table.sid)).hinted == (seat,), "the note is stored, not kept in memory"
    again = await h.click(user, dm["id"], f"gi:{table.sid}:{rec.version}")
    assert again.followups[0]["content"] == first.followups[0]["content"]
    await h.bot.tables.refresh_table(rec, (await table.load())[2], again=True)
    fields = h.fake.message(table.table_id)["embeds"][0]["fields"]
    assert [f["value"] for f in fields if f["name"].startswith("💡")] == [rec.names[seat]]

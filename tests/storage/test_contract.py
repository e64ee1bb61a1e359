"""The storage contract, run against every backend (SQLite always; PostgreSQL when ``TEST_DATABASE_URL``
names a server): channel exclusivity, compare-and-swap, the action log, several processes on one database,
migrations. Test ids end in ``[sqlite]`` or ``[postgres]``."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.storage import (
    Away,
    ChannelBusy,
    Delivery,
    InvalidTransition,
    RatingRow,
    SessionNotFound,
    Settled,
    SessionRecord,
    Step,
    StorageError,
    Store,
    VersionConflict,
    open_store,
)

from .conftest import Backend
from .helpers import CHANNEL, GUILD, HOST, new_lobby, running


async def test_create_get_active(store: Store) -> None:
    assert await store.active_in_channel(CHANNEL) is None
    created = await new_lobby(store)
    assert (created.status, created.seats, created.version, created.host_id) == ("lobby", [HOST], 0, HOST)
    assert (created.guild_id, created.channel_id, created.game_id) == (GUILD, CHANNEL, "fluxx_cthulhu")
    assert (created.options, created.seed, created.locale) == ({"variant": "base"}, 42, "en")
    assert created.state_json is None and created.table_message_id is None
    assert created.created_at.tzinfo is not None and created.created_at == created.updated_at
    assert await store.get(created.id) == created
    assert await store.active_in_channel(CHANNEL) == created
    assert await store.active_in_channel(CHANNEL + 1) is None


async def test_unsigned_64_bit_seed_round_trips(store: Store) -> None:
    created = await new_lobby(store, seed=2**64 - 1)
    assert (await store.get(created.id)).seed == 2**64 - 1


async def test_missing_session(store: Store) -> None:
    with pytest.raises(SessionNotFound):
        await store.get(999)
    with pytest.raises(SessionNotFound):
        await store.actions(999)
    with pytest.raises(SessionNotFound):
        await store.set_table_message(999, 1)
    with pytest.raises(SessionNotFound):
        await store.commit_action(999, 0, seat="a", action_json="{}", state_json="{}")


async def test_second_active_session_in_channel_is_busy(store: Store) -> None:
    first = await new_lobby(store)
    with pytest.raises(ChannelBusy) as info:
        await new_lobby(store)
    assert info.value.existing == first
    started = await store.start(first.id, first.version, "{}", [HOST])
    with pytest.raises(ChannelBusy):
        await new_lobby(store)
    assert await new_lobby(store, CHANNEL + 1)  # other channels are unaffected
    assert await store.active_in_channel(CHANNEL) == started


@pytest.mark.parametrize("end", ["finished", "abandoned"])
async def test_channel_free_again_after_session_ends(store: Store, end: str) -> None:
    first = await running(store)
    await store.set_status(first.id, first.version, end)  # type: ignore[arg-type]
    assert await store.active_in_channel(CHANNEL) is None
    second = await new_lobby(store)
    assert second.id != first.id
    assert [s.id for s in await store.sessions_with_status(end)] == [first.id]  # type: ignore[arg-type]


async def test_update_lobby_is_cas_and_partial(store: Store) -> None:
    lobby = await new_lobby(store)
    joined = await store.update_lobby(lobby.id, 0, seats=[HOST, 444])
    assert (joined.seats, joined.options, joined.host_id, joined.version) == ([HOST, 444], {"variant": "base"}, HOST, 1)
    moved = await store.update_lobby(lobby.id, 1, host_id=444, options={"variant": "expert"})
    assert (moved.seats, moved.options, moved.host_id, moved.version) == ([HOST, 444], {"variant": "expert"}, 444, 2)
    with pytest.raises(VersionConflict) as info:
        await store.update_lobby(lobby.id, 1, seats=[HOST])
    assert (info.value.session_id, info.value.expected, info.value.actual) == (lobby.id, 1, 2)


async def test_start_then_lobby_edits_are_refused(store: Store) -> None:
    lobby = await new_lobby(store)
    started = await store.start(lobby.id, 0, '{"turn":0}', [444, HOST])
    assert (started.status, started.state_json, started.seats) == ("running", '{"turn":0}', [444, HOST])
    assert started.version == 1
    with pytest.raises(InvalidTransition):
        await store.update_lobby(lobby.id, 1, seats=[HOST])
    with pytest.raises(InvalidTransition):
        await store.start(lobby.id, 1, "{}", [HOST])
    assert (await store.get(lobby.id)).version == 1  # refused changes leave the row alone


async def test_status_rules(store: Store) -> None:
    lobby = await new_lobby(store)
    with pytest.raises(InvalidTransition):  # actions need a running game
        await store.commit_action(lobby.id, 0, seat="a", action_json="{}", state_json="{}")
    with pytest.raises(ValueError):
        await store.set_status(lobby.id, 0, "running")
    with pytest.raises(ValueError):
        await store.commit_action(lobby.id, 0, seat="a", action_json="{}", state_json="{}", status="lobby")
    ended = await store.set_status(lobby.id, 0, "abandoned")
    assert (ended.status, ended.version) == ("abandoned", 1)
    with pytest.raises(InvalidTransition):  # terminal
        await store.set_status(lobby.id, 1, "finished")


async def test_table_message_does_not_bump_version(store: Store) -> None:
    game = await running(store)
    updated = await store.set_table_message(game.id, 987654321)
    assert (updated.table_message_id, updated.version) == (987654321, game.version)
    # an action computed against the version before the message was posted still commits
    await store.commit_action(game.id, game.version, seat="a", action_json="{}", state_json="{}")
    assert (await store.set_table_message(game.id, None)).table_message_id is None


async def test_sessions_with_status(store: Store) -> None:
    a = await running(store, 1)
    b = await new_lobby(store, 2)
    c = await running(store, 3)
    await store.set_status(c.id, c.version, "finished")
    assert [s.id for s in await store.sessions_with_status("running")] == [a.id]
    assert [s.id for s in await store.sessions_with_status("lobby", "running")] == [a.id, b.id]
    with pytest.raises(ValueError):
        await store.sessions_with_status()


async def test_action_log_order_and_content(store: Store) -> None:
    game = await running(store)
    version = game.version
    moves = [("0", '{"type":"draw"}'), ("1", '{"type":"play","card":"Ктулху"}'), ("0", '{"type":"pass"}')]
    for i, (seat, action) in enumerate(moves):
        last = i == len(moves) - 1
        record = await store.commit_action(
            game.id,
            version,
            seat=seat,
            action_json=action,
            state_json=f'{{"turn":{i + 1}}}',
            status="finished" if last else "running",
        )
        assert record.version == version + 1
        version = record.version
    assert (record.status, record.state_json) == ("finished", '{"turn":3}')
    log = await store.actions(game.id)
    assert [(e.seat, e.action_json) for e in log] == moves
    assert [e.seq for e in log] == [game.version + 1, game.version + 2, game.version + 3]
    assert all(e.session_id == game.id for e in log)
    assert log[-1].created_at == record.updated_at
    assert await store.active_in_channel(CHANNEL) is None  # finishing via the last action frees the channel


async def test_concurrent_actions_on_many_sessions_are_each_stored_once(store: Store) -> None:
    """Clicks on many tables arriving together (SQLite: one shared transaction; PostgreSQL: pooled
    connections) are each their own CAS and log entry."""
    games = [await running(store, CHANNEL + i) for i in range(30)]
    results = await asyncio.gather(*(
        store.commit_action(g.id, g.version, seat="0", action_json=f'{{"n":{g.id}}}', state_json=f'{{"s":{g.id}}}')
        for g in games
    ))
    for game, record in zip(games, results):
        assert (record.id, record.version, record.state_json) == (game.id, game.version + 1, f'{{"s":{game.id}}}')
        log = await store.actions(game.id)
        assert [(e.seq, e.action_json) for e in log] == [(game.version + 1, f'{{"n":{game.id}}}')]


async def test_names_and_locales_are_stored_with_the_lobby_and_updated(store: Store) -> None:
    rec = await store.create_session(
        guild_id=1, channel_id=2, game_id="call_to_glory", host_id=10, options={}, seed=1, locale="ru",
        names={"10": "Аня"}, locales={"10": "ru"},
    )
    assert (rec.names, rec.locales) == ({"10": "Аня"}, {"10": "ru"})
    rec = await store.update_lobby(rec.id, rec.version, seats=[10, 11], names={"10": "Аня", "11": "Bob"},
                                   locales={"10": "ru", "11": "en"})
    got = await store.get(rec.id)
    assert (got.names, got.locales) == ({"10": "Аня", "11": "Bob"}, {"10": "ru", "11": "en"})
    started = await store.start(rec.id, rec.version, "{}", [10, 11])
    joined = await store.commit_action(started.id, started.version, seat="0", action_json='{"join":12}',
                                       state_json="{}", seats=[10, 11, 12], names={**got.names, "12": "Кир"},
                                       locales={**got.locales, "12": "ru"})
    assert (await store.get(rec.id)) == joined and joined.seats == [10, 11, 12] and joined.names["12"] == "Кир"


async def test_options_keep_their_key_order(store: Store) -> None:
    """Options are read back as written, key order included, on every backend."""
    options = {"zeta": 1, "alpha": {"b": 2, "a": [3, "тест"]}, "mid": None}
    rec = await store.create_session(GUILD, CHANNEL, "call_to_glory", HOST, options, 7, "en")
    assert list((await store.get(rec.id)).options) == ["zeta", "alpha", "mid"]
    assert (await store.get(rec.id)).options == options


# --- several processes on one database ------------------------------------------------------------------


async def test_busy_across_processes(backend: Backend) -> None:
    """Two stores (as two bot processes would have) racing to open a lobby: the unique index decides."""
    async with backend.new_store() as a, backend.new_store() as b:
        results = await asyncio.gather(new_lobby(a), new_lobby(b), return_exceptions=True)
    assert sorted(type(r).__name__ for r in results) == ["ChannelBusy", "SessionRecord"]


async def test_version_reads_what_another_process_committed(backend: Backend) -> None:
    """``version`` is what a process checks its cached copy against: it must see another process's commit."""
    async with backend.new_store() as a, backend.new_store() as b:
        game = await running(a)
        assert await b.version(game.id) == game.version
        moved = await a.commit_action(game.id, game.version, seat="0", action_json='"x"', state_json="{}")
        assert await b.version(game.id) == moved.version == game.version + 1
        with pytest.raises(SessionNotFound):
            await b.version(game.id + 1000)


async def test_writes_made_together_each_get_their_own_answer(store: Store) -> None:
    """Writes issued at the same moment (clicks on several tables, their delivery records and clocks; SQLite
    commits those of one pass of the event loop in one transaction) each get their own answer, and the ones
    refused leave the others stored. The stale write goes to a third table: on PostgreSQL the requests of one
    session race on separate connections, so the version a stale write finds there depends on who came first."""
    a, b, c = await running(store), await running(store, CHANNEL + 1), await running(store, CHANNEL + 2)
    due = datetime(2026, 11, 24, 20, 0, tzinfo=UTC)
    results = await asyncio.gather(
        store.commit_action(a.id, a.version, seat="0", action_json='"a"', state_json='{"a":1}'),
        store.save_delivery(Delivery(session_id=a.id + 1000, user_id=1)),  # no such session
        store.commit_action(c.id, c.version + 5, seat="0", action_json='"late"', state_json="{}"),
        store.set_timer(a.id + 1000, "turn", "0", due, 1),  # no such session
        store.commit_steps(b.id, b.version, [Step("0", '"b1"'), Step("1", '"b2"', auto=True)], state_json='{"b":2}'),
        store.save_delivery(Delivery(session_id=a.id, user_id=7, message_id=70, version=a.version + 1)),
        store.set_timer(b.id, "turn", "1", due, b.version + 2),
        store.cancel_timer(a.id, "turn", "0"),
        return_exceptions=True,
    )
    moved_a, lost_delivery, stale, lost_timer, moved_b, saved, timer, cancelled = results
    assert isinstance(moved_a, SessionRecord) and moved_a.version == a.version + 1
    assert isinstance(lost_delivery, StorageError)
    assert isinstance(stale, VersionConflict) and (stale.expected, stale.actual) == (c.version + 5, c.version)
    assert isinstance(lost_timer, SessionNotFound)
    assert isinstance(moved_b, SessionRecord) and moved_b.version == b.version + 2
    assert saved is None and cancelled is False
    assert await store.timers(b.id) == [timer]
    assert (await store.deliveries(a.id))[7].message_id == 70
    assert [(e.seq, e.action_json) for e in await store.actions(a.id)] == [(a.version + 1, '"a"')]
    assert [(e.seq, e.auto) for e in await store.actions(b.id)] == [(b.version + 1, False), (b.version + 2, True)]
    assert (await store.get(b.id)).state_json == '{"b":2}'
    assert await store.actions(c.id) == [] and (await store.get(c.id)).version == c.version


@pytest.mark.parametrize("two_processes", [False, True])
async def test_racing_commits_exactly_one_wins(backend: Backend, two_processes: bool) -> None:
    async with backend.new_store() as a, backend.new_store() as b:
        game = await running(a)
        other = b if two_processes else a
        results = await asyncio.gather(
            a.commit_action(game.id, game.version, seat="0", action_json='"first"', state_json="{}"),
            other.commit_action(game.id, game.version, seat="1", action_json='"second"', state_json="{}"),
            return_exceptions=True,
        )
        wins = [r for r in results if isinstance(r, SessionRecord)]
        losses = [r for r in results if isinstance(r, VersionConflict)]
        assert len(wins) == 1 and len(losses) == 1
        assert (losses[0].expected, losses[0].actual) == (game.version, game.version + 1)
        log = await a.actions(game.id)
        assert len(log) == 1 and log[0].seq == wins[0].version
        assert (await b.get(game.id)).version == game.version + 1


async def test_many_processes_hammering_one_game_never_lose_or_double_a_move(backend: Backend) -> None:
    """Four stores each try to play 25 moves on one game, always from the version they last saw: every
    version is won by exactly one of them, and the log holds each winning move once, in order."""
    stores = [backend.new_store() for _ in range(4)]
    for s in stores:
        await s.open()
    try:
        game = await running(stores[0])
        won: list[tuple[int, str]] = []

        async def player(n: int, store: Store) -> None:
            for k in range(25):
                current = await store.get(game.id)
                action = f'{{"p":{n},"k":{k}}}'
                try:
                    rec = await store.commit_action(game.id, current.version, seat=str(n), action_json=action,
                                                    state_json=f'{{"v":{current.version + 1}}}')
                except VersionConflict:
                    continue
                won.append((rec.version, action))

        await asyncio.gather(*(player(n, s) for n, s in enumerate(stores)))
        log = await stores[1].actions(game.id)
        assert sorted(won) == [(e.seq, e.action_json) for e in log]
        assert [e.seq for e in log] == list(range(game.version + 1, game.version + 1 + len(log)))
        final = await stores[2].get(game.id)
        assert final.version == game.version + len(log) and final.state_json == f'{{"v":{final.version}}}'
    finally:
        for s in stores:
            await s.close()


async def test_commit_is_one_transaction(store: Store, backend: Backend) -> None:
    """If the log append fails, the state and version change must not survive either."""
    game = await running(store)
    # squat on the seq the next action will need, as an outside writer
    await backend.execute("INSERT INTO action_log (session_id, seq, seat, action_json, created_at)"
                          " VALUES (?, ?, 'x', '{}', '2020-01-01T00:00:00+00:00')",
                          (game.id, game.version + 1))
    with pytest.raises(StorageError):
        await store.commit_action(game.id, game.version, seat="0", action_json="{}", state_json='{"new":1}')
    after = await store.get(game.id)
    assert (after.version, after.state_json) == (game.version, game.state_json)


async def test_a_failing_action_does_not_sink_the_others(store: Store, backend: Backend) -> None:
    games = [await running(store, CHANNEL + i) for i in range(3)]
    bad = games[1]
    await backend.execute("INSERT INTO action_log (session_id, seq, seat, action_json, created_at)"
                          " VALUES (?, ?, 'x', '{}', '2020-01-01T00:00:00+00:00')", (bad.id, bad.version + 1))
    results = await asyncio.gather(*(
        store.commit_action(g.id, g.version, seat="0", action_json="{}", state_json='{"new":1}') for g in games
    ), return_exceptions=True)
    assert isinstance(results[1], StorageError)
    assert [r.version for r in (results[0], results[2])] == [games[0].version + 1, games[2].version + 1]
    after = await store.get(bad.id)
    assert (after.version, after.state_json) == (bad.version, bad.state_json)


# --- restart, migrations, open_store -------------------------------------------------------------------


async def test_rows_survive_a_new_store_object(backend: Backend) -> None:
    async with backend.new_store() as first:
        game = await running(first)
        game = await first.commit_action(game.id, game.version, seat="0", action_json='{"a":1}', state_json='{"s":1}')
        game = await first.set_table_message(game.id, 555)
        log = await first.actions(game.id)
    async with backend.new_store() as second:
        assert await second.get(game.id) == game
        assert await second.actions(game.id) == log
        assert [s.id for s in await second.sessions_with_status("running")] == [game.id]
        with pytest.raises(ChannelBusy):
            await new_lobby(second)


async def test_stores_migrating_a_fresh_database_at_once(backend: Backend) -> None:
    stores = [backend.new_store() for _ in range(3)]
    await asyncio.gather(*(s.open() for s in stores))
    try:
        await new_lobby(stores[0])
        assert (await stores[2].active_in_channel(CHANNEL)) is not None
    finally:
        await asyncio.gather(*(s.close() for s in stores))
    async with backend.new_store():  # and reopening applies nothing
        pass


async def test_newer_schema_is_refused(backend: Backend) -> None:
    async with backend.new_store():
        pass
    await backend.execute("INSERT INTO schema_version (version, name, applied_at)"
                          " VALUES (?, 'future', '2030-01-01T00:00:00+00:00')", (999,))
    with pytest.raises(StorageError, match="newer than this build"):
        await backend.new_store().open()


async def test_open_store_picks_the_backend_from_the_url(backend: Backend) -> None:
    store = await open_store(backend.url)
    try:
        assert type(store).__name__ == {"sqlite": "SqliteStore", "postgres": "PostgresStore"}[backend.name]
        await new_lobby(store)
    finally:
        await store.close()
    async with backend.new_store() as again:
        assert await again.active_in_channel(CHANNEL) is not None


async def test_use_before_open_is_a_storage_error(backend: Backend) -> None:
    with pytest.raises(StorageError, match="not open"):
        await backend.new_store().get(1)


async def test_meta_values_are_kept_and_replaced(backend: Backend) -> None:
    async with backend.new_store() as store:
        assert await store.get_meta("commands:global") is None
        await store.set_meta("commands:global", "abc")
        await store.set_meta("commands:global", "def")
    async with backend.new_store() as again:
        assert await again.get_meta("commands:global") == "def"


# --- several steps at once -------------------------------------------------------------------------------


async def test_steps_are_committed_together_each_logged_in_order(store: Store) -> None:
    game = await running(store)
    steps = [Step("0", '"move"'), Step("1", '"pass"', auto=True), Step("0", '"draw"', auto=True)]
    rec = await store.commit_steps(game.id, game.version, steps, state_json='{"after":3}')
    assert (rec.version, rec.status, rec.state_json) == (game.version + 3, "running", '{"after":3}')
    assert rec == await store.get(game.id)
    log = await store.actions(game.id)
    assert [(e.seq, e.seat, e.action_json, e.auto) for e in log] == [
        (game.version + i, s.seat, s.action_json, s.auto) for i, s in enumerate(steps, start=1)]
    one = await store.commit_steps(game.id, rec.version, [Step("1", '"last"')], state_json='{"end":1}',
                                   status="finished")
    assert (one.version, one.status) == (rec.version + 1, "finished")
    assert [e.seq for e in await store.actions(game.id)][-1] == one.version


async def test_steps_are_refused_whole(store: Store, backend: Backend) -> None:
    game = await running(store)
    steps = [Step("0", '"a"'), Step("1", '"b"', auto=True)]
    with pytest.raises(VersionConflict):
        await store.commit_steps(game.id, game.version - 1, steps, state_json="{}")
    # the second step's seq is taken by an outside writer: the first must not be stored either
    await backend.execute("INSERT INTO action_log (session_id, seq, seat, action_json, created_at)"
                          " VALUES (?, ?, 'x', '{}', '2020-01-01T00:00:00+00:00')", (game.id, game.version + 2))
    with pytest.raises(StorageError):
        await store.commit_steps(game.id, game.version, steps, state_json='{"new":1}')
    after = await store.get(game.id)
    assert (after.version, after.state_json) == (game.version, game.state_json)
    assert [e.seq for e in await store.actions(game.id)] == [game.version + 2]
    with pytest.raises(ValueError):
        await store.commit_steps(game.id, game.version, [], state_json="{}")
    with pytest.raises(SessionNotFound):
        await store.commit_steps(999_999, 1, steps, state_json="{}")


async def test_racing_steps_across_processes_exactly_one_wins(backend: Backend) -> None:
    async with backend.new_store() as a, backend.new_store() as b:
        game = await running(a)
        results = await asyncio.gather(
            a.commit_steps(game.id, game.version, [Step("0", '"a1"'), Step("1", '"a2"', auto=True)], state_json="{}"),
            b.commit_steps(game.id, game.version, [Step("0", '"b1"'), Step("1", '"b2"', auto=True)], state_json="{}"),
            return_exceptions=True,
        )
        wins = [r for r in results if isinstance(r, SessionRecord)]
        assert len(wins) == 1 and sum(isinstance(r, VersionConflict) for r in results) == 1
        log = await b.actions(game.id)
        assert [e.seq for e in log] == [game.version + 1, game.version + 2]
        assert len({e.action_json[1] for e in log}) == 1  # both steps of the same winner


async def test_counts_of_open_games_and_due_timers(store: Store) -> None:
    """What /metrics and /healthz read: open sessions by game and status, timers due (unclaimed) at a time."""
    a = await running(store, 1)
    await new_lobby(store, 2)
    c = await running(store, 3)
    await store.set_status(c.id, c.version, "finished")
    t0 = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
    await store.set_timer(a.id, "turn", "a", t0, a.version)
    await store.set_timer(a.id, "idle", None, t0 + timedelta(hours=1), a.version)
    counts = await store.counts(t0)
    assert counts.open_games == {(a.game_id, "running"): 1, (a.game_id, "lobby"): 1}
    assert counts.timers_due == 1
    assert (await store.counts(t0 + timedelta(hours=2))).timers_due == 2


def _row(user: int, mu: float, games: int = 1, wins: int = 0) -> RatingRow:
    return RatingRow(guild_id=GUILD, game_id="fluxx_cthulhu", user_id=user, mu=mu, sigma=8.0, games=games, wins=wins)


async def test_a_games_ratings_are_settled_once(store: Store) -> None:
    """The rated-games row is the key: a second settling (a double finish, a catch-up after a restart) changes
    nothing and does not even ask for new figures."""
    rec = await new_lobby(store)
    seen: list[dict[int, RatingRow]] = []

    def rate(current: dict[int, RatingRow]) -> list[RatingRow]:
        seen.append(current)
        return [_row(u, 25.0 + u, games=current[u].games + 1 if u in current else 1) for u in (1, 2)]

    assert await store.settle_ratings(rec.id, GUILD, "fluxx_cthulhu", [1, 2], "", rate)
    assert not await store.settle_ratings(rec.id, GUILD, "fluxx_cthulhu", [1, 2], "", rate)
    assert seen == [{}]
    assert await store.ratings(GUILD) == [_row(1, 26.0), _row(2, 27.0)]
    assert await store.ratings(GUILD, user_id=2) == [_row(2, 27.0)]
    assert await store.ratings(GUILD, "coc_lcg") == [] and await store.ratings(GUILD + 1) == []
    second = await new_lobby(store, CHANNEL + 1)
    assert await store.settle_ratings(second.id, GUILD, "fluxx_cthulhu", [1, 2], "", rate)
    assert set(seen[1]) == {1, 2} and [r.games for r in await store.ratings(GUILD)] == [2, 2]
    unrated = await new_lobby(store, CHANNEL + 2)
    assert await store.settle_ratings(unrated.id, GUILD, "fluxx_cthulhu", [1, 2], "ai_seat", rate)
    assert len(seen) == 2  # an unrated game asks for no figures
    assert await store.settled([rec.id, unrated.id, 999]) == {
        rec.id: Settled(after={1: (26.0, 8.0), 2: (27.0, 8.0)}), unrated.id: Settled(unrated="ai_seat")}
    assert (await store.settled([second.id]))[second.id].before == {1: (26.0, 8.0), 2: (27.0, 8.0)}
    with pytest.raises(SessionNotFound):
        await store.settle_ratings(999, GUILD, "fluxx_cthulhu", [1], "", rate)


async def test_time_away_is_per_member_and_server(store: Store) -> None:
    until = datetime(2030, 5, 1, 12, 30, 0, 250000, tzinfo=UTC)
    await store.set_away(GUILD, 1, until)
    await store.set_away(GUILD + 1, 1, until + timedelta(days=1))
    await store.set_away(GUILD, 1, until + timedelta(hours=2))  # a new absence replaces the old one
    assert await store.away(GUILD) == [Away(guild_id=GUILD, user_id=1, until=until + timedelta(hours=2))]
    await store.set_away(GUILD, 1, None)
    await store.set_away(GUILD, 2, None)  # nobody to bring back: nothing happens
    assert await store.away(GUILD) == []
    assert [a.user_id for a in await store.away(GUILD + 1)] == [1]

"""The session service: the one path an action takes (lock, load, engine, compare-and-swap, log)."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

import pytest

from bot.sessions import SessionError, SessionService
from bot.storage import Settled, open_store
from rules.core import RuleError


@pytest.fixture
async def service(tmp_path: Path):
    store = await open_store(f"sqlite:///{tmp_path / 's.sqlite3'}")
    yield SessionService(store)
    await store.close()


async def started(service: SessionService, **options: object) -> int:
    rec = await service.open_lobby(guild_id=1, channel_id=10, game_id="call_to_glory", host_id=1,
                                   options=dict(options), locale="en", host_name="Ann")
    await service.join(rec.id, 2, "Bob")
    rec, _state = await service.start(rec.id, 1)
    return rec.id


async def play(service: SessionService, sid: int, moves: int) -> None:
    for _ in range(moves):
        rec, spec, state = await service.load(sid)
        seat = spec.engine.pending(state)[0].seat
        await service.act(sid, int(seat), rec.version, spec.engine.legal_actions(state, seat)[-1])


async def test_actions_are_logged_in_order_and_versions_advance(service: SessionService) -> None:
    sid = await started(service)
    await play(service, sid, 10)
    rec, _spec, _state = await service.load(sid)
    log = await service.store.actions(sid)
    assert [e.seq for e in log] == list(range(log[0].seq, rec.version + 1))
    assert len([e for e in log if not e.auto]) == 10  # the others are steps the bot took for a lone move


async def test_automatic_steps_replay_to_the_same_state_and_respect_auto_pass_off(service: SessionService) -> None:
    from rules.core import replay

    sid = await started(service)
    await play(service, sid, 30)
    rec, spec, state = await service.load(sid)
    log = await service.store.actions(sid)
    assert any(e.auto for e in log)
    rebuilt = replay(spec, [str(s) for s in rec.seats], rec.options, rec.seed, [(e.seat, e.action_json) for e in log])
    assert rebuilt == state
    for uid in rec.seats:
        await service.set_autopass(uid, False)
    before = len(await service.store.actions(sid))
    await play(service, sid, 30)
    fresh = [e for e in await service.store.actions(sid)][before:]
    assert fresh and not any(e.auto for e in fresh)  # no seat has agreed, and nothing is forced in public


async def test_a_move_and_the_steps_after_it_are_one_commit(service: SessionService) -> None:
    """The bot's steps for seats with a single move are stored with the move that led to them, in one
    commit (one round trip on PostgreSQL before the mover's answer), and logged each in order."""
    sid = await started(service)
    commits: list[int] = []
    commit_steps = service.store.commit_steps

    async def counted(*args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        commits.append(len(args[2]))  # type: ignore[arg-type]
        return await commit_steps(*args, **kwargs)  # type: ignore[arg-type]

    service.store.commit_steps = counted  # type: ignore[method-assign]
    chains = 0
    for _ in range(40):
        rec, spec, state = await service.load(sid)
        if rec.status != "running":
            break
        seat = spec.engine.pending(state)[0].seat
        commits.clear()
        outcome = await service.act(sid, int(seat), rec.version, spec.engine.legal_actions(state, seat)[-1])
        assert commits == [len(outcome.steps)]
        assert outcome.record.version == rec.version + len(outcome.steps)
        log = (await service.store.actions(sid))[-len(outcome.steps):]
        assert [(e.seq, e.seat, e.auto) for e in log] == [
            (rec.version + i, s.seat, s.auto) for i, s in enumerate(outcome.steps, start=1)]
        chains += len(outcome.steps) > 1
    assert chains  # some moves were followed by steps the bot took


async def test_auto_pass_choices_learnt_at_the_start_spare_the_moves_a_read(service: SessionService) -> None:
    sid = await started(service)
    await service.set_autopass(2, False)
    restarted = SessionService(service.store)  # knows nobody's choice yet
    rec, _spec, _state = await restarted.load(sid)
    await restarted.learn_autopass(rec)
    reads: list[int] = []
    autopass = service.store.autopass

    async def counted(user_id: int) -> bool:
        reads.append(user_id)
        return await autopass(user_id)

    service.store.autopass = counted  # type: ignore[method-assign]
    await play(restarted, sid, 20)
    assert reads == []
    assert await restarted.autopass(2) is False and await restarted.autopass(1) is True


async def test_stale_version_and_strangers_are_refused(service: SessionService) -> None:
    sid = await started(service)
    rec, spec, state = await service.load(sid)
    action = spec.engine.legal_actions(state, "1")[0]
    with pytest.raises(SessionError) as err:
        await service.act(sid, 1, rec.version - 1, action)
    assert err.value.code == "stale"
    with pytest.raises(SessionError) as err:
        await service.act(sid, 99, rec.version, action)
    assert err.value.code == "not_seated"


async def test_racing_identical_actions_apply_once(service: SessionService) -> None:
    sid = await started(service)
    rec, spec, state = await service.load(sid)
    action = spec.engine.legal_actions(state, "1")[0]
    results = await asyncio.gather(*(service.act(sid, 1, rec.version, action) for _ in range(5)),
                                   return_exceptions=True)
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(r.code == "stale" for r in results if isinstance(r, SessionError))
    assert len([e for e in await service.store.actions(sid) if not e.auto]) == 1


async def test_another_process_moving_the_game_is_caught_by_the_version(service: SessionService) -> None:
    sid = await started(service)
    other = SessionService(service.store)  # a second process sharing the database
    rec, spec, state = await service.load(sid)
    await other.act(sid, 1, rec.version, spec.engine.legal_actions(state, "1")[0])
    with pytest.raises(SessionError) as err:  # this process's cached copy is behind
        await service.act(sid, 1, rec.version, spec.engine.legal_actions(state, "1")[0])
    assert err.value.code == "stale"
    fresh, _spec, _state = await service.load(sid)
    assert [e.seq for e in await service.store.actions(sid) if not e.auto] == [rec.version + 1]


async def test_lost_snapshot_is_rebuilt_from_seed_and_log(service: SessionService, tmp_path: Path) -> None:
    sid = await started(service, ninja_power=True)
    await play(service, sid, 25)
    _rec, _spec, expected = await service.load(sid)
    with sqlite3.connect(tmp_path / "s.sqlite3") as db:
        db.execute("UPDATE sessions SET state_json = '{\"not\": \"a state\"}' WHERE id = ?", (sid,))
    restarted = SessionService(service.store)
    _rec, _spec, rebuilt = await restarted.load(sid)
    assert rebuilt == expected


async def test_lobby_rules(service: SessionService) -> None:
    rec = await service.open_lobby(guild_id=1, channel_id=11, game_id="call_to_glory", host_id=1,
                                   options={}, locale="en", host_name="Ann")
    with pytest.raises(SessionError) as err:
        await service.start(rec.id, 1)
    assert err.value.code == "seat_count"
    with pytest.raises(SessionError) as err:
        await service.open_lobby(guild_id=1, channel_id=11, game_id="call_to_glory", host_id=2,
                                 options={}, locale="en", host_name="Bob")
    assert err.value.code == "channel_busy"
    for uid in (2, 3, 4):
        await service.join(rec.id, uid, f"P{uid}")
    with pytest.raises(SessionError) as err:
        await service.join(rec.id, 5, "P5")
    assert err.value.code == "lobby_full"
    rec = await service.leave(rec.id, 1)
    assert rec.host_id == 2 and rec.seats == [2, 3, 4]
    with pytest.raises(SessionError) as err:
        await service.set_options(rec.id, 3, {"quick": True})
    assert err.value.code == "host_only"
    with pytest.raises(SessionError) as err:
        await service.set_options(rec.id, 2, {"first_player": "oldest"})
    assert err.value.code == "bad_options" and err.value.params["field"] == "first_player"
    with pytest.raises(SessionError) as err:
        await service.join_running(rec.id, 9, "Late")
    assert err.value.code == "not_running"


async def test_a_game_with_a_leaver_and_a_joiner_is_rebuilt_from_its_log(service: SessionService, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A lost snapshot is replayed from the seats the game started with: the leaver's logged place puts
    them back, the joiner enters through their logged join."""
    # A fixed deal: with a random one, a Fluxx goal was now and then met within these few moves, and a
    # finished game has nobody left to move.
    monkeypatch.setattr("bot.sessions.secrets.randbits", random.Random(5).getrandbits)
    rec = await service.open_lobby(guild_id=1, channel_id=12, game_id="fluxx_cthulhu", host_id=1,
                                   options={}, locale="en", host_name="Ann")
    for uid in (2, 3, 4):
        await service.join(rec.id, uid, f"P{uid}")
    rec, _state = await service.start(rec.id, 1)
    await play(service, rec.id, 5)
    for _ in range(50):  # the engine may ask P2 to finish something first
        try:
            await service.forfeit(rec.id, "2")
            break
        except RuleError as err:
            assert err.code == "flx.leave_later"
            await play(service, rec.id, 1)
    await service.join_running(rec.id, 9, "Late")
    await play(service, rec.id, 5)
    rec, _spec, expected = await service.load(rec.id)
    assert rec.seats == [1, 3, 4, 9]
    with sqlite3.connect(tmp_path / "s.sqlite3") as db:
        db.execute("UPDATE sessions SET state_json = '{\"not\": \"a state\"}' WHERE id = ?", (rec.id,))
    _rec, _spec, rebuilt = await SessionService(service.store).load(rec.id)
    assert rebuilt == expected
    # The log's history (/game log, /game replay) and a move between databases rebuild the same seating.
    from bot import history
    from bot.transfer import replay_record

    entries = await service.store.actions(rec.id)
    assert replay_record(rec, entries) == expected
    states = [step.state for step in history.steps(rec, entries)]
    assert states[-1] == expected
    assert history.state_at(rec, entries, 3) == states[2], "a replay's early step is seated as the game was"
    with pytest.raises(SessionError) as err:
        await service.forfeit(rec.id, "2")
    assert err.value.code == "not_seated"


async def test_a_released_game_keeps_no_cached_state_and_still_loads_from_the_store(service: SessionService) -> None:
    sid = await started(service)
    await play(service, sid, 3)
    rec, _spec, state = await service.load(sid)
    rec = await service.abandon(sid, 1, can_manage=False)
    service.release(sid)
    assert sid not in service._cache  # a game that is over does not hold a place meant for running ones
    again, _spec, state_again = await service.load(sid)
    assert again.status == "abandoned" and again.version == rec.version and state_again == state


async def test_a_service_never_serves_a_copy_older_than_the_stored_one(tmp_path: Path) -> None:
    """Two shard processes on one database: each keeps its own cache, and a move made through one must be
    what the other loads next, and what its buttons are checked against (issue 25)."""
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    store_a, store_b = await open_store(url), await open_store(url)
    try:
        a, b = SessionService(store_a), SessionService(store_b)
        sid = await started(a)
        rec_b, _spec, state_b = await b.load(sid)  # b caches the game as it stands now
        await play(a, sid, 3)
        rec_a, _spec, state_a = await a.load(sid)
        assert rec_a.version > rec_b.version
        fresh, _spec, fresh_state = await b.load(sid)
        assert (fresh.version, fresh_state) == (rec_a.version, state_a)
        assert fresh_state != state_b
        # A click made for the newest version is accepted by b, not refused as stale.
        spec = b.spec(fresh.game_id)
        seat = spec.engine.pending(fresh_state)[0].seat
        outcome = await b.act(sid, int(seat), fresh.version, spec.engine.legal_actions(fresh_state, seat)[-1])
        assert outcome.record.version > fresh.version
    finally:
        await store_a.close()
        await store_b.close()


async def test_a_move_at_the_cached_version_reads_no_version(service: SessionService,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A move names the version it is made for; a cached copy at that version is used without reading the
    stored version first, since the commit's compare-and-swap refuses it if the game moved meanwhile (the
    test above). A load that names no version still reads it."""
    sid = await started(service)
    rec, spec, state = await service.load(sid)
    reads: list[int] = []
    real = service.store.version

    async def counted(session_id: int) -> int:
        reads.append(session_id)
        return await real(session_id)

    monkeypatch.setattr(service.store, "version", counted)
    seat = spec.engine.pending(state)[0].seat
    await service.act(sid, int(seat), rec.version, spec.engine.legal_actions(state, seat)[-1])
    assert reads == []
    await service.load(sid)
    assert reads == [sid]


async def play_out(service: SessionService, sid: int, seed: int) -> None:
    rnd = random.Random(seed)
    while (loaded := await service.load(sid))[0].status == "running":
        rec, spec, state = loaded
        seat = spec.engine.pending(state)[0].seat
        await service.act(sid, int(seat), rec.version, rnd.choice(spec.engine.legal_actions(state, seat)))


async def test_a_settling_that_failed_is_done_at_the_next_start_and_only_then(
        service: SessionService, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Ratings (issue 28): the final move counts even when settling its ratings fails; the next start
    settles what is owed, once."""
    sid = await started(service, quick=True)

    async def down(*_args: object) -> bool:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(service.store, "settle_ratings", down)
    await play_out(service, sid, 3)
    assert "settling its ratings failed" in caplog.text
    monkeypatch.undo()
    assert await service.store.settled([sid]) == {}
    assert await service.settle_owed_ratings(lambda _guild: True) == 1
    assert await service.settle_owed_ratings(lambda _guild: True) == 0
    assert [r.games for r in await service.ratings(1)] == [1, 1]


async def test_a_game_the_lobby_marked_unrated_is_settled_with_that_reason(service: SessionService) -> None:
    rec = await service.open_lobby(guild_id=1, channel_id=11, game_id="call_to_glory", host_id=1,
                                   options={"quick": True}, locale="en", host_name="Ann")
    await service.set_switches(rec.id, 1, {"hints"})  # "rated" off
    await service.join(rec.id, 2, "Bob")
    await service.start(rec.id, 1)
    await play_out(service, rec.id, 4)
    assert await service.settled([rec.id]) == {rec.id: Settled(unrated="lobby")}
    assert await service.ratings(1) == []


async def test_a_seats_first_hint_is_noted_without_touching_the_game(service: SessionService) -> None:
    """Issue 27: the table marks a seat that asked for a hint. The note lives in the table's settings alone:
    the version, the state and the log stay as they were (a hint is not a move), and it survives a restart."""
    sid = await started(service)
    await play(service, sid, 3)
    before = await service.store.get(sid)
    log = await service.store.actions(sid)
    assert await service.note_hint(sid, "2") is True
    assert await service.note_hint(sid, "2") is False, "noted once"
    assert await service.note_hint(sid, "1") is True
    after = await service.store.get(sid)
    assert (after.version, after.state_json) == (before.version, before.state_json)
    assert await service.store.actions(sid) == log
    assert (await SessionService(service.store).settings(sid)).hinted == ("2", "1")
    with pytest.raises(SessionError) as refused:
        await service.note_hint(sid, "3")
    assert refused.value.code == "not_seated"
    assert await service.offers_hints(sid, "1")
    await service.hand_to_ai(sid, "1")
    assert not await service.offers_hints(sid, "1"), "the AI plays that seat now"


async def test_hints_are_offered_unless_the_lobby_switched_them_off(service: SessionService) -> None:
    rec = await service.open_lobby(guild_id=1, channel_id=11, game_id="call_to_glory", host_id=1, options={},
                                   locale="en", host_name="Ann")
    await service.join(rec.id, 2, "Bob")
    await service.set_switches(rec.id, 1, {"rated"})
    await service.start(rec.id, 1)
    assert not await service.offers_hints(rec.id, "1") and not await service.offers_hints(rec.id, "2")

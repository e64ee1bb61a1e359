"""Take-backs in the session service and the log (issue #28 part 1), without Discord: who may ask and
answer, when a request goes stale, AI seats and the host agreeing, and how the log replays a take-back.
The barrier rule itself is the engines' (tests/rules/test_takeback.py); Discord flows are in
tests/discord/test_takeback.py."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot import history
from bot import takeback as takebacks
from bot.sessions import SessionError, SessionService
from bot.storage import LogEntry, open_store
from bot.table.settings import TableSettings, TakebackRequest
from cogs import call_to_glory
from cogs.games.history import log_lines
from cogs.games.ui import register_ui


@pytest.fixture
async def service(tmp_path: Path):  # type: ignore[no-untyped-def]
    store = await open_store(f"sqlite:///{tmp_path / 's.sqlite3'}")
    yield SessionService(store)
    await store.close()


async def started(service: SessionService, players: int = 2, ai: bool = False) -> int:
    rec = await service.open_lobby(guild_id=1, channel_id=10, game_id="call_to_glory", host_id=1,
                                   options={}, locale="en", host_name="Ann")
    for uid in range(2, players + 1):
        await service.join(rec.id, uid, f"P{uid}")
    if ai:
        await service.add_ai(rec.id, 1, "normal", "AI")
    rec, _state = await service.start(rec.id, 1)
    return rec.id


async def until_point(service: SessionService, sid: int, rnd: random.Random) -> tuple[str, takebacks.Point]:
    """Random moves (an AI seat's taken for it) until the last mover may take its decision back."""
    for _ in range(400):
        rec, spec, state = await service.load(sid)
        seat = spec.engine.pending(state)[0].seat
        legal = spec.engine.legal_actions(state, seat)
        await service.act(sid, int(seat), rec.version, rnd.choice(legal), auto=int(seat) < 0)
        rec, _spec, _state = await service.load(sid)
        if int(seat) < 0:
            continue
        found = takebacks.find(rec, await service.store.actions(sid), seat)
        if isinstance(found, takebacks.Point):
            return seat, found
    raise AssertionError("no position to take back in 400 moves")


async def test_nothing_to_take_back_before_a_decision_and_strangers_and_ended_games_are_refused(
        service: SessionService) -> None:
    sid = await started(service)
    rec, spec, state = await service.load(sid)
    waiting = spec.engine.pending(state)[0].seat
    other = next(s for s in map(str, rec.seats) if s != waiting)
    with pytest.raises(SessionError) as err:
        await service.request_takeback(sid, int(other))
    assert err.value.code == "nothing_to_take_back"
    with pytest.raises(SessionError) as err:
        await service.request_takeback(sid, 99)
    assert err.value.code == "not_seated"
    await service.abandon(sid, 1, can_manage=False)
    with pytest.raises(SessionError) as err:
        await service.request_takeback(sid, 1)
    assert err.value.code == "not_running"


async def test_one_request_at_a_time_the_requester_cannot_answer_and_a_move_makes_it_stale(
        service: SessionService) -> None:
    """CTG-R4: a turn is several decisions (draws, then a lay-out or a discard), so the mover may still move
    while the request waits; that move makes the request stale and an answer to it changes nothing."""
    sid = await started(service)
    rnd = random.Random(4)
    while True:
        seat, _point = await until_point(service, sid, rnd)
        rec, spec, state = await service.load(sid)
        if spec.engine.pending(state)[0].seat == seat:
            break
    other = next(s for s in map(str, rec.seats) if s != seat)
    asked = await service.request_takeback(sid, int(seat))
    assert asked.how == "waiting" and asked.waiting == (other,)
    with pytest.raises(SessionError) as err:
        await service.request_takeback(sid, int(seat))
    assert err.value.code == "takeback_open"
    with pytest.raises(SessionError) as err:
        await service.answer_takeback(sid, int(seat), rec.version, True)
    assert err.value.code == "takeback_own"
    await service.act(sid, int(seat), rec.version, spec.engine.legal_actions(state, seat)[0])
    moved, _spec, _after = await service.load(sid)
    with pytest.raises(SessionError) as err:
        await service.answer_takeback(sid, int(other), rec.version, True)
    assert err.value.code == "stale"
    assert (await service.settings(sid)).takeback is None
    assert (await service.load(sid))[0].version == moved.version


async def test_ai_seats_agree_so_a_table_without_other_people_goes_back_at_once(service: SessionService) -> None:
    sid = await started(service, players=1, ai=True)
    seat, point = await until_point(service, sid, random.Random(2))
    rec, _spec, _state = await service.load(sid)
    done = await service.request_takeback(sid, int(seat))
    assert done.how == "done" and done.outcome is not None and done.outcome.undone == point.undo
    back, _spec, state = await service.load(sid)
    assert back.version == rec.version + 1 and state == point.state


async def test_the_host_accepts_alone_only_where_the_server_allows(service: SessionService) -> None:
    sid = await started(service, players=3)
    rnd = random.Random(9)
    seat, point = await until_point(service, sid, rnd)
    while seat == "1":  # the host must be one of the others
        seat, point = await until_point(service, sid, rnd)
    rec, _spec, _state = await service.load(sid)
    await service.request_takeback(sid, int(seat))
    third = next(s for s in ("2", "3") if s != seat)
    waiting = await service.answer_takeback(sid, 1, rec.version, True)
    assert waiting.how == "waiting" and waiting.waiting == (third,)
    done = await service.answer_takeback(sid, 1, rec.version, True, host_decides=True)
    assert done.how == "done"
    assert (await service.load(sid))[2] == point.state


async def test_the_log_replays_a_take_back_and_says_so() -> None:
    """The log keeps every step; a take-back drops the last steps of the line it stands on, however
    many take-backs came before."""
    def entry(seq: int, action: str) -> LogEntry:
        return LogEntry(session_id=1, seq=seq, seat="1", action_json=action, created_at=datetime.now(UTC))

    moves = [entry(i, f'{{"type": "m{i}"}}') for i in range(1, 5)]
    log = [*moves[:3], entry(4, history.Takeback(undo=1).model_dump_json()), moves[3],
           entry(6, history.Takeback(undo=2).model_dump_json())]
    assert history.line(log) == [moves[0]]
    assert history.takeback_of(moves[0]) is None


async def test_a_committed_take_back_is_in_the_log_lines_and_the_replayed_steps(service: SessionService) -> None:
    sid = await started(service, players=1, ai=True)
    seat, point = await until_point(service, sid, random.Random(2))
    await service.request_takeback(sid, int(seat))
    rec, _spec, state = await service.load(sid)
    entries = await service.store.actions(sid)
    last = list(history.steps(rec, entries))[-1]
    assert last.undone == point.undo and last.state == state and not last.events
    assert history.rebuild(rec, entries) == state
    register_ui(call_to_glory.UI)  # what the cog's setup does: the log lines are in the game's words
    assert f"{rec.version}. ↩ Ann took back their last move" in "\n".join(log_lines(rec, entries, "en"))


def test_an_open_request_round_trips_through_the_stored_settings() -> None:
    settings = TableSettings(takeback=TakebackRequest(seat="2", version=7, undo=1, accepted=("3",), message_id=5))
    assert TableSettings.from_stored(settings.stored()) == settings
    assert "takeback" not in TableSettings().stored()


async def test_accepting_an_open_request_does_not_replay_the_game_again(
        service: SessionService, monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding the point replays the whole log; the request keeps it, so the accept that commits it costs
    no second replay (a long card game's replay takes a fifth of a second)."""
    sid = await started(service)
    seat, point = await until_point(service, sid, random.Random(4))
    rec, _spec, _state = await service.load(sid)
    calls: list[str] = []
    find = takebacks.find

    def counted(*args: object) -> object:
        calls.append(str(args[2]))
        return find(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(takebacks, "find", counted)
    await service.request_takeback(sid, int(seat))
    other = next(s for s in map(str, rec.seats) if s != seat)
    done = await service.answer_takeback(sid, int(other), rec.version, True)
    assert done.how == "done" and calls == [seat]
    assert (await service.load(sid))[2] == point.state

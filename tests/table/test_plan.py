"""The table service's pure parts without Discord or storage: typed table settings, how each seat ended,
and the follow-up plan of a commit (who is notified, whose DM is edited or goes, which timers move)."""

from __future__ import annotations

from bot.server_settings import TableClock
from bot.table.outcome import TableOutcome, counted_winners, seat_endings
from bot.table.plan import DmChange, TimerChange, follow_up
from bot.table.settings import TableSettings
from rules.core import GameResult

CLOCK = TableClock(remind_hours=12, deadline_hours=48, deadline_action="forfeit")


def outcome(**changes: object) -> TableOutcome:
    base: dict[str, object] = {"status": "running", "version": 7, "owing_before": frozenset({"1"}),
                               "owing_after": frozenset({"2"}), "humans": {"1": 1, "2": 2, "3": 3}, "ai": {},
                               "mover": "1"}
    return TableOutcome(**{**base, **changes})  # type: ignore[arg-type]


def test_a_move_that_passes_the_turn_notifies_the_next_seat_and_moves_the_clock_to_it() -> None:
    plan = follow_up(outcome(), CLOCK, reminded={"1"}, clicked=1)
    assert plan.dms == (DmChange(2, "2", "notify"),), "the mover's click shows its answer; 3 owes nothing"
    assert plan.set_timers == (TimerChange("remind", "2", 12), TimerChange("deadline", "2", 48))
    assert plan.cancel_timers == (TimerChange("remind", "1"), TimerChange("deadline", "1"))
    assert not plan.cancel_all_timers and plan.wake_ai is None and not plan.release
    assert plan.edit_table and not plan.table_at_once, "the table is edited without holding up the clock"
    assert not plan.quiet_post, "an announcement mid-game may mention the players"


def test_a_seat_that_moves_and_still_owes_keeps_its_timers() -> None:
    """The clock is about the seat still owing, not the version its timer was set at (issue 24)."""
    plan = follow_up(outcome(owing_after=frozenset({"1"})), CLOCK, reminded={"1"}, clicked=1)
    assert plan.set_timers == () and plan.cancel_timers == () and plan.dms == ()


def test_no_clock_means_no_timer_and_an_ai_seat_owing_wakes_the_ai() -> None:
    plan = follow_up(outcome(owing_after=frozenset({"-1"}), ai={"-1": "normal"}), TableClock(remind_hours=0),
                     reminded=set(), clicked=1)
    assert plan.set_timers == () and plan.wake_ai == "-1"


def test_the_end_tells_every_human_once_with_the_final_result_and_drops_every_timer() -> None:
    end = outcome(status="finished", owing_after=frozenset(), result=GameResult(ranking=[["1"], ["2", "3"]],
                                                                                reason="score", winners=["1"]))
    plan = follow_up(end, CLOCK, reminded={"1"}, clicked=1)
    assert plan.dms == (DmChange(1, "1", "edit", final=True), DmChange(2, "2", "notify", final=True),
                        DmChange(3, "3", "notify", final=True))
    assert plan.cancel_all_timers and plan.release and plan.wake_ai is None
    assert plan.table_at_once, "the last picture is drawn before the game's memory goes"
    assert plan.quiet_post, "each player's final DM is their notice: the channel post pings nobody"


def test_a_player_who_left_hears_of_the_end_too_and_a_departure_retires_their_dm_while_the_game_runs() -> None:
    running = follow_up(outcome(humans={"2": 2, "3": 3}, departed=1, mover=None), CLOCK, reminded=set())
    assert running.retire == (1,)
    ended = follow_up(outcome(status="finished", humans={"2": 2}, departed=1, mover=None,
                              owing_after=frozenset()), CLOCK, reminded=set(), left={"1": 1, "4": 4})
    assert [(d.player, d.seat, d.how, d.final) for d in ended.dms] == [
        (2, "2", "notify", True), (1, "1", "notify", True), (4, "4", "notify", True)]
    assert ended.retire == ()


def test_a_leaver_is_never_a_winner_and_a_seat_the_ai_finished_is_marked() -> None:
    """A duel concession the engine scores as a shared result still names only the one who stayed."""
    tie = GameResult(ranking=[["1", "2"]], reason="conceded", winners=["1", "2"])
    endings = seat_endings(["1", "2"], tie, departed={"2": "left"})
    assert endings == {"1": "won", "2": "left"}
    assert counted_winners(tie, endings) == ["1"]
    ai_won = GameResult(ranking=[["2"], ["1"]], reason="score", winners=["2"])
    endings = seat_endings(["1", "2"], ai_won, departed={"2": "left"}, handed_to_ai=["2"])
    assert endings == {"1": "lost", "2": "ai_finished"}
    assert counted_winners(ai_won, endings) == [], "the player who left does not win by the AI's play"
    voted = seat_endings(["1", "2"], tie, departed={"1": "voted_out", "2": "forfeited"})
    assert voted == {"1": "voted_out", "2": "forfeited"}
    assert seat_endings(["1"], None, departed={}) == {}


def test_table_settings_read_and_write_the_stored_shape() -> None:
    """Tables stored before the typed settings keep their clock, AI seats and ballots."""
    raw = {"remind_hours": 24, "deadline_hours": 0, "ai": {"-1": "normal"}, "votes": {"5": [1, 2]},
           "departed": {"5": "voted_out"}}
    settings = TableSettings.from_stored(raw)
    assert settings.clock == TableClock(remind_hours=24, deadline_hours=0)
    assert (settings.ai, settings.votes) == ({"-1": "normal"}, {"5": [1, 2]})
    assert settings.stored() == raw
    assert TableSettings.from_stored({}).stored() == {} and TableSettings.from_stored({}).clock is None

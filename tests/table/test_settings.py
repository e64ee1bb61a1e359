"""The typed table settings keep the stored shape of older versions, so running tables keep theirs."""

from bot.table.settings import TableSettings


def test_an_old_row_round_trips_unchanged() -> None:
    raw = {"remind_hours": 12, "ai": {"-1": "normal"}, "votes": {"2": [1]}}
    assert TableSettings.from_stored(raw).stored() == raw


def test_switches_default_on_for_hints_and_rating_and_off_for_replay_hands() -> None:
    fresh = TableSettings.from_stored({})
    assert (fresh.hints, fresh.rated, fresh.replay_hands, fresh.hinted) == (True, True, False, ())
    assert fresh.stored() == {}


def test_changed_switches_and_hint_marks_survive_a_round_trip() -> None:
    changed = TableSettings().model_copy(update={"hints": False, "replay_hands": True, "hinted": ("2",)})
    back = TableSettings.from_stored(changed.stored())
    assert (back.hints, back.rated, back.replay_hands, back.hinted) == (False, True, True, ("2",))

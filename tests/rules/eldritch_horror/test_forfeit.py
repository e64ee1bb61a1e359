"""Leaving a running game of Eldritch Horror (issue #14, bot ruling; the rules say nothing about it): the
next seat in turn order takes over the leaver's investigators and every decision waiting on the leaver,
the game goes on, and the last player leaving abandons it as a loss."""

from __future__ import annotations

import random

import pytest

from cogs.eldritch_horror import UI
from cogs.games.ui import Names
from rules.core import errors as E
from rules.eldritch_horror.options import EhOptions
from tests.rules.eldritch_horror.helpers import ENGINE, SPEC
from tests.rules.forfeit import Position, forfeit, play_into, refused

NAMES = Names({"a": "Alice", "b": "Борис", "c": "Chen"})


def _position(seats: list[str], investigators: int, seed: int, depth: int) -> Position:
    return play_into(SPEC, seats, EhOptions(investigators=investigators), seed, lambda s, n: n >= depth)


def _owners(state) -> dict[str, str]:
    return {inv["name"]: inv["seat"] for inv in state.investigators}


@pytest.mark.parametrize(("seats", "investigators", "seed", "depth"), [
    (["a", "b", "c"], 3, 1, 0), (["a", "b", "c"], 4, 2, 15), (["a", "b", "c"], 5, 3, 60),
    (["a", "b"], 3, 4, 100), (["a", "b", "c"], 3, 5, 95),
])
@pytest.mark.parametrize("who", ["asked", "idle"])
def test_the_next_seat_takes_over_the_investigators_and_the_decisions(
        seats: list[str], investigators: int, seed: int, depth: int, who: str) -> None:
    pos = _position(seats, investigators, seed, depth)
    before = pos.state
    assert ENGINE.pending(before), "the position is a running game"
    asked = before.stack[-1].seats[0]
    leaver = asked if who == "asked" else next(s for s in seats if s != asked)
    heir = seats[(seats.index(leaver) + 1) % len(seats)]
    state, events, action = forfeit(SPEC, pos, leaver, remaining=[s for s in seats if s != leaver])
    assert action.type == "leave" and action.place == seats.index(leaver)
    assert state.seats == [s for s in seats if s != leaver]
    old, new = _owners(before), _owners(state)
    assert {n for n, s in new.items() if s == heir} == {n for n, s in old.items() if s in (leaver, heir)}
    assert all(new[n] == s for n, s in old.items() if s not in (leaver, heir)), "nobody else's investigators move"
    for was, now in zip(before.stack, state.stack, strict=True):
        assert now.kind == was.kind and now.params == was.params
        assert now.seats == list(dict.fromkeys(heir if s == leaver else s for s in was.seats))
    assert [(e.type, e.data) for e in events] == [
        ("seat_left", {"seat": leaver, "heir": heir, "investigators": [n for n, s in old.items() if s == leaver]})]
    prompts = ENGINE.pending(state)
    assert prompts and ENGINE.result(state) is None, "the game goes on"
    assert [p.seat for p in prompts] == [heir if p.seat == leaver else p.seat for p in ENGINE.pending(before)]
    for p in prompts:
        assert ENGINE.legal_actions(state, p.seat), "the seat now asked has a legal answer"
    assert refused(SPEC, state, leaver, {"type": "choose", "option": "rest"}).code == E.UNKNOWN_SEAT
    for locale in ("en", "ru"):
        line = UI.event_text(events[0], locale, NAMES)
        assert line is not None and NAMES(leaver) in line and NAMES(heir) in line and "{" not in line
    _plays_on(state, leaver, seed)


def _plays_on(state, leaver: str, seed: int, steps: int = 150) -> None:
    """Random legal moves on from the hand-over: the leaver is never asked again."""
    rnd = random.Random(seed)
    for _ in range(steps):
        prompts = ENGINE.pending(state)
        if not prompts:
            break
        assert all(p.seat != leaver for p in prompts)
        seat = prompts[0].seat
        state, _ = ENGINE.apply(state, seat, rnd.choice(ENGINE.legal_actions(state, seat)))


def test_a_trade_consent_passes_to_the_heir_as_one_question() -> None:
    """A trade between two players waits on the partner's player (§11.22); when that player leaves, the heir
    answers the consent, and when the heir is the trader too, it is still one question for one seat."""
    for seed in range(1, 400):
        pos = play_into(SPEC, ["a", "b"], EhOptions(investigators=2), seed,
                        lambda s, n: bool(s.stack) and s.stack[-1].kind == "trade_consent", max_steps=300)
        if pos.state.stack and pos.state.stack[-1].kind == "trade_consent":
            break
    else:
        pytest.fail("no random game reached a trade between two players")
    consenting = pos.state.stack[-1].seats[0]
    trader = next(s for s in pos.seats if s != consenting)
    state, _, _ = forfeit(SPEC, pos, consenting, remaining=[trader])
    assert state.stack[-1].kind == "trade_consent" and state.stack[-1].seats == [trader]
    assert {a.option for a in ENGINE.legal_actions(state, trader)} == {"allow", "refuse"}
    _plays_on(state, consenting, seed)


def test_the_last_player_leaving_abandons_the_game_as_a_loss() -> None:
    pos = _position(["a", "b"], 2, 7, 40)
    state, _, _ = forfeit(SPEC, pos, "a", remaining=["b"])
    assert state.seats == ["b"] and all(inv["seat"] == "b" for inv in state.investigators)
    pos.state, pos.log = state, pos.log + [("a", ENGINE.forfeit(pos.state, "a", 0).model_dump_json())]
    final, events, _ = forfeit(SPEC, pos, "b")
    assert final.phase == "over" and ENGINE.pending(final) == [] and not final.stack
    result = ENGINE.result(final)
    assert result is not None and result.winners == [] and result.reason == "abandoned"
    assert result.ranking == [["b"]]
    assert [(e.type, e.data) for e in events] == [("game_over", {"won": False, "reason": "abandoned"})]
    for locale in ("en", "ru"):
        assert "{" not in (UI.event_text(events[0], locale, NAMES) or "{")
        (announcement,) = UI.announcements(events, locale, NAMES)
        assert "eldritch_horror." not in announcement
    assert refused(SPEC, final, "b", {"type": "leave", "place": 1}).code == E.GAME_OVER


def test_leaving_is_refused_to_a_stranger() -> None:
    pos = _position(["a", "b"], 2, 8, 10)
    assert refused(SPEC, pos.state, "stranger", {"type": "leave", "place": 0}).code == E.UNKNOWN_SEAT

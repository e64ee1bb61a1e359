"""The engine keeps the last state's view and readdresses it to each seat that asks: every seat's view must
be the one built for it from scratch."""

from __future__ import annotations

import random

from rules.eldritch_horror.views import build_view
from tests.rules.eldritch_horror.helpers import ENGINE


def test_each_seat_gets_its_own_view_of_the_same_state() -> None:
    rnd = random.Random(3)
    state = ENGINE.new_game(["a", "b"], {"investigators": 3}, 3)
    for _ in range(60):
        if not (prompts := ENGINE.pending(state)):
            break
        for seat in (None, "a", "b", None, "b"):
            assert ENGINE.view(state, seat) == build_view(state, seat, ENGINE.pending(state))
        seat = prompts[0].seat
        state, _events = ENGINE.apply(state, seat, rnd.choice(ENGINE.legal_actions(state, seat)))

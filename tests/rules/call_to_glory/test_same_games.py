"""Speed work must not change a single game: seeded random games are pinned by digest.

Each digest covers every prompt, every legal-action list (order included: random players and the AI pick
from it by position), every chosen action, every event and the final state and result, as JSON. The
pinned values were computed with the engine of commit a9e086d, before this round of speed work for
issue #18; without Ninja Power they equal those of bb2dc84, before the first round (ac51af5 changed the
Ninja rule on purpose in between). Any change to what the engine offers, does or reports shows up here
as a changed digest; a rule change meant to alter games updates these values in its commit and says why.
The state's ``conceded`` field (a two-player game conceded, issue #14) is new in every final state since
then: without it the digests are the ones first pinned. Likewise ``round_ended`` events name, since issue 26,
the seat whose sets ended the round and the CTG-R12 count (``seat``, ``characters``); without those two
fields the digests are the ones pinned before (checked when they were added).
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from tests.rules.call_to_glory.helpers import ENGINE, SPEC

VARIANTS = {
    "standard": {},
    "tasks": {"imperial_tasks": True},
    "ninja": {"ninja_power": True},
    "tasks_ninja": {"imperial_tasks": True, "ninja_power": True},
    "quick_random_first": {"quick": True, "first_player": "random"},
}

# (variant, players) -> sha256 over games seeded 0, 1 and 2 played by ``random.Random(7)``.
EXPECTED = {
    ("ninja", 2): "af4f6f7a19234a25e28e5f73e82f58f9dff26890ed6379c7382ee6ea0c7b3f3e",
    ("ninja", 3): "bea39f6f8ded464eca93d08fff9ee179eaeb1c9adfee62c16ded889bd3187ede",
    ("ninja", 4): "2c90b18f554da3c134c44fa2c2beb28ee5a315382be2f3bcdaea48995ff4effa",
    ("quick_random_first", 2): "096a7d7326015bd5ed6cfaa04fc2bb54e43e08f06f90ee122c7377f1d46eb286",
    ("quick_random_first", 3): "13991154353a5b8d712d7460aeb1738c278a5a0cd2a4bad5faa0cb555b6098fe",
    ("quick_random_first", 4): "5a276ea00b3623e3dd27542bf8fbd0867bffc5fdc8ed21a43e6387eba2088534",
    ("standard", 2): "d6c6c39ea768030eec3b1689c06eb33c77e03f0fd01d2e2a598f30c4482f2764",
    ("standard", 3): "cc216f63d460f52c6c14fc459d2578c5412ac891c7a4711e6c333f53296f1292",
    ("standard", 4): "17f7d0ecf417d1b6b78d0aff355d1d3a401b50d0c941b3ea98b134b9520c1976",
    ("tasks", 2): "5df0799b6dd513d8fabffe9cc62bfbd7cfcf9d9200eab6db925d03b5f934f841",
    ("tasks", 3): "d3177bf2561e6d9a58b124c4fb9470966e93ae5158979067e240a06229669e08",
    ("tasks", 4): "9079ee58db59475a0f2bdd950e55b34520a17d7f1323de6c64611b2802b9fad3",
    ("tasks_ninja", 2): "512e3eec8067dd9a016bd00be1af1ba6ccf6a6c5403a33a1aab477a8dbc0be9a",
    ("tasks_ninja", 3): "ddeca936f02f2b81c9694c80a882c3533960557f2a930fab8e806d9b273658f7",
    ("tasks_ninja", 4): "ea4d255291c7aa3f7ef27c67985d8e896679275d0e8566d9a6e440c266c6c54f",
}


def game_digest(options: dict, players: int, seeds: range, policy_seed: int = 7) -> str:
    """Play ``seeds`` with a uniform random policy over ``legal_actions`` and hash all that was seen."""
    digest = hashlib.sha256()

    def add(obj: object) -> None:
        digest.update(json.dumps(obj, sort_keys=True).encode())

    opts = SPEC.parse_options(options)
    seats = [f"p{i}" for i in range(players)]
    rnd = random.Random(policy_seed)
    for seed in seeds:
        state = ENGINE.new_game(seats, opts, seed=seed)
        while prompts := ENGINE.pending(state):
            add([p.model_dump(mode="json") for p in prompts])
            seat = rnd.choice(prompts).seat
            legal = ENGINE.legal_actions(state, seat)
            add([a.model_dump(mode="json") for a in legal])
            action = rnd.choice(legal)
            state, events = ENGINE.apply(state, seat, action)
            add([e.model_dump(mode="json") for e in events])
        add(state.model_dump(mode="json"))
        add(ENGINE.result(state).model_dump(mode="json"))
    return digest.hexdigest()


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_games_are_unchanged(variant: str, players: int) -> None:
    assert game_digest(VARIANTS[variant], players, range(3)) == EXPECTED[(variant, players)]

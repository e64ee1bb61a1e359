"""Speed work must not change a single game: seeded random games are pinned by digest.

Each digest covers every prompt, every legal-action list (order included: random players and the AI pick
from it by position), every chosen action, every event and the final state and result, as JSON. The
pinned values were computed with the engine of commit a9e086d, before this round of speed work for
issue #18; without Ninja Power they equal those of bb2dc84, before the first round (ac51af5 changed the
Ninja rule on purpose in between). Any change to what the engine offers, does or reports shows up here
as a changed digest; a rule change meant to alter games updates these values in its commit and says why.
The state's ``conceded`` field (a two-player game conceded, issue #14) is new in every final state since
then: without it the digests are the ones first pinned.
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
    ("ninja", 2): "423d754262b4eab26bc5ae97bc352ea26fee91913e1cd0210bcf956d43a3ef6e",
    ("ninja", 3): "7cbbf5ac600314ee15bef4db8db382c6dc35778892b4bf8260e1ce08642e636c",
    ("ninja", 4): "5ce4f238fb17f01f40cc4b92310a06065c8a5c19d59a63e9bcc3c6a10d873283",
    ("quick_random_first", 2): "3ab01d10d3a5679a2051a1219738e58321d413422116a3ffbece6b685cf8cb5f",
    ("quick_random_first", 3): "72b59af074515ee63211d7580e3b0c8c05c397139ee901efe717584bea444472",
    ("quick_random_first", 4): "377d75fdb98dd5589764f02438c15a40119d71c40b728823ba5554bf862427c6",
    ("standard", 2): "38514b849471198e682c4f1ac98713a91eb328a12ed11deea060d75c73ecd6c8",
    ("standard", 3): "e169cc1b0f324eafbd1e33087d7ac41660836d562d2ecdd156f205ca50a046cc",
    ("standard", 4): "4371fb6c0f34fcc8a916afe3958f3e0b2b809d660a316d494e630a3b57c82ef9",
    ("tasks", 2): "969058a9140d0dbc76cc05d8313123abd015ba2bee8f1996586024184aad6945",
    ("tasks", 3): "92985ccb365956378c3bf46d4d2dd0223c15e001ad00027babc0d325e603c439",
    ("tasks", 4): "63deca4b0bccede2edc75b0baee2799b7d51786e504bf7500b32d8810829dfcf",
    ("tasks_ninja", 2): "8542e2ceabdc2e049099ce4005d143920a2d1cf7bc13cef9081ea21af46f1e1a",
    ("tasks_ninja", 3): "031eeeaab2d57b062d286973b18ef7b16f97e3505d1bcabc118f17f652573b6e",
    ("tasks_ninja", 4): "3c245b3795a2a4b9f7c391918f41f3497c005e92f1ef1ae89803685cd554349f",
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

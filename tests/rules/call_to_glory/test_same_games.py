"""Speed work must not change a single game: seeded random games are pinned by digest.

Each digest covers every prompt, every legal-action list (order included: random players and the AI pick
from it by position), every chosen action, every event and the final state and result, as JSON. The
pinned values were computed with the engine of commit a9e086d, before this round of speed work for
issue #18; without Ninja Power they equal those of bb2dc84, before the first round (ac51af5 changed the
Ninja rule on purpose in between). Any change to what the engine offers, does or reports shows up here
as a changed digest; a rule change meant to alter games updates these values in its commit and says why.
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
    ("ninja", 2): "8919031b1d80e26278ef59a906715c1eb7a3be867e770b10a13e9838447a763c",
    ("ninja", 3): "5ddccd0915c98a9d555f904b68150fe7b26f70767c2d1e020e4ee7e052f79c19",
    ("ninja", 4): "b0a6166102fce0e5a9a95ce01f9bd38d07939170ded58faf8d42ed0cbb1a69b8",
    ("quick_random_first", 2): "6fcd46494042155fda1230ca9b566e574cd5cf6f7332c153872ee333c24c6ea8",
    ("quick_random_first", 3): "872bec4189ab6eff2c85989ceecd217c6980d8eed09dd9ea75ee870c61537461",
    ("quick_random_first", 4): "4c0f4330ff38a08c3dd08c4568d269815d0bcebbc05f12e519a3d51bb9dc85d7",
    ("standard", 2): "6f81bab6bcb4e0010677cd9e2cd581bf01d65b879ef66fdb2fca9b1275e6aa9d",
    ("standard", 3): "5570a907ed514eb31c27bb61fca2e6dbf7c5b1fccc2fdc61b9a32ec64e22c788",
    ("standard", 4): "ecf8fe8d188bfe082a3eb6024b76ee172f0fdc286946303b049362dd0cd50e3b",
    ("tasks", 2): "acdff31040292350f1308865a966ad9b8b289288933859661c3a00934c4f442f",
    ("tasks", 3): "2b9d9453c8bdcd6c8cc0404daff655ef26f71e7235b286ddd1f2ec6b82da1919",
    ("tasks", 4): "cee4f3e5d32e3897604c357bdcc7ad94c50c4cab8f1674cde1621ab7f48d224d",
    ("tasks_ninja", 2): "e69ac0f382b24b6b9d041df1779bf825557fef8e1998a266c6914046c9025e73",
    ("tasks_ninja", 3): "40dfa2254e0d7ad936697c69708102ba083f839b15c406d14405fddb77e4162c",
    ("tasks_ninja", 4): "cf9732916460e98b8e6925bbe33ad2928afc9a14a81e672eb1789c51f6ad1da3",
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

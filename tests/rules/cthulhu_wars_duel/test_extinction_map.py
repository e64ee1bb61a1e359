"""The rebuilt (reconstructed) Extinction map: every board number the rulebook gives holds, and over random
games Gates can still be held late in the game (the first reconstruction towered all but 3 of 13 areas)."""

from __future__ import annotations

import json
import random
import statistics

import pytest

from rules.cthulhu_wars_duel import maps
from rules.cthulhu_wars_duel.engine import CthulhuWarsDuelEngine
from rules.cthulhu_wars_duel.factions import DARK_TOWERS, GATES

M = maps.load("extinction")

# Names and facts printed in the rulebook («Карта», «Земля не плоская», «Темные башни», components).
NAMED = {
    "mawson_ocean": "Океан Моусона", "tethys_ocean": "Океан Тетис", "north_thalassa_ocean": "Северный океан Талассы",
    "south_thalassa_ocean": "Южный океан Талассы", "arctic": "Арктика", "antarctic": "Антарктика",
    "kalahari": "Калахари",
}


def test_rulebook_areas_wrap_and_poles():
    """The seven named areas exist under their Russian names; Mawson wraps to North Thalassa and Tethys to
    South Thalassa (east-west); no north-south wrap: Arctic and Antarctic share no border."""
    for area, ru in NAMED.items():
        assert M.names[area]["ru"] == ru
    assert "north_thalassa_ocean" in M.adj["mawson_ocean"]
    assert "south_thalassa_ocean" in M.adj["tethys_ocean"]
    assert "antarctic" not in M.adj["arctic"]


def test_oceans_are_exactly_the_areas_named_ocean():
    """The rulebook counts an area as water exactly when "ocean" is part of its name, and its "etc." after
    two examples means there are more than those two."""
    named_ocean = {a for a in M.areas if "океан" in M.names[a]["ru"].lower()}
    assert named_ocean == set(M.ocean) and len(M.ocean) > 2
    assert all("Ocean" in M.names[a]["en"] for a in M.ocean)


def test_glyphs_and_tower_tokens_match_the_box():
    """One Sleeper glyph, two Windwalker glyphs; the 10 Tower tokens are exactly one per start area (2)
    plus one per Tower-glyph area (8), so the box never runs short; some areas stay safe for good
    («Остальные зоны останутся в безопасности»)."""
    assert len(M.sleeper_start) == 1 and len(M.windwalker_start) == 2
    starts = set(M.sleeper_start) | set(M.windwalker_start)
    assert not starts & set(M.tower_glyph)
    assert 2 + len(M.tower_glyph) == DARK_TOWERS
    safe = set(M.areas) - set(M.tower_glyph) - starts
    assert len(safe) >= 8
    assert M.reconstructed and M.dark_towers


def test_map_validation_refuses_too_many_tower_glyphs():
    """CWD-R96 with the box's 10 tokens: a layout needing more Towers than exist is rejected."""
    data = json.loads((maps.MAP_DIR / "extinction.json").read_text(encoding="utf-8"))
    data["tower_glyph"] = [a["id"] for a in data["areas"] if a["id"] not in ("central_pangaea", "arctic", "antarctic")][:9]
    with pytest.raises(maps.MapError):
        maps.validate(data)


def late_game_measures(games: int, seed0: int = 0) -> dict[str, float]:
    """Random legal games on the Extinction map (uniform over the legal actions). At the start of every round from 5 on: areas without a
    Tower, untowered Gates on the map, Gates held by a player; and the share of Rituals from round 5 on that
    scored at least one Gate."""
    engine = CthulhuWarsDuelEngine()
    free, untowered, held, rituals, scoring = [], [], [], 0, 0
    for g in range(seed0, seed0 + games):
        rnd = random.Random(g)
        s = engine.new_game(["a", "b"], {"map": "extinction"}, seed=g)
        while prompts := engine.pending(s):
            seat = prompts[0].seat
            # backing out of a Move is a correction, not a play: the policy never does it
            legal = [a for a in engine.legal_actions(s, seat) if a.type != "cancel_move"]
            s, events = engine.apply(s, seat, rnd.choice(legal))
            for e in events:
                if e.type == "round" and e.data["round"] >= 5:
                    free.append(sum(1 for a in M.areas if a not in s.towers))
                    untowered.append(sum(1 for a in s.gates if a not in s.towers))
                    held.append(sum(1 for c in s.gates.values() if c >= 0))
                    # a Gate can still be held: an untowered Gate stands, or one can be built somewhere safe
                    buildable = len(s.gates) + s.slumber < GATES and any(
                        a not in s.towers and a not in s.gates for a in M.areas)
                    assert untowered[-1] or buildable, (g, s.round)
                elif e.type == "ritual" and s.round >= 5:
                    rituals += 1
                    scoring += e.data["gates"] > 0
    return {
        "late_rounds": len(free), "free_areas_min": min(free), "untowered_gates_mean": statistics.fmean(untowered),
        "held_gates_mean": statistics.fmean(held), "ritual_with_gate_share": scoring / rituals,
    }


def test_gates_stay_controllable_late_in_random_games():
    """Property over 60 random games. Measured with 200 games: Tower-free areas at rounds 5+ never below 10
    (first reconstruction: 3), untowered Gates 1.28 per round start (0.43), held Gates 0.55 (0.20), late
    Rituals scoring a Gate 39% (17%)."""
    m = late_game_measures(60)
    assert m["late_rounds"] > 100
    assert m["free_areas_min"] >= 10
    assert m["untowered_gates_mean"] >= 1.0
    assert m["held_gates_mean"] >= 0.4
    assert m["ritual_with_gate_share"] >= 0.3

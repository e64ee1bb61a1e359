"""Faction data of the Extinction box: units, costs, Doom values, spellbooks and requirements.

The numbers match data/cards.json (a test checks it); the code keeps them as constants for speed.
"""

from __future__ import annotations

SLEEPER, WINDWALKER = 0, 1
FACTIONS = ("sleeper", "windwalker")

# kind -> (faction index, type, count, cost (None = variable), doom value)
UNITS: dict[str, tuple[int, str, int, int | None, int]] = {
    "sl_acolyte": (SLEEPER, "cultist", 6, 1, 1),
    "wizard": (SLEEPER, "monster", 2, 1, 1),
    "serpent_man": (SLEEPER, "monster", 3, 2, 2),
    "formless_spawn": (SLEEPER, "monster", 4, 3, 3),
    "tsathoggua": (SLEEPER, "goo", 1, 8, 8),
    "ww_acolyte": (WINDWALKER, "cultist", 6, 1, 1),
    "wendigo": (WINDWALKER, "monster", 4, 1, 1),
    "gnoph_keh": (WINDWALKER, "monster", 4, None, 3),  # CWD-R81: average of 4/3/2/1 rounded up
    "rhan_tegoth": (WINDWALKER, "goo", 1, 6, 6),
    "ithaqua": (WINDWALKER, "goo", 1, 6, 6),
}
KINDS = (
    tuple(k for k, v in UNITS.items() if v[0] == SLEEPER),
    tuple(k for k, v in UNITS.items() if v[0] == WINDWALKER),
)
ACOLYTE = ("sl_acolyte", "ww_acolyte")
GATE_HOLDER = "gate_acolyte"  # pseudo-kind in choices: the acolyte standing on the area's Gate
MONSTERS = (("wizard", "serpent_man", "formless_spawn"), ("wendigo", "gnoph_keh"))
GOOS = (("tsathoggua",), ("rhan_tegoth", "ithaqua"))

SPELLBOOKS = (
    ("ancient_sorcery", "burrow", "capture_monster", "cursed_slumber", "demand_sacrifice", "energy_nexus"),
    ("arctic_wind", "berserkergang", "cannibalism", "herald_of_the_outer_gods", "howl", "ice_age"),
)
REQUIREMENTS = (
    ("sl_req_spend3_opp_gain1", "sl_req_spend3_opp_gain3", "sl_req_spend3_opp_lose1", "sl_req_roll_6_dice",
     "sl_req_ritual", "sl_req_awaken_tsathoggua"),
    ("ww_req_awaken_rhan_tegoth", "ww_req_first_player", "ww_req_any_time", "ww_req_awaken_ithaqua",
     "ww_req_gate_other_glyph_area", "ww_req_opp_6_books_or_spend_6"),
)
# requirement -> (power paid, opponent power change): the "instead of an action" slots (CWD-R39).
SPEND_REQS = {
    "sl_req_spend3_opp_gain1": (3, 1),
    "sl_req_spend3_opp_gain3": (3, 3),
    "sl_req_spend3_opp_lose1": (3, -1),
    "ww_req_opp_6_books_or_spend_6": (6, 0),
}
START_POWER = 8
GATES = 12
ELDER_SIGNS = {1: 6, 2: 4, 3: 2}
DARK_TOWERS = 10
RITUAL_TRACKS = {"standard": (5, 6, 7, 8, 9, 10), "long": (5, 6, 7, 7, 8, 8, 9, 10)}
END_DOOM = 30

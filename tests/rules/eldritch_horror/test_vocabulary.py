"""Every op, condition and amount the data uses is one the single interpreter knows (digest §12.4)."""

from __future__ import annotations

from typing import Any

from rules.eldritch_horror import engine  # noqa: F401 (registers every op)
from rules.eldritch_horror.effects import condition
from rules.eldritch_horror.machine import OPS
from rules.eldritch_horror.world import amount
from tests.rules.eldritch_horror.helpers import C, game, quiet

# ops that only label a rule handled elsewhere, or a gap listed in the reference's known limitations
NOT_EXECUTED = {
    "on_defeat_monster_at",  # Return of the Ancient Ones: solved from combat (combat.py), not run as an op
    "defeat_epic_monster",  # rumor solve condition, checked when an epic monster is defeated (progress.py)
}


def _walk(x: Any, found: list[dict[str, Any]]) -> None:
    if isinstance(x, dict):
        if "op" in x:
            found.append(x)
        for v in x.values():
            _walk(v, found)
    elif isinstance(x, list):
        for v in x:
            _walk(v, found)


def _all_ops() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for table in (C.encounters, C.mythos, C.monsters, C.epics, C.ancient_ones, C.mysteries, C.investigators,
                  C.assets, C.artifacts, C.spells, C.conditions):
        _walk(list(table.values()), found)
    return found


def test_every_op_has_a_handler() -> None:
    missing = sorted({o["op"] for o in _all_ops()} - set(OPS) - NOT_EXECUTED)
    assert not missing, missing


def test_every_condition_and_amount_is_known() -> None:
    s = quiet(game())
    for o in _all_ops():
        if o["op"] == "if":
            assert isinstance(condition(s, {"inv": 0}, o["cond"]), bool)
        n = o.get("n")
        if isinstance(n, str) and n not in ("all", "any", "successes"):
            assert amount(s, n, {"inv": 0}) >= 0


def test_monster_hooks_use_known_moments() -> None:
    moments = {"before_will_test", "after_will_test", "pass_will_test", "fail_will_test", "before_strength_test",
               "fail_strength_test", "lost_health_from_strength_test", "lost_health_from_strength_test_and_not_defeated",
               "defeated_in_combat_encounter", "defeated", "lose_sanity_from_will_test"}
    for m in [*C.monsters.values(), *C.epics.values()]:
        for h in m.get("special_effects") or []:
            assert h.get("when", "rule") in moments | {"rule"}, (m["name"], h)


def test_house_content_is_marked() -> None:
    """Designed pieces carry house: true so they can be found and corrected in the data; the mysteries and
    Final Mysteries now come from the found sources, and an awakened side names the parts still designed."""
    assert not any(m["house"] for m in C.mysteries.values()) and all(m["sources"] for m in C.mysteries.values())
    assert all(b["house"] for c in [*C.spells.values(), *C.conditions.values()] for b in c["backs"])
    for name in ("Cthulhu", "Shub-Niggurath", "Yog-Sothoth"):
        back = C.ancient_ones[name]["awakened"]
        assert back["house"] == bool(back["house_parts"]) and not back["final_mystery"]["house"]
    patched = [s for c in C.encounters.values() for s in c["sections"] if s.get("house")]
    assert len(patched) == 2  # Other World 1 and Yog-Sothoth research 8 (sea) were settled by a second source

"""Card texts in the engine's data files: everything a player reads is ``{"en": ..., "ru": ...}`` so a table
shows ``text[lang]`` without special cases (project standard: every readable text in Russian and English)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from tests.rules.eldritch_horror.helpers import C


def _bilingual(value: Any) -> bool:
    return (
        isinstance(value, dict) and set(value) == {"en", "ru"}
        and all(isinstance(v, str) and v.strip() for v in value.values())
    )


def _fields(rows: Iterable[dict[str, Any]], names: tuple[str, ...]) -> list[tuple[str, str, Any]]:
    return [(str(r.get("name") or r.get("id")), f, r[f]) for r in rows for f in names if f in r]


CASES = {
    "assets": (C.assets.values(), ("text",), True),
    "artifacts": (C.artifacts.values(), ("text",), True),
    "spells": (C.spells.values(), ("text",), True),
    "conditions": (C.conditions.values(), ("text",), True),
    "investigators": (C.investigators.values(), ("action_text", "passive_text"), True),
    "ancient_ones": (C.ancient_ones.values(), ("setup_text", "ability_text", "awakening_text"), True),
    "mythos": (C.mythos.values(), ("text",), True),
    "mysteries": (C.mysteries.values(), ("text",), True),
    "final_mysteries": ([a["awakened"]["final_mystery"] for a in C.ancient_ones.values() if a["awakened"].get("final_mystery")],
                        ("text",), True),
    "monsters": ([*C.monsters.values(), *C.epics.values()], ("special", "reckoning", "spawn"), False),
}


@pytest.mark.parametrize("kind", sorted(CASES))
def test_every_card_text_is_bilingual(kind: str) -> None:
    rows, names, required = CASES[kind]
    rows = list(rows)
    found = _fields(rows, names)
    if required:
        assert len(found) == len(rows) * len(names), f"{kind}: a card lacks one of {names}"
    bad = [(n, f) for n, f, v in found if not (v is None and not required) and not _bilingual(v)]
    assert not bad, f"{kind}: not {{en, ru}}: {bad[:5]}"


def test_monster_texts_follow_their_effects() -> None:
    """A monster with a reckoning or spawn effect also says so to the players, and the other way round."""
    for m in [*C.monsters.values(), *C.epics.values()]:
        assert bool(m["reckoning"]) == bool(m["reckoning_effects"]), m["name"]
        assert bool(m["spawn"]) == bool(m["spawn_effects"]), m["name"]

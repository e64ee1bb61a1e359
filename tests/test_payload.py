"""Components built as dicts (``cogs.games.payload``) are what discord.py's views sent: the same keys in the
same order, placed in the same rows, so moving off the view objects changed no byte sent to Discord."""

from __future__ import annotations

import json
import random
from typing import Any

import discord
import pytest

from cogs.games.components import (
    ActionButton,
    ActionSelect,
    HandButton,
    HintButton,
    JoinRunningButton,
    LeaveButton,
    PageTurnButton,
    RematchButton,
    TakebackButton,
)
from cogs.games.payload import Component, Components, as_button_item, as_select_item, button, select

ITEMS: list[tuple[Any, tuple[Any, ...]]] = [
    (ActionButton, (7, 12, 3, "Draw from deck 1")),
    (ActionButton, (7, 12, 4, "")),  # no label: the index stands in
    (ActionSelect, (7, 12, "1.0", "Discard…", [(0, "Empress (7)"), (5, "Ninja (16)")])),
    (ActionSelect, (7, 12, "2.1", "", None)),
    (PageTurnButton, (7, 12, 1, "Page 2/3 ▶", True)),
    (HintButton, (7, 12, "Hint")),
    (TakebackButton, (7, "Take back my move")),
    (HandButton, (7, "My hand")),
    (JoinRunningButton, (7, "Join")),
    (LeaveButton, (7, "Leave", True, True)),
    (RematchButton, (7, "Rematch")),
]


@pytest.mark.parametrize(("cls", "args"), ITEMS, ids=lambda v: getattr(v, "__name__", ""))
def test_a_component_reads_back_through_discord_py_unchanged(cls: Any, args: tuple[Any, ...]) -> None:
    """The dict sent is the one discord.py writes for the item dispatch rebuilds from it, key order too."""
    sent = cls.component(*args)
    written = cls(*args).to_component_dict()
    assert json.dumps(written) == json.dumps(sent)
    assert cls.__discord_ui_compiled_template__.fullmatch(sent["custom_id"])


def _random_component(rnd: random.Random, n: int) -> Component:
    if rnd.random() < 0.2:
        return select(f"s:{n}", [{"label": f"o{k}", "value": str(k), "default": k == 0} for k in range(3)],
                      rnd.choice([None, "pick…"]))
    return button(f"b:{n}", f"b{n}", rnd.choice(list(discord.ButtonStyle)[:4]), disabled=rnd.random() < 0.2,
                  emoji=rnd.choice([None, "💡"]))


def _refused(add: Any, *args: Any) -> bool:
    try:
        add(*args)
    except ValueError:
        return True
    return False


def test_components_fill_rows_as_a_view_places_its_items() -> None:
    """Rows asked for, the first row with room otherwise, and a ValueError where the view refused an item."""
    rnd = random.Random(3)
    for _ in range(300):
        view, ours = discord.ui.View(timeout=None), Components()
        for n in range(rnd.randint(1, 14)):
            component, row = _random_component(rnd, n), rnd.choice([None, None, 0, 1, 2, 3, 4])
            item = (as_select_item if component["type"] == 3 else as_button_item)(component, row)
            assert _refused(view.add_item, item) == _refused(ours.add, component, row)
        assert json.dumps(ours.to_components()) == json.dumps(view.to_components())


def test_components_ask_discord_py_to_keep_nothing() -> None:
    """Their items are the dynamic templates registered once: no view to store per message."""
    ours = Components()
    ours.add(HandButton.component(7, "My hand"))
    assert ours.is_finished() and not ours.is_dispatchable() and not ours.has_components_v2()

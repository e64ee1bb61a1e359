"""The game's spec in a module of its own, so that importing it also registers every card script (the
package's ``__init__`` re-exports it for the registry)."""

from __future__ import annotations

from rules.coc_lcg import scripts  # noqa: F401  (registers every card script)
from rules.coc_lcg.actions import CocAction
from rules.coc_lcg.engine import CocEngine
from rules.coc_lcg.options import CocOptions
from rules.coc_lcg.state import CocState
from rules.coc_lcg.views import CocView
from rules.core import GameSpec

SPEC = GameSpec(
    about={
        "en": (
            "A duel of two factions of the Cthulhu Mythos: commit characters to stories, "
            "win three stories before your rival does."
        ),
        "ru": (
            "Дуэль двух фракций мифов Ктулху: "
            "отправляйте персонажей на истории и выиграйте три истории раньше соперника."
        ),
    },
    minutes=(40, 60),
    id="coc_lcg",
    names={"en": "Call of Cthulhu: The Card Game", "ru": "Зов Ктулху: карточная игра"},
    min_seats=2,
    max_seats=2,
    engine=CocEngine(),
    options_model=CocOptions,
    state_model=CocState,
    action_model=CocAction,
    view_model=CocView,
    aliases=("coc", "cthulhu_lcg"),
)

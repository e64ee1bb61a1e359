"""Cthulhu Wars: Duel («Войны Ктулху: Дуэль», Extinction box): the Sleeper against the Windwalker."""

from rules.core import GameSpec
from rules.cthulhu_wars_duel.actions import CwdAction
from rules.cthulhu_wars_duel.engine import CthulhuWarsDuelEngine
from rules.cthulhu_wars_duel.options import CwdOptions
from rules.cthulhu_wars_duel.state import CwdState
from rules.cthulhu_wars_duel.views import CwdView

SPEC = GameSpec(
    about={
        "en": (
            "Two Great Old Ones fight over a dying Earth: summon monsters, build gates, "
            "perform rituals and race for Doom points."
        ),
        "ru": (
            "Два Великих Древних сражаются за гибнущую Землю: призывайте монстров, стройте врата, "
            "проводите ритуалы и гонитесь за очками судьбы."
        ),
    },
    minutes=(45, 75),
    id="cthulhu_wars_duel",
    names={"en": "Cthulhu Wars: Duel", "ru": "Войны Ктулху: Дуэль"},
    min_seats=2,
    max_seats=2,
    engine=CthulhuWarsDuelEngine(),
    options_model=CwdOptions,
    state_model=CwdState,
    action_model=CwdAction,
    view_model=CwdView,
)

__all__ = ["SPEC"]

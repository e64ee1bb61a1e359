"""Cthulhu Fluxx («Fluxx Ктулху», Looney Labs / Hobby World): 2–6 players, rules that change as you play."""

from rules.core import GameSpec
from rules.fluxx_cthulhu.actions import FlxAction
from rules.fluxx_cthulhu.engine import FluxxEngine
from rules.fluxx_cthulhu.options import FlxOptions
from rules.fluxx_cthulhu.state import FlxState
from rules.fluxx_cthulhu.views import FlxView

SPEC = GameSpec(
    about={
        "en": (
            "A card game whose rules change as you play: new rules, "
            "goals and keepers rewrite the game every turn while the Doom rises."
        ),
        "ru": (
            "Карточная игра, правила которой меняются по ходу: новые правила, "
            "цели и темы переписывают игру каждый ход, а безысходность растёт."
        ),
    },
    minutes=(10, 40),
    id="fluxx_cthulhu",
    names={"en": "Cthulhu Fluxx", "ru": "Fluxx Ктулху"},
    min_seats=2,
    max_seats=6,
    engine=FluxxEngine(),
    options_model=FlxOptions,
    state_model=FlxState,
    action_model=FlxAction,
    view_model=FlxView,
    aliases=("fluxx", "cthulhu_fluxx"),
    joinable=True,  # FLX-R23: a newcomer may join a running game
)

__all__ = ["SPEC"]

"""Call to Glory («Зов Славы», Michael Schacht): 2–4 players collect Japanese characters in sets."""

from rules.call_to_glory.actions import CtgAction
from rules.call_to_glory.engine import CallToGloryEngine
from rules.call_to_glory.options import CtgOptions
from rules.call_to_glory.state import CtgState
from rules.call_to_glory.views import CtgView
from rules.core import GameSpec

SPEC = GameSpec(
    about={
        "en": (
            "Samurai, monks and ninja of old Japan: lay out sets of figures, "
            "draw from the piles and outscore your rivals over four rounds."
        ),
        "ru": (
            "Самураи, монахи и ниндзя старой Японии: выкладывайте наборы фигур, "
            "берите карты из стопок и наберите больше очков за четыре раунда."
        ),
    },
    minutes=(20, 40),
    id="call_to_glory",
    names={"en": "Call to Glory", "ru": "Зов Славы"},
    min_seats=2,
    max_seats=4,
    engine=CallToGloryEngine(),
    options_model=CtgOptions,
    state_model=CtgState,
    action_model=CtgAction,
    view_model=CtgView,
)

__all__ = ["SPEC"]

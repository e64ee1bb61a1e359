"""The game's GameSpec, kept out of the package's ``__init__`` until the game is complete: the registry
registers any package exporting ``SPEC``, and an unfinished game must not reach the lobby."""

from rules.core import GameSpec
from rules.eldritch_horror.actions import EhAction
from rules.eldritch_horror.engine import EldritchHorrorEngine
from rules.eldritch_horror.options import EhOptions
from rules.eldritch_horror.state import EhState
from rules.eldritch_horror.views import EhView

SPEC = GameSpec(
    id="eldritch_horror",
    names={"en": "Eldritch Horror", "ru": "Древний ужас"},
    min_seats=1,
    max_seats=8,
    engine=EldritchHorrorEngine(),
    options_model=EhOptions,
    state_model=EhState,
    action_model=EhAction,
    view_model=EhView,
)

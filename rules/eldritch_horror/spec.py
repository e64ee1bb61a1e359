"""The game's GameSpec. The package's ``__init__`` exports it as ``SPEC``, which is how the registry finds the
game and offers it in the lobby."""

from rules.core import GameSpec
from rules.eldritch_horror.actions import EhAction
from rules.eldritch_horror.engine import EldritchHorrorEngine
from rules.eldritch_horror.options import EhOptions
from rules.eldritch_horror.state import EhState
from rules.eldritch_horror.views import EhView

SPEC = GameSpec(
    about={
        "en": (
            "A co-operative race around the world: investigators travel, "
            "fight monsters and solve mysteries before an Ancient One awakens."
        ),
        "ru": (
            "Кооперативная гонка по всему миру: сыщики путешествуют, сражаются с чудовищами и раскрывают тайны, "
            "пока не пробудился Древний."
        ),
    },
    minutes=(120, 240),
    cooperative=True,
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

"""The engine contract shared by every game: errors, randomness, decisions, events, specs, replay."""

from rules.core.decisions import Decision, Prompt, answer, prompts_for
from rules.core.errors import RuleError
from rules.core.events import Event, visible_to
from rules.core.replay import replay
from rules.core.rng import Rng
from rules.core.spec import Engine, GameResult, GameSpec

__all__ = [
    "Decision",
    "Engine",
    "Event",
    "GameResult",
    "GameSpec",
    "Prompt",
    "Rng",
    "RuleError",
    "answer",
    "prompts_for",
    "replay",
    "visible_to",
]

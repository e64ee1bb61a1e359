"""The engine contract every game implements, and the spec that registers it."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import (
    Annotated,
    Any,
    Generic,
    Protocol,
    TypeVar,
    cast,
    get_args,
    get_origin,
)

from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from rules.core.decisions import Prompt
from rules.core.errors import BAD_ACTION, RuleError
from rules.core.events import Event
from rules.core.rng import Rng

S = TypeVar("S", bound=BaseModel)


class GameResult(BaseModel):
    """The outcome once a game is over. ``ranking`` groups tied seats: ``[["a", "b"], ["c"]]``."""

    finished: bool = True
    ranking: list[list[str]]
    scores: dict[str, int] = Field(default_factory=dict)
    reason: str
    winners: list[str] = Field(default_factory=list)


class _Chance(Protocol):
    """What the contract asks of every state: its generator, kept inside it."""

    rng: Rng


class Engine(ABC, Generic[S]):
    """Pure functions over a state model. No I/O, no clocks, no global randomness."""

    @abstractmethod
    def new_game(self, seats: Sequence[str], options: BaseModel | None = None, seed: int = 0) -> S: ...

    @abstractmethod
    def pending(self, state: S) -> list[Prompt]:
        """Who must act now and on what; empty only when the game is over."""

    @abstractmethod
    def legal_actions(self, state: S, seat: str) -> list[BaseModel]:
        """Every action ``seat`` may take now (empty when it owes nothing)."""

    @abstractmethod
    def apply(self, state: S, seat: str, action: BaseModel | dict[str, Any]) -> tuple[S, list[Event]]:
        """Return the next state and its events, or raise RuleError leaving ``state`` untouched."""

    @abstractmethod
    def view(self, state: S, seat: str | None) -> BaseModel:
        """The public view (``None``) or one seat's private view; nothing hidden from it appears."""

    @abstractmethod
    def result(self, state: S) -> GameResult | None: ...

    def forfeit(self, state: S, seat: str, place: int) -> BaseModel | None:
        """The action that takes ``seat`` out of a running game for good: its player left, the others voted
        it out, or a turn deadline ran out with "forfeit" as its consequence. The bot applies it with
        ``apply`` and logs it like any move, so a rebuild from the log replays the forfeit too. ``None``
        means this game goes on with the seat played by an AI instead. ``place`` is the seat's index in the
        session's seat list; an action of type ``leave`` carries it so the rebuild seats everyone right.

        Conventions: a ``leave`` action drops the seat from the seating, a ``concede`` action keeps it
        seated and ends the game. Neither is ever among ``legal_actions`` (random games and AIs must not
        pick it); ``apply`` accepts it from that seat at any moment until the game is over, or raises a
        RuleError when the game cannot let the seat go now. Games decide what leaving means, so the
        default is the AI takeover."""
        return None

    revealing_events: frozenset[str] = frozenset()
    """Public event types that turn something face-down face up (an Elder Sign's value, a story card)."""

    def hidden_piles(self, state: S) -> tuple[Any, ...]:
        """The face-down piles nobody sees into (decks, a bag): a card leaving one is a card drawn."""
        return ()

    def reveals(self, before: S, after: S, events: Sequence[Event]) -> bool:
        """Whether a step showed anyone something hidden or was decided by chance: the barrier a take-back
        may not cross, since undoing it would leave a player knowing what the game had not shown yet, or
        let a die be rolled again. Chance is exact (the generator lives in the state); a private event
        means a seat was shown something; the rest is each game's ``revealing_events`` and
        ``hidden_piles``. A player showing their own cards by playing them is their decision, not a
        reveal. ``tests/rules/test_takeback_marks.py`` checks the marks against sampling."""
        if cast(_Chance, before).rng.state != cast(_Chance, after).rng.state:
            return True
        if any(e.audience is not None or e.type in self.revealing_events for e in events):
            return True
        return self.hidden_piles(before) != self.hidden_piles(after)

    @abstractmethod
    def determinize(self, state: S, seat: str, rng: Rng) -> S:
        """A full state ``seat`` cannot tell from ``state`` (``view`` is equal for it) with everything hidden
        from it (other hands, deck orders, face-down values, the generator) re-drawn from ``rng``. What is
        re-drawn depends only on that seat's view, so an AI searching samples never peeks."""


@dataclass(frozen=True)
class GameSpec:
    """How the registry, the lobby, the fuzzers and the benchmarks see one game."""

    id: str
    names: dict[str, str]
    min_seats: int
    max_seats: int
    engine: Engine[Any]
    options_model: type[BaseModel]
    state_model: type[BaseModel]
    action_model: Any  # a pydantic discriminated union of the game's actions
    view_model: type[BaseModel]
    aliases: tuple[str, ...] = field(default=())
    # A game people may join while it runs: a seat not yet in the game applies ``{"type": "join"}``.
    joinable: bool = False
    # Two short lines on what the game is, by language, for the lobby and /help.
    about: dict[str, str] = field(default_factory=dict)
    # How long a game usually takes at a table, in minutes (low, high), for /help and the lobby.
    minutes: tuple[int, int] = (30, 60)
    # The players win or lose together (Eldritch Horror): no ranking among them, so no rating either.
    cooperative: bool = False

    def name(self, locale: str) -> str:
        return self.names.get(locale[:2], self.names["en"])

    def parse_action(self, data: object) -> BaseModel:
        """Turn untrusted input into one of the game's actions (see ``parse_action``)."""
        return parse_action(self.action_model, data)

    def dump_action(self, action: BaseModel) -> str:
        return action.model_dump_json()

    def parse_options(self, data: dict[str, Any] | None) -> BaseModel:
        """Validate options; pydantic's error types are the stable codes the bot localizes."""
        return self.options_model.model_validate(data or {})


def parse_action(action_model: Any, data: object) -> BaseModel:
    """Turn untrusted input into one of a game's actions: one of its action objects passes as it is, a
    dict or JSON text is validated, anything else (another game's action, a number) is a ``bad_action``
    RuleError. A function of the action union alone, so an engine can parse without its spec."""
    if isinstance(data, BaseModel):
        if isinstance(data, _members(action_model)):
            return data
        raise RuleError(BAD_ACTION, detail=type(data).__name__)
    if not isinstance(data, (dict, str, bytes)):
        raise RuleError(BAD_ACTION, detail=type(data).__name__)
    adapter = _adapter(action_model)
    try:
        if isinstance(data, dict):
            parsed: BaseModel = adapter.validate_python(data)
            return parsed
        parsed = adapter.validate_json(data)
        return parsed
    except ValidationError as exc:
        raise RuleError(BAD_ACTION, detail=_first_error(exc)) from None


_ADAPTERS: dict[int, TypeAdapter[Any]] = {}


def _adapter(model: Any) -> TypeAdapter[Any]:
    key = id(model)
    if key not in _ADAPTERS:
        _ADAPTERS[key] = TypeAdapter(model)
    return _ADAPTERS[key]


def _members(model: Any) -> tuple[type, ...]:
    """The classes of a (possibly ``Annotated``) union of action models."""
    args = get_args(model)
    if args and get_origin(model) is Annotated:
        return _members(args[0])
    return tuple(a for a in args if isinstance(a, type)) or ((model,) if isinstance(model, type) else ())


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err.get("loc", ()))
    return f"{loc}: {err.get('type')}" if loc else str(err.get("type"))

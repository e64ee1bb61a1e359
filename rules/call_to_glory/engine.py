"""Call to Glory rules (CTG-R1..R15, CTG-V1, CTG-V2) as pure functions over :class:`CtgState`.

Every entry point validates against the given state first and only then writes a successor
(:meth:`CtgState.successor`), so a rejected action leaves the caller's object exactly as it was and an
accepted one leaves it valid too. The successor shares every container with the given state: handlers
write its field dict (``s = state.__dict__``), take a player with ``own_player(s, i)`` before changing
it, and assign new lists and dicts rather than editing the shared ones.
"""

from __future__ import annotations

from bisect import insort
from collections import _count_elements  # type: ignore[attr-defined]  # Counter's C helper
from collections.abc import Sequence
from functools import cache, lru_cache
from operator import attrgetter
from typing import Any

from pydantic import BaseModel

from rules.call_to_glory import events as ev
from rules.call_to_glory.actions import (
    ACTION_TYPES,
    Concede,
    Discard,
    Draw,
    EndTurn,
    GiveUpCard,
    LayOut,
    PlaceBeatenSet,
    RevealTask,
    UseNinja,
    _Action,
)
from rules.call_to_glory.cards import catalog, full_deck
from rules.call_to_glory.determinize import determinize
from rules.call_to_glory.options import CtgOptions
from rules.call_to_glory.state import (
    DECK1,
    DECK2,
    DISCARD1,
    DISCARD2,
    PILE_INDEX,
    PILE_NAMES,
    CtgState,
    PlayerState,
    RoundRecord,
    build_player,
    build_state,
    own_player,
)
from rules.call_to_glory.views import CtgView, build_view
from rules.core import Decision, Engine, Event, GameResult, Prompt, Rng, RuleError, prompts_for
from rules.core import errors as E
from rules.core.fastmodel import builder

MIN_SEATS, MAX_SEATS = 2, 4
HAND_SIZE = 3
NINJA_FIGURES = 4
NINJA = 14
# CTG-R12(a): different characters one player must have out to end the round, by player count.
SETS_TO_END = {2: 6, 3: 5, 4: 4}

BEATEN_SET = "beaten_set"
NINJA_VICTIM = "ninja_victim"
REVEAL_TASK = "reveal_task"
# What ``pending`` reports for the player on turn, by phase.
_TURN_PROMPTS = {"draw": "draw", "act": "lay_or_discard", "after": "after_action"}
# Phases that may move on without a choice (see ``_settle``).
_SETTLING = frozenset({"after", "reveal"})


class CallToGloryEngine(Engine[CtgState]):
    # ------------------------------------------------------------------ setup
    def new_game(
        self, seats: Sequence[str], options: BaseModel | dict[str, Any] | None = None, seed: int = 0
    ) -> CtgState:
        if isinstance(options, CtgOptions):
            opts = options
        elif isinstance(options, BaseModel):
            opts = CtgOptions.model_validate(options.model_dump())
        else:
            opts = CtgOptions.model_validate(options or {})  # a dict is validated, never ignored
        seats = E.checked_seats(seats, MIN_SEATS, MAX_SEATS)
        rng = Rng.from_seed(seed)
        first = rng.below(len(seats)) if opts.first_player == "random" else 0
        players = [PlayerState(seat=s) for s in seats]
        if opts.imperial_tasks:
            # CTG-V1: one card from each shuffled deck to every player; the rest leave the game.
            for deck in catalog().decks.values():
                cards = list(deck)
                rng.shuffle(cards)
                for p, task in zip(players, cards, strict=False):
                    p.tasks.append(task)
        state = CtgState(
            options=opts,
            rng=rng,
            round=0,
            rounds_total=opts.rounds,
            first=first,
            current=first,
            phase="draw",
            piles=[[], [], [], []],
            players=players,
            ninja_supply=NINJA_FIGURES if opts.ninja_power else 0,
        )
        _start_round(state, first, [])
        return state

    # ------------------------------------------------------------------ queries
    def pending(self, state: CtgState) -> list[Prompt]:
        s = state.__dict__  # field reads through the dict: pydantic's attribute hook costs more
        phase = s["phase"]
        if phase == "over":
            return []
        stack = s["stack"]
        if stack:
            return prompts_for(stack[-1])
        seat = s["players"][s["current"]].seat
        key = (seat, phase, len(s["drawn_from"]))
        prompt = _TURN_PROMPT_CACHE.get(key)
        if prompt is None:
            prompt = _turn_prompt(key)
        return [prompt]

    def legal_actions(self, state: CtgState, seat: str) -> list[BaseModel]:
        s = state.__dict__
        idx = s["current"]
        if s["players"][idx].seat != seat:
            idx = state.seat_index(seat)
            if idx is None:
                return []
        phase = s["phase"]
        if phase == "over":
            return []
        if s["stack"]:
            top = s["stack"][-1]
            if seat not in top.seats:
                return []
            return _decision_actions(state, idx, top)
        if idx != s["current"]:
            return []
        out: list[BaseModel]
        if phase == "draw":
            out = _draw_options(s["piles"], s["drawn_from"])
        elif phase == "act":
            out = _act_options(s, idx)
        elif phase == "after":
            out = [_END_TURN]
        else:
            out = []
        if s["options"].ninja_power:
            out += _ninja_options(state, idx)
        return out

    def view(self, state: CtgState, seat: str | None) -> CtgView:
        if seat is not None and state.seat_index(seat) is None:
            raise RuleError(E.UNKNOWN_SEAT, seat=seat)
        return build_view(state, seat, self.pending(state), self.result(state))

    def result(self, state: CtgState) -> GameResult | None:
        if state.phase != "over":
            return None
        if state.conceded is not None:
            return _conceded_result(self, state)
        totals = {p.seat: p.total for p in state.players}
        best = {p.seat: max(p.round_scores, default=0) for p in state.players}
        # CTG-R15: highest total; then the best single round; then a shared place.
        keyed = sorted(state.players, key=lambda p: (-totals[p.seat], -best[p.seat]))
        ranking: list[list[str]] = []
        last: tuple[int, int] | None = None
        for p in keyed:
            key = (totals[p.seat], best[p.seat])
            if key == last:
                ranking[-1].append(p.seat)
            else:
                ranking.append([p.seat])
                last = key
        return GameResult(
            ranking=ranking, scores=totals, reason="rounds_complete", winners=list(ranking[0])
        )

    def hidden_piles(self, state: CtgState) -> tuple[Any, ...]:
        """Both draw piles and the cards under each discard top: taking a top shows the card beneath."""
        piles = state.piles
        return (piles[DECK1], piles[DECK2], piles[DISCARD1][:-1], piles[DISCARD2][:-1])

    def determinize(self, state: CtgState, seat: str, rng: Rng) -> CtgState:
        return determinize(state, seat, rng)

    def forfeit(self, state: CtgState, seat: str, place: int) -> BaseModel | None:
        """Bot ruling: a two-player game cannot go on without one of them, so leaving concedes it; with
        three or four the others play on and an AI takes the seat over (None)."""
        return Concede() if len(state.players) == 2 else None

    # ------------------------------------------------------------------ apply
    def apply(
        self, state: CtgState, seat: str, action: BaseModel | dict[str, Any]
    ) -> tuple[CtgState, list[Event]]:
        s = state.__dict__
        idx = s["current"]
        kind = type(action)
        # The player on turn drawing, discarding or laying out in its phase: nearly all actions, so found
        # first and with the cheapest tests (an exact type needs no isinstance, the seat no look-up).
        if (
            (kind is Draw or kind is Discard or kind is LayOut)
            and not s["stack"]
            and s["players"][idx].seat == seat
        ):
            phase = s["phase"]
            if kind is Draw and phase == "draw":
                return _draw(state, s, idx, action)  # type: ignore[arg-type]
            if kind is Discard and phase == "act":
                return _discard(state, s, idx, action)  # type: ignore[arg-type]
            if kind is LayOut and phase == "act":
                return _lay_out(state, s, idx, action)  # type: ignore[arg-type]
        elif s["players"][idx].seat != seat:  # anyone but the player on turn is looked up
            idx = state.seat_index(seat)
        if idx is None:
            raise RuleError(E.UNKNOWN_SEAT, seat=seat)
        act = action if isinstance(action, ACTION_TYPES) else _parse(action)
        phase = s["phase"]
        if act is not action and idx == s["current"] and not s["stack"]:  # parsed from outside input
            if phase == "draw" and type(act) is Draw:
                return _draw(state, s, idx, act)
            if phase == "act" and type(act) is Discard:
                return _discard(state, s, idx, act)
            if phase == "act" and type(act) is LayOut:
                return _lay_out(state, s, idx, act)
        if phase == "over":
            raise RuleError(E.GAME_OVER)
        if type(act) is Concede:
            return _concede(state, idx)
        if s["stack"]:
            top = s["stack"][-1]
            if seat not in top.seats:
                raise RuleError("waiting_for", seats=list(top.seats), kind=top.kind)
            handler = _DECISION_HANDLERS.get((top.kind, type(act)))
            if handler is None:
                raise RuleError("ctg.answer_expected", kind=top.kind, action=act.type)
        else:
            if idx != s["current"]:
                raise RuleError(E.NOT_YOUR_TURN, current=s["players"][s["current"]].seat)
            handler = _TURN_HANDLERS.get(type(act))
            if handler is None:
                raise RuleError("ctg.nothing_to_answer", action=act.type)
        check, do = handler
        check(state, idx, act)
        new = state.successor()
        events: list[Event] = []
        do(new, idx, act, events)
        fields = new.__dict__
        if fields["phase"] in _SETTLING and not fields["stack"]:  # _settle has nothing to do otherwise
            _settle(new, events)
        return new, events


def _concede(state: CtgState, idx: int) -> tuple[CtgState, list[Event]]:
    """Bot ruling: player ``idx`` leaves and the game ends at once, whoever is on turn or asked what. Open
    questions are dropped and the round in progress is not scored: the standings are the totals so far."""
    new = state.successor()
    fields = new.__dict__
    fields["phase"] = "over"
    fields["stack"] = []
    fields["reveal_queue"] = []
    fields["conceded"] = state.players[idx].seat
    result = _conceded_result(CallToGloryEngine(), new)
    return new, [
        ev.Conceded(seat=state.players[idx].seat, winners=result.winners),
        ev.GameEnded(ranking=result.ranking, totals=result.scores),
    ]


def _conceded_result(engine: CallToGloryEngine, state: CtgState) -> GameResult:
    """The game's own end ranking (CTG-R15) of the totals so far, with the player who conceded moved to last
    place on their own whatever their score."""
    leaver = state.conceded
    ranked = engine.result(state.model_copy(update={"conceded": None}))
    assert ranked is not None and leaver is not None
    ranking = [group for group in ([s for s in g if s != leaver] for g in ranked.ranking) if group] + [[leaver]]
    return GameResult(ranking=ranking, scores=ranked.scores, reason="conceded", winners=list(ranking[0]))


# ====================================================================== helpers (read-only)


@lru_cache(maxsize=8192)
def _act(cls: type[BaseModel], **kwargs: Any) -> BaseModel:
    """Actions are frozen, so one validated instance per distinct move serves every legal_actions call."""
    return cls(**kwargs)


# The moves legal_actions lists most often get cheaper look-ups than ``_act``'s keyword key.
_DRAWS = tuple(_act(Draw, pile=name) for name in PILE_NAMES)
_DRAWS_BUT = [tuple(d for j, d in enumerate(_DRAWS) if j != i) for i in range(len(_DRAWS))]
_END_TURN = _act(EndTurn)
# Discard pile choices (CTG-R11) and the lay-out pile of a set that replaces nobody's own.
_ONLY_1, _ONLY_2, _EITHER, _NO_PILE = (1,), (2,), (1, 2), (None,)


@cache
def _lay_outs(
    character: int, low: int, high: int, piles: tuple[int | None, ...]
) -> tuple[BaseModel, ...]:
    """Lay-outs of ``low``..``high`` cards, by count then pile: bounded by 9 characters × 20² counts."""
    return tuple(
        _act(LayOut, character=character, count=n, pile=p) for n in range(low, high + 1) for p in piles
    )


def _parse(action: object) -> _Action:
    """Anything but one of our action objects goes through the spec's validation."""
    from rules.call_to_glory import SPEC

    parsed = SPEC.parse_action(action)
    assert isinstance(parsed, _Action)  # the spec validates against this game's action union
    return parsed


_THREE_DOTS, _NO_DOTS = catalog().three_dots, frozenset[int]()
_sets_of = attrgetter("sets")
_CHARACTERS = len(catalog().characters)


def _owner(state: CtgState, character: int) -> int | None:
    for i, p in enumerate(state.players):
        if character in p.sets:
            return i
    return None


def _forced_discard(state: CtgState) -> int | None:
    """CTG-R11: an empty discard pile must be (re)started first; pile 1 when both are empty."""
    piles = state.__dict__["piles"]
    if not piles[DISCARD1]:
        return 1
    if not piles[DISCARD2]:
        return 2
    return None


def _discard_choices(state: CtgState) -> tuple[int, ...]:
    forced = _forced_discard(state)
    return _EITHER if forced is None else _ONLY_1 if forced == 1 else _ONLY_2


def _check_pile(state: CtgState, pile: int | None) -> int:
    forced = _forced_discard(state)
    if forced is not None:
        if pile is not None and pile != forced:
            raise RuleError("ctg.pile_must", pile=forced)
        return forced
    if pile is None:
        raise RuleError("ctg.pile_required")
    return pile


def _draw_options(piles: list[list[int]], drawn: list[int]) -> list[BaseModel]:
    """Draws from every pile not yet drawn from this turn that holds a card (CTG-R5)."""
    if piles[DECK1] and piles[DECK2] and piles[DISCARD1] and piles[DISCARD2] and len(drawn) < 2:
        return list(_DRAWS_BUT[drawn[0]] if drawn else _DRAWS)  # the usual case, found without a loop
    return [_DRAWS[i] for i, pile in enumerate(piles) if pile and i not in drawn]


def _act_options(s: dict[str, Any], idx: int) -> list[BaseModel]:
    """Every lay-out (CTG-R6..R9), then every discard (CTG-R10), in the state whose field dict is ``s``."""
    players = s["players"]
    piles = s["piles"]
    # _discard_choices, spelled out: this runs for every act-phase query.
    choices = _ONLY_1 if not piles[DISCARD1] else _ONLY_2 if not piles[DISCARD2] else _EITHER
    hand = players[idx].hand
    # Cards per character, counted in one pass in C by the helper ``Counter`` itself uses (a private name of
    # the standard library, there since 3.2; ``Counter(hand)`` costs about 4 % of a whole game more, in its
    # Python-level set-up). The hand is kept sorted, so the characters come in order.
    held: dict[int, int] = {}
    _count_elements(held, hand)
    values = tuple(held)
    discards = _discards(values, choices)
    if len(values) == len(hand):  # no pair: no set is smaller than two (CTG-R6)
        return list(discards)
    # CTG-R6/R7: a set is two cards, three of a dotted character when 3 or 4 play.
    dotted = _THREE_DOTS if len(players) >= 3 else _NO_DOTS
    out: list[BaseModel] = []
    laid: dict[int, int] | None = None  # character -> size of the set out (one owner per character)
    mine: dict[int, int] = {}
    for v, have in held.items():
        if have < 2:
            continue
        low = 3 if v in dotted else 2
        if have < low:
            continue
        if laid is None:  # every set on the table, merged once in C (_owner for all characters)
            laid = {}
            for sets in map(_sets_of, players):
                laid.update(sets)
            mine = players[idx].sets
        there = laid.get(v)
        if there is None:
            out += _lay_outs(v, low, have, _NO_PILE)
        elif v in mine:  # CTG-R9: my own set, replaced only by a bigger one; the old one needs a pile
            if have > there:
                out += _lay_outs(v, low if low > there else there + 1, have, choices)
        elif have > there:  # CTG-R8: someone's set, beaten only by a bigger one
            out += _lay_outs(v, low if low > there else there + 1, have, _NO_PILE)
    out += discards
    return out


@cache
def _discards(values: tuple[int, ...], piles: tuple[int, ...]) -> tuple[BaseModel, ...]:
    """Discard moves by pile, then character: at most 2⁹ hands' worth of value sets times 3 pile choices."""
    return tuple(_act(Discard, character=v, pile=p) for p in piles for v in values)


def _can_use_ninja(state: CtgState, idx: int) -> bool:
    if not state.options.ninja_power or state.players[idx].ninjas <= 0:
        return False
    return any(p.sets for i, p in enumerate(state.players) if i != idx)


def _ninja_options(state: CtgState, idx: int) -> list[BaseModel]:
    if not _can_use_ninja(state, idx):
        return []
    return [
        _act(UseNinja, target=p.seat, character=v)
        for i, p in enumerate(state.players)
        if i != idx
        for v in sorted(p.sets)
    ]


def _decision_actions(state: CtgState, idx: int, top: Decision) -> list[BaseModel]:
    me = state.players[idx]
    if top.kind == BEATEN_SET:
        return [_act(PlaceBeatenSet, pile=p) for p in (1, 2)]
    if top.kind == NINJA_VICTIM:
        return [_act(GiveUpCard, pile=p) for p in _discard_choices(state)]
    if top.kind == REVEAL_TASK:
        return [_act(RevealTask, task=t) for t in me.tasks]
    return []


# ====================================================================== turn actions


def _check_draw(state: CtgState, idx: int, act: Draw) -> None:
    """Reached only outside the draw phase: ``apply`` takes a draw in its phase straight to ``_draw``."""
    raise RuleError("ctg.wrong_phase", phase=state.phase, action="draw")


def _draw(state: CtgState, s: dict[str, Any], idx: int, act: Draw) -> tuple[CtgState, list[Event]]:
    """CTG-R5, checked and done in one place (``apply`` with nothing of its generic path between);
    ``s`` is the field dict of ``state``."""
    name = act.pile
    pile = PILE_INDEX[name]
    drawn = s["drawn_from"]
    if pile in drawn:
        raise RuleError("ctg.same_pile", pile=name)
    piles = s["piles"]
    source = piles[pile]
    if not source:
        raise RuleError("ctg.pile_empty", pile=name)
    f = s.copy()  # CtgState.successor and own_player, spelled out
    new = build_state(f)
    piles = piles[:]
    card = source[-1]
    piles[pile] = source[:-1]
    f["piles"] = piles
    players = f["players"] = f["players"][:]
    me = players[idx].__dict__.copy()
    players[idx] = build_player(me)
    hand = me["hand"][:]
    insort(hand, card)
    me["hand"] = hand
    drawn = f["drawn_from"] = [*drawn, pile]
    # Two draws from different piles, or fewer if no other pile holds a card (with all four piles
    # holding cards, as they mostly do, a second draw is always possible).
    if len(drawn) >= 2 or not (
        (piles[0] and piles[1] and piles[2] and piles[3]) or _undrawn_cards(piles, drawn)
    ):
        f["phase"] = "act"
    events = ev.DRAW_EVENTS.get((me["seat"], name, card))  # ev.draw_events, without the call when known
    if events is None:
        events = ev.draw_events(me["seat"], name, card, pile < DISCARD1)
    return new, list(events)


def _undrawn_cards(piles: list[list[int]], drawn: list[int]) -> bool:
    """Whether a pile not yet drawn from this turn holds a card (a loop: ``any`` over a generator
    costs about three times as much here)."""
    for i, pile in enumerate(piles):
        if pile and i not in drawn:
            return True
    return False


def _check_lay(state: CtgState, idx: int, act: LayOut) -> None:
    """Reached only outside the act phase: ``apply`` takes a lay-out in its phase straight to ``_lay_out``."""
    raise RuleError("ctg.wrong_phase", phase=state.phase, action="lay_out")


def _lay_out(
    state: CtgState, s: dict[str, Any], idx: int, act: LayOut
) -> tuple[CtgState, list[Event]]:
    """CTG-R6..R9, checked and done in one place, so the set already out is looked up once; then the turn
    moves on as ``apply`` would. ``s`` is the field dict of ``state``."""
    # Fields are read once into locals: each attribute read on a model costs as much as a dict copy.
    a = act.__dict__
    v, n, pile = a["character"], a["count"], a["pile"]
    players = s["players"]
    have = players[idx].hand.count(v)
    if have < n:
        raise RuleError("ctg.not_in_hand", character=v, have=have, need=n)
    # CTG-R6/R7: two cards, three of a dotted character when 3 or 4 play.
    low = 3 if v in (_THREE_DOTS if len(players) >= 3 else _NO_DOTS) else 2
    if n < low:
        raise RuleError("ctg.set_too_small", character=v, minimum=low)
    owner = _owner(state, v)
    old = 0  # the size of the set out, which this one must beat (CTG-R8, CTG-R9)
    if owner is not None:
        old = players[owner].sets[v]
        if n <= old:
            raise RuleError("ctg.must_beat", character=v, count=old, owner=players[owner].seat)
    if owner == idx:
        pile = _check_pile(state, pile)
    elif pile is not None:
        raise RuleError("ctg.pile_unused")

    new = state.successor()
    f = new.__dict__  # written below; ``s`` stays the given state's
    events: list[Event] = []
    me = own_player(f, idx)
    sets = dict(me["sets"])
    if owner == idx:
        del sets[v]
    elif owner is not None:
        beaten = own_player(f, owner)
        beaten_sets = dict(beaten["sets"])
        del beaten_sets[v]
        beaten["sets"] = beaten_sets
    hand = me["hand"][:]
    for _ in range(n):
        hand.remove(v)
    me["hand"] = hand
    sets[v] = n
    me["sets"] = sets
    seat = me["seat"]
    beaten_other = owner is not None and owner != idx
    events.append(
        _set_laid(
            {
                "type": "set_laid",
                "audience": None,
                "seat": seat,
                "character": v,
                "count": n,
                "replaced": old if owner == idx else 0,
                "beaten_seat": f["players"][owner].seat if beaten_other else None,
                "beaten_count": old if beaten_other else 0,
            }
        )
    )
    if owner == idx:
        # CTG-R9: the replaced set is discarded by its owner, who picks the pile.
        _put_set(new, idx, v, old, pile, events)
    elif owner is not None:
        # CTG-R8: the beaten player discards the whole set and chooses where (CTG-R11).
        forced = _forced_discard(new)
        if forced is not None:
            _put_set(new, owner, v, old, forced, events)
        else:
            frame = _decision(
                {
                    "kind": BEATEN_SET,
                    "seats": [f["players"][owner].seat],
                    "params": {"character": v, "count": old, "by": seat},
                }
            )
            f["stack"] = f["stack"] + [frame]
    if v == NINJA and f["options"].ninja_power and f["ninja_supply"] > 0:
        f["ninja_supply"] -= 1
        me["ninjas"] += 1
        events.append(ev.NinjaTaken(seat=seat, supply=f["ninja_supply"]))
    f["phase"] = "after"
    if not f["stack"]:  # a beaten set's owner is asked first
        _settle(new, events)
    return new, events


def _put_set(
    state: CtgState, idx: int, character: int, count: int, pile: int, events: list[Event]
) -> None:
    _add_to_discard(state.__dict__, pile, [character] * count)
    events.append(
        _set_discarded(
            {"type": "set_discarded", "audience": None, "seat": state.players[idx].seat,
             "character": character, "count": count, "pile": pile}
        )
    )


def _add_to_discard(s: dict[str, Any], pile: int, cards: list[int]) -> None:
    """Put ``cards`` on discard pile ``pile`` (1 or 2) of the state whose field dict is ``s``."""
    piles = s["piles"][:]
    piles[DISCARD1 + pile - 1] = piles[DISCARD1 + pile - 1] + cards
    s["piles"] = piles


def _check_discard(state: CtgState, idx: int, act: Discard) -> None:
    """Reached only outside the act phase: ``apply`` takes a discard in its phase straight to ``_discard``."""
    raise RuleError("ctg.wrong_phase", phase=state.phase, action="discard")


def _discard(
    state: CtgState, s: dict[str, Any], idx: int, act: Discard
) -> tuple[CtgState, list[Event]]:
    """CTG-R10/R11, checked and done in one place, then the turn moves on as ``apply`` would; ``s`` is
    the field dict of ``state``."""
    character = act.character
    mine = s["players"][idx].__dict__
    if character not in mine["hand"]:
        raise RuleError("ctg.not_in_hand", character=character, have=0, need=1)
    piles = s["piles"]
    pile: int | None = act.pile
    if piles[DISCARD1] and piles[DISCARD2]:  # _check_pile, for the usual case of no forced pile
        if pile is None:
            raise RuleError("ctg.pile_required")
    else:
        pile = _check_pile(state, pile)
    f = s.copy()  # CtgState.successor and own_player, spelled out
    new = build_state(f)
    players = f["players"] = f["players"][:]
    me = mine.copy()
    players[idx] = build_player(me)
    hand = me["hand"][:]
    hand.remove(character)
    me["hand"] = hand
    piles = f["piles"] = piles[:]  # _add_to_discard, spelled out
    piles[DISCARD1 + pile - 1] = piles[DISCARD1 + pile - 1] + [character]
    seat = me["seat"]
    event = ev.SHARED.get(("card_discarded", seat, character, pile))  # ev.card_discarded, without the call
    events: list[Event] = [event or ev.card_discarded(seat, character, pile)]
    if f["options"].ninja_power:  # a figure may still be used: the turn may wait in "after"
        f["phase"] = "after"
        _settle(new, events)
    else:
        _end_turn(new, events)
        if f["phase"] == "reveal":
            _settle(new, events)
    return new, events


def _check_end_turn(state: CtgState, idx: int, act: EndTurn) -> None:
    if state.phase != "after":
        raise RuleError("ctg.wrong_phase", phase=state.phase, action="end_turn")


def _do_end_turn(state: CtgState, idx: int, act: EndTurn, events: list[Event]) -> None:
    _end_turn(state, events)


def _check_ninja(state: CtgState, idx: int, act: UseNinja) -> None:
    if not state.options.ninja_power:
        raise RuleError("ctg.variant_off", variant="ninja_power")
    if state.players[idx].ninjas <= 0:
        raise RuleError("ctg.no_ninja")
    target = state.seat_index(act.target)
    if target is None or target == idx:
        raise RuleError("ctg.bad_target", target=act.target)
    if not state.players[target].sets:
        raise RuleError("ctg.no_sets", target=act.target)
    if act.character not in state.players[target].sets:
        raise RuleError("ctg.target_has_no_set", character=act.character, owner=act.target)


def _do_ninja(state: CtgState, idx: int, act: UseNinja, events: list[Event]) -> None:
    s = state.__dict__
    me = own_player(s, idx)
    me["ninjas"] -= 1
    s["ninja_supply"] += 1
    events.append(ev.NinjaUsed(seat=me["seat"], target=act.target, character=act.character))
    target = state.seat_index(act.target)
    assert target is not None
    forced = _forced_discard(state)
    if forced is not None:  # CTG-R11 leaves the victim no pile to choose
        _give_up(state, target, act.character, forced, events)
    else:
        frame = Decision(
            kind=NINJA_VICTIM,
            seats=[act.target],
            params={"by": me["seat"], "character": act.character},
        )
        s["stack"] = s["stack"] + [frame]


def _give_up(state: CtgState, idx: int, character: int, pile: int, events: list[Event]) -> None:
    s = state.__dict__
    victim = own_player(s, idx)
    sets = dict(victim["sets"])
    left = sets[character] - 1
    if left:
        sets[character] = left
    else:
        del sets[character]  # a set with no cards left is gone (bot ruling, CTG-V2)
    victim["sets"] = sets
    _add_to_discard(s, pile, [character])
    events.append(
        ev.CardGivenUp(seat=victim["seat"], character=character, pile=pile, remaining=left)
    )


# ====================================================================== answers to decisions


def _pop_frame(state: CtgState) -> Decision:
    """Take the answered decision off the successor's stack (a new list: the old one is shared)."""
    stack = state.__dict__["stack"]
    state.__dict__["stack"] = stack[:-1]
    return stack[-1]


def _check_place(state: CtgState, idx: int, act: PlaceBeatenSet) -> None:
    _check_pile(state, act.pile)


def _do_place(state: CtgState, idx: int, act: PlaceBeatenSet, events: list[Event]) -> None:
    frame = _pop_frame(state)
    _put_set(state, idx, frame.params["character"], frame.params["count"], act.pile, events)


def _check_give_up(state: CtgState, idx: int, act: GiveUpCard) -> None:
    _check_pile(state, act.pile)


def _do_give_up(state: CtgState, idx: int, act: GiveUpCard, events: list[Event]) -> None:
    frame = _pop_frame(state)
    _give_up(state, idx, frame.params["character"], _check_pile(state, act.pile), events)


def _check_reveal(state: CtgState, idx: int, act: RevealTask) -> None:
    if act.task not in state.players[idx].tasks:
        raise RuleError("ctg.task_not_held", task=act.task)


def _do_reveal(state: CtgState, idx: int, act: RevealTask, events: list[Event]) -> None:
    _pop_frame(state)
    _reveal(state, idx, act.task, events)


_TURN_HANDLERS: dict[type, tuple[Any, Any]] = {
    Draw: (_check_draw, None),  # in its phase ``apply`` calls ``_draw``; otherwise the check refuses
    LayOut: (_check_lay, None),  # in its phase ``apply`` calls ``_lay_out``; otherwise refused
    Discard: (_check_discard, None),  # in its phase ``apply`` calls ``_discard``; otherwise refused
    EndTurn: (_check_end_turn, _do_end_turn),
    UseNinja: (_check_ninja, _do_ninja),
}
_DECISION_HANDLERS: dict[tuple[str, type], tuple[Any, Any]] = {
    (BEATEN_SET, PlaceBeatenSet): (_check_place, _do_place),
    (NINJA_VICTIM, GiveUpCard): (_check_give_up, _do_give_up),
    (REVEAL_TASK, RevealTask): (_check_reveal, _do_reveal),
}


# ====================================================================== flow


def _settle(state: CtgState, events: list[Event]) -> None:
    """Move the game on as far as it goes without a choice: end a turn with nothing left to do in it,
    reveal a player's last task, score a round whose reveals are done."""
    s = state.__dict__
    while not s["stack"]:
        phase = s["phase"]
        if phase == "after" and not (s["options"].ninja_power and _can_use_ninja(state, s["current"])):
            _end_turn(state, events)
        elif phase == "reveal":
            queue = s["reveal_queue"]
            if not queue:
                _score_round(state, events)
                continue
            idx = queue[0]
            s["reveal_queue"] = queue[1:]
            player = s["players"][idx]
            if len(player.tasks) == 1:
                _reveal(state, idx, player.tasks[0], events)
            elif player.tasks:
                s["stack"] = [Decision(kind=REVEAL_TASK, seats=[player.seat], params={})]
        else:
            return


def _round_end_reason(s: dict[str, Any]) -> str | None:
    """CTG-R12, checked at the end of every turn, in the state whose field dict is ``s``."""
    players = s["players"]
    need = SETS_TO_END[len(players)]
    laid = 0
    for p in players:
        n = len(p.sets)
        if n >= need:
            return "characters_per_player"
        laid += n
    if laid >= _CHARACTERS:
        return "all_characters"
    piles = s["piles"]
    if not piles[DECK1] or not piles[DECK2]:
        return "deck_empty"
    return None


def _end_turn(state: CtgState, events: list[Event]) -> None:
    s = state.__dict__
    if _round_end_reason(s) is None:
        current = (s["current"] + 1) % len(s["players"])
        s["current"] = current
        s["phase"] = "draw"
        s["drawn_from"] = []
        s["turn"] += 1
        events.append(ev.turn_started(s["players"][current].seat))
        return
    queue: list[int] = []
    if s["options"].imperial_tasks:
        # CTG-V1: reveals go from the round's first player clockwise.
        n = len(s["players"])
        queue = [(s["first"] + k) % n for k in range(n)]
    s.update(drawn_from=[], reveal_queue=queue, phase="reveal", round_reveals=[])


def _reveal(state: CtgState, idx: int, task_id: str, events: list[Event]) -> None:
    s = state.__dict__
    task = catalog().tasks[task_id]
    player = own_player(s, idx)
    tasks = player["tasks"][:]
    tasks.remove(task_id)
    player["tasks"] = tasks
    player["revealed_tasks"] = player["revealed_tasks"] + [task_id]
    s["round_reveals"] = s["round_reveals"] + [(player["seat"], task_id)]
    gains: dict[str, int] = {}
    for i in range(len(s["players"])):
        count = s["players"][i].sets.get(task.character, 0)
        if count:
            p = player if i == idx else own_player(s, i)
            p["round_bonus"] += task.bonus * count
            gains[p["seat"]] = task.bonus * count
    events.append(
        ev.TaskRevealed(
            seat=player["seat"],
            task=task_id,
            character=task.character,
            bonus=task.bonus,
            gains=gains,
        )
    )


def _round_ender(s: dict[str, Any]) -> str | None:
    """The seat whose sets reached CTG-R12's count (only the player on turn lays sets, so at most one)."""
    need = SETS_TO_END[len(s["players"])]
    return next((p.seat for p in s["players"] if len(p.sets) >= need), None)


def _score_round(state: CtgState, events: list[Event]) -> None:
    s = state.__dict__
    # Reveals change neither sets nor piles, so the reason found at the end of the turn still holds.
    reason = _round_end_reason(s)
    assert reason is not None
    set_points = {p.seat: sum(p.sets) for p in s["players"]}
    bonus = {p.seat: p.round_bonus for p in s["players"]}
    for i in range(len(s["players"])):
        p = own_player(s, i)
        p["round_scores"] = p["round_scores"] + [set_points[p["seat"]] + p["round_bonus"]]
        p["round_bonus"] = 0
    record = RoundRecord(
        round=s["round"],
        first_seat=s["players"][s["first"]].seat,
        reason=reason,
        set_points=set_points,
        task_bonus=bonus,
        revealed=list(s["round_reveals"]),
    )
    s["rounds"] = s["rounds"] + [record]
    events.append(
        ev.RoundEnded(
            round=s["round"],
            reason=reason,
            set_points=set_points,
            task_bonus=bonus,
            totals={p.seat: p.total for p in s["players"]},
            seat=_round_ender(s) if reason == "characters_per_player" else None,
            characters=SETS_TO_END[len(s["players"])],
        )
    )
    if s["round"] >= s["rounds_total"]:
        s["phase"] = "over"
        result = CallToGloryEngine().result(state)
        assert result is not None
        events.append(ev.GameEnded(ranking=result.ranking, totals=result.scores))
        return
    _start_round(state, _next_first(state), events)


def _next_first(state: CtgState) -> int:
    """CTG-R14: lowest total; then lowest score in the round just played; then the first seat after the
    previous first player (bot ruling)."""
    n = len(state.players)
    return min(
        range(n),
        key=lambda i: (
            state.players[i].total,
            state.players[i].round_scores[-1],
            (i - state.first - 1) % n,
        ),
    )


def _start_round(state: CtgState, first: int, events: list[Event]) -> None:
    """CTG-R2: every round starts clean with all 110 cards reshuffled."""
    s = state.__dict__
    deck = full_deck()
    rng = s["rng"] = s["rng"].clone()
    rng.shuffle(deck)
    for i in range(len(s["players"])):
        p = own_player(s, i)
        p["hand"] = sorted(deck[-HAND_SIZE:])
        del deck[-HAND_SIZE:]
        p["sets"] = {}
    half = (len(deck) + 1) // 2
    s.update(
        piles=[deck[:half], deck[half:], [], []],
        round=s["round"] + 1,
        first=first,
        current=first,
        phase="draw",
        drawn_from=[],
        turn=1,
    )
    events.append(ev.RoundStarted(round=s["round"], first_seat=s["players"][first].seat))
    events.append(ev.turn_started(s["players"][first].seat))


_prompt = builder(Prompt)
_decision = builder(Decision)
_set_laid = builder(ev.SetLaid)
_set_discarded = builder(ev.SetDiscarded)
# The prompt of the player on turn, one object per (seat, phase, cards drawn): random play asks for it
# before every action and building it cost as much as a draw's bookkeeping. Callers only read prompts.
_TURN_PROMPT_CACHE: dict[tuple[str, str, int], Prompt] = {}
_TURN_PROMPT_CACHE_MAX = 4096  # seats are user ids: emptied rather than left to grow without bound


def _turn_prompt(key: tuple[str, str, int]) -> Prompt:
    seat, phase, drawn = key
    if len(_TURN_PROMPT_CACHE) >= _TURN_PROMPT_CACHE_MAX:
        _TURN_PROMPT_CACHE.clear()
    prompt = _TURN_PROMPT_CACHE[key] = _prompt(
        {"seat": seat, "kind": _TURN_PROMPTS[phase], "params": {"drawn": drawn}}
    )
    return prompt

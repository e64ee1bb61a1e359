"""Call to Glory rules (CTG-R1..R15, CTG-V1, CTG-V2) as pure functions over :class:`CtgState`.

Every entry point validates against the given state first and only then writes a successor
(:meth:`CtgState.successor`), so a rejected action leaves the caller's object exactly as it was and an
accepted one leaves it valid too. The successor shares players and piles with the given state: handlers
take a player with ``state.own_player(i)`` before changing it and replace a pile rather than editing it.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any

from pydantic import BaseModel

from rules.call_to_glory import events as ev
from rules.call_to_glory.actions import (
    ACTION_TYPES,
    Discard,
    Draw,
    EndTurn,
    GiveUpCard,
    LayOut,
    PlaceBeatenSet,
    RevealTask,
    UseNinja,
)
from rules.call_to_glory.cards import catalog, full_deck
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
)
from rules.call_to_glory.views import CtgView, build_view
from rules.core import Decision, Engine, Event, GameResult, Prompt, RuleError, Rng, prompts_for
from rules.core import errors as E
from rules.core.fastmodel import build

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
        seats = list(seats)
        if not MIN_SEATS <= len(seats) <= MAX_SEATS:
            raise RuleError(E.SEAT_COUNT, count=len(seats), min=MIN_SEATS, max=MAX_SEATS)
        if len(set(seats)) != len(seats) or not all(isinstance(s, str) and s for s in seats):
            raise RuleError(E.DUPLICATE_SEAT)
        rng = Rng.from_seed(seed)
        first = rng.below(len(seats)) if opts.first_player == "random" else 0
        players = [PlayerState(seat=s) for s in seats]
        if opts.imperial_tasks:
            # CTG-V1: one card from each shuffled deck to every player; the rest leave the game.
            for deck in catalog().decks.values():
                cards = list(deck)
                rng.shuffle(cards)
                for p, task in zip(players, cards):
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
        if state.phase == "over":
            return []
        if state.stack:
            return prompts_for(state.stack[-1])
        seat = state.players[state.current].seat
        kind = _TURN_PROMPTS[state.phase]
        return [build(Prompt, {"seat": seat, "kind": kind, "params": {"drawn": len(state.drawn_from)}})]

    def legal_actions(self, state: CtgState, seat: str) -> list[BaseModel]:
        idx = state.seat_index(seat)
        if idx is None or state.phase == "over":
            return []
        if state.stack:
            top = state.stack[-1]
            if seat not in top.seats:
                return []
            return _decision_actions(state, idx, top)
        if idx != state.current:
            return []
        out: list[BaseModel]
        phase = state.phase
        if phase == "draw":
            drawn = state.drawn_from
            out = [_DRAWS[i] for i, pile in enumerate(state.piles) if pile and i not in drawn]
        elif phase == "act":
            out = _act_options(state, idx)
        elif phase == "after":
            out = [_END_TURN]
        else:
            out = []
        if state.options.ninja_power:
            out += _ninja_options(state, idx)
        return out

    def view(self, state: CtgState, seat: str | None) -> CtgView:
        if seat is not None and state.seat_index(seat) is None:
            raise RuleError(E.UNKNOWN_SEAT, seat=seat)
        return build_view(state, seat, self.pending(state), self.result(state))

    def result(self, state: CtgState) -> GameResult | None:
        if state.phase != "over":
            return None
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

    # ------------------------------------------------------------------ apply
    def apply(
        self, state: CtgState, seat: str, action: BaseModel | dict[str, Any]
    ) -> tuple[CtgState, list[Event]]:
        idx = state.seat_index(seat) if isinstance(seat, str) else None
        if idx is None:
            raise RuleError(E.UNKNOWN_SEAT, seat=seat)
        act = action if isinstance(action, ACTION_TYPES) else _parse(action)
        if state.phase == "over":
            raise RuleError(E.GAME_OVER)
        if state.stack:
            top = state.stack[-1]
            if seat not in top.seats:
                raise RuleError("waiting_for", seats=list(top.seats), kind=top.kind)
            handler = _DECISION_HANDLERS.get((top.kind, type(act)))
            if handler is None:
                raise RuleError("ctg.answer_expected", kind=top.kind, action=act.type)
        else:
            if idx != state.current:
                raise RuleError(E.NOT_YOUR_TURN, current=state.players[state.current].seat)
            handler = _TURN_HANDLERS.get(type(act))
            if handler is None:
                raise RuleError("ctg.nothing_to_answer", action=act.type)
        check, do = handler
        check(state, idx, act)
        new = state.successor()
        events: list[Event] = []
        do(new, idx, act, events)
        _settle(new, events)
        return new, events


# ====================================================================== helpers (read-only)


@lru_cache(maxsize=8192)
def _act(cls: type[BaseModel], **kwargs: Any) -> BaseModel:
    """Actions are frozen, so one validated instance per distinct move serves every legal_actions call."""
    return cls(**kwargs)


# The moves legal_actions lists most often get cheaper look-ups than ``_act``'s keyword key.
_DRAWS = tuple(_act(Draw, pile=name) for name in PILE_NAMES)
_END_TURN = _act(EndTurn)


@cache
def _lay_outs(
    character: int, low: int, high: int, piles: tuple[int | None, ...]
) -> tuple[BaseModel, ...]:
    """Lay-outs of ``low``..``high`` cards, by count then pile: bounded by 9 characters × 20² counts."""
    return tuple(
        _act(LayOut, character=character, count=n, pile=p) for n in range(low, high + 1) for p in piles
    )


def _parse(action: object) -> BaseModel:
    """Anything but one of our action objects goes through the spec's validation."""
    from rules.call_to_glory import SPEC

    return SPEC.parse_action(action)


def _min_set(state: CtgState, character: int) -> int:
    """CTG-R6/R7: two cards, three for the dotted characters when 3 or 4 play."""
    return 3 if character in _dotted(state) else 2


def _dotted(state: CtgState) -> frozenset[int]:
    """The characters that need three cards at this table (CTG-R7): none when two play."""
    return catalog().three_dots if len(state.players) >= 3 else frozenset()


def _owner(state: CtgState, character: int) -> int | None:
    for i, p in enumerate(state.players):
        if character in p.sets:
            return i
    return None


def _forced_discard(state: CtgState) -> int | None:
    """CTG-R11: an empty discard pile must be (re)started first; pile 1 when both are empty."""
    if not state.piles[DISCARD1]:
        return 1
    if not state.piles[DISCARD2]:
        return 2
    return None


def _discard_choices(state: CtgState) -> tuple[int, ...]:
    forced = _forced_discard(state)
    return (forced,) if forced is not None else (1, 2)


def _check_pile(state: CtgState, pile: int | None) -> int:
    forced = _forced_discard(state)
    if forced is not None:
        if pile is not None and pile != forced:
            raise RuleError("ctg.pile_must", pile=forced)
        return forced
    if pile is None:
        raise RuleError("ctg.pile_required")
    return pile


def _act_options(state: CtgState, idx: int) -> list[BaseModel]:
    """Every lay-out (CTG-R6..R9), then every discard (CTG-R10)."""
    hand = state.players[idx].hand
    values = sorted(set(hand))
    choices = _discard_choices(state)
    out: list[BaseModel] = []
    if len(values) < len(hand):  # some pair: no set is smaller than two (CTG-R6)
        owners = _set_owners(state)
        dotted = _dotted(state)
        for v in values:
            have = hand.count(v)
            if have < 2:
                continue
            low = 3 if v in dotted else 2  # _min_set, with the table looked up once
            owner = owners.get(v)
            if owner is not None:
                low = max(low, state.players[owner].sets[v] + 1)
            out += _lay_outs(v, low, have, choices if owner == idx else (None,))
    out += _discards(tuple(values), choices)
    return out


def _set_owners(state: CtgState) -> dict[int, int]:
    """``_owner`` for every character laid out, found in one pass."""
    owners: dict[int, int] = {}
    for i in range(len(state.players) - 1, -1, -1):  # backwards, so the first owner wins as in _owner
        for v in state.players[i].sets:
            owners[v] = i
    return owners


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
        _act(UseNinja, target=p.seat)
        for i, p in enumerate(state.players)
        if i != idx and p.sets
    ]


def _decision_actions(state: CtgState, idx: int, top: Decision) -> list[BaseModel]:
    me = state.players[idx]
    if top.kind == BEATEN_SET:
        return [_act(PlaceBeatenSet, pile=p) for p in (1, 2)]
    if top.kind == NINJA_VICTIM:
        return [
            _act(GiveUpCard, character=v, pile=p)
            for v in sorted(me.sets)
            for p in _discard_choices(state)
        ]
    if top.kind == REVEAL_TASK:
        return [_act(RevealTask, task=t) for t in me.tasks]
    return []


# ====================================================================== turn actions


def _check_draw(state: CtgState, idx: int, act: Draw) -> None:
    if state.phase != "draw":
        raise RuleError("ctg.wrong_phase", phase=state.phase, action="draw")
    pile = PILE_INDEX[act.pile]
    if pile in state.drawn_from:
        raise RuleError("ctg.same_pile", pile=act.pile)
    if not state.piles[pile]:
        raise RuleError("ctg.pile_empty", pile=act.pile)


def _do_draw(state: CtgState, idx: int, act: Draw, events: list[Event]) -> None:
    pile = PILE_INDEX[act.pile]
    piles = state.piles
    card = piles[pile][-1]
    piles[pile] = piles[pile][:-1]
    me = state.own_player(idx)
    insort(me.hand, card)
    drawn = state.drawn_from
    drawn.append(pile)
    seat = me.seat
    if pile in (DECK1, DECK2):
        events.append(ev.CardDrawn(seat=seat, pile=act.pile, card=None))
        events.append(ev.CardDrawn(seat=seat, pile=act.pile, card=card, audience=seat))
    else:
        events.append(ev.CardDrawn(seat=seat, pile=act.pile, card=card))
    # CTG-R5: two draws from different piles, or fewer if no other pile holds a card.
    if len(drawn) >= 2 or not _undrawn_cards(piles, drawn):
        state.phase = "act"


def _undrawn_cards(piles: list[list[int]], drawn: list[int]) -> bool:
    """Whether a pile not yet drawn from this turn holds a card (a loop: ``any`` over a generator
    costs about three times as much here)."""
    for i, pile in enumerate(piles):
        if pile and i not in drawn:
            return True
    return False


def _check_lay(state: CtgState, idx: int, act: LayOut) -> None:
    if state.phase != "act":
        raise RuleError("ctg.wrong_phase", phase=state.phase, action="lay_out")
    me = state.players[idx]
    have = me.hand.count(act.character)
    if have < act.count:
        raise RuleError("ctg.not_in_hand", character=act.character, have=have, need=act.count)
    low = _min_set(state, act.character)
    if act.count < low:
        raise RuleError("ctg.set_too_small", character=act.character, minimum=low)
    owner = _owner(state, act.character)
    if owner is not None:
        there = state.players[owner].sets[act.character]
        if act.count <= there:
            raise RuleError(
                "ctg.must_beat",
                character=act.character,
                count=there,
                owner=state.players[owner].seat,
            )
    if owner == idx:
        _check_pile(state, act.pile)
    elif act.pile is not None:
        raise RuleError("ctg.pile_unused")


def _do_lay(state: CtgState, idx: int, act: LayOut, events: list[Event]) -> None:
    me = state.own_player(idx)
    v, n = act.character, act.count
    owner = _owner(state, v)
    old = 0
    if owner is not None:
        old = (me if owner == idx else state.own_player(owner)).sets.pop(v)
    for _ in range(n):
        me.hand.remove(v)
    me.sets[v] = n
    events.append(
        ev.SetLaid(
            seat=me.seat,
            character=v,
            count=n,
            replaced=old if owner == idx else 0,
            beaten_seat=state.players[owner].seat if owner not in (None, idx) else None,
            beaten_count=old if owner not in (None, idx) else 0,
        )
    )
    if owner == idx:
        # CTG-R9: the replaced set is discarded by its owner, who picks the pile.
        _put_set(state, idx, v, old, _check_pile(state, act.pile), events)
    elif owner is not None:
        # CTG-R8: the beaten player discards the whole set and chooses where (CTG-R11).
        forced = _forced_discard(state)
        if forced is not None:
            _put_set(state, owner, v, old, forced, events)
        else:
            state.stack.append(
                Decision(
                    kind=BEATEN_SET,
                    seats=[state.players[owner].seat],
                    params={"character": v, "count": old, "by": me.seat},
                )
            )
    if v == NINJA and state.options.ninja_power and state.ninja_supply > 0:
        state.ninja_supply -= 1
        me.ninjas += 1
        events.append(ev.NinjaTaken(seat=me.seat, supply=state.ninja_supply))
    state.phase = "after"


def _put_set(
    state: CtgState, idx: int, character: int, count: int, pile: int, events: list[Event]
) -> None:
    state.piles[DISCARD1 + pile - 1] = state.piles[DISCARD1 + pile - 1] + [character] * count
    events.append(
        ev.SetDiscarded(seat=state.players[idx].seat, character=character, count=count, pile=pile)
    )


def _check_discard(state: CtgState, idx: int, act: Discard) -> None:
    if state.phase != "act":
        raise RuleError("ctg.wrong_phase", phase=state.phase, action="discard")
    if act.character not in state.players[idx].hand:
        raise RuleError("ctg.not_in_hand", character=act.character, have=0, need=1)
    _check_pile(state, act.pile)


def _do_discard(state: CtgState, idx: int, act: Discard, events: list[Event]) -> None:
    me = state.own_player(idx)
    pile = _check_pile(state, act.pile)
    me.hand.remove(act.character)
    state.piles[DISCARD1 + pile - 1] = state.piles[DISCARD1 + pile - 1] + [act.character]
    events.append(ev.CardDiscarded(seat=me.seat, character=act.character, pile=pile))
    state.phase = "after"


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


def _do_ninja(state: CtgState, idx: int, act: UseNinja, events: list[Event]) -> None:
    me = state.own_player(idx)
    me.ninjas -= 1
    state.ninja_supply += 1
    events.append(ev.NinjaUsed(seat=me.seat, target=act.target))
    target = state.seat_index(act.target)
    assert target is not None
    victim = state.players[target]
    forced = _forced_discard(state)
    if len(victim.sets) == 1 and forced is not None:
        _give_up(state, target, next(iter(victim.sets)), forced, events)
    else:
        state.stack.append(
            Decision(kind=NINJA_VICTIM, seats=[victim.seat], params={"by": me.seat})
        )


def _give_up(state: CtgState, idx: int, character: int, pile: int, events: list[Event]) -> None:
    victim = state.own_player(idx)
    left = victim.sets[character] - 1
    if left:
        victim.sets[character] = left
    else:
        del victim.sets[character]  # a set with no cards left is gone (bot ruling, CTG-V2)
    state.piles[DISCARD1 + pile - 1] = state.piles[DISCARD1 + pile - 1] + [character]
    events.append(
        ev.CardGivenUp(seat=victim.seat, character=character, pile=pile, remaining=left)
    )


# ====================================================================== answers to decisions


def _check_place(state: CtgState, idx: int, act: PlaceBeatenSet) -> None:
    _check_pile(state, act.pile)


def _do_place(state: CtgState, idx: int, act: PlaceBeatenSet, events: list[Event]) -> None:
    frame = state.stack.pop()
    _put_set(state, idx, frame.params["character"], frame.params["count"], act.pile, events)


def _check_give_up(state: CtgState, idx: int, act: GiveUpCard) -> None:
    if act.character not in state.players[idx].sets:
        raise RuleError("ctg.no_such_set", character=act.character)
    _check_pile(state, act.pile)


def _do_give_up(state: CtgState, idx: int, act: GiveUpCard, events: list[Event]) -> None:
    state.stack.pop()
    _give_up(state, idx, act.character, _check_pile(state, act.pile), events)


def _check_reveal(state: CtgState, idx: int, act: RevealTask) -> None:
    if act.task not in state.players[idx].tasks:
        raise RuleError("ctg.task_not_held", task=act.task)


def _do_reveal(state: CtgState, idx: int, act: RevealTask, events: list[Event]) -> None:
    state.stack.pop()
    _reveal(state, idx, act.task, events)


_TURN_HANDLERS: dict[type, tuple[Any, Any]] = {
    Draw: (_check_draw, _do_draw),
    LayOut: (_check_lay, _do_lay),
    Discard: (_check_discard, _do_discard),
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
    while not state.stack:
        if state.phase == "after" and not _can_use_ninja(state, state.current):
            _end_turn(state, events)
        elif state.phase == "reveal":
            if not state.reveal_queue:
                _score_round(state, events)
                continue
            idx = state.reveal_queue.pop(0)
            player = state.players[idx]
            if len(player.tasks) == 1:
                _reveal(state, idx, player.tasks[0], events)
            elif player.tasks:
                state.stack.append(
                    Decision(kind=REVEAL_TASK, seats=[player.seat], params={})
                )
        else:
            return


def _round_end_reason(state: CtgState) -> str | None:
    """CTG-R12, checked at the end of every turn."""
    need = SETS_TO_END[len(state.players)]
    laid = 0
    for p in state.players:
        if len(p.sets) >= need:
            return "characters_per_player"
        laid += len(p.sets)
    if laid >= len(catalog().characters):
        return "all_characters"
    if not state.piles[DECK1] or not state.piles[DECK2]:
        return "deck_empty"
    return None


def _end_turn(state: CtgState, events: list[Event]) -> None:
    if _round_end_reason(state) is None:
        current = (state.current + 1) % len(state.players)
        # One dict update instead of four pydantic assignments (no field validates on assignment).
        state.__dict__.update(current=current, phase="draw", drawn_from=[], turn=state.turn + 1)
        events.append(ev.TurnStarted(seat=state.players[current].seat))
        return
    state.drawn_from = []
    state.reveal_queue = []
    state.phase = "reveal"
    state.round_reveals = []
    if state.options.imperial_tasks:
        # CTG-V1: reveals go from the round's first player clockwise.
        n = len(state.players)
        state.reveal_queue = [(state.first + k) % n for k in range(n)]


def _reveal(state: CtgState, idx: int, task_id: str, events: list[Event]) -> None:
    task = catalog().tasks[task_id]
    player = state.own_player(idx)
    player.tasks.remove(task_id)
    player.revealed_tasks.append(task_id)
    state.round_reveals.append((player.seat, task_id))
    gains: dict[str, int] = {}
    for i in range(len(state.players)):
        count = state.players[i].sets.get(task.character, 0)
        if count:
            p = player if i == idx else state.own_player(i)
            p.round_bonus += task.bonus * count
            gains[p.seat] = task.bonus * count
    events.append(
        ev.TaskRevealed(
            seat=player.seat, task=task_id, character=task.character, bonus=task.bonus, gains=gains
        )
    )


def _score_round(state: CtgState, events: list[Event]) -> None:
    # Reveals change neither sets nor piles, so the reason found at the end of the turn still holds.
    reason = _round_end_reason(state)
    assert reason is not None
    set_points = {p.seat: sum(p.sets) for p in state.players}
    bonus = {p.seat: p.round_bonus for p in state.players}
    for i in range(len(state.players)):
        p = state.own_player(i)
        p.round_scores.append(set_points[p.seat] + p.round_bonus)
        p.round_bonus = 0
    state.rounds.append(
        RoundRecord(
            round=state.round,
            first_seat=state.players[state.first].seat,
            reason=reason,  # type: ignore[arg-type]
            set_points=set_points,
            task_bonus=bonus,
            revealed=list(state.round_reveals),
        )
    )
    events.append(
        ev.RoundEnded(
            round=state.round,
            reason=reason,
            set_points=set_points,
            task_bonus=bonus,
            totals={p.seat: p.total for p in state.players},
        )
    )
    if state.round >= state.rounds_total:
        state.phase = "over"
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
    deck = full_deck()
    state.rng = state.rng.clone()
    state.rng.shuffle(deck)
    for i in range(len(state.players)):
        p = state.own_player(i)
        p.hand = sorted(deck[-HAND_SIZE:])
        del deck[-HAND_SIZE:]
        p.sets = {}
    half = (len(deck) + 1) // 2
    state.piles = [deck[:half], deck[half:], [], []]
    state.round += 1
    state.first = first
    state.current = first
    state.phase = "draw"
    state.drawn_from = []
    state.turn = 1
    events.append(ev.RoundStarted(round=state.round, first_seat=state.players[first].seat))
    events.append(ev.TurnStarted(seat=state.players[first].seat))

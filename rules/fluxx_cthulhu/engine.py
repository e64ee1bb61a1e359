"""Cthulhu Fluxx (FLX-R1..R27) as pure functions over :class:`FlxState`.

``apply`` works on a clone (``FlxState.clone``) and validates before it changes anything there, so a
rejected action leaves the caller's state untouched and a failed validation costs only the clone.
After every accepted action ``_settle`` moves the game on as far as it goes without a choice: it
resolves the reaction chain once its window has closed, checks goals and ungoals (FLX-R20/R21), makes
players over a limit discard (FLX-R26), draws what the draw rule still owes (FLX-R7) and ends turns.

Reaction windows (FLX-R15): when a card is played that a surprise could answer (a keeper, an action, a
surprise) or an ungoal is met, and such a surprise is not publicly accounted for (not in the discard pile
or the chain), one ``react`` frame is pushed, owed by every seat except the one that triggered it (by all
seats for an ungoal). Each answers ``pass`` or plays a surprise that applies; a seat that passed is not
asked again; a surprise played closes the window and opens the next one (any surprise may cancel it).
Who holds a surprise therefore never shows in who is asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

from rules.core import Decision, Engine, Event, GameResult, Prompt, Rng, RuleError, answer, prompts_for
from rules.core import errors as E
from rules.core.fastmodel import build
from rules.fluxx_cthulhu import events as ev
from rules.fluxx_cthulhu.actions import (
    ACTION_TYPES,
    Choose,
    Discard,
    DiscardRandom,
    EndTurn,
    Give,
    Join,
    Leave,
    Pass,
    Play,
    UsePower,
    _Action,
)
from rules.fluxx_cthulhu.cards import ACTION, GOAL, UNGOAL, deck_ids
from rules.fluxx_cthulhu.determinize import determinize
from rules.fluxx_cthulhu.effects import (
    CHOICES,
    any_time_powers,
    finish_resolving,
    mi_go_part_two,
    play_card,
    power_options,
    resolve_action,
    resolve_on_turn_surprise,
    use_power,
)
from rules.fluxx_cthulhu.options import FlxOptions
from rules.fluxx_cthulhu.state import FlxState, PlayerState
from rules.fluxx_cthulhu.table import (
    ACTION_OR_RANDOM,
    CHOOSE,
    DEAL,
    DISCARD_INVESTIGATOR,
    HAND_LIMIT,
    KEEPER_LIMIT,
    PLAY_DREAM,
    REACT,
    USE_DRAWN,
    C,
    discard_from_hand,
    discard_keeper,
    draw,
    draw_target,
    meets_goal,
    must_play,
    own_doom,
    place_goal,
    place_keeper,
    push_window,
    rule_value,
    surprise_mode,
    trim_goals,
    ungoal_met,
    visible,
)
from rules.fluxx_cthulhu.views import FlxView, build_view

MIN_SEATS, MAX_SEATS = 2, 6
HAND_SIZE = 3


class FluxxEngine(Engine[FlxState]):
    # ------------------------------------------------------------------ setup
    def new_game(self, seats: Sequence[str], options: BaseModel | None = None, seed: int = 0) -> FlxState:
        opts = options if isinstance(options, FlxOptions) else FlxOptions.model_validate(
            options.model_dump() if isinstance(options, BaseModel) else {}
        )
        seats = E.checked_seats(seats, MIN_SEATS, MAX_SEATS)
        rng = Rng.from_seed(seed)
        deck = list(deck_ids(opts.house_cards))
        rng.shuffle(deck)
        first = rng.below(len(seats)) if opts.first_player == "random" else 0
        s = FlxState(
            options=opts, rng=rng, players=[PlayerState(seat=x) for x in seats], current=first, deck=deck
        )
        events: list[Event] = []
        for i in range(len(seats)):  # FLX-R2/R3: 3 cards each, creepers go out and are replaced
            draw(s, (first + i) % len(seats), HAND_SIZE, events)
        events.append(ev.TurnStarted(seat=seats[first], turn=1))
        _settle(s, events)
        return s

    # ------------------------------------------------------------------ queries
    def pending(self, state: FlxState) -> list[Prompt]:
        if state.phase == "over":
            return []
        if state.stack:
            return prompts_for(state.stack[-1])
        kind = "play" if must_play(state) else "free_or_end"
        seat = state.players[state.current].seat
        return [build(Prompt, {"seat": seat, "kind": kind, "params": {"played": state.played}})]

    def legal_actions(self, state: FlxState, seat: str) -> list[BaseModel]:
        idx = state.seat_index(seat)
        if idx is None or state.phase == "over":
            return []
        extra: list[BaseModel] = [_power(*o) for o in any_time_powers(state, idx)]
        owed = self._owed(state, idx, seat)
        if not owed or not extra:
            return owed or extra
        return owed + [a for a in extra if a not in owed]

    def _owed(self, state: FlxState, idx: int, seat: str) -> list[BaseModel]:
        """What the seat may do because it owes a decision or is on turn."""
        p = state.players[idx]
        if state.stack:
            top = state.stack[-1]
            if seat not in top.seats:
                return []
            k = top.kind
            if k == REACT:
                trig = top.params["trigger"]
                return [_PASS] + [_play(c) for c in _distinct(p.hand) if surprise_mode(trig, c)]
            if k == HAND_LIMIT:
                return [_discard(c) for c in _distinct(p.hand)]
            if k == KEEPER_LIMIT:
                return [_discard(c) for c in p.keepers]
            if k == USE_DRAWN:
                return [_play(c) for c in _distinct(p.limbo[top.params["base"]:])]
            if k == PLAY_DREAM:  # dream cards are played in the order they were received
                return [_play(p.dreams[0])] if p.dreams else []
            if k == DEAL:
                cards = _distinct(p.limbo[top.params["base"]:])
                return [_give(c, t) for c in cards for t in top.params["to"]]
            if k == CHOOSE:
                return [_choose(o) for o in top.params["options"]]
            if k == ACTION_OR_RANDOM:
                return [_discard(c) for c in _distinct(p.hand) if C[c].type == ACTION] + [_RANDOM]
            if k == DISCARD_INVESTIGATOR:
                return [_discard(c) for c in p.keepers if C[c].investigator]
            return []
        if idx != state.current:
            return []
        out: list[BaseModel] = []
        out = [_play(c) for c in _distinct(p.hand)] if must_play(state) else [_END]
        out += [_power(*o) for o in power_options(state, idx)]
        return out

    revealing_events = frozenset({"hands_swapped"})  # each player now holds the cards the other hid

    def hidden_piles(self, state: FlxState) -> tuple[Any, ...]:
        """The draw pile."""
        return (state.deck,)

    def reveals(self, before: FlxState, after: FlxState, events: Sequence[Event]) -> bool:
        """Besides the contract's marks: an Ungoal the rules force out of someone's hand shows that card."""
        return super().reveals(before, after, events) or any(
            isinstance(e, ev.CardPlayed) and e.source == "forced" for e in events)

    def determinize(self, state: FlxState, seat: str, rng: Rng) -> FlxState:
        return determinize(state, seat, rng)

    def forfeit(self, state: FlxState, seat: str, place: int) -> BaseModel | None:
        """A Fluxx table plays on without a player who leaves (with two, the one who stays wins), so the
        seat goes for good: see ``_leave``, whose refusals (an effect still waiting on the leaver) tell
        the bot to let an AI play the seat instead."""
        return Leave(place=place)

    def view(self, state: FlxState, seat: str | None) -> FlxView:
        if seat is not None and state.seat_index(seat) is None:
            raise RuleError(E.UNKNOWN_SEAT, seat=seat)
        return build_view(state, seat, self.pending(state), self.result(state))

    def result(self, state: FlxState) -> GameResult | None:
        if state.phase != "over":
            return None
        seats = [p.seat for p in state.players]
        doom = {p.seat: own_doom(state, p) for p in state.players}
        if state.winner is None:
            return GameResult(ranking=[seats], scores=doom, reason=state.end_reason or "ungoal", winners=[])
        rest = [x for x in seats if x != state.winner]
        return GameResult(
            ranking=[[state.winner]] + ([rest] if rest else []),
            scores=doom,
            reason=state.end_reason or "goal",
            winners=[state.winner],
        )

    # ------------------------------------------------------------------ apply
    def apply(self, state: FlxState, seat: str, action: BaseModel | dict[str, Any]) -> tuple[FlxState, list[Event]]:
        """Validate and apply one action.

        ``join`` (FLX-R23) is the one action taken by a seat that is not yet in the game: allowed at
        any moment of a running game while fewer than 6 play; the newcomer sits directly before the
        player on turn (so their first turn comes after everyone else has had one), is dealt 3 cards
        with creepers placed and replaced as at setup, and is asked nothing until then (open frames keep
        their seats; a hand limit already in force applies to the new hand at once).
        """
        act = action if isinstance(action, ACTION_TYPES) else _parse(action)
        if not isinstance(seat, str):
            raise RuleError(E.UNKNOWN_SEAT, seat=seat)
        idx = state.seat_index(seat)
        if state.phase == "over":
            raise RuleError(E.GAME_OVER)
        if isinstance(act, Join):
            if idx is not None:
                raise RuleError("flx.already_seated")
            if len(state.players) >= MAX_SEATS:
                raise RuleError(E.SEAT_COUNT, count=len(state.players) + 1, min=MIN_SEATS, max=MAX_SEATS)
            if not seat:
                raise RuleError(E.UNKNOWN_SEAT, seat=seat)
            s = state.clone()
            events: list[Event] = []
            before = s.players[s.current].seat
            s.players.insert(s.current, PlayerState(seat=seat))
            s.current += 1
            events.append(ev.PlayerJoined(seat=seat, before=before))
            draw(s, s.current - 1, HAND_SIZE, events)
            _settle(s, events)
            return s, events
        if idx is None:
            raise RuleError(E.UNKNOWN_SEAT, seat=seat)
        if isinstance(act, Leave):
            return _leave(state, idx)
        if isinstance(act, UsePower) and (act.card, act.target, act.to) in any_time_powers(state, idx):
            s = state.clone()  # the Elder Sign's reveal, allowed at any moment: nobody's turn moves on
            events = []
            use_power(s, idx, act.card, act.target, act.to, events)
            _settle(s, events)
            return s, events
        if state.stack:
            top = state.stack[-1]
            if seat not in top.seats:
                raise RuleError("waiting_for", seats=list(top.seats), kind=top.kind)
            handler = _FRAME_HANDLERS.get((top.kind, type(act)))
            if handler is None:
                raise RuleError("flx.answer_expected", kind=top.kind, action=act.type)
            if handler is _react_pass and len(top.seats) > 1:
                # A pass that leaves the window open changes only that frame: share everything else.
                d = state.__dict__.copy()
                frame = top.clone()
                frame.seats.remove(seat)
                d["stack"] = [*d["stack"][:-1], frame]
                return build(FlxState, d), []
        else:
            if idx != state.current:
                raise RuleError(E.NOT_YOUR_TURN, current=state.players[state.current].seat)
            handler = _TURN_HANDLERS.get(type(act))
            if handler is None:
                raise RuleError("flx.nothing_to_answer", action=act.type)
        s = state.clone()
        events = []
        handler(s, idx, act, events)
        _settle(s, events)
        return s, events


# ====================================================================== leaving
# Frames a leaving player may simply stop owing: a reaction window (as if they passed), a limit or a
# discard their cards now leave anyway. Anything else (a choice an effect waits for, dream cards dealt to
# them) has to be answered first.
_DROPPABLE = frozenset({REACT, HAND_LIMIT, KEEPER_LIMIT, ACTION_OR_RANDOM})


def _leave(state: FlxState, idx: int) -> tuple[FlxState, list[Event]]:
    """Bot ruling (the rulebook only lets players join, FLX-R23): a player may leave a running game.
    Everything they had goes to the discard pile (the Elder Sign's hidden creeper and attached creepers
    with it). Leaving a two-player game ends it at once, whatever is being resolved: the player who stays
    wins (reason ``conceded``). With three or more the game goes on: the player on turn may leave only
    between plays, with nothing being resolved; their turn ends and the next player's begins. Anyone else
    leaves unless an effect still waits on them (see ``_DROPPABLE``) or a choice still open names them or
    one of their cards; the windows and limits they owed go on without them. A refused leave is the bot's
    cue to let an AI play the seat instead."""
    seat = state.players[idx].seat
    last_opponent = len(state.players) <= MIN_SEATS
    if not last_opponent:  # with two, nothing goes on after the leave: nothing has to be finished first
        _check_leave_now(state, idx, seat)
    s = state.clone()
    events: list[Event] = []
    p = s.players[idx]
    gone = p.hand + p.limbo + p.dreams + p.keepers + p.creepers
    if s.hidden in p.creepers:
        s.hidden = None
    for cr in p.creepers:
        s.attached.pop(cr, None)
    s.discard.extend(gone)
    del s.players[idx]
    for frame in s.stack:
        if seat in frame.seats:
            frame.seats.remove(seat)
    s.stack = [f for f in s.stack if f.seats]
    events.append(ev.PlayerLeft(seat=seat, cards=gone))
    if last_opponent:
        # cards still waiting in a play's reaction chain are never resolved now: they go with the rest
        s.discard.extend(item["card"] for item in s.chain if item["kind"] != "ungoal")
        s.current = 0
        _game_over(s, s.players[0].seat, "conceded", events)
        return s, events
    if idx < s.current:
        s.current -= 1
    elif idx == s.current:
        s.current %= len(s.players)
        s.__dict__.update(drawn=0, played=0, extra_plays=0, extra_turns=0, used=[], phase="start", turn=s.turn + 1)
        events.append(ev.TurnStarted(seat=s.players[s.current].seat, turn=s.turn))
    _settle(s, events)
    return s, events


def _check_leave_now(state: FlxState, idx: int, seat: str) -> None:
    """Refuse with ``flx.leave_later`` while the game, going on without ``seat``, would still wait on it."""
    if idx == state.current:
        if state.stack or state.chain or state.resolving:
            raise RuleError("flx.leave_later")
    else:
        for frame in state.stack:
            involved = seat in frame.seats or seat in frame.params.get("to", ())
            if involved and frame.kind not in _DROPPABLE:
                raise RuleError("flx.leave_later")
        if any(item["seat"] == seat for item in state.chain):
            raise RuleError("flx.leave_later")
        p = state.players[idx]
        theirs = {seat, *p.keepers, *p.creepers}
        for frame in state.stack:
            if frame.kind == CHOOSE and any(
                part in theirs for option in frame.params["options"] for part in option.split(">")
            ):
                raise RuleError("flx.leave_later")


# ====================================================================== cached action objects
@lru_cache(maxsize=4096)
def _play(card: str) -> Play:
    return Play(card=card)


@lru_cache(maxsize=4096)
def _discard(card: str) -> Discard:
    return Discard(card=card)


@lru_cache(maxsize=8192)
def _give(card: str, to: str) -> Give:
    return Give(card=card, to=to)


@lru_cache(maxsize=8192)
def _choose(option: str) -> Choose:
    return Choose(option=option)


@lru_cache(maxsize=8192)
def _power(card: str, target: str | None, to: str | None) -> UsePower:
    return UsePower(card=card, target=target, to=to)


_PASS = Pass()
_END = EndTurn()
_RANDOM = DiscardRandom()


def _distinct(cards: list[str]) -> list[str]:
    return sorted(set(cards))


def _parse(action: object) -> _Action:
    """Anything but one of our action objects goes through the spec's validation."""
    from rules.fluxx_cthulhu import SPEC

    parsed = SPEC.parse_action(action)
    assert isinstance(parsed, _Action)  # the spec validates against this game's action union
    return parsed


# ====================================================================== turn actions
def _turn_play(s: FlxState, idx: int, act: Play, events: list[Event]) -> None:
    p = s.players[idx]
    if act.card not in p.hand:
        raise RuleError("flx.not_in_hand", card=act.card)
    if not must_play(s):
        raise RuleError("flx.no_plays_left")
    p.hand.remove(act.card)
    play_card(s, idx, act.card, "hand", True, events)


def _turn_power(s: FlxState, idx: int, act: UsePower, events: list[Event]) -> None:
    use_power(s, idx, act.card, act.target, act.to, events)


def _turn_end(s: FlxState, idx: int, act: EndTurn, events: list[Event]) -> None:
    if must_play(s):
        raise RuleError("flx.must_play", played=s.played)
    _end_turn(s, events)


_TURN_HANDLERS: dict[type, Any] = {Play: _turn_play, UsePower: _turn_power, EndTurn: _turn_end}


# ====================================================================== answers to frames
def _react_pass(s: FlxState, idx: int, act: Pass, events: list[Event]) -> None:
    answer(s.stack, s.players[idx].seat)


def _react_play(s: FlxState, idx: int, act: Play, events: list[Event]) -> None:
    p = s.players[idx]
    top = s.stack[-1]
    mode = surprise_mode(top.params["trigger"], act.card)
    if mode is None:
        raise RuleError("flx.surprise_does_not_apply", card=act.card, trigger=top.params["trigger"])
    if act.card not in p.hand:
        raise RuleError("flx.not_in_hand", card=act.card)
    p.hand.remove(act.card)
    s.stack.pop()  # someone answered: this window is over
    s.chain.append({"kind": "surprise", "card": act.card, "seat": p.seat, "mode": mode})
    events.append(ev.SurprisePlayed(seat=p.seat, card=act.card, mode=mode))
    push_window(s, "surprise", act.card, p.seat)


def _limit_discard(s: FlxState, idx: int, act: Discard, events: list[Event]) -> None:
    p = s.players[idx]
    if act.card not in p.hand:
        raise RuleError("flx.not_in_hand", card=act.card)
    discard_from_hand(s, idx, act.card, "hand_limit", events)
    limit = rule_value(s, "hand_limit")
    if limit is None or len(p.hand) <= int(limit):
        answer(s.stack, p.seat)


def _keeper_discard(s: FlxState, idx: int, act: Discard, events: list[Event]) -> None:
    p = s.players[idx]
    if act.card not in p.keepers:
        raise RuleError("flx.not_your_keeper", card=act.card)
    discard_keeper(s, idx, act.card, "keeper_limit", events)
    limit = rule_value(s, "keeper_limit")
    if limit is None or len(p.keepers) <= int(limit):
        answer(s.stack, p.seat)


def _use_drawn(s: FlxState, idx: int, act: Play, events: list[Event]) -> None:
    p = s.players[idx]
    top = s.stack[-1]
    base = top.params["base"]
    if act.card not in p.limbo[base:]:
        raise RuleError("flx.not_drawn", card=act.card)
    _remove_after(p.limbo, base, act.card)
    left = top.params["left"] - 1
    if left <= 0 or len(p.limbo) <= base:
        s.stack.pop()
        rest = p.limbo[base:]
        del p.limbo[base:]
        if rest:
            s.discard.extend(rest)
            events.append(ev.CardsDiscarded(seat=p.seat, cards=rest, reason="unused"))
    else:
        top.params = {**top.params, "left": left}
    play_card(s, idx, act.card, "limbo", False, events)


def _remove_after(cards: list[str], base: int, card: str) -> None:
    del cards[cards.index(card, base)]


def _play_dream(s: FlxState, idx: int, act: Play, events: list[Event]) -> None:
    p = s.players[idx]
    if act.card not in p.dreams:
        raise RuleError("flx.not_dreamt", card=act.card)
    if act.card != p.dreams[0]:  # Dreams and Omens: in the order received
        raise RuleError("flx.dream_order", card=p.dreams[0])
    del p.dreams[0]
    if not p.dreams:
        s.stack.pop()
    play_card(s, idx, act.card, "dream", False, events)


def _give_dream(s: FlxState, idx: int, act: Give, events: list[Event]) -> None:
    p = s.players[idx]
    top = s.stack[-1]
    base = top.params["base"]
    if act.card not in p.limbo[base:]:
        raise RuleError("flx.not_drawn", card=act.card)
    if act.to not in top.params["to"]:
        raise RuleError("flx.already_given", to=act.to)
    _remove_after(p.limbo, base, act.card)
    j = s.seat_index(act.to)
    assert j is not None
    s.players[j].dreams.append(act.card)
    events.append(ev.CardGiven(seat=p.seat, to=act.to))
    events.append(ev.CardGiven(seat=p.seat, to=act.to, card=act.card, audience=p.seat))
    if act.to != p.seat:
        events.append(ev.CardGiven(seat=p.seat, to=act.to, card=act.card, audience=act.to))
    to = [x for x in top.params["to"] if x != act.to]
    if not to or len(p.limbo) <= base:
        s.stack.pop()
        rest = p.limbo[base:]
        del p.limbo[base:]
        s.discard.extend(rest)
        if p.dreams and not any(f.kind == PLAY_DREAM and p.seat in f.seats for f in s.stack):
            # the dealer plays their own dream card at once
            s.stack.append(Decision(kind=PLAY_DREAM, seats=[p.seat], params={}))
    else:
        top.params = {**top.params, "to": to}


def _answer_choose(s: FlxState, idx: int, act: Choose, events: list[Event]) -> None:
    top = s.stack[-1]
    if act.option not in top.params["options"]:
        raise RuleError("flx.bad_option", option=act.option)
    s.stack.pop()
    CHOICES[top.params["effect"]](s, idx, act.option, top.params, events)


def _action_or_random(s: FlxState, idx: int, act: Discard | DiscardRandom, events: list[Event]) -> None:
    p = s.players[idx]
    card: str | None
    if isinstance(act, Discard):
        if act.card not in p.hand or C[act.card].type != ACTION:
            raise RuleError("flx.not_an_action_in_hand", card=act.card)
        card = act.card
    else:
        card = p.hand[s.rng.below(len(p.hand))] if p.hand else None
    if card is not None:
        discard_from_hand(s, idx, card, "disorder_of_the_stars", events)
    answer(s.stack, p.seat)


def _discard_investigator(s: FlxState, idx: int, act: Discard, events: list[Event]) -> None:
    p = s.players[idx]
    if act.card not in p.keepers or not C[act.card].investigator:
        raise RuleError("flx.not_an_investigator", card=act.card)
    discard_keeper(s, idx, act.card, "mi_go_migration", events)
    done = answer(s.stack, p.seat)
    if done is not None:
        mi_go_part_two(s, events)


_FRAME_HANDLERS: dict[tuple[str, type], Any] = {
    (REACT, Pass): _react_pass,
    (REACT, Play): _react_play,
    (HAND_LIMIT, Discard): _limit_discard,
    (KEEPER_LIMIT, Discard): _keeper_discard,
    (USE_DRAWN, Play): _use_drawn,
    (PLAY_DREAM, Play): _play_dream,
    (DEAL, Give): _give_dream,
    (CHOOSE, Choose): _answer_choose,
    (ACTION_OR_RANDOM, Discard): _action_or_random,
    (ACTION_OR_RANDOM, DiscardRandom): _action_or_random,
    (DISCARD_INVESTIGATOR, Discard): _discard_investigator,
}


# ====================================================================== flow
def _settle(s: FlxState, events: list[Event]) -> None:
    for _ in range(10_000):
        if s.phase == "over":
            return
        top = s.stack[-1] if s.stack else None
        if top is not None and top.kind == REACT:
            return
        if s.chain:
            _resolve_chain(s, events)
            continue
        if finish_resolving(s):
            continue
        if _check_end(s, events):
            continue
        if top is not None:
            if top.kind == PLAY_DREAM and not s.players[s.seat_index(top.seats[0]) or 0].dreams:
                s.stack.pop()  # a nested Dreams and Omens already had these dreams played
                continue
            return
        if _forced_ungoal(s, events) or _limits_for_others(s, events):
            continue
        p = s.players[s.current]
        if s.phase == "start":
            s.phase = "play"
            if p.dreams:  # Dreams and Omens: dream cards first, before drawing
                s.stack.append(Decision(kind=PLAY_DREAM, seats=[p.seat], params={}))
            continue
        need = draw_target(s, s.current) - s.drawn
        if need > 0:  # FLX-R5/R7: draw what the rules in force still owe
            s.drawn += need
            draw(s, s.current, need, events)
            continue
        if must_play(s) or power_options(s, s.current):
            return
        _end_turn(s, events)
    raise AssertionError("fluxx: the flow did not settle")


def _end_turn(s: FlxState, events: list[Event]) -> None:
    """FLX-R5 step 3: the player on turn trims hand and keepers to the limits still in force."""
    p = s.players[s.current]
    hl = rule_value(s, "hand_limit")
    if hl is not None and len(p.hand) > int(hl):
        s.stack.append(Decision(kind=HAND_LIMIT, seats=[p.seat], params={"limit": hl}))
        return
    kl = rule_value(s, "keeper_limit")
    if kl is not None and len(p.keepers) > int(kl):
        s.stack.append(Decision(kind=KEEPER_LIMIT, seats=[p.seat], params={"limit": kl}))
        return
    extra = s.extra_turns > 0
    if extra:
        s.extra_turns -= 1
    else:
        s.current = (s.current + 1) % len(s.players)
    s.__dict__.update(drawn=0, played=0, extra_plays=0, used=[], phase="start", turn=s.turn + 1)
    events.append(ev.TurnStarted(seat=s.players[s.current].seat, turn=s.turn, extra=extra))


def _limits_for_others(s: FlxState, events: list[Event]) -> bool:
    """FLX-R26: off turn, a player over a limit trims at once; all of them answer one shared frame."""
    cur = s.current
    hl = rule_value(s, "hand_limit")
    if hl is not None:
        over = [p.seat for i, p in enumerate(s.players) if i != cur and len(p.hand) > int(hl)]
        if over:
            s.stack.append(Decision(kind=HAND_LIMIT, seats=over, params={"limit": hl}))
            return True
    kl = rule_value(s, "keeper_limit")
    if kl is not None:
        over = [p.seat for i, p in enumerate(s.players) if i != cur and len(p.keepers) > int(kl)]
        if over:
            s.stack.append(Decision(kind=KEEPER_LIMIT, seats=over, params={"limit": kl}))
            return True
    return False


def _forced_ungoal(s: FlxState, events: list[Event]) -> bool:
    if "forced_ungoal_play" not in s.rules:
        return False
    n = len(s.players)
    for k in range(n):
        i = (s.current + k) % n
        p = s.players[i]
        for c in p.hand:
            if C[c].type == UNGOAL:
                p.hand.remove(c)
                events.append(ev.CardPlayed(seat=p.seat, card=c, source="forced", counted=False))
                place_goal(s, i, c, events)
                return True
    return False


def _check_end(s: FlxState, events: list[Event]) -> bool:
    """FLX-R20/R14: a single player meeting a goal wins at once; a met ungoal ends the game (after a
    window for the Secret Cultist). Several winners, or a goal and an ungoal together: play goes on."""
    if not s.goals:
        return False
    trim_goals(s, events)
    winners: list[str] = []
    by_goal: dict[str, str] = {}  # winner -> the goal met (named in the announcement)
    met: list[str] = []
    seen = None
    for g in s.goals:
        if C[g].type == GOAL:
            if seen is None:
                seen = [visible(s, p) for p in s.players]
            for p, have in zip(s.players, seen, strict=True):
                if meets_goal(s, p, g, have) and p.seat not in winners:
                    winners.append(p.seat)
                    by_goal[p.seat] = g
        elif ungoal_met(s, g):
            met.append(g)
    if met:
        if winners:
            return False
        events.append(ev.UngoalMet(cards=met))
        s.chain.append({"kind": "ungoal", "card": met[0], "seat": None, "cards": met})
        if not push_window(s, "ungoal", met[0], None) and s.options.meta_rule and s.hidden is not None:
            # FAQ-1646: under Cult Clash the Elder Sign's owner may turn up the hidden creeper before the
            # Doom count; with no surprise left to wait for, the window is theirs alone (a public fact).
            holder = next((p.seat for p in s.players if "elder_sign" in p.keepers), None)
            if holder is not None:
                s.stack.append(Decision(kind=REACT, seats=[holder],
                                        params={"trigger": "ungoal", "card": met[0], "by": None}))
        return True
    if len(winners) == 1:
        _game_over(s, winners[0], "goal", events, by_goal[winners[0]])
        return True
    return False


def _game_over(s: FlxState, winner: str | None, reason: str, events: list[Event], card: str | None = None) -> None:
    s.phase = "over"
    s.winner = winner
    s.end_reason = reason
    s.stack = []
    s.chain = []
    events.append(ev.GameEnded(winner=winner, reason=reason, card=card))


def _resolve_chain(s: FlxState, events: list[Event]) -> None:
    item = s.chain.pop()
    kind = item["kind"]
    seat = item["seat"]
    idx = s.seat_index(seat) if seat is not None else None
    if kind == "keeper":
        assert idx is not None
        place_keeper(s, idx, item["card"], events)
    elif kind == "action":
        assert idx is not None
        resolve_action(s, idx, item["card"], events)
    elif kind == "ungoal":
        _ungoal_end(s, item["cards"], events)
    else:  # a surprise
        assert idx is not None
        mode = item["mode"]
        card = item["card"]
        if mode == "on":
            resolve_on_turn_surprise(s, idx, card, events)
            return
        s.discard.append(card)
        target = s.chain.pop()
        if mode == "cancel":
            if target["kind"] != "ungoal":
                s.discard.append(target["card"])
            events.append(
                ev.Cancelled(card=target["card"], seat=target["seat"], by_card=card, by_seat=seat)
            )
        elif mode == "hijack":
            place_keeper(s, idx, target["card"], events)
        elif mode == "win":
            _game_over(s, seat, "secret_cultist", events, card)


def _ungoal_end(s: FlxState, met: list[str], events: list[Event]) -> None:
    """FLX-R25: the Cultist wins the Dunwich Horror; then the Meta Rule; else everyone loses."""
    if "dunwich_horror" in met:
        for p in s.players:
            if "cultist" in p.keepers:
                _game_over(s, p.seat, "cultist", events, "dunwich_horror")
                return
    if s.options.meta_rule:
        named: set[str] = set()
        for u in met:
            named.update(C[u].someone_has)

        def key(p: PlayerState) -> tuple[int, int]:
            have = set(p.keepers) | set(p.creepers)
            return own_doom(s, p), len(named & have)

        best = max(key(p) for p in s.players)
        top = [p.seat for p in s.players if key(p) == best]
        if len(top) == 1:
            _game_over(s, top[0], "meta_rule", events, "cult_clash")
            return
    _game_over(s, None, "ungoal", events, met[0])


__all__ = ["FluxxEngine"]

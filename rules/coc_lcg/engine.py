"""Call of Cthulhu LCG (CoC-R1..R140) as pure functions over :class:`CocState`.

``apply`` clones the state, validates and applies the answer to the top decision, then lets
``flow.settle`` run the game on until the next question. A rejected action raises before the clone is
returned, so the caller's state never changes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from rules.coc_lcg import events as ev
from rules.coc_lcg import flow
from rules.coc_lcg import table as T
from rules.coc_lcg.actions import (
    ACTION_TYPES,
    AttachResource,
    Choose,
    CocAction,
    Commit,
    CommitDone,
    Concede,
    Pass,
    Play,
    SetupResource,
    Use,
    Withdraw,
    _Action,
)
from rules.coc_lcg.cards import story_cards
from rules.coc_lcg.decklist import list_cards, quick_cards
from rules.coc_lcg.determinize import determinize
from rules.coc_lcg.options import CocOptions, DeckChoice
from rules.coc_lcg.playing import do_play, do_use, playable, usable
from rules.coc_lcg.state import CocState, Domain, Player
from rules.coc_lcg.views import CocView, build_view
from rules.core import Decision, Engine, Event, GameResult, Prompt, Rng, RuleError
from rules.core import errors as E
from rules.core.fastmodel import builder
from rules.core.spec import parse_action

SETUP_HAND, KEEP, START_DOMAINS = 8, 5, 3


def deck_cards(choice: DeckChoice) -> list[str]:
    """The card ids of a deck choice, validated (CoC-R16..R19, R22; see ``decklist``)."""
    if choice.cards is not None:
        return list_cards(choice.cards)
    return quick_cards(choice.factions, choice.packet)


class CocEngine(Engine[CocState]):
    def new_game(
        self, seats: Sequence[str], options: BaseModel | dict[str, Any] | None = None, seed: int = 0
    ) -> CocState:
        opts = options if isinstance(options, CocOptions) else CocOptions.model_validate(
            options.model_dump() if isinstance(options, BaseModel) else (options or {}))
        seats = E.checked_seats(seats, 2, 2)  # CoC-R1
        choices = (opts.deck1, opts.deck2)
        if choices[0].cards is None and choices[1].cards is None:
            if set(choices[0].factions or ()) & set(choices[1].factions or ()):
                raise RuleError("coc.faction_taken")  # one Core Set: a faction can be in one deck only
            if choices[0].packet == choices[1].packet:
                raise RuleError("coc.packet_taken")
        lists = [deck_cards(c) for c in choices]
        rng = Rng.from_seed(seed)
        players = []
        for p, (seat, cards) in enumerate(zip(seats, lists, strict=True)):
            copies: Counter[str] = Counter()
            deck = []
            for c in cards:
                copies[c] += 1
                deck.append(f"{p}:{c}:{copies[c]}")
            rng.shuffle(deck)  # CoC-R23
            players.append(Player(seat=seat, deck_list=list(cards), deck=deck,
                                  domains=[Domain() for _ in range(START_DOMAINS)]))  # CoC-R25
        story_deck = [f"s:{c}" for c in story_cards()]
        rng.shuffle(story_deck)  # CoC-R24
        s = CocState(options=opts, rng=rng, players=players, story_deck=story_deck)
        for _ in range(3):
            st = s.story_deck.pop()
            s.stories.append(st)
            s.tokens[st] = [0, 0]
        out: list[Event] = []
        for p in (0, 1):
            T.draw(s, p, SETUP_HAND, out)  # CoC-R26
        s.first = rng.below(2) if opts.first_player == "random" else 0  # CoC-R28
        s.active = s.first
        s.stack.append(Decision(kind="setup", seats=list(seats), params={"keep": KEEP}))
        return s

    # ------------------------------------------------------------------ queries
    def pending(self, state: CocState) -> list[Prompt]:
        if state.phase == "over" or not state.stack:
            return []
        top = state.stack[-1]  # as ``prompts_for``, built without validation
        return [_prompt({"seat": x, "kind": top.kind, "params": dict(top.params)}) for x in top.seats]

    def legal_actions(self, state: CocState, seat: str) -> list[BaseModel]:
        p = _index(state, seat)
        if p is None or state.phase == "over" or not state.stack or seat not in state.stack[-1].seats:
            return []
        top = state.stack[-1]
        pl = state.players[p]
        k = top.kind
        # actions made here are valid by construction: built without validation (``fastmodel``)
        if k == "setup":
            return [_setup({"type": "setup_resource", "card": c}) for c in pl.hand if c not in pl.picks]
        if k == "resource":
            return [_PASS] + [_attach({"type": "attach_resource", "card": c, "domain": d})
                              for c in pl.hand for d in range(len(pl.domains))]
        if k in ("window", "react"):
            mode, trig, step, used = _window_args(state, top)
            out: list[BaseModel] = [_PASS]
            out += [_play({"type": "play", "card": c, "domain": d}) for c, d in playable(state, p, mode, trig, step)]
            out += [_use({"type": "use", "card": c, "ability": i, "domain": d})
                    for c, i, d in usable(state, p, mode, trig, step, used)]
            return out
        if k == "commit":
            stories = top.params["stories"]
            out = [] if flow.plan_error(state, p, stories) else [_DONE]
            for c in T.characters(state, p):
                if T.can_commit(state, c):  # a planned character may be moved to another story
                    out += [_commit({"type": "commit", "card": c, "story": x}) for x in stories if pl.plan.get(c) != x]
            out += [_withdraw({"type": "withdraw", "card": c}) for c in pl.plan]
            return out
        if k == "choose":
            return [_choose({"type": "choose", "option": o}) for o in _choose_options(state, top.params)]
        return []

    revealing_events = frozenset({"setup_done"})  # both players' secret setup picks turn face up

    def hidden_piles(self, state: CocState) -> tuple[Any, ...]:
        """The story deck and both draw decks (a new story turns up from the first)."""
        return (state.story_deck, *(p.deck for p in state.players))

    def determinize(self, state: CocState, seat: str, rng: Rng) -> CocState:
        return determinize(state, seat, rng)

    def forfeit(self, state: CocState, seat: str, place: int) -> BaseModel | None:
        """The game is for two: a player who leaves concedes it (bot ruling)."""
        return Concede()

    def view(self, state: CocState, seat: str | None) -> CocView:
        if seat is not None and _index(state, seat) is None:
            raise RuleError(E.UNKNOWN_SEAT, seat=seat)
        return build_view(state, seat, self.pending(state), self.result(state))

    def result(self, state: CocState) -> GameResult | None:
        if state.phase != "over":
            return None
        seats = [p.seat for p in state.players]
        scores = {p.seat: len(p.won) for p in state.players}
        if state.winner is None:
            return GameResult(ranking=[seats], scores=scores, reason=state.end_reason or "draw", winners=[])
        w = seats[state.winner]
        return GameResult(ranking=[[w], [seats[1 - state.winner]]], scores=scores,
                          reason=state.end_reason or "", winners=[w])

    # ------------------------------------------------------------------ apply
    def apply(self, state: CocState, seat: str, action: BaseModel | dict[str, Any]) -> tuple[CocState, list[Event]]:
        act = action if isinstance(action, ACTION_TYPES) else _parse(action)
        if not isinstance(seat, str):
            raise RuleError(E.UNKNOWN_SEAT, seat=seat)
        p = _index(state, seat)
        if p is None:
            raise RuleError(E.UNKNOWN_SEAT, seat=seat)
        if state.phase == "over":
            raise RuleError(E.GAME_OVER)
        if act.type == "concede":
            return _concede(state, p)
        if not state.stack or seat not in state.stack[-1].seats:
            raise RuleError(E.NOT_YOUR_TURN)
        s = state.clone()
        out: list[Event] = []
        _answer(s, p, act, out)
        flow.settle(s, out)
        s.seal()
        return s, out


_PASS, _DONE = Pass(), CommitDone()
_prompt, _passed = builder(Prompt), builder(ev.Passed)
_setup, _attach, _play, _use = builder(SetupResource), builder(AttachResource), builder(Play), builder(Use)
_commit, _withdraw, _choose = builder(Commit), builder(Withdraw), builder(Choose)


def _concede(state: CocState, p: int) -> tuple[CocState, list[Event]]:
    """Bot ruling: player ``p`` leaves and the opponent wins at once, at any moment and whoever is being
    asked what; open questions and pending effects are dropped with the game."""
    s = state.clone()
    out: list[Event] = [ev.Conceded(seat=s.players[p].seat, winner=s.players[T.other(p)].seat)]
    T.lose(s, p, "conceded", out)
    s.seal()
    return s, out


def _index(s: CocState, seat: object) -> int | None:
    for i, pl in enumerate(s.players):
        if pl.seat == seat:
            return i
    return None


def _parse(raw: object) -> _Action:
    parsed = parse_action(CocAction, raw)
    assert isinstance(parsed, _Action)  # validated against this game's action union
    return parsed


def _window_args(s: CocState, top: Any) -> tuple[str, dict | None, str, list[str]]:
    if top.kind == "window":
        return "action", None, top.params["step"], []
    return top.params["kind"], top.params["ev"], s.step, top.params["used"]


def _choose_options(s: CocState, params: dict[str, Any]) -> list[str]:
    if "pick" in params:
        pk = params["pick"]
        return list(pk["options"]) + (["none"] if pk["optional"] else [])
    if params["options"] is not None:
        opts = list(params["options"])
    else:
        task = s.tasks[-1]
        op = flow.ability_of(task).ops[task["op"]]
        if hasattr(op, "candidates"):
            opts = op.candidates(s, task)
        else:  # a card's own code asked about a hidden zone of the chooser: all of it but cards already picked
            chooser = _index(s, s.stack[-1].seats[0])
            assert chooser is not None  # a decision's seats are the game's own
            zone = getattr(s.players[chooser], params["zone"])
            opts = [c for c in dict.fromkeys(zone) if c not in task["vars"].get("_picked", [])]
    return opts + (["none"] if params["optional"] or not opts else [])


def _answer(s: CocState, p: int, act: BaseModel, out: list[Event]) -> None:
    top = s.stack[-1]
    k = top.kind
    pl = s.players[p]
    if k == "setup" and isinstance(act, SetupResource):
        if act.card not in pl.hand or act.card in pl.picks:
            raise RuleError("coc.not_in_hand", card=act.card)
        pl = s.own_player(p)
        pl.picks.append(act.card)
        if len(pl.picks) == SETUP_HAND - KEEP:
            top = s.stack[-1] = top.clone()  # frames are shared with the state cloned from
            top.seats.remove(pl.seat)
        if not top.seats:
            s.stack.pop()
            _finish_setup(s, out)
        return
    if k == "resource" and isinstance(act, (AttachResource, Pass)):
        if isinstance(act, AttachResource):
            if act.card not in pl.hand:
                raise RuleError("coc.not_in_hand", card=act.card)
            if not 0 <= act.domain < len(pl.domains):
                raise RuleError("coc.no_such_domain", domain=act.domain)
            pl = s.own_player(p)
            pl.hand.remove(act.card)
            pl.domains[act.domain].resources.append(act.card)  # CoC-R37
            out.append(ev.ResourceAttached(seat=pl.seat, card=act.card, domain=act.domain))
        s.stack.pop()
        return
    if k in ("window", "react") and isinstance(act, (Pass, Play, Use)):
        _window_answer(s, p, top, act, out)
        return
    if k == "commit" and isinstance(act, Withdraw):
        if act.card not in pl.plan:
            raise RuleError("coc.not_planned", card=act.card)
        del s.own_player(p).plan[act.card]
        return
    if k == "commit" and isinstance(act, (Commit, CommitDone)):
        if isinstance(act, CommitDone):
            must = flow.plan_error(s, p, top.params["stories"])
            if must is not None:
                raise RuleError("coc.must_follow", card=must)
            s.stack.pop()
            flow.finish_commit(s, p, out)
            return
        inst = s.play.get(act.card)
        if inst is None or inst.ctl != p or pl.plan.get(act.card) == act.story or not T.can_commit(s, act.card):
            raise RuleError("coc.cannot_commit", card=act.card)
        if act.story not in top.params["stories"]:
            raise RuleError("coc.bad_story", story=act.story)
        s.own_player(p).plan[act.card] = act.story
        return
    if k == "choose" and isinstance(act, Choose):
        opts = _choose_options(s, top.params)
        if act.option not in opts:
            raise RuleError("coc.bad_option", option=act.option)
        s.stack.pop()
        value = None if act.option == "none" else act.option
        if "pick" in top.params:
            flow.do_pick(s, top.params["pick"], value, out)
        else:
            s.tasks[-1]["vars"][top.params["var"]] = value
        return
    raise RuleError("coc.answer_expected", kind=k)


def _window_answer(s: CocState, p: int, top: Any, act: BaseModel, out: list[Event]) -> None:
    mode, trig, step, _used = _window_args(s, top)
    nxt: dict[str, Any]
    if top.kind == "window":
        nxt = {"t": "window", "step": step, "seat": 1 - p, "passes": 0}
    else:
        prm = top.params
        nxt = {"t": "react", "kind": prm["kind"], "ev": prm["ev"], "seats": prm["seats"], "k": prm["k"] + 1,
               "passes": 0, "used": list(prm["used"])}
    if isinstance(act, Pass):
        s.stack.pop()
        out.append(_passed({"type": "passed", "audience": None, "seat": s.players[p].seat, "step": step}))
        nxt["passes"] = top.params["passes"] + 1
        s.tasks.append(nxt)
        return
    # validate on the clone before anything: do_* raise before changing anything they check
    if isinstance(act, Play):
        if act.card not in s.players[p].hand:
            raise RuleError("coc.not_in_hand", card=act.card)
        s.stack.pop()
        s.tasks.append(nxt)
        do_play(s, p, act.card, act.domain, mode, trig, step, out)
    else:
        assert isinstance(act, Use)
        s.stack.pop()
        s.tasks.append(nxt)
        if top.kind == "react":
            nxt["used"].append(f"{act.card}#{act.ability}")
        do_use(s, p, act.card, act.ability, act.domain, mode, trig, step, out)


def _finish_setup(s: CocState, out: list[Event]) -> None:
    """CoC-R27: three resources, one per domain, public from now on; then the first turn."""
    for p in (0, 1):
        pl = s.own_player(p)
        for d, c in enumerate(pl.picks):
            pl.hand.remove(c)
            pl.domains[d].resources.append(c)
        out.append(ev.SetupDone(seat=pl.seat, resources=list(pl.picks)))
        pl.picks.clear()
    s.turn = 1
    out.append(ev.TurnStarted(seat=s.players[s.active].seat, turn=1))
    flow.push_turn(s)


"""Cthulhu Wars: Duel (Sleeper vs Windwalker) as pure functions over :class:`CwdState`.

``apply`` works on a clone and checks the action against ``legal_actions`` first, so a refused action
never changes the caller's state and the engine accepts exactly what it offers. Rule ids (CWD-Rnn) are the
digest's (shared/games/cthulhu_wars_duel/digest.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from rules.core import Decision, Engine, GameResult, Prompt, Rng, RuleError, prompts_for
from rules.core import errors as E
from rules.cthulhu_wars_duel import actions as A
from rules.cthulhu_wars_duel import battle as B
from rules.cthulhu_wars_duel.common import (
    ACOLYTE,
    GOOS,
    MONSTERS,
    SLEEPER,
    UNITS,
    WINDWALKER,
    action_cost,
    add,
    check_continuous,
    draw_sign,
    earn,
    ev,
    gain_doom,
    gmap,
    goo_on_map,
    grant_book,
    has_book,
    ice_tax,
    inactive,
    kind_cost,
    on_map,
    opp,
    pool,
)
from rules.cthulhu_wars_duel.determinize import determinize
from rules.cthulhu_wars_duel.factions import (
    DARK_TOWERS,
    ELDER_SIGNS,
    END_DOOM,
    GATES,
    RITUAL_TRACKS,
    SPEND_REQS,
    START_POWER,
)
from rules.cthulhu_wars_duel.options import CwdOptions
from rules.cthulhu_wars_duel.state import CwdState
from rules.cthulhu_wars_duel.views import CwdView, build_view

_ADAPTER = TypeAdapter(A.CwdAction)
mk = A.mk


class CthulhuWarsDuelEngine(Engine[CwdState]):
    # ------------------------------------------------------------------ setup
    def new_game(
        self, seats: Sequence[str], options: BaseModel | dict[str, Any] | None = None, seed: int = 0
    ) -> CwdState:
        if isinstance(options, CwdOptions):
            opts = options
        elif isinstance(options, BaseModel):
            opts = CwdOptions.model_validate(options.model_dump())
        else:
            opts = CwdOptions.model_validate(options or {})
        seats = E.checked_seats(seats, 2, 2)
        rng = Rng.from_seed(seed)
        if opts.sleeper == "second_seat" or (opts.sleeper == "random" and rng.below(2) == 1):
            seats = [seats[1], seats[0]]
        m = gmap(opts.map)
        sl_start = m.sleeper_start[0]
        players: list[dict[str, Any]] = [
            {"power": START_POWER, "doom": 0, "books": [], "reqs": [], "signs": [], "hibernating": False,
             "start": sl_start if i == SLEEPER else None, "rhan_ever": False, "borrow": False,
             "ritual_done": False, "dfb_done": False}
            for i in range(2)
        ]
        s = CwdState(
            seats=seats, map=opts.map, ritual_track=list(RITUAL_TRACKS[opts.ritual_track]), rng=rng, phase="setup",
            players=players, units=[{sl_start: {"sl_acolyte": 6}}, {}], captives=[{}, {}],
            gates={sl_start: SLEEPER}, bag=[ELDER_SIGNS[1], ELDER_SIGNS[2], ELDER_SIGNS[3]],
        )
        # Setup step 10: the Windwalker chooses one of its glyph areas after the Sleeper has set up.
        s.stack.append(
            Decision(kind="choose_start", seats=[seats[WINDWALKER]], params={"areas": list(m.windwalker_start)})
        )
        return s

    # ------------------------------------------------------------------ queries
    def pending(self, state: CwdState) -> list[Prompt]:
        if state.phase == "over":
            return []
        if state.stack:
            return prompts_for(state.stack[-1])
        if state.phase == "action":
            kind = "after_action" if state.acted else "turn"
            power = state.players[state.turn]["power"]
            return [Prompt(seat=state.seats[state.turn], kind=kind, params={"power": power})]
        if state.phase == "doom":
            return [Prompt(seat=state.seats[state.turn], kind="doom_turn", params={})]
        return []

    def legal_actions(self, state: CwdState, seat: str) -> list[BaseModel]:
        if state.phase == "over" or seat not in state.seats:
            return []
        p = state.seats.index(seat)
        if state.stack:
            top = state.stack[-1]
            if seat not in top.seats:
                return _any_time(state, p)
            out = B.frame_options(state, p, top)
        elif state.phase in ("action", "doom"):
            if p != state.turn:
                return _any_time(state, p)  # a player not asked anything may still reveal (CWD-R121)
            out = _turn_options(state, p) if state.phase == "action" else _doom_options(state, p)
        else:
            return []
        out.extend(_any_time(state, p))
        return out

    revealing_events = frozenset({"elder_sign_revealed"})

    def hidden_piles(self, state: CwdState) -> tuple[Any, ...]:
        """The bag of Elder Signs."""
        return (state.bag,)

    def determinize(self, state: CwdState, seat: str, rng: Rng) -> CwdState:
        return determinize(state, seat, rng)

    def forfeit(self, state: CwdState, seat: str, place: int) -> BaseModel | None:
        """A duel cannot go on with one player: leaving concedes it (bot ruling)."""
        return A.Concede()

    def view(self, state: CwdState, seat: str | None) -> CwdView:
        return build_view(state, seat, self.pending(state))

    def result(self, state: CwdState) -> GameResult | None:
        if state.phase != "over" or state.outcome is None:
            return None
        o = state.outcome
        scores = {state.seats[i]: o["scores"][i] for i in range(2)}
        a, b = o["scores"]
        if o.get("winner") is not None:  # a concession decides the game whatever the Doom says
            ranking = [[state.seats[o["winner"]]], [state.seats[1 - o["winner"]]]]
        elif a == b:
            ranking = [list(state.seats)]
        else:
            hi = 0 if a > b else 1
            ranking = [[state.seats[hi]], [state.seats[1 - hi]]]
        return GameResult(ranking=ranking, scores=scores, reason=o["reason"], winners=list(ranking[0]))

    # ------------------------------------------------------------------ apply
    def apply(self, state: CwdState, seat: str, action: BaseModel | dict[str, Any]) -> tuple[CwdState, list[Any]]:
        if seat not in state.seats:
            raise RuleError(E.UNKNOWN_SEAT, seat=seat)
        if state.phase == "over":
            raise RuleError(E.GAME_OVER)
        act = _parse(action)
        if act.type == "concede":
            return _concede(state.clone(), state.seats.index(seat))
        if act not in self.legal_actions(state, seat):
            # a player asked nothing may still take any-time actions, and only those
            if act.type not in ANY_TIME and not any(pr.seat == seat for pr in self.pending(state)):
                raise RuleError(E.NOT_YOUR_TURN, seat=seat)
            raise _why(state, state.seats.index(seat), act)
        s = state.clone()
        events: list[Any] = []
        _dispatch(s, s.seats.index(seat), act, events)
        _advance(s, events)
        return s, events


# ---------------------------------------------------------------------- parsing and refusals
def _parse(action: Any) -> A._A:
    if isinstance(action, BaseModel):
        if isinstance(action, A._A) and type(action) in A.ACTION_TYPES.values():
            return action
        raise RuleError(E.BAD_ACTION, detail=type(action).__name__)
    if not isinstance(action, (dict, str, bytes)):
        raise RuleError(E.BAD_ACTION, detail=type(action).__name__)
    try:
        return _ADAPTER.validate_python(action) if isinstance(action, dict) else _ADAPTER.validate_json(action)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise RuleError(E.BAD_ACTION, detail=str(err.get("type"))) from None


def _why(s: CwdState, p: int, act: A._A) -> RuleError:
    """A specific reason for refusing an action that is not among the legal ones."""
    t = act.type
    m = gmap(s.map)
    area = getattr(act, "area", None)
    if area is not None and area not in m.adj:
        return RuleError("cwd.unknown_area", area=area)
    kind = getattr(act, "kind", None)
    if kind is not None and t in ("summon", "awaken", "move_unit") and kind not in UNITS:
        return RuleError("cwd.unknown_unit", kind=kind)
    if s.stack and t not in ("reveal", "take_any_time_book"):
        top = s.stack[-1]
        if t != "decide" and not (top.kind == "move" and t in ("move_unit", "end_move", "cancel_move")):
            return RuleError("cwd.answer_expected", kind=top.kind)
        return RuleError("cwd.bad_choice", kind=top.kind)
    if t == "decide":
        return RuleError("cwd.nothing_to_answer")
    if isinstance(act, A.Reveal):
        return RuleError("cwd.no_such_sign", value=act.value)
    if t == "take_any_time_book":
        return RuleError("cwd.book_unavailable")
    if s.phase == "doom":
        if t in ("ritual", "doom_done"):
            if t == "ritual" and s.players[p]["ritual_done"]:
                return RuleError("cwd.ritual_done")
            if t == "ritual":
                return RuleError("cwd.not_enough_power", need=ritual_cost(s, p), have=s.players[p]["power"])
            return RuleError("cwd.sorcery_return_first")
        if isinstance(act, A.Unique) and act.ability in ("death_from_below", "sorcery_return"):
            return RuleError("cwd.ability_unavailable", ability=act.ability)
        return RuleError("cwd.wrong_phase", phase=s.phase)
    if t in ("ritual", "doom_done"):
        return RuleError("cwd.wrong_phase", phase=s.phase)
    if s.acted and t not in ("control_gate", "abandon_gate", "battle", "end_turn"):
        return RuleError("cwd.action_taken")
    if t == "end_turn":
        return RuleError("cwd.action_owed")
    if t in ("move_unit", "end_move", "cancel_move"):
        return RuleError("cwd.no_move_open")
    if t == "battle" and area in s.battled:
        return RuleError("cwd.already_battled", area=area)
    if t == "battle" and s.acted:
        return RuleError("cwd.unlimited_battle_closed")
    if isinstance(act, A.SpendRequirement) and act.requirement in s.players[p]["reqs"]:
        return RuleError("cwd.requirement_done", requirement=act.requirement)
    if t == "control_gate" or t == "abandon_gate":
        return RuleError("cwd.gate_unavailable", area=area)
    return RuleError("cwd.not_allowed", action=t)


# ---------------------------------------------------------------------- option lists
def ritual_cost(s: CwdState, p: int) -> int:
    """CWD-R110/R111: the track value (10 once on END); Herald of the Outer Gods: always 5."""
    if p == WINDWALKER and has_book(s, p, "herald_of_the_outer_gods"):
        return 5
    return s.ritual_track[s.ritual] if s.ritual < len(s.ritual_track) else 10


def unlimited_open(s: CwdState) -> bool:
    """CWD-R41/R103: Unlimited Battle opens to both once either player has all six spellbooks."""
    return len(s.players[0]["books"]) == 6 or len(s.players[1]["books"]) == 6


def battle_areas(s: CwdState, p: int, extra: int = 0) -> list[str]:
    """CWD-R35: both sides present, own total Combat above 0, no battle there yet this turn."""
    power = s.players[p]["power"]
    out = []
    mine, theirs = s.units[p], s.units[opp(p)]
    for a in mine:
        if (a in theirs and a not in s.battled and power >= 1 + extra + ice_tax(s, p, a)
                and B.side_combat(s, p, a) > 0):
            out.append(a)
    return sorted(out)


def capture_ok(s: CwdState, p: int, a: str) -> bool:
    """CWD-R75/R76 plus Ferox."""
    q = opp(p)
    there = s.units[q].get(a)
    mine = s.units[p].get(a)
    if not there or not mine or not there.get(ACOLYTE[q]):
        return False
    if any(there.get(g) for g in GOOS[q]):
        return False
    if any(mine.get(g) for g in GOOS[p]):
        return True
    if not any(mine.get(m) for m in MONSTERS[p]):
        return False
    if any(there.get(m) for m in MONSTERS[q]):
        return False
    return not (q == WINDWALKER and goo_on_map(s, WINDWALKER, "ithaqua"))  # Ferox


def nexus_actions(s: CwdState, area: str) -> list[BaseModel]:
    """Energy Nexus: the one action the Sleeper may take that starts in the battle area, at normal cost."""
    p = SLEEPER
    power = s.players[p]["power"]
    tax = ice_tax(s, p, area)
    out: list[BaseModel] = []
    if pool(s, p, ACOLYTE[p]) and power >= 1 + tax:
        out.append(mk(A.Recruit, area=area))
    if s.gates.get(area) == p:
        for kind in MONSTERS[p]:
            if pool(s, p, kind) and power >= kind_cost(s, p, kind) + tax:
                out.append(mk(A.Summon, kind=kind, area=area))
    if (s.units[p].get(area, {}).get(ACOLYTE[p]) and area not in s.gates and power >= 3 + tax
            and len(s.gates) + (1 if s.slumber else 0) < GATES):
        out.append(mk(A.BuildGate, area=area))
    if capture_ok(s, p, area) and power >= 1 + tax:
        out.append(mk(A.Capture, area=area))
    out.extend(a for a in _awaken_options(s, p) if a.area == area)
    out.extend(a for a in _unique_options(s, p)
               if a.area == area and a.ability in ("ancient_sorcery", "capture_monster", "cursed_slumber"))
    return out


def _turn_options(s: CwdState, p: int) -> list[BaseModel]:
    m = gmap(s.map)
    pl = s.players[p]
    power = pl["power"]
    out: list[BaseModel] = []
    mine = s.units[p]
    # unlimited actions (CWD-R40, R41)
    for a, c in s.gates.items():
        if a in s.toggled or a in s.towers:
            continue
        if c == -1 and mine.get(a, {}).get(ACOLYTE[p]):
            out.append(mk(A.ControlGate, area=a))
        elif c == p:
            out.append(mk(A.AbandonGate, area=a))
    if unlimited_open(s):
        out.extend(mk(A.Battle, area=a) for a in battle_areas(s, p))
    if s.acted:
        out.append(mk(A.EndTurn))
        return out
    if s.battled:
        # CWD-R41: with extra battles open, a battle already fought this turn may count as the main action
        out.append(mk(A.EndTurn))
    # main actions
    if not unlimited_open(s):
        out.extend(mk(A.Battle, area=a) for a in battle_areas(s, p))
    acol = ACOLYTE[p]
    if pool(s, p, acol) > 0:
        areas = sorted(mine) if mine else list(m.areas)  # CWD-R30
        out.extend(mk(A.Recruit, area=a) for a in areas if power >= 1 + ice_tax(s, p, a))
    for kind in MONSTERS[p]:
        if pool(s, p, kind) > 0:
            cost = kind_cost(s, p, kind)
            for a, c in s.gates.items():
                if c == p and power >= cost + ice_tax(s, p, a):
                    out.append(mk(A.Summon, kind=kind, area=a))
    out.extend(_awaken_options(s, p))
    if len(s.gates) + (1 if s.slumber else 0) < GATES:
        for a, u in mine.items():
            if u.get(acol) and a not in s.gates and power >= 3 + ice_tax(s, p, a):
                out.append(mk(A.BuildGate, area=a))
    if _can_start_move(s, p):
        out.append(mk(A.Move))
    for a in sorted(mine):
        if capture_ok(s, p, a) and power >= 1 + ice_tax(s, p, a):
            out.append(mk(A.Capture, area=a))
    out.append(mk(A.Pass))
    out.extend(_unique_options(s, p))
    for req, (cost, _) in SPEND_REQS.items():
        if req.startswith(("sl_", "ww_")[p]) and req not in pl["reqs"] and power >= cost:
            out.append(mk(A.SpendRequirement, requirement=req))
    return out


def _awaken_options(s: CwdState, p: int) -> list[A.Awaken]:
    m = gmap(s.map)
    power = s.players[p]["power"]
    out: list[A.Awaken] = []
    if p == SLEEPER:
        if pool(s, p, "tsathoggua"):
            for a, u in s.units[p].items():
                if u.get("formless_spawn") and power >= 8 + ice_tax(s, p, a):
                    out.append(mk(A.Awaken, kind="tsathoggua", area=a))
    else:
        if pool(s, p, "rhan_tegoth") and power >= 6:
            out.extend(mk(A.Awaken, kind="rhan_tegoth", area=a) for a in m.windwalker_start)
        if pool(s, p, "ithaqua") and s.players[p]["rhan_ever"] and power >= 6:
            out.extend(mk(A.Awaken, kind="ithaqua", area=a) for a in m.windwalker_start if a in s.gates)
    return sorted(out, key=lambda x: (x.kind, x.area))


def _unique_options(s: CwdState, p: int) -> list[A.Unique]:
    m = gmap(s.map)
    pl = s.players[p]
    power = pl["power"]
    out: list[A.Unique] = []
    U = A.Unique
    if p == SLEEPER:
        if goo_on_map(s, p, "tsathoggua"):
            out.append(mk(U, ability="lethargy"))
        if pl["borrow"]:
            out.append(mk(U, ability="hibernate"))
        if has_book(s, p, "ancient_sorcery") and s.sorcery == 0 and power >= 1:
            out.extend(
                mk(U, ability="ancient_sorcery", area=a) for a, u in sorted(s.units[p].items()) if u.get("serpent_man")
            )
        if has_book(s, p, "capture_monster") and power >= 1:
            for a, u in sorted(s.units[p].items()):
                there = s.units[WINDWALKER].get(a, {})
                if (u.get("tsathoggua") and any(there.get(k) for k in MONSTERS[WINDWALKER])
                        and not any(there.get(g) for g in GOOS[WINDWALKER]) and power >= 1 + ice_tax(s, p, a)):
                    out.append(mk(U, ability="capture_monster", area=a))
        if has_book(s, p, "cursed_slumber") and power >= 1:
            if not s.slumber:
                out.extend(mk(U, ability="cursed_slumber", area=a) for a, c in sorted(s.gates.items()) if c == p)
            else:
                out.extend(mk(U, ability="slumber_return", area=a) for a in m.areas
                           if a not in s.gates and power >= 1 + ice_tax(s, p, a))
    else:
        out.append(mk(U, ability="hibernate"))
        if has_book(s, p, "ice_age") and power >= 1:
            out.extend(mk(U, ability="ice_age", area=a) for a in m.areas if a != s.ice)
    return out


def _can_start_move(s: CwdState, p: int) -> bool:
    if s.players[p]["power"] < 1:
        return False
    for a, u in s.units[p].items():
        n = sum(u.values()) - (1 if s.gates.get(a) == p else 0)
        if n > 0:
            return True
    return False


def _doom_options(s: CwdState, p: int) -> list[BaseModel]:
    pl = s.players[p]
    out: list[BaseModel] = []
    if p == SLEEPER and s.sorcery:
        # Ancient Sorcery: the Serpent Man must come back in this Doom phase (CWD-R112 lets it come first).
        return [mk(A.Unique, ability="sorcery_return", area=a) for a in gmap(s.map).areas]
    out.append(mk(A.DoomDone))
    if not pl["ritual_done"] and pl["power"] >= ritual_cost(s, p):
        out.append(mk(A.Ritual))
    if p == SLEEPER and not pl["dfb_done"] and B.cheapest_monster(s) is not None:
        # Death from Below: only into an area holding a Sleeper unit; with none on the map it has no target.
        out.extend(mk(A.Unique, ability="death_from_below", area=a) for a in sorted(s.units[SLEEPER]))
    return out


ANY_TIME = frozenset({"reveal", "take_any_time_book"})


def _any_time(s: CwdState, p: int) -> list[BaseModel]:
    """What a player may do whatever the moment, asked or not: reveal an Elder Sign (CWD-R121) and take the
    Windwalker's any-time spellbook (A19: outside a battle or a Move). Neither changes whose turn it is."""
    out: list[BaseModel] = [mk(A.Reveal, value=v) for v in sorted(set(s.players[p]["signs"]))]
    if p == WINDWALKER and "ww_req_any_time" not in s.players[p]["reqs"] and s.battle is None and s.move is None:
        out.append(mk(A.TakeAnyTimeBook))
    return out


# ---------------------------------------------------------------------- dispatch
def _dispatch(s: CwdState, p: int, act: Any, events: list) -> None:
    t = act.type
    if t == "reveal":
        signs = s.players[p]["signs"]
        signs.remove(act.value)
        events.append(ev("elder_sign_revealed", None, seat=s.seats[p], value=act.value))
        gain_doom(s, p, act.value, events, "elder_sign")
        return
    if t == "take_any_time_book":
        events.append(ev("any_time_book", None, seat=s.seats[p]))
        earn(s, p, "ww_req_any_time", events)
        if len(s.players[SLEEPER]["books"]) == 6:
            draw_sign(s, p, events)
        return
    if s.stack:
        B.answer_frame(s, p, act, events)
        return
    if s.phase == "doom":
        _doom_action(s, p, act, events)
        return
    _turn_action(s, p, act, events)


def _pay(s: CwdState, p: int, n: int) -> None:
    s.players[p]["power"] -= n
    assert s.players[p]["power"] >= 0


def _main_done(s: CwdState) -> None:
    s.acted = True
    s.toggled = []  # CWD-R40: a fresh run of free Gate changes may follow the action


def _battle_started(s: CwdState) -> None:
    s.toggled = []


def _turn_action(s: CwdState, p: int, act: Any, events: list) -> None:
    t = act.type
    seat = s.seats[p]
    if t == "control_gate":
        s.gates[act.area] = p
        s.toggled.append(act.area)
        events.append(ev("gate_controlled", None, seat=seat, area=act.area))
        return
    if t == "abandon_gate":
        s.gates[act.area] = -1
        s.toggled.append(act.area)
        events.append(ev("gate_abandoned", None, seat=seat, area=act.area))
        return
    if t == "end_turn":
        _end_turn(s, events)
        return
    if t == "battle":
        if not unlimited_open(s):
            _main_done(s)
        _battle_started(s)
        B.declare(s, p, act.area, events)
        return
    toggled = list(s.toggled)
    _main_done(s)
    perform(s, p, act, events)
    if t == "move":
        assert s.move is not None  # perform has just opened it
        s.move["toggled"] = toggled  # restored if the Move is backed out of


def perform(s: CwdState, p: int, act: Any, events: list) -> None:
    """A main action's effect (also used for the Sleeper's Energy Nexus action)."""
    t = act.type
    seat = s.seats[p]
    pl = s.players[p]
    if t == "recruit":
        _pay(s, p, action_cost(s, p, t, act.area))
        add(s, p, act.area, ACOLYTE[p], 1)
        events.append(ev("recruited", None, seat=seat, area=act.area))
    elif t == "summon":
        _pay(s, p, action_cost(s, p, t, act.area, act.kind))
        add(s, p, act.area, act.kind, 1)
        events.append(ev("summoned", None, seat=seat, kind=act.kind, area=act.area))
    elif t == "awaken":
        _awaken(s, p, act.kind, act.area, events)
    elif t == "build_gate":
        _pay(s, p, action_cost(s, p, t, act.area))
        s.gates[act.area] = -1
        events.append(ev("gate_built", None, seat=seat, area=act.area))
        # Building and standing a cultist on the new Gate is the usual combination (CWD-R33); a Tower
        # there covers the new Gate at once (CWD-R98).
        if act.area not in s.towers:
            s.gates[act.area] = p
            events.append(ev("gate_controlled", None, seat=seat, area=act.area))
    elif t == "move":
        s.move = {"p": p, "spent": 0, "iced": False, "n": 0, "arrived": {}, "ith": None, "origin": None,
                  "steps": [], "toggled": []}
        s.stack.append(Decision(kind="move", seats=[seat], params={}))
    elif t == "capture":
        _pay(s, p, action_cost(s, p, t, act.area))
        B.capture_cultist(s, p, act.area, events)
    elif t == "pass":
        pl["power"] = 0
        events.append(ev("passed", None, seat=seat))
    elif t == "unique":
        _unique(s, p, act, events)
    elif t == "spend_requirement":
        cost, delta = SPEND_REQS[act.requirement]
        _pay(s, p, cost)
        q = s.players[opp(p)]
        q["power"] = max(0, q["power"] + delta)  # A24: never below 0
        events.append(ev("requirement_spent", None,
                         seat=seat, requirement=act.requirement, paid=cost, opponent_delta=delta))
        earn(s, p, act.requirement, events)


def _awaken(s: CwdState, p: int, kind: str, area: str, events: list) -> None:
    seat = s.seats[p]
    if kind == "tsathoggua":
        _pay(s, p, action_cost(s, p, "awaken", area, kind))
        add(s, p, area, kind, 1)
        events.append(ev("awakened", None, seat=seat, kind=kind, area=area))
        earn(s, p, "sl_req_awaken_tsathoggua", events)
    elif kind == "rhan_tegoth":
        _pay(s, p, 6)
        add(s, p, area, kind, 1)
        s.players[p]["rhan_ever"] = True
        events.append(ev("awakened", None, seat=seat, kind=kind, area=area))
        earn(s, p, "ww_req_awaken_rhan_tegoth", events)
    else:
        _pay(s, p, 6)
        del s.gates[area]  # the Gate goes back to the supply; its holder steps off and stays (A17)
        add(s, p, area, kind, 1)
        events.append(ev("awakened", None, seat=seat, kind=kind, area=area, gate_removed=True))
        earn(s, p, "ww_req_awaken_ithaqua", events)


def _unique(s: CwdState, p: int, act: Any, events: list) -> None:
    seat = s.seats[p]
    ab, area = act.ability, act.area
    pl = s.players[p]
    if ab == "lethargy":
        events.append(ev("lethargy", None, seat=seat))
    elif ab == "hibernate":
        enemy_goos = sum(1 for g in GOOS[opp(p)] if goo_on_map(s, opp(p), g))
        gain = min(enemy_goos, pl["power"])  # A15
        pl["power"] += gain
        pl["hibernating"] = True
        events.append(ev("hibernated", None, seat=seat, gain=gain))
    elif ab == "ancient_sorcery":
        _pay(s, p, 1)
        add(s, p, area, "serpent_man", -1)
        s.sorcery = 1
        pl["borrow"] = True
        events.append(ev("ancient_sorcery", None, seat=seat, area=area))
    elif ab == "capture_monster":
        _pay(s, p, 1 + ice_tax(s, p, area))
        B.capture_monster(s, p, area, events)
    elif ab == "cursed_slumber":
        _pay(s, p, 1)
        del s.gates[area]
        add(s, p, area, ACOLYTE[p], -1)
        s.slumber = True
        events.append(ev("cursed_slumber", None, seat=seat, area=area))
    elif ab == "slumber_return":
        _pay(s, p, 1 + ice_tax(s, p, area))
        s.slumber = False
        add(s, p, area, ACOLYTE[p], 1)
        s.gates[area] = -1 if area in s.towers else p
        events.append(ev("slumber_return", None, seat=seat, area=area))
    elif ab == "ice_age":
        _pay(s, p, 1)
        s.ice = area
        events.append(ev("ice_age", None, seat=seat, area=area))


def _doom_action(s: CwdState, p: int, act: Any, events: list) -> None:
    seat = s.seats[p]
    pl = s.players[p]
    t = act.type
    if t == "ritual":
        cost = ritual_cost(s, p)
        _pay(s, p, cost)
        pl["ritual_done"] = True
        s.ritual = min(s.ritual + 1, len(s.ritual_track))
        gates = sum(1 for c in s.gates.values() if c == p) + (1 if p == SLEEPER and s.slumber else 0)
        events.append(ev("ritual", None, seat=seat, paid=cost, gates=gates, end=s.ritual >= len(s.ritual_track)))
        gain_doom(s, p, gates, events, "ritual")
        for g in GOOS[p]:
            if goo_on_map(s, p, g):
                draw_sign(s, p, events)
        if p == SLEEPER:
            earn(s, p, "sl_req_ritual", events)
    elif t == "doom_done":
        if p == s.first:
            s.turn = opp(p)
        else:
            _end_doom_phase(s, events)
    elif act.ability == "death_from_below":
        kind = B.cheapest_monster(s)
        assert kind is not None  # offered only while a Sleeper monster is in the pool
        pl["dfb_done"] = True
        add(s, p, act.area, kind, 1)
        events.append(ev("death_from_below", None, seat=seat, kind=kind, area=act.area))
    elif act.ability == "sorcery_return":
        s.sorcery = 0
        pl["power"] += 1
        add(s, p, act.area, "serpent_man", 1)
        events.append(ev("sorcery_return", None, seat=seat, area=act.area))


# ---------------------------------------------------------------------- flow
def _advance(s: CwdState, events: list) -> None:
    """Run everything automatic until someone owes a decision."""
    while True:
        check_continuous(s, events)
        if s.stack:
            return
        if s.battle is not None:
            B.step(s, events)
            continue
        if s.deferred:
            p, req = s.deferred.pop(0)
            grant_book(s, p, req, events)
            continue
        if s.phase == "action":
            if not s.acted and (s.players[s.turn]["power"] == 0 or s.players[s.turn]["hibernating"]):
                _end_turn(s, events)  # CWD-R14: nothing can be done at 0 Power
                continue
            if _any_doom_30(s):
                s.end_pending = True  # CWD-R113 / A13: ends at the end of the current turn
            if s.acted and (s.players[s.turn]["power"] == 0 or s.players[s.turn]["hibernating"]):
                _end_turn(s, events)
                continue
            if s.acted and len(_turn_options(s, s.turn)) == 1:
                _end_turn(s, events)  # only "end turn" is left
                continue
        return


def _any_doom_30(s: CwdState) -> bool:
    return s.players[0]["doom"] >= END_DOOM or s.players[1]["doom"] >= END_DOOM


def _end_turn(s: CwdState, events: list) -> None:
    if s.end_pending or _any_doom_30(s):
        _finish(s, events, "doom_30")
        return
    s.turn = opp(s.turn)
    begin_turn(s, events)


def reveal_window_due(s: CwdState, p: int) -> bool:
    """CWD-R113/R121: a player skipped for 0 Power may still reveal Elder Signs to end the game. The window
    opens whenever public facts (Doom and the number of face-down signs, each worth at most 3) allow 30,
    so its appearance tells the opponent nothing about the hidden values."""
    pl = s.players[p]
    return bool(pl["signs"]) and not s.end_pending and pl["doom"] + 3 * len(pl["signs"]) >= END_DOOM


def begin_turn(s: CwdState, events: list, window_done: bool = False) -> None:
    """CWD-R15/R16/R19: Decay advance for an idle player, Decay payment for an active one."""
    while True:
        if inactive(s, 0) and inactive(s, 1):
            _end_action_phase(s, events)
            return
        p = s.turn
        pl = s.players[p]
        if inactive(s, p):
            if not window_done and reveal_window_due(s, p):
                s.stack.append(Decision(kind="reveal_window", seats=[s.seats[p]], params={}))
                return
            window_done = False
            s.decay += 1
            events.append(ev("decay_advanced", None, seat=s.seats[p], decay=s.decay))
            s.turn = opp(p)
            continue
        if s.decay:
            if pl["power"] <= s.decay:
                events.append(ev("decay_paid", None, seat=s.seats[p], paid=pl["power"], decay=s.decay, turn_over=True))
                pl["power"] = 0
                s.turn = opp(p)
                continue
            pl["power"] -= s.decay
            events.append(ev("decay_paid", None, seat=s.seats[p], paid=s.decay, decay=s.decay, turn_over=False))
        s.acted = False
        s.battled = []
        s.toggled = []
        events.append(ev("turn", None, seat=s.seats[p]))
        return


def after_window(s: CwdState, events: list) -> None:
    """The skipped player's turn ends; a reveal that reached 30 ends the game with it (CWD-R113)."""
    if s.end_pending or _any_doom_30(s):
        _finish(s, events, "doom_30")
        return
    begin_turn(s, events, window_done=True)


def _end_action_phase(s: CwdState, events: list) -> None:
    s.decay = 0
    s.acted = False
    s.battled = []
    s.toggled = []
    events.append(ev("action_phase_over", None))
    # Gather Power (CWD-R90..R93)
    income = [0, 0]
    abandoned = sum(1 for c in s.gates.values() if c == -1)
    for p in (0, 1):
        cult = on_map(s, p, ACOLYTE[p]) + (1 if p == SLEEPER and s.slumber else 0)
        gates = sum(1 for c in s.gates.values() if c == p) + (1 if p == SLEEPER and s.slumber else 0)
        captives = sum(s.captives[p].values())
        income[p] = cult + 2 * gates + abandoned + captives
        s.captives[p] = {}
    gathered = []
    for p in (0, 1):
        pl = s.players[p]
        gathered.append(income[p] + (pl["power"] if pl["hibernating"] else 0))
        pl["hibernating"] = False
    final = [max(gathered[p], -(-gathered[opp(p)] // 2)) for p in (0, 1)]
    for p in (0, 1):
        s.players[p]["power"] = final[p]
    events.append(ev("power_gathered", None, income=income, gathered=gathered, power=final))
    # Determine first player (CWD 4.3 / A22)
    if final[0] != final[1]:
        _set_first(s, 0 if final[0] > final[1] else 1, events)
    else:
        s.stack.append(Decision(kind="choose_first", seats=[s.seats[s.first]], params={}))
        s.phase = "first_player"


def _set_first(s: CwdState, p: int, events: list) -> None:
    s.first = p
    events.append(ev("first_player", None, seat=s.seats[p]))
    if p == WINDWALKER:
        earn(s, p, "ww_req_first_player", events)
    s.phase = "doom"
    s.turn = p
    for pl in s.players:
        pl["ritual_done"] = False
        pl["dfb_done"] = False


def _end_doom_phase(s: CwdState, events: list) -> None:
    s.players[SLEEPER]["borrow"] = False if s.sorcery == 0 else s.players[SLEEPER]["borrow"]
    m = gmap(s.map)
    if m.dark_towers:
        if not s.towers_started:
            s.towers_started = True
            for a in (s.players[SLEEPER]["start"], s.players[WINDWALKER]["start"]):
                place_tower(s, a, events)
        elif not _game_ends(s):  # Towers placed as the game ends change nothing: nobody is asked
            free = [a for a in m.tower_glyph if a not in s.towers]
            n = min(2, len(free), DARK_TOWERS - len(s.towers))
            if n > 0:
                s.stack.append(Decision(kind="place_tower", seats=[s.seats[s.first]], params={"left": n}))
                return
    after_towers(s, events)


def place_tower(s: CwdState, a: str, events: list) -> None:
    if a in s.towers or len(s.towers) >= DARK_TOWERS:
        return
    s.towers.append(a)
    if a in s.gates:
        s.gates[a] = -1
    events.append(ev("dark_tower", None, area=a))


def _game_ends(s: CwdState) -> bool:
    """CWD-R113: the Doom phase that met an end condition (30 Doom, the Ritual marker on END) is the last."""
    return s.end_pending or _any_doom_30(s) or s.ritual >= len(s.ritual_track)


def after_towers(s: CwdState, events: list) -> None:
    if _game_ends(s):
        _finish(s, events, "end_of_the_world" if s.ritual >= len(s.ritual_track) else "doom_30")
        return
    s.round += 1
    s.phase = "action"
    s.turn = s.first
    events.append(ev("round", None, round=s.round))
    begin_turn(s, events)


def _finish(s: CwdState, events: list, reason: str) -> None:
    """CWD-R114: every hidden Elder Sign is revealed, the highest Doom wins, a tie is shared."""
    for p in (0, 1):
        signs = s.players[p]["signs"]
        for v in signs:
            events.append(ev("elder_sign_revealed", None, seat=s.seats[p], value=v))
            s.players[p]["doom"] += v
        s.players[p]["signs"] = []
    s.phase = "over"
    s.stack = []
    s.battle = None
    s.move = None
    s.outcome = {"reason": reason, "scores": [s.players[0]["doom"], s.players[1]["doom"]]}
    events.append(ev("game_over", None, reason=reason, scores=s.outcome["scores"], seats=list(s.seats)))


def _concede(s: CwdState, p: int) -> tuple[CwdState, list[Any]]:
    """Bot ruling: a player who leaves concedes, at any moment and in any phase. Whatever was being decided
    (a battle, a move, an open question) is dropped, hidden Elder Signs stay hidden, and the other player
    wins; the Doom totals stand as they are, for the record."""
    winner = 1 - p
    events: list[Any] = [ev("conceded", None, seat=s.seats[p], winner=s.seats[winner])]
    s.phase = "over"
    s.stack = []
    s.battle = None
    s.move = None
    s.deferred = []
    s.outcome = {"reason": "conceded", "scores": [s.players[0]["doom"], s.players[1]["doom"]], "winner": winner}
    events.append(ev("game_over", None, reason="conceded", scores=s.outcome["scores"], seats=list(s.seats),
                     winner=s.seats[winner]))
    return s, events


# hooks for the frame handlers in battle.py
B.FLOW = {"begin_turn": begin_turn, "after_window": after_window, "set_first": _set_first, "place_tower": place_tower,
          "after_towers": after_towers, "main_done": _main_done, "pay": _pay, "end_turn": _end_turn,
          "battle_areas": battle_areas, "nexus_actions": nexus_actions, "perform": perform}

"""The task runner: turn sequence, windows, the story phase, reactions and effects.

``settle`` pops tasks until one asks a question (a Decision frame on ``state.stack``) or the game ends.
Between tasks, what happened (``state.triggers``) is offered to Forced Responses and Responses
(CoC-R118/R119, CoC-A5): forced ones resolve first, the active player's before the opponent's; then one
response window in which the seats that could respond are asked in turn, active first, until each has
passed in a row. Whom to ask, and which forced responses match, is worked out in ``reactions``.

Action windows (CoC-R114, CoC-A4): the active player acts first; players alternate; the window closes
when both pass in a row; every action gives the other player priority. Story resolution is a green box
(CoC-R50, CoC-A3): no action windows inside it, but Disrupts and Responses still get their windows.
"""

from __future__ import annotations

from typing import Any

from rules.coc_lcg import events as ev
from rules.coc_lcg import table as T
from rules.coc_lcg.cards import ICONS
from rules.coc_lcg.effects import Ask, apply_verb, would_destroy
from rules.coc_lcg.reactions import effect_task, forced_matches, push_react, reaction_seats
from rules.coc_lcg.script import SCRIPTS, Ability, abilities, having
from rules.coc_lcg.state import CocState
from rules.core import Decision, Event
from rules.core.fastmodel import builder

_decision = builder(Decision)


def _frame(kind: str, seats: list[str], params: dict[str, Any]) -> Decision:
    """A decision frame, built without validation (every part is made here)."""
    return _decision({"kind": kind, "seats": seats, "params": params})


def push_turn(s: CocState) -> None:
    seq: list[dict[str, Any]] = [
        {"t": "phase", "name": "refresh"}, {"t": "refresh"}, _win("refresh"),
        {"t": "phase", "name": "draw"}, {"t": "draw"}, _win("draw"),
        {"t": "phase", "name": "resource"}, {"t": "resource"}, _win("resource"),
        {"t": "phase", "name": "operations"}, _win("operations"),
        {"t": "phase", "name": "story"}, {"t": "story"},
        {"t": "phase", "name": "end"}, {"t": "end"},
    ]
    s.tasks.extend(reversed(seq))


def _win(step: str) -> dict[str, Any]:
    return {"t": "window", "step": step, "seat": None, "passes": 0}


# Tasks that change nothing on the table: they ask (a frame) or, once answered, just end. After one of them
# the state checks need not run again unless the last run itself did something (a cascade to look at).
_QUIET = frozenset({"window", "react"})


def settle(s: CocState, out: list[Event]) -> None:
    check, acted = True, False
    while s.phase != "over" and not s.stack:
        if check:
            acted = _state_checks(s, out)
            if _halted(s):
                break
        if s.triggers and not _effect_in_progress(s):
            flush_triggers(s)
            continue
        if not s.tasks:
            break
        task = s.tasks.pop()
        HANDLERS[task["t"]](s, task, out)
        check = acted or task["t"] not in _QUIET


def _halted(s: CocState) -> bool:
    """The game ended or a player must answer. A call of its own because the state checks just run may
    have changed ``s.phase``, which the type checker, having narrowed it in the loop's test, would miss."""
    return s.phase == "over" or bool(s.stack)


def _effect_in_progress(s: CocState) -> bool:
    return bool(s.tasks) and s.tasks[-1]["t"] == "effect" and "op" in s.tasks[-1]


def _state_checks(s: CocState, out: list[Event]) -> bool:
    """State-based checks: passive "whenever" text, and a Heroic/Villainous conflict (CoC-R102/A10).
    True when a check may have done something (a rule's text ran, a pick was queued)."""
    acted = False
    cards = T.cards_in_play(s)  # asked between all tasks: quick tests on the card ids in play first
    if T.hv_possible(s, cards):
        hv = T.heroic_villainous_both(s)
        for p in (0, 1):
            if len(hv[p]) == 2 and not any(
                    t["t"] == "pick" and t["verb"] == "hv_keep" for t in s.tasks):
                s.tasks.append({"t": "pick", "seat": p, "options": ["heroic", "villainous"], "verb": "hv_keep",
                                "optional": False, "q": "hv_keep"})
                acted = True
    rules = having("state")
    if rules.isdisjoint(cards):
        return acted
    for src, inst in [(k, x) for k, x in s.play.items() if x.card in rules]:
        for _, ab in abilities(inst.card, "state"):
            if src in s.play and T.text_on(s, src):
                ab.fn(s, src, out)  # type: ignore[misc]
                acted = True
    return acted


# ------------------------------------------------------------------------------------------- turn steps
def _phase(s: CocState, task: dict, out: list[Event]) -> None:
    end_phase(s, out)
    s.phase = task["name"]
    s.step = task["name"]
    out.append(ev.PhaseStarted(phase=task["name"]))


def end_phase(s: CocState, out: list[Event]) -> None:
    """Lasting "until the end of the phase" effects end; borrowed characters go home (control mods)."""
    keep = []
    for m in s.mods:
        if m["until"] == "phase" or (m["until"] == "turn" and s.phase == "end"):
            if m["k"] == "control" and m["t"] in s.play:
                inst = s.own_inst(m["t"])
                inst.ctl = m["back"]
                inst.story = None
                out.append(ev.ControlChanged(card=m["t"], seat=s.players[m["back"]].seat))
        else:
            keep.append(m)
    s.mods = keep
    s.moved.clear()


def _refresh(s: CocState, task: dict, out: list[Event]) -> None:
    """CoC-R32/R33/A27: restore one insane character (asked when there is a choice), ready the rest,
    refresh every domain."""
    p = s.active
    insane = [i for i, x in s.play.items() if x.ctl == p and x.insane and T.can_restore(s, i)]
    s.tasks.append({"t": "ready_all"})
    if len(insane) == 1:
        T.restore(s, insane[0], out)
        s.tasks[-1]["skip"] = insane[0]
    elif insane:
        s.tasks.append({"t": "pick", "seat": p, "options": insane, "verb": "restore_refresh",
                        "optional": False, "q": "restore"})


def _ready_all(s: CocState, task: dict, out: list[Event]) -> None:
    p = s.active
    for i, x in s.play.items():
        if x.ctl == p and x.exhausted and not x.insane and i != task.get("skip"):
            s.own_inst(i).exhausted = False  # replaces the value of a key: iterating goes on
    if any(d.drained for d in s.players[p].domains):
        for k, d in enumerate(s.own_player(p).domains):
            if d.drained:
                d.drained = False
                out.append(ev.DomainRefreshed(seat=s.players[p].seat, domain=k))


def _draw(s: CocState, task: dict, out: list[Event]) -> None:
    n = 1 if s.turn == 1 and s.active == s.first else 2  # CoC-R31/R35
    T.draw(s, s.active, n, out)
    T.trigger(s, "draw_phase", ctl=s.active)


def _resource(s: CocState, task: dict, out: list[Event]) -> None:
    if s.players[s.active].hand:
        s.stack.append(_frame("resource", [s.players[s.active].seat], {}))


def _story(s: CocState, task: dict, out: list[Event]) -> None:
    if s.turn == 1 and s.active == s.first:  # CoC-R31, CoC-A25
        return
    s.tasks.append({"t": "commit", "who": "active"})
    s.tasks.append(_win("story_a"))


def _commit(s: CocState, task: dict, out: list[Event]) -> None:
    p = s.active if task["who"] == "active" else 1 - s.active
    if s.players[p].plan:
        s.own_player(p).plan.clear()
    allowed = list(s.stories) if task["who"] == "active" else [
        x for x in s.stories if T.committed(s, x, s.active)]
    if task["who"] == "opp" and not allowed:
        _after_commits(s)
        return
    if task["who"] == "opp" and not any(T.can_commit(s, c) for c in T.characters(s, p)):
        finish_commit(s, p, out)  # no defender could go (public facts): the defender is not asked
        return
    s.stack.append(_frame("commit", [s.players[p].seat], {"who": task["who"], "stories": allowed}))


def plan_error(s: CocState, p: int, allowed: list[str]) -> str | None:
    """Y'Golonac: a character he readied must go to his story if it can (checked at confirmation)."""
    plan = s.players[p].plan
    for m in s.mods:
        c, y = m["t"], m.get("src")
        if m["k"] != "follow" or c not in s.play or s.play[c].ctl != p or y not in s.play:
            continue
        story = plan.get(y) or s.play[y].story
        if story is None or story not in allowed or plan.get(c) == story:
            continue
        if c in plan or T.can_commit(s, c):
            return c
    return None


def finish_commit(s: CocState, p: int, out: list[Event]) -> None:
    """Reveal a commit plan: all at once (CoC-R46/D3), exhausting each character (CoC-R44)."""
    plan = dict(s.players[p].plan)
    if plan:
        s.own_player(p).plan.clear()
    for c, story in plan.items():
        inst = s.own_inst(c)
        inst.story = story
        inst.exhausted = True
    if plan:
        out.append(ev.Committed(seat=s.players[p].seat, cards=plan))
    for c, story in plan.items():
        T.trigger(s, "committed", card=c, story=story, ctl=p)
    if p == s.active:
        if plan:
            s.tasks.append({"t": "commit", "who": "opp"})
            s.tasks.append(_win("story_c"))
    else:
        _after_commits(s)


def _after_commits(s: CocState) -> None:
    s.tasks.append({"t": "release"})
    s.tasks.append(_win("story_g"))
    s.tasks.append({"t": "resolve_next", "done": []})
    s.tasks.append(_win("story_e"))


def _resolve_next(s: CocState, task: dict, out: list[Event]) -> None:
    """CoC-R49/A8: every story with committed characters, in the order the active player picks."""
    s.step = "resolve"
    left = [x for x in s.stories if x not in task["done"] and T.committed(s, x)]
    if not left:
        return
    if len(left) == 1:
        _resolve_one(s, left[0], task["done"])
        return
    s.tasks.append({"t": "pick", "seat": s.active, "options": left, "verb": "resolve", "optional": False,
                    "q": "story_order", "done": task["done"]})


def _resolve_one(s: CocState, story: str, done: list[str]) -> None:
    seq: list[dict[str, Any]] = [{"t": "struggle", "story": story, "i": i, "k": 0} for i in range(4)]
    seq += [{"t": "success", "story": story}, {"t": "story_done", "story": story,
                                                "chars": T.committed(s, story)}]
    s.tasks.append({"t": "resolve_next", "done": [*done, story]})
    s.tasks.extend(reversed(seq))


def fast_count(s: CocState, story: str, p: int) -> int:
    return sum(1 for c in T.committed(s, story, p) if "fast" in T.stats(s, c).kws)


def contest(s: CocState, story: str, a: int, o: int) -> int | None:
    """Who wins a comparison at ``story`` (0/1 index), Fast breaking non-zero ties (CoC-R76/R101)."""
    if a > o:
        return s.active
    if o > a:
        return 1 - s.active
    if a == 0:
        return None
    fa, fo = fast_count(s, story, s.active), fast_count(s, story, 1 - s.active)
    if fa != fo:
        return s.active if fa > fo else 1 - s.active
    return None


def _struggle(s: CocState, task: dict, out: list[Event]) -> None:
    story, i, k = task["story"], task["i"], task["k"]
    if story not in s.stories:
        return  # won mid-resolution (CoC-R88)
    if k == 0:
        happens = T.struggles_of(s, story)[i] > 0
    else:
        happens = T.boosters(s, story, i) >= k  # CoC-R60/A23
        if not happens:
            return
    s.tasks.append({"t": "struggle", "story": story, "i": i, "k": k + 1})
    if happens:
        resolve_struggle(s, story, i, out)


def resolve_struggle(s: CocState, story: str, i: int, out: list[Event]) -> None:
    act, opp = s.active, 1 - s.active
    tot = [0, 0]
    for p in (0, 1):
        tot[p] = sum(T.stats(s, c).icons[i] for c in T.committed(s, story, p))
    w = contest(s, story, tot[act], tot[opp])
    out.append(ev.StruggleResolved(story=story, icon=ICONS[i], totals=tot,
                                   winner=s.players[w].seat if w is not None else None))
    if w is None:
        return
    loser = 1 - w
    # responses to the win come once its result (the loser's pick, the winner's option) is applied
    s.tasks.append({"t": "emit", "on": "struggle_won", "story": story, "icon": i, "ctl": w,
                    "margin": tot[w] - tot[loser]})
    mine = T.committed(s, story, loser)
    if i == 0:  # CoC-R77
        opts = [c for c in mine if not T.immune_to_insanity(s, c)]
        s.tasks.append({"t": "pick", "seat": loser, "options": opts, "verb": "insane", "optional": False,
                        "q": "terror"})
    elif i == 1:  # CoC-R78
        opts = [c for c in mine if not T.invulnerable(s, c)]
        s.tasks.append({"t": "pick", "seat": loser, "options": opts, "verb": "wound", "optional": False,
                        "q": "combat"})
    elif i == 2:  # CoC-R79
        opts = [c for c in T.committed(s, story, w) if s.play[c].exhausted]
        s.tasks.append({"t": "pick", "seat": w, "options": opts, "verb": "ready", "optional": True,
                        "q": "arcane"})
    else:  # CoC-R80
        s.tasks.append({"t": "pick", "seat": w, "options": [story], "verb": "token", "optional": True,
                        "q": "investigation", "n": 1})


def _success(s: CocState, task: dict, out: list[Event]) -> None:
    """CoC-R81/R82: only the active player can succeed; unchallenged gives one more token."""
    story = task["story"]
    if story not in s.stories:
        return
    act, opp = s.active, 1 - s.active
    sk = [sum(T.stats(s, c).skill for c in T.committed(s, story, p)) for p in (0, 1)]
    w = contest(s, story, sk[act], sk[opp])
    ok = w == act and sk[act] >= 1
    unch = ok and sk[opp] <= 0
    out.append(ev.SkillCheck(story=story, totals=sk, success=ok, unchallenged=unch))
    if ok:
        s.tasks.append({"t": "emit", "on": "success", "story": story, "ctl": act})
        s.tasks.append({"t": "pick", "seat": act, "options": [story], "verb": "token", "optional": True,
                        "q": "success", "n": 2 if unch else 1})


def _story_done(s: CocState, task: dict, out: list[Event]) -> None:
    T.trigger(s, "story_resolved", story=task["story"], chars=task["chars"], ctl=s.active)


def _emit(s: CocState, task: dict, out: list[Event]) -> None:
    T.trigger(s, **{k: v for k, v in task.items() if k != "t"})


def _release(s: CocState, task: dict, out: list[Event]) -> None:
    for i, x in s.play.items():
        if x.story is not None:
            s.own_inst(i).story = None  # CoC-R51/R136
    out.append(ev.Released())


def _end(s: CocState, task: dict, out: list[Event]) -> None:
    end_phase(s, out)
    s.active = 1 - s.active  # CoC-R52
    s.turn += 1
    out.append(ev.TurnStarted(seat=s.players[s.active].seat, turn=s.turn))
    push_turn(s)


def _win_story(s: CocState, task: dict, out: list[Event]) -> None:
    """CoC-R85..R90, R97, R100, A19, A22."""
    story, p = task["story"], task["p"]
    if story not in s.stories:
        return
    s.stories.remove(story)
    s.tokens.pop(story, None)
    for c in T.committed(s, story):
        s.own_inst(c).story = None  # CoC-R86
    for a in T.attachments(s, story):
        T.leave_play(s, a, "destroyed", out)
    is_conspiracy = T.cdef(story).type == "conspiracy"
    if is_conspiracy:
        del s.play[story]
    s.own_player(p).won.append(story)
    over = len(s.players[p].won) >= T.WIN_STORIES  # CoC-R84: the 3rd win ends the game at once
    out.append(ev.StoryWon(story=story, seat=s.players[p].seat))
    T.trigger(s, "story_won", story=story, ctl=p)
    if over:  # CoC-A19, R91: pending wins, the replacement and the story effect are never processed
        s.phase = "over"
        s.winner = p
        s.end_reason = "three_stories"
        s.tasks.clear()
        s.stack.clear()
        out.append(ev.GameOver(winner=s.players[p].seat, reason="three_stories"))
        return
    if not is_conspiracy:  # CoC-R87: drawn once the effect below is done (tasks run last in, first out)
        s.tasks.append({"t": "replace", "won": story})
    if abilities(T.card_id(story), "story"):
        s.tasks.append({"t": "pick", "seat": p, "options": ["use"], "verb": "story_effect", "optional": True,
                        "q": "story_effect", "story": story})


def _replace(s: CocState, task: dict, out: list[Event]) -> None:
    """CoC-R87: three stories again, drawn after the won story's effect (Dreamwalkers may have shuffled a
    story back in); an empty story deck leaves the place empty (A20)."""
    if not s.story_deck:
        return
    story = s.story_deck.pop()
    s.stories.append(story)
    s.tokens[story] = [0, 0]
    out.append(ev.StoryReplaced(won=task["won"], story=story))


# ------------------------------------------------------------------------------------------- picks
def _pick(s: CocState, task: dict, out: list[Event]) -> None:
    """A rule's question with public options; one option of a required pick is taken without asking."""
    opts = [o for o in task["options"] if _still_valid(s, task, o)]
    if not opts:
        return
    if len(opts) == 1 and not task["optional"]:
        do_pick(s, task, opts[0], out)
        return
    params = {k: v for k, v in task.items() if k != "t"}
    params["options"] = opts
    s.stack.append(_frame("choose", [s.players[task["seat"]].seat], {"pick": params}))


def _still_valid(s: CocState, task: dict, o: str) -> bool:
    if task["verb"] in ("insane", "wound", "ready", "restore_refresh"):
        return o in s.play
    if task["verb"] in ("token", "resolve"):
        return o in s.stories
    if task["verb"] == "attach":
        return o in s.play or o in s.stories
    return True


def do_pick(s: CocState, task: dict, o: str | None, out: list[Event]) -> None:
    verb = task["verb"]
    if o is None:
        return
    if verb == "restore_refresh":
        T.restore(s, o, out)
        s.tasks[-1]["skip"] = o  # the ready_all task below
    elif verb in ("insane", "wound", "ready"):
        apply_verb(s, verb, o, out)
    elif verb == "token":
        T.place_tokens(s, o, task["seat"], task.get("n", 1), out)
    elif verb == "resolve":
        _resolve_one(s, o, task["done"])
    elif verb == "story_effect":
        for idx, _ in abilities(T.card_id(task["story"]), "story"):
            s.tasks.append(effect_task(s, task["story"], idx, task["seat"]))
    elif verb == "attach":
        s.resolving.remove(task["card"])
        T.enter_play(s, task["card"], task["seat"], out, host=o)
    elif verb == "hv_keep":
        drop = "villainous" if o == "heroic" else "heroic"
        for c in T.characters(s, task["seat"]):
            if drop in T.stats(s, c).kws:
                T.leave_play(s, c, "discarded", out)  # CoC-A10: neither destroyed nor sacrificed
    else:
        raise ValueError(verb)


# ------------------------------------------------------------------------------------------- effects
def ability_of(task: dict) -> Ability:
    return SCRIPTS[task["card"]].abilities[task["ab"]]


def _effect(s: CocState, task: dict, out: list[Event]) -> None:
    ops = ability_of(task).ops
    while not task["cancel"] and task["i"] < len(ops):
        op = ops[task["i"]]
        if task["skip"]:
            task["skip"] -= 1
            task["i"] += 1
            continue
        if not task["init"] and not op.choosing:
            task["init"] = True
            trig = {"on": "initiated", "n": task["n"], "card": task["src"], "ctl": task["ctl"],
                    "kind": ability_of(task).kind, "event": task["event"],
                    "targets": [v for v in task["vars"].values() if isinstance(v, str)],
                    "destroys": would_destroy(s, task, ops)}
            seats = reaction_seats(s, trig, "disrupt")
            if seats:
                s.tasks.append(task)
                push_react(s, trig, "disrupt", seats)
                return
        task["op"] = task["i"]
        task["i"] += 1
        s.tasks.append(task)
        depth = len(s.tasks)
        asked = op(s, task, out)
        if s.phase == "over":
            return
        if task.pop("again", False):  # a looping op (one question per round) runs again
            task["i"] -= 1
        if asked is not None:
            _ask(s, task, asked)
            return
        if len(s.tasks) > depth or s.stack:
            return
        s.tasks.pop()
    _finish_effect(s, task, out)


def _ask(s: CocState, task: dict, a: Ask) -> None:
    params = {"var": a.var, "options": a.options, "zone": a.zone, "optional": a.optional, "q": a.q,
              "why": task["card"], "n": task["n"]}
    s.stack.append(_frame("choose", [s.players[a.seat].seat], params))


def _finish_effect(s: CocState, task: dict, out: list[Event]) -> None:
    if task["cancel"]:
        out.append(ev.Cancelled(card=task["src"], by=task.get("by", "")))
    if task["event"] and task["src"] in s.resolving:
        s.resolving.remove(task["src"])
        if task["vars"].get("_to_hand") and not task["cancel"]:
            s.own_player(T.owner(task["src"])).hand.append(task["src"])
        else:
            T.to_discard(s, task["src"])  # CoC-R58/R121


def _wound(s: CocState, task: dict, out: list[Event]) -> None:
    if not task["cancel"] and task["card"] in s.play:
        T.wound(s, task["card"], out)


# ------------------------------------------------------------------------------------------- reactions
def flush_triggers(s: CocState) -> None:
    trigs, s.triggers = s.triggers, []
    for trig in reversed(trigs):
        seats = reaction_seats(s, trig, "response")
        if seats:
            push_react(s, trig, "response", seats)
        for src, idx, ctl in reversed(forced_matches(s, trig)):
            s.tasks.append(effect_task(s, src, idx, ctl, ev=trig))


def _react(s: CocState, task: dict, out: list[Event]) -> None:
    if task["passes"] >= len(task["seats"]) or not task["seats"]:
        return
    if task["kind"] == "disrupt" and any(t.get("n") == task["ev"]["n"] and t.get("cancel") for t in s.tasks):
        return  # what the window answers is already cancelled
    p = task["seats"][task["k"] % len(task["seats"])]
    params = {k: v for k, v in task.items() if k != "t"}
    s.stack.append(_frame("react", [s.players[p].seat], params))


def _window(s: CocState, task: dict, out: list[Event]) -> None:
    if task["passes"] >= 2:
        return
    seat = s.active if task["seat"] is None else task["seat"]
    if s.step != task["step"]:  # a model attribute set is slow: most windows repeat the step
        s.step = task["step"]
    s.stack.append(_frame("window", [s.players[seat].seat],
                          {"step": task["step"], "passes": task["passes"], "seat_index": seat}))


HANDLERS = {
    "phase": _phase,
    "refresh": _refresh,
    "ready_all": _ready_all,
    "draw": _draw,
    "resource": _resource,
    "story": _story,
    "commit": _commit,
    "resolve_next": _resolve_next,
    "struggle": _struggle,
    "success": _success,
    "story_done": _story_done,
    "release": _release,
    "emit": _emit,
    "end": _end,
    "win": _win_story,
    "replace": _replace,
    "pick": _pick,
    "effect": _effect,
    "wound": _wound,
    "react": _react,
    "window": _window,
}

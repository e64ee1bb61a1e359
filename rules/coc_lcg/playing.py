"""What a seat may do now, and doing it: playing cards from hand, using abilities, paying costs.

Timing (CoC-R39..R41, R114, R117..R120): characters, supports and conspiracies only by the active player
in the Operations window; events and ``Action:`` abilities in any action window (Operations-only events
in that phase); Responses and Disrupts only in a reaction window whose trigger they answer. An ability
whose required targets do not exist cannot be started.
"""

from __future__ import annotations

from typing import Any

from rules.coc_lcg import events as ev
from rules.coc_lcg import table as T
from rules.coc_lcg.effects import Choose
from rules.coc_lcg.reactions import effect_task
from rules.coc_lcg.script import SCRIPTS, TIMING, Ability, abilities, having
from rules.coc_lcg.state import CocState
from rules.core import Event, RuleError

PERMANENTS = ("character", "support", "conspiracy")


def targets_exist(s: CocState, ctx: dict[str, Any], ab: Ability) -> bool:
    """Every required target at the head of the ability has a candidate (and distinct ones)."""
    probe = {**ctx, "vars": {}}
    for op in ab.ops:
        if not getattr(op, "choosing", False):
            break
        if isinstance(op, Choose):
            first = op.first(s, probe)
            if first is None and not op.optional:
                return False
            if first is not None:
                probe["vars"][op.var] = first
    return True


def _ability_ctx(s: CocState, p: int, src: str, trig: dict | None, x: int = 0) -> dict[str, Any]:
    return {"src": src, "ctl": p, "vars": {}, "x": x, "over": False, "ev": trig}


def ability_ok(s: CocState, p: int, src: str, ab: Ability, mode: str, trig: dict | None, step: str,
               x: int = 0) -> bool:
    """May ``p`` trigger ``ab`` of ``src`` in this window (``mode`` action/response/disrupt)?"""
    if ab.kind != mode:
        return False
    if mode != "action" and (trig is None or ab.on != trig["on"]):
        return False
    if ab.ops_only and (step != "operations" or p != s.active):  # "your Operations phase"
        return False
    if ab.zone == "play":
        inst = s.play.get(src)
        if inst is None or not T.text_on(s, src):
            return False
        user = inst
        if ab.by_host:
            if inst.host not in s.play:
                return False
            user = s.play[inst.host]
        if user.ctl != p or (ab.committed and user.story is None):
            return False
    ctx = _ability_ctx(s, p, src, trig, x)
    if ab.when is not None and not ab.when(s, ctx, trig):
        return False
    if ab.req is not None and not ab.req(s, ctx):
        return False
    return targets_exist(s, ctx, ab)


# ------------------------------------------------------------------------------------------- enumerate
def usable(
    s: CocState, p: int, mode: str, trig: dict | None, step: str, used: list[str]
) -> list[tuple[str, int, int | None]]:
    """(card, ability, domain) for abilities of cards in play or in the discard pile (``zone``)."""
    out = []
    # cards without an ability of this kind working where they are (T.source_abilities) are left out early
    in_play_kinds, discard_kinds = having(mode, "play"), having(mode, "discard")
    borrowing = any(m["k"] == "borrow" for m in s.mods)
    play = s.play
    sources = [i for i, x in play.items() if (borrowing or x.card in in_play_kinds)
               and (x.ctl == p or (x.host in play and play[x.host].ctl == p))]
    sources += [c for c in dict.fromkeys(s.players[p].discard) if T.card_id(c) in discard_kinds]
    if trig is not None and trig.get("card") and trig["on"] == "left" and trig["ctl"] == p:
        sources.append(trig["card"])
    for src in dict.fromkeys(sources):
        in_play = src in play
        if not in_play and T.card_id(src) not in discard_kinds:
            continue
        for idx, ab in T.source_abilities(s, src, mode):  # ability_ok wants this kind
            if ab.zone == "hand" or (ab.zone == "play") != in_play:
                continue
            if ab.zone == "discard" and src not in s.players[p].discard:
                continue
            if f"{src}#{idx}" in used:
                continue
            x_paid = any(c[0] == "pay_x" for c in ab.cost)
            ok_unpaid: bool | None = None  # without X the answer does not depend on the domain: asked once
            for d in T.ability_domains(s, p, src, ab):
                if x_paid and d is not None:
                    ok = ability_ok(s, p, src, ab, mode, trig, step, T.domain_value(s, p, d))
                else:
                    if ok_unpaid is None:
                        ok_unpaid = ability_ok(s, p, src, ab, mode, trig, step, 0)
                    ok = ok_unpaid
                if ok:
                    out.append((src, idx, d))
    return out


def playable(s: CocState, p: int, mode: str, trig: dict | None, step: str) -> list[tuple[str, int | None]]:
    """(card, domain) for cards ``p`` may play from hand in this window."""
    pl = s.players[p]
    out = []
    doms = [None] + [k for k, d in enumerate(pl.domains) if not d.drained]  # a drained one pays for nothing
    purse = None
    for c in pl.hand:
        if not _may_time(s, p, c, mode, trig, step):
            continue
        purse = purse or T.Purse(s, p)
        if T.cdef(c).type in PERMANENTS:  # their play_error does not depend on the domain
            if play_error(s, p, c, mode, trig, step) is None:
                out += [(c, d) for d in doms if purse.error(c, d) is None]
            continue
        by_x: dict[int, bool] = {}  # an event's play_error depends on the domain only through its X
        for d in doms:
            if purse.error(c, d) is not None:
                continue
            x = purse.x(c, d)
            ok = by_x.get(x)
            if ok is None:
                ok = by_x[x] = play_error(s, p, c, mode, trig, step, d, purse) is None
            if ok:
                out.append((c, d))
    return out


def _may_time(s: CocState, p: int, c: str, mode: str, trig: dict | None, step: str) -> bool:
    """False when ``play_error`` refuses ``c`` for timing alone, whatever the domain: a quick first test."""
    d = T.cdef(c)
    if d.type in PERMANENTS:
        return mode == "action" and step == "operations" and p == s.active
    if d.type != "event":
        return False
    key = (d.id, mode, None if trig is None else trig["on"], step == "operations" and p == s.active)
    found = TIMING.get(key)
    if found is None:
        found = TIMING[key] = any(
            ab.zone == "hand" and (mode == "action" or (trig is not None and ab.on == trig["on"])) and (
                not ab.ops_only or step == "operations") for _, ab in abilities(d.id, mode))
    return found


def play_error(s: CocState, p: int, c: str, mode: str, trig: dict | None, step: str,
               dom: int | None = None, purse: T.Purse | None = None) -> tuple[str, dict] | None:
    """Why ``c`` cannot be played now paying with ``dom`` (its X, for targets), ignoring payment
    (``purse``: ``p``'s, when the caller has one)."""
    d = T.cdef(c)
    sc = SCRIPTS.get(d.id)
    if d.type in PERMANENTS:
        if mode != "action" or step != "operations" or p != s.active:
            return "coc.not_now", {"card": d.id}  # CoC-R39
        err = T.may_enter(s, c, p)
        if err:
            return err
        if sc is not None and sc.attach is not None:
            ctx = _ability_ctx(s, p, c, None)
            if not any(sc.attach(s, ctx, h) for h in list(s.play) + list(s.stories)):
                return "coc.no_target", {"card": d.id}
        return None
    if d.type != "event":
        return "coc.not_now", {"card": d.id}
    x = (purse or T.Purse(s, p)).x(c, dom)
    for _, ab in abilities(d.id):
        if ab.zone == "hand" and ability_ok(s, p, c, ab, mode, trig, step, x):
            return None
    return "coc.not_now", {"card": d.id}


# ------------------------------------------------------------------------------------------- do
def do_play(s: CocState, p: int, c: str, dom: int | None, mode: str, trig: dict | None, step: str,
            out: list[Event]) -> None:
    pl = s.players[p]
    if c not in pl.hand:
        raise RuleError("coc.not_in_hand", card=c)
    err = T.payment_error(s, p, c, dom) or play_error(s, p, c, mode, trig, step, dom)
    if err:
        raise RuleError(err[0], **err[1])
    d = T.cdef(c)
    purse = T.Purse(s, p)
    cost, x = purse.cost(c, dom), purse.x(c, dom)
    value = T.domain_value(s, p, dom) if dom is not None else 0
    pl = s.own_player(p)
    pl.hand.remove(c)
    s.mods = [m for m in s.mods if not (m["k"] == "next_cost" and m["ctl"] == p and m["f"] == d.faction
                                         and d.type == "character")]
    if dom is not None:
        T.drain(s, p, dom, out)
    out.append(ev.Played(seat=pl.seat, card=c, domain=dom, paid=value))
    over = dom is not None and value > cost
    if d.type == "event":
        s.resolving.append(c)
        for idx, ab in abilities(d.id):
            if ab.zone == "hand" and ability_ok(s, p, c, ab, mode, trig, step, x):
                s.tasks.append(effect_task(s, c, idx, p, x=x, over=over, event=True, ev=trig))
                break
    else:
        sc = SCRIPTS.get(d.id)
        if sc is not None and sc.attach is not None:
            s.resolving.append(c)
            ctx = _ability_ctx(s, p, c, None)
            hosts = [h for h in list(s.play) + list(s.stories) if sc.attach(s, ctx, h)]
            s.tasks.append({"t": "pick", "seat": p, "options": hosts, "verb": "attach", "optional": False,
                            "q": "attach", "card": c})
        else:
            T.enter_play(s, c, p, out)
    T.trigger(s, "played", card=c, ctl=p, over=over, kind=d.type)


def do_use(s: CocState, p: int, src: str, idx: int, dom: int | None, mode: str, trig: dict | None, step: str,
           out: list[Event]) -> None:
    ref = T.ability_at(s, src, idx) if ":" in src else None
    if ref is None:
        raise RuleError("coc.no_such_ability", card=src, ability=idx)
    ab = SCRIPTS[ref[0]].abilities[ref[1]]
    legal = {(a, b, c) for a, b, c in usable(s, p, mode, trig, step, [])}
    if (src, idx, dom) not in legal:
        raise RuleError("coc.cannot_use", card=src, ability=idx)
    x = 0
    over = False
    for cost in ab.cost:
        if cost[0] == "exhaust":
            s.own_inst(src).exhausted = True
            out.append(ev.Exhausted(card=src))
        elif cost[0] == "sacrifice":
            T.leave_play(s, src, "sacrificed", out)
        elif cost[0] in ("pay", "pay_x") and dom is not None:
            x = T.domain_value(s, p, dom)
            over = cost[0] == "pay" and x > cost[1]
            T.drain(s, p, dom, out)
    out.append(ev.AbilityUsed(seat=s.players[p].seat, card=src, ability=idx))
    s.tasks.append(effect_task(s, src, ref[1], p, x=x, over=over, ev=trig, card=ref[0]))
    if over:
        T.trigger(s, "ability_overpaid", card=src, ctl=p)

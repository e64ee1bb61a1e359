"""The effect vocabulary: selectors (which cards), ops (what happens) and their interpreter.

An ability's ``ops`` run in order over a context ``ctx`` (the effect task: its source ``src``, controller
``ctl``, chosen ``vars``, the amount ``x`` paid, ``over`` when overpaid, and the trigger ``ev`` it answers).
An op returns ``None`` when done, or an :class:`Ask` when a player must choose; the answer lands in
``ctx["vars"][var]`` and the next op runs. Ops that need a window (a wound a Disrupt may cancel) push tasks
and the interpreter resumes after them. ``Choose`` ops at the head of an ability are its targets: they are
asked before Disrupts get their window (CoC-A6), and an ability whose required targets do not exist
cannot be started.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from rules.coc_lcg import events as ev
from rules.coc_lcg import table as T
from rules.coc_lcg.cards import ICONS
from rules.coc_lcg.reactions import push_react, reaction_seats
from rules.coc_lcg.script import SCRIPTS
from rules.coc_lcg.state import CocState
from rules.core import Event

Sel = Callable[[CocState, dict, str], bool]
Ctx = dict[str, Any]


@dataclass
class Ask:
    seat: int
    var: str
    options: list[str] | None  # None: the chooser's hidden zone ``zone`` supplies them
    zone: str = "list"
    optional: bool = False
    q: str = "target"


# ----------------------------------------------------------------------------------------------- selectors
def who(ctx: Ctx, spec: str | int) -> int:
    """A seat index from a relative spec: "you" (the ability's controller), "opp", or "ev" (the player
    the trigger names)."""
    if isinstance(spec, int):
        return spec
    if spec == "ev":
        return int(ctx["ev"]["ctl"])
    return ctx["ctl"] if spec == "you" else 1 - ctx["ctl"]


def char(ctl: str | None = None, *, ready: bool | None = None, insane: bool | None = None,
         max_skill: Callable[[CocState, Ctx], int] | int | None = None,
         max_cost: Callable[[CocState, Ctx], int] | int | None = None,
         subtype: str | None = None, not_subtype: str | None = None, kw: str | None = None,
         faction: str | None = None, committed: bool | None = None, no_terror: bool = False,
         where: Callable[[CocState, Ctx, str], bool] | None = None, others: bool = False,
         woundable: bool = False, maddenable: bool = False) -> Sel:
    """A character in play matching every given test (``ctl``: "you" / "opp" / "ev" relative to the
    ability). ``woundable`` / ``maddenable`` leave out characters that cannot be chosen for a wound
    (CoC-R103) or for insanity (CoC-R77/R108)."""

    by_stats = any(x is not None for x in (max_skill, max_cost, subtype, not_subtype, kw, faction)) or (
        no_terror or woundable or maddenable)

    def sel(s: CocState, ctx: Ctx, iid: str) -> bool:
        inst = s.play.get(iid)
        if inst is None or T.cdef(iid).type != "character" or inst.host is not None:
            return False
        if others and iid == ctx.get("src"):
            return False
        if ctl is not None and inst.ctl != who(ctx, ctl):
            return False
        if ready is not None and inst.exhausted == ready:
            return False
        if insane is not None and inst.insane != insane:
            return False
        if committed is not None and (inst.story is not None) != committed:
            return False
        if not by_stats:  # stats are costly (every constant in play): only when a test reads them
            return where is None or where(s, ctx, iid)
        st = T.stats(s, iid)
        if max_skill is not None and st.skill > (max_skill(s, ctx) if callable(max_skill) else max_skill):
            return False
        if max_cost is not None and st.cost > (max_cost(s, ctx) if callable(max_cost) else max_cost):
            return False
        if subtype is not None and subtype not in st.subtypes:
            return False
        if not_subtype is not None and not_subtype in st.subtypes:
            return False
        if kw is not None and kw not in st.kws:
            return False
        if faction is not None and st.faction != faction:
            return False
        if no_terror and st.icons[0] > 0:
            return False
        if woundable and "invulnerable" in st.kws:
            return False
        if maddenable and (inst.insane or st.icons[0] > 0 or "willpower" in st.kws):
            return False
        return where is None or where(s, ctx, iid)

    return sel


def support(*, subtype: str | None = None, where: Callable[[CocState, Ctx, str], bool] | None = None) -> Sel:
    def sel(s: CocState, ctx: Ctx, iid: str) -> bool:
        d = T.cdef(iid)
        return (iid in s.play and d.type == "support" and (subtype is None or subtype in d.subtypes)
                and not s.play[iid].insane and (where is None or where(s, ctx, iid)))

    return sel


def X(s: CocState, ctx: Ctx) -> int:
    return int(ctx.get("x", 0))


# ----------------------------------------------------------------------------------------------- ops
class Op:
    choosing = False

    def __call__(self, s: CocState, ctx: Ctx, out: list[Event]) -> Ask | None:  # pragma: no cover
        raise NotImplementedError


class Choose(Op):
    """Pick a card in play (``zone="play"``), a story (``"stories"``), a card in the chooser's hand
    (``"hand"``), discard pile (``"discard"``) or deck (``"deck"``). A single candidate of a required
    choice is taken without asking; no candidate leaves the variable empty."""

    choosing = True

    def __init__(self, var: str, sel: Sel | None = None, *, chooser: str = "you", zone: str = "play",
                 optional: bool = False, target: bool = True, q: str = "target") -> None:
        self.var, self.sel, self.chooser, self.zone, self.optional, self.q = var, sel, chooser, zone, optional, q
        self.choosing = target

    def candidates(self, s: CocState, ctx: Ctx) -> list[str]:
        return list(self._matches(s, ctx))

    def first(self, s: CocState, ctx: Ctx) -> str | None:
        """The first candidate (None when there is none), without testing the rest."""
        return next(self._matches(s, ctx), None)

    def _matches(self, s: CocState, ctx: Ctx) -> Iterator[str]:
        p = who(ctx, self.chooser)
        if self.zone == "play":
            pool: Iterable[str] = list(s.play)
        elif self.zone == "stories":
            pool = list(s.stories)
        elif self.zone == "hand":
            pool = s.players[p].hand
        elif self.zone == "discard":
            pool = s.players[p].discard
        elif self.zone == "deck":
            pool = s.players[p].deck
        elif self.zone == "won":
            pool = s.players[p].won
        elif self.zone == "hand+discard":
            pool = s.players[p].hand + s.players[p].discard
        elif self.zone == "peek":
            pool = s.players[p].peek
        elif self.zone == "resources":
            pool = [r for q in (0, 1) for d in s.players[q].domains for r in d.resources]
        else:
            raise ValueError(self.zone)
        taken = {v for v in ctx["vars"].values() if isinstance(v, str)}
        return (c for c in dict.fromkeys(pool) if c not in taken and (self.sel is None or self.sel(s, ctx, c)))

    def __call__(self, s: CocState, ctx: Ctx, out: list[Event]) -> Ask | None:
        cands = self.candidates(s, ctx)
        if not cands and not self.optional and _forced(ctx):
            out.append(ev.NoTarget(card=ctx["src"]))  # a forced effect must resolve: say why nothing happens
        only_one = len(cands) == 1 and not self.optional and self.zone in ("play", "stories", "won", "resources")
        if not cands or only_one:
            ctx["vars"][self.var] = cands[0] if cands else None
            return None
        hidden = self.zone in ("hand", "deck", "hand+discard", "peek")
        return Ask(who(ctx, self.chooser), self.var, None if hidden else cands, self.zone, self.optional, self.q)


def _forced(ctx: Ctx) -> bool:
    """Is ``ctx`` a resolving Forced Response (an effect task, not a probe of ``targets_exist``)?"""
    card = ctx.get("card")
    if card is None or card not in SCRIPTS:
        return False
    abilities = SCRIPTS[card].abilities
    return 0 <= ctx["ab"] < len(abilities) and abilities[ctx["ab"]].kind == "forced"


class ChooseOption(Op):
    """A yes/no or named option question (``options``), answered by ``chooser``."""

    def __init__(self, var: str, options: list[str], chooser: str = "you", q: str = "option") -> None:
        self.var, self.options, self.chooser, self.q = var, options, chooser, q

    def __call__(self, s: CocState, ctx: Ctx, out: list[Event]) -> Ask | None:
        return Ask(who(ctx, self.chooser), self.var, list(self.options), q=self.q)


class Do(Op):
    """Apply a verb to the card in ``var`` (or the source with ``"src"``): wound, destroy, insane,
    restore, ready, exhaust, hand (return to owner's hand), sacrifice, discard."""

    def __init__(self, verb: str, var: str = "t") -> None:
        self.verb, self.var = verb, var

    def __call__(self, s: CocState, ctx: Ctx, out: list[Event]) -> Ask | None:
        iid = ctx["src"] if self.var == "src" else ctx["vars"].get(self.var)
        if iid is None:
            return None
        apply_verb(s, self.verb, iid, out, ctx)
        return None


def apply_verb(s: CocState, verb: str, iid: str, out: list[Event], ctx: Ctx | None = None) -> None:
    inst = s.play.get(iid)
    if verb == "wound":
        if inst is not None:
            wound_with_window(s, iid, out)
        return
    if verb == "destroy":
        T.destroy(s, iid, out)
    elif verb == "sacrifice":
        T.leave_play(s, iid, "sacrificed", out)  # CoC-R127: selectors pick only the sacrificer's cards
    elif verb == "discard":
        T.leave_play(s, iid, "discarded", out)
    elif verb == "hand":
        if inst is not None:
            T.leave_play(s, iid, "returned", out, dest="hand")
            out.append(ev.ReturnedToHand(card=iid))
    elif verb == "insane":
        T.go_insane(s, iid, out)
    elif verb == "put_into_play":
        put_into_play(s, iid, T.owner(iid), out)
    elif verb == "destroy_resource":
        for d in s.own_player(T.owner(iid)).domains:
            if iid in d.resources:
                d.resources.remove(iid)
                T.to_discard(s, iid)
                out.append(ev.ResourceDiscarded(seat=s.players[T.owner(iid)].seat, card=iid))
    elif verb == "to_hand":  # from a discard pile
        pl = s.own_player(T.owner(iid))
        if iid in pl.discard:
            pl.discard.remove(iid)
            pl.hand.append(iid)
            out.append(ev.ReturnedToHand(card=iid))
    elif inst is None:
        return
    elif verb == "uncommit":
        s.own_inst(iid).story = None
    elif verb == "restore":
        if inst.insane and T.can_restore(s, iid, framework=False):
            T.restore(s, iid, out)
    elif verb == "ready":
        if inst.exhausted and not inst.insane:
            s.own_inst(iid).exhausted = False
            out.append(ev.Readied(card=iid))
    elif verb == "exhaust":
        if not inst.exhausted:
            s.own_inst(iid).exhausted = True
            out.append(ev.Exhausted(card=iid))
    else:
        raise ValueError(verb)


def put_into_play(s: CocState, iid: str, ctl: int, out: list[Event]) -> bool:
    """Move a card from its owner's hand, discard pile or deck into play (CoC-R134: under ``ctl``),
    unless uniqueness or Heroic/Villainous forbid it (CoC-R102/R111)."""
    if T.may_enter(s, iid, ctl) is not None:
        return False
    pl = s.own_player(T.owner(iid))
    for zone in (pl.hand, pl.discard, pl.deck, pl.peek):
        if iid in zone:
            zone.remove(iid)
            break
    else:
        return False
    T.enter_play(s, iid, ctl, out)
    if not pl.deck:
        T.check_deckout(s, T.owner(iid), out)
    return True


def wound_with_window(s: CocState, iid: str, out: list[Event]) -> None:
    """A wound that Disrupts may cancel (CoC-A6): if anyone could, the wound waits for their window."""
    if T.invulnerable(s, iid):
        return
    s.counter += 1
    trig = {"on": "would_wound", "n": s.counter, "card": iid, "ctl": s.play[iid].ctl}
    seats = reaction_seats(s, trig, "disrupt")
    if seats:
        s.tasks.append({"t": "wound", "card": iid, "n": s.counter, "cancel": False})
        push_react(s, trig, "disrupt", seats)
    else:
        T.wound(s, iid, out)


class Cancel(Op):
    """Disrupt: cancel what the reaction window answers: the effect (``initiated``) or the wound
    (``would_wound``) the trigger names (CoC-R120/R121)."""

    def __call__(self, s: CocState, ctx: Ctx, out: list[Event]) -> Ask | None:
        n = ctx["ev"]["n"]
        for t in s.tasks:
            if t["t"] in ("effect", "wound") and t.get("n") == n:
                t["cancel"] = True
                t["by"] = ctx["src"]
        return None


class Each(Op):
    """Apply a verb to every card a selector matches, in play order (``Do`` for many)."""

    def __init__(self, verb: str, sel: Sel) -> None:
        self.verb, self.sel = verb, sel

    def __call__(self, s: CocState, ctx: Ctx, out: list[Event]) -> Ask | None:
        for iid in [i for i in list(s.play) if self.sel(s, ctx, i)]:
            if iid in s.play:
                apply_verb(s, self.verb, iid, out, ctx)
        return None


def would_destroy(s: CocState, ctx: Ctx, ops: tuple[Any, ...]) -> list[str]:
    """The cards an effect about to resolve would destroy as things stand (its ``Do`` and ``Each``
    destroy steps), for Disrupts that answer a destruction before it happens (Dagon)."""
    found: list[str] = []
    for op in ops:
        if isinstance(op, Do) and op.verb == "destroy":
            iid = ctx["src"] if op.var == "src" else ctx["vars"].get(op.var)
            if iid is not None:
                found.append(iid)
        elif isinstance(op, Each) and op.verb == "destroy":
            found += [i for i in s.play if op.sel(s, ctx, i)]
    return found


class Draw(Op):
    def __init__(self, n: int = 1, whom: str = "you") -> None:
        self.n, self.whom = n, whom

    def __call__(self, s: CocState, ctx: Ctx, out: list[Event]) -> Ask | None:
        T.draw(s, who(ctx, self.whom), self.n, out)
        return None


class DiscardChosen(Op):
    """Discard from hand the card chosen into ``var`` (by a ``Choose(zone="hand")``)."""

    def __init__(self, var: str) -> None:
        self.var = var

    def __call__(self, s: CocState, ctx: Ctx, out: list[Event]) -> Ask | None:
        c = ctx["vars"].get(self.var)
        if c is not None:
            discard_from_hand(s, c, out)
        return None


def discard_from_hand(s: CocState, c: str, out: list[Event]) -> None:
    p = T.owner(c)
    s.own_player(p).hand.remove(c)
    T.to_discard(s, c)
    out.append(ev.Discarded(seat=s.players[p].seat, card=c))


def each_discards() -> tuple[Op, ...]:
    """Each player, you first, discards a card of their choice from hand."""
    return (Choose("_d0", zone="hand", target=False, q="discard"), DiscardChosen("_d0"),
            Choose("_d1", zone="hand", chooser="opp", target=False, q="discard"), DiscardChosen("_d1"))


class Tokens(Op):
    def __init__(self, var: str, n: int = 1, whom: str = "you") -> None:
        self.var, self.n, self.whom = var, n, whom

    def __call__(self, s: CocState, ctx: Ctx, out: list[Event]) -> Ask | None:
        st = ctx["vars"].get(self.var)
        if st is not None:
            T.place_tokens(s, st, who(ctx, self.whom), self.n, out)
        return None


class Mod(Op):
    """A lasting effect on the card (or story) in ``var`` until the end of the phase: ``kind`` is one of
    icon (``i``, ``n``), skill (``n``), kw (``kw``), icons (``icons``), printed_skill (``n``),
    no_printed_icons, no_printed_terror, blank, story_icon (``i``)."""

    def __init__(self, var: str, kind: str, **params: Any) -> None:
        self.var, self.kind, self.params = var, kind, params

    def __call__(self, s: CocState, ctx: Ctx, out: list[Event]) -> Ask | None:
        t = ctx["src"] if self.var == "src" else ctx["vars"].get(self.var)
        if t is None:
            return None
        params = {k: (v(s, ctx) if callable(v) else v) for k, v in self.params.items()}
        if any(v is None for v in params.values()):
            return None  # a value the effect could not settle (no icon left to choose)
        if self.kind == "story_icon" and isinstance(params.get("i"), str):
            params["i"] = ICONS.index(params["i"])
        add_mod(s, t, self.kind, ctx["ctl"], **params)
        return None


def add_mod(s: CocState, target: str, kind: str, ctl: int, until: str = "phase", **params: Any) -> None:
    s.mods.append({"t": target, "k": kind, "ctl": ctl, "until": until, **params})


class ModEach(Op):
    """``Mod`` on every card a selector matches now."""

    def __init__(self, sel: Sel, kind: str, **params: Any) -> None:
        self.sel, self.kind, self.params = sel, kind, params

    def __call__(self, s: CocState, ctx: Ctx, out: list[Event]) -> Ask | None:
        for iid in [i for i in s.play if self.sel(s, ctx, i)]:
            add_mod(s, iid, self.kind, ctx["ctl"], **self.params)
        return None


class If(Op):
    """Run ``ops`` inline only when ``cond(state, ctx)`` holds (e.g. the card was overpaid)."""

    def __init__(self, cond: Callable[[CocState, Ctx], bool], *ops: Op) -> None:
        self.cond, self.ops = cond, ops

    def __call__(self, s: CocState, ctx: Ctx, out: list[Event]) -> Ask | None:
        if not self.cond(s, ctx):
            ctx["skip"] = ctx.get("skip", 0) + len(self.ops)
        return None


def when(cond: Callable[[CocState, Ctx], bool], *ops: Op) -> tuple[Op, ...]:
    """Flattened conditional: ``If`` marks how many following ops to skip."""
    return (If(cond, *ops), *ops)


class Fn(Op):
    """Card-specific code for what the vocabulary does not cover; may return an :class:`Ask`."""

    def __init__(self, fn: Callable[[CocState, Ctx, list[Event]], Ask | None], choosing: bool = False) -> None:
        self.fn = fn
        self.choosing = choosing

    def __call__(self, s: CocState, ctx: Ctx, out: list[Event]) -> Ask | None:
        return self.fn(s, ctx, out)


def overpaid(s: CocState, ctx: Ctx) -> bool:
    return bool(ctx.get("over"))


def effect_disrupt_kinds() -> tuple[str, ...]:
    """Ability kinds that open a Disrupt window when they start (triggered effects, CoC-R116)."""
    return ("action", "response", "forced", "disrupt", "story")

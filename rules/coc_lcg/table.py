"""Queries and primitive changes over a :class:`CocState`: stats under modifiers, costs and domains,
wounds, insanity, destruction, tokens and story wins, drawing and deck-out.

Primitives never ask anything; what they cause is recorded in ``state.triggers`` (for responses once the
current effect has resolved) and, for things that need an answer (a won story), pushed as tasks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, lru_cache
from operator import attrgetter
from typing import Any

from rules.coc_lcg import events as ev
from rules.coc_lcg.cards import NEUTRAL, CardDef, catalog
from rules.coc_lcg.script import SCRIPTS, Ability, abilities, answering, having
from rules.coc_lcg.state import CocState, Inst
from rules.core import Event

WIN_TOKENS = 5  # CoC-R4
WIN_STORIES = 3  # CoC-R5


class _Defs(dict[str, CardDef]):
    """Instance id -> its card, filled as ids are met (a few hundred at most). Looked up as
    ``cdef(iid)`` (the dict's own ``__getitem__``: no Python frame when the id is known, the hottest
    lookup of random play)."""

    def __missing__(self, iid: str) -> CardDef:
        d = catalog()[iid.split(":")[1]]
        if len(self) < 4096:  # ids typed by people may be made up: keep the memo bounded
            self[iid] = d
        return d


_DEFS = _Defs()
cdef = _DEFS.__getitem__


def card_id(iid: str) -> str:
    return iid.split(":")[1]


def owner(iid: str) -> int:
    return int(iid.split(":")[0])


def other(p: int) -> int:
    return 1 - p


# ---------------------------------------------------------------------------------------------- stats
@dataclass
class Stats:
    cost: int
    skill: int
    icons: list[int]
    kws: set[str]
    toughness: int
    subtypes: set[str] = field(default_factory=set)
    faction: str = NEUTRAL
    blank: bool = False
    no_toughness: bool = False  # Steve Clarney: every character loses all Toughness


_BUSY: set[str] = set()


BOOTLEG = "neutral-the-bootleg-whiskey-cover-up"


def blanked(s: CocState, iid: str) -> bool:
    """Text treated as blank: committed to the Bootleg Whiskey Cover-Up, or a ``blank`` lasting effect."""
    inst = s.play.get(iid)
    if inst is None:
        return False
    return _blank(s, iid, inst)


def _blank(s: CocState, iid: str, inst: Inst) -> bool:
    story = inst.story
    if story and story in s.play and s.play[story].card == BOOTLEG:
        return True
    for m in s.mods:
        if m["k"] == "blank" and m["t"] == iid:
            return True
    return False


def text_on(s: CocState, iid: str) -> bool:
    """Does this in-play card's text work now (not insane, not blank; CoC-R63)?"""
    inst = s.play.get(iid)
    return inst is not None and not inst.insane and not _blank(s, iid, inst)


def stats(s: CocState, iid: str, active: list[tuple[Ability, str]] | None = None) -> Stats:
    """``iid``'s cost, skill, icons, keywords and Toughness now. ``active``: ``constants(s)`` when the caller
    asks about many cards of one unchanged state (a view), so the table is searched for them once."""
    d = cdef(iid)
    inst = s.play.get(iid)
    if inst is None:
        return Stats(d.cost or 0, d.skill, list(d.icons), set(d.keywords), d.toughness, set(d.subtypes), d.faction)
    if inst.insane:  # CoC-R63: an insane character is a blank profile
        return Stats(0, 0, [0, 0, 0, 0], set(), 0, set(), "", True)
    st = Stats(d.cost or 0, d.skill, list(d.icons), set(d.keywords), d.toughness, set(d.subtypes), d.faction)
    if _blank(s, iid, inst):
        st.kws.clear()
        st.toughness = 0
        st.blank = True
    mine = [m for m in s.mods if m["t"] == iid] if s.mods else ()
    for m in mine:  # printed-value changes first
        k = m["k"]
        if k == "printed_skill":
            st.skill = m["n"]
        elif k == "no_printed_icons":
            st.icons = [a - b for a, b in zip(st.icons, d.icons, strict=True)]
        elif k == "no_printed_terror":
            st.icons[0] -= d.icons[0]
    for m in mine:
        k = m["k"]
        if k == "icon":
            st.icons[m["i"]] += m["n"]
        elif k == "skill":
            st.skill += m["n"]
        elif k == "kw":
            st.kws.add(m["kw"])
        elif k == "icons":
            st.icons = [a + b for a, b in zip(st.icons, m["icons"], strict=True)]
    if iid in _BUSY:  # a constant asking about the card it is computing: no constants this deep
        return _clamp(st)
    _BUSY.add(iid)
    try:
        late = []
        for ab, src in constants(s) if active is None else active:
            if ab.zone == "late":  # constants that read the icons others give (Atwood Science Hall)
                late.append((ab, src))
            else:
                ab.fn(s, src, iid, st)  # type: ignore[misc]
        for ab, src in late:
            ab.fn(s, src, iid, st)  # type: ignore[misc]
    finally:
        _BUSY.discard(iid)
    return _clamp(st)


def constants(s: CocState) -> list[tuple[Ability, str]]:
    """The constant abilities whose text works now, with the card in play they are on, in table order
    (what ``stats`` applies; constants only read the table, so it is the same for every card asked about)."""
    consts = having("constant")
    return [(ab, src) for src, x in s.play.items() if x.card in consts and not x.insane
            for _, ab in abilities(x.card, "constant") if text_on(s, src)]


def _clamp(st: Stats) -> Stats:
    st.icons = [n if n > 0 else 0 for n in st.icons]  # icons never go negative; skill may (CoC-A30)
    st.toughness = 0 if st.no_toughness or st.toughness < 0 else st.toughness
    return st


def characters(s: CocState, ctl: int | None = None) -> list[str]:
    cat = catalog()
    return [i for i, x in s.play.items() if x.host is None and (ctl is None or x.ctl == ctl)
            and cat[x.card].type == "character"]


def committed(s: CocState, story: str, ctl: int | None = None) -> list[str]:
    return [i for i, x in s.play.items() if x.story == story and (ctl is None or x.ctl == ctl)]


def attachments(s: CocState, host: str) -> list[str]:
    return [i for i, x in s.play.items() if x.host == host]


def immune_to_insanity(s: CocState, iid: str) -> bool:
    """CoC-R77/R108 (and CoC-A24): a Terror icon or Willpower, checked now."""
    st = stats(s, iid)
    return st.icons[0] > 0 or "willpower" in st.kws


def invulnerable(s: CocState, iid: str) -> bool:
    return "invulnerable" in stats(s, iid).kws  # CoC-R103


def heroic_villainous(s: CocState, p: int) -> set[str]:
    """Heroic/Villainous among ``p``'s sane characters now (insane ones have no text, CoC-A9)."""
    return heroic_villainous_both(s)[p]


def heroic_villainous_both(s: CocState) -> tuple[set[str], set[str]]:
    """``heroic_villainous`` of both players in one pass over the table. No constant in the Core Set
    grants these keywords, so printed ones suffice unless a lasting effect grants keywords or blanks text."""
    quick = not any(m["k"] in ("kw", "blank") for m in s.mods)
    found: tuple[set[str], set[str]] = (set(), set())
    printed = _printed_hv()
    for c, inst in s.play.items():
        if inst.host is not None or inst.insane:
            continue
        if quick:
            kws = printed.get(inst.card)
            if kws and not _blank(s, c, inst):
                found[inst.ctl].update(kws)
        elif catalog()[inst.card].type == "character":
            found[inst.ctl].update(stats(s, c).kws & _HV)
    return found


_HV = frozenset({"heroic", "villainous"})
_card_of = attrgetter("card")


def cards_in_play(s: CocState) -> set[str]:
    """The card ids in play (a set, for quick "is any of these in play" tests)."""
    return set(map(_card_of, s.play.values()))


def hv_possible(s: CocState, cards: set[str]) -> bool:
    """False when no player can hold both Heroic and Villainous characters now (``cards``: the card ids
    in play): with printed keywords only (see ``heroic_villainous_both``), one controller must have both
    kinds in play."""
    heroic, villainous = _printed_with("heroic"), _printed_with("villainous")
    if not (heroic.isdisjoint(cards) or villainous.isdisjoint(cards)):
        return _one_holds_both(s)
    for m in s.mods:
        if m["k"] in ("kw", "blank"):
            return True
    return False


def _one_holds_both(s: CocState) -> bool:
    """Printed keywords only: does one controller have both a Heroic and a Villainous card in play?"""
    for m in s.mods:
        if m["k"] in ("kw", "blank"):
            return True
    printed = _printed_hv()
    seen: tuple[set[str], set[str]] = (set(), set())
    for inst in s.play.values():
        kws = printed.get(inst.card)
        if kws and inst.host is None:
            seen[inst.ctl].update(kws)
    return len(seen[0]) == 2 or len(seen[1]) == 2


@lru_cache(maxsize=1)
def _printed_hv() -> dict[str, frozenset[str]]:
    """Characters printed Heroic or Villainous, with those keywords."""
    return {c.id: c.keywords & _HV for c in catalog().values() if c.type == "character" and c.keywords & _HV}


@cache
def _printed_with(kw: str) -> frozenset[str]:
    return frozenset(c for c, kws in _printed_hv().items() if kw in kws)


# ---------------------------------------------------------------------------------------------- resources
def res_value(rid: str) -> int:
    return 2 if cdef(rid).transient else 1  # CoC-R107, CoC-A12


def domain_value(s: CocState, p: int, d: int) -> int:
    return sum(res_value(r) for r in s.players[p].domains[d].resources)


def faction_in_domain(s: CocState, p: int, d: int, faction: str) -> int:
    return sum(res_value(r) for r in s.players[p].domains[d].resources if cdef(r).faction == faction)


def faction_total(s: CocState, p: int, faction: str) -> int:
    """CoC-R105/R74: every domain counts, drained or not."""
    return sum(faction_in_domain(s, p, d, faction) for d in range(len(s.players[p].domains)))


class Purse:
    """What paying for cards from hand reads, for one player in one state: asked about many cards and
    domains at once (``playing.playable``), it reads the table once."""

    def __init__(self, s: CocState, p: int) -> None:
        self.s, self.p = s, p
        self.cost_all = sum(m["n"] for m in s.mods if m["k"] == "cost_all")
        costs = having("cost")
        self.changers = [(src, ab) for src, inst in s.play.items() if inst.card in costs
                         for _, ab in abilities(inst.card, "cost") if ab.zone != "hand" and text_on(s, src)]
        self.next = [m for m in s.mods if m["k"] == "next_cost" and m["ctl"] == p]
        self._values: dict[tuple[int, str | None], int] = {}
        self._costs: dict[str, int] = {}  # costs that do not depend on the domain paying
        self._totals: dict[str, int] = {}  # faction totals over every domain (Steadfast)

    def value(self, dom: int, faction: str | None = None) -> int:
        """A domain's resources (of one faction), Transient ones counting 2."""
        key = (dom, faction)
        v = self._values.get(key)
        if v is None:
            v = self._values[key] = (domain_value(self.s, self.p, dom) if faction is None
                                     else faction_in_domain(self.s, self.p, dom, faction))
        return v

    def total(self, faction: str) -> int:
        v = self._totals.get(faction)
        if v is None:
            v = self._totals[faction] = faction_total(self.s, self.p, faction)
        return v

    def cost(self, iid: str, dom: int | None) -> int:
        """The cost to play ``iid`` from hand paying with ``dom`` (an X card's X is the domain's value)."""
        s, p = self.s, self.p
        d = cdef(iid)
        if d.x_cost:  # the whole domain is paid; "cost more" effects come out of X (``x``)
            return self.value(dom) if dom is not None else self.cost_all
        fixed = not self.changers and d.id not in having("cost", "hand")  # no text reads the domain
        if fixed and iid in self._costs:
            return self._costs[iid]
        cost = (d.cost or 0) + self.cost_all
        for src, ab in self.changers:
            cost = ab.fn(s, src, iid, p, cost, dom)  # type: ignore[misc]
        for _, ab in abilities(d.id, "cost"):  # a card that changes its own cost while in hand
            if ab.zone == "hand":
                cost = ab.fn(s, iid, iid, p, cost, dom)  # type: ignore[misc]
        if d.type == "character":
            for m in self.next:
                if m["f"] == d.faction:
                    cost = max(1, cost - m["n"]) if cost > 0 else cost
        cost = max(0, cost)
        if fixed:
            self._costs[iid] = cost
        return cost

    def x(self, iid: str, dom: int | None) -> int:
        """What an event's X is (CoC-A11: the amount paid) or, for a fixed cost, that cost. A raise to
        every cost (Dampen Light) raises X costs too: it is paid first, the rest of the domain is X."""
        if cdef(iid).x_cost:
            return max(0, (self.value(dom) if dom is not None else 0) - self.cost_all)
        return self.cost(iid, dom)

    def error(self, iid: str, dom: int | None) -> tuple[str, dict[str, Any]] | None:
        """Why ``iid`` cannot be paid for from ``dom`` (CoC-R69..R72, R104, R105), or None."""
        d = cdef(iid)
        pl = self.s.players[self.p]
        if d.steadfast and self.total(d.faction) < d.steadfast:
            return "coc.steadfast", {"card": d.id, "need": d.steadfast}
        cost = self.cost(iid, dom)
        if dom is None:
            if cost > 0:
                return "coc.domain_needed", {"card": d.id}
            return None
        if not 0 <= dom < len(pl.domains):
            return "coc.no_such_domain", {"domain": dom}
        if pl.domains[dom].drained:
            return "coc.domain_drained", {"domain": dom}
        if cost == 0 and not d.x_cost:
            return "coc.zero_cost_drains_nothing", {"card": d.id}  # CoC-R72
        if self.value(dom) < cost or (d.x_cost and self.value(dom) < self.cost_all):
            return "coc.domain_too_small", {"domain": dom, "cost": max(cost, self.cost_all)}
        if d.faction not in (NEUTRAL, "story"):
            have = self.value(dom, d.faction)
            if "loyal" in d.keywords and have < cost:
                return "coc.loyal", {"card": d.id, "cost": cost}
            if have < 1:
                return "coc.no_resource_match", {"card": d.id}
        return None


def cost_ok(s: CocState, p: int, src: str, ab: Ability) -> bool:
    """Could ``p`` pay for ability ``ab`` of ``src`` now (in some way)?"""
    return bool(ability_domains(s, p, src, ab))


def ability_domains(s: CocState, p: int, src: str, ab: Ability) -> list[int | None]:
    """Ways to pay an ability's cost: the domains that could be drained (None: nothing to drain)."""
    inst = s.play.get(src)
    for c in ab.cost:
        if c[0] == "exhaust" and (inst is None or inst.exhausted):
            return []
        if c[0] == "sacrifice" and (inst is None or inst.ctl != p):
            return []
    doms = s.players[p].domains
    for c in ab.cost:
        if c[0] == "pay":
            return [k for k, d in enumerate(doms) if not d.drained and domain_value(s, p, k) >= c[1]]
        if c[0] == "pay_x":
            return [None] + [k for k, d in enumerate(doms) if not d.drained]
    return [None]


def play_cost(s: CocState, p: int, iid: str, dom: int | None) -> int:
    return Purse(s, p).cost(iid, dom)


def payment_error(s: CocState, p: int, iid: str, dom: int | None) -> tuple[str, dict[str, Any]] | None:
    return Purse(s, p).error(iid, dom)


def drain(s: CocState, p: int, dom: int, out: list[Event]) -> None:
    """Drain a domain; Transient resources on it are discarded afterwards (CoC-R107, CoC-A12)."""
    d = s.own_player(p).domains[dom]
    d.drained = True
    out.append(ev.DomainDrained(seat=s.players[p].seat, domain=dom))
    for r in [r for r in d.resources if cdef(r).transient]:
        d.resources.remove(r)
        to_discard(s, r)
        out.append(ev.ResourceDiscarded(seat=s.players[p].seat, card=r))


# ---------------------------------------------------------------------------------------------- zones
def to_discard(s: CocState, iid: str) -> None:
    """Every card reaching a discard pile passes here (from play, hand, deck, a domain or resolving): a
    card whose text answers its own arrival there (Serpent from Yoth) raises ``discarded``."""
    s.own_player(owner(iid)).discard.append(iid)  # CoC-R135: the owner's pile
    s.moved.append(iid)
    if card_id(iid) in answering("forced", "discarded"):
        trigger(s, "discarded", card=iid, ctl=owner(iid))


def trigger(s: CocState, on: str, **data: Any) -> None:
    s.counter += 1
    s.triggers.append({"on": on, "n": s.counter, **data})


def check_deckout(s: CocState, p: int, out: list[Event], drawing: bool = False,
                  held: list[int] | None = None) -> None:
    """CoC-R36/A1: an empty deck loses at once (or only when drawing from it, by option). An effect that
    hits both players at once passes ``held``: the loss waits in it for ``settle_deckouts`` (CoC-A21)."""
    if s.phase == "over" or s.players[p].deck:
        return
    if s.options.deckout == "empty" or drawing:
        if held is None:
            lose(s, p, "deck_out", out)
        elif p not in held:
            held.append(p)


def settle_deckouts(s: CocState, held: list[int], out: list[Event]) -> None:
    """CoC-A21: the deck-outs of one effect that hit both players count together, so both decks running
    out at once is a draw and one running out is that player's loss."""
    if s.phase == "over" or not held:
        return
    if len(held) == 2:
        s.phase = "over"
        s.winner = None
        s.end_reason = "both_decks_out"
        s.tasks.clear()
        s.stack.clear()
        out.append(ev.GameOver(winner=None, reason="both_decks_out"))
    else:
        lose(s, held[0], "deck_out", out)


def draw(s: CocState, p: int, n: int, out: list[Event]) -> None:
    pl = s.own_player(p)
    for _ in range(n):
        if s.phase == "over":
            return
        if not pl.deck:
            check_deckout(s, p, out, drawing=True)
            return
        c = pl.deck.pop()
        pl.hand.append(c)
        out.append(ev.Drew(seat=pl.seat, count=1))
        out.append(ev.DrewCard(seat=pl.seat, card=c, audience=pl.seat))
        check_deckout(s, p, out)


def mill(s: CocState, p: int, n: int, out: list[Event], held: list[int] | None = None) -> None:
    """Discard the top ``n`` cards of a deck (a public act: each card is shown as it goes)."""
    pl = s.own_player(p)
    for _ in range(n):
        if not pl.deck or s.phase == "over":
            break
        c = pl.deck.pop()
        to_discard(s, c)
        out.append(ev.Milled(seat=pl.seat, card=c))
        check_deckout(s, p, out, held=held)


def lose(s: CocState, p: int, reason: str, out: list[Event]) -> None:
    if s.phase == "over":
        return
    s.phase = "over"
    s.winner = other(p)
    s.end_reason = reason
    s.tasks.clear()
    s.stack.clear()
    out.append(ev.GameOver(winner=s.players[other(p)].seat, reason=reason))


def enter_play(s: CocState, iid: str, ctl: int, out: list[Event], host: str | None = None,
               insane: bool = False, exhausted: bool = False) -> None:
    d = cdef(iid)
    sc = SCRIPTS.get(d.id)
    if sc and sc.enters_exhausted and sc.enters_exhausted(s, ctl):
        exhausted = True
    s.play[iid] = Inst(card=d.id, owner=owner(iid), ctl=ctl, host=host, insane=insane,
                       exhausted=exhausted or insane)
    out.append(ev.EnteredPlay(seat=s.players[ctl].seat, card=iid, host=host, insane=insane))
    if d.type == "conspiracy":
        s.stories.append(iid)
        s.tokens[iid] = [0, 0]
    trigger(s, "entered", card=iid, ctl=ctl)


def may_enter(s: CocState, iid: str, ctl: int, insane: bool = False) -> tuple[str, dict[str, Any]] | None:
    """CoC-R111 (unique), CoC-R102 (Heroic/Villainous; not for a card entering insane, CoC-A9),
    CoC-R96 (one conspiracy)."""
    d = cdef(iid)
    if d.unique and any(x.card == d.id and x.ctl == ctl for x in s.play.values()):
        return "coc.unique_in_play", {"card": d.id}
    if d.type == "character" and not insane:
        mine = heroic_villainous(s, ctl)
        if ("heroic" in d.keywords and "villainous" in mine) or ("villainous" in d.keywords and "heroic" in mine):
            return "coc.heroic_villainous", {"card": d.id}
    if d.type == "conspiracy" and any(cdef(x).type == "conspiracy" and s.play[x].ctl == ctl for x in s.stories
                                      if x in s.play):
        return "coc.one_conspiracy", {"card": d.id}
    return None


def leave_play(s: CocState, iid: str, how: str, out: list[Event], dest: str = "discard") -> None:
    """Remove a card from play: attachments on it are destroyed (CoC-R132); it goes to its owner's
    ``dest`` zone (CoC-R135); a conspiracy loses its tokens (CoC-R99)."""
    inst = s.play.get(iid)
    if inst is None:
        return
    for a in attachments(s, iid):
        leave_play(s, a, "destroyed", out)
    del s.play[iid]
    if iid in s.stories:
        s.stories.remove(iid)
        s.tokens.pop(iid, None)
        for c in committed(s, iid):
            s.own_inst(c).story = None
    pl = s.own_player(inst.owner)
    if dest == "hand":
        pl.hand.append(iid)
    elif dest == "deck":
        pl.deck.append(iid)
    else:
        to_discard(s, iid)
    out.append(ev.LeftPlay(card=iid, how=how, to=dest))
    trigger(s, "left", card=iid, how=how, ctl=inst.ctl, dest=dest, was_committed=inst.story)


def destroy(s: CocState, iid: str, out: list[Event]) -> None:
    leave_play(s, iid, "destroyed", out)


def wound(s: CocState, iid: str, out: list[Event]) -> bool:
    """CoC-R78/R103/R106/R65: a wound token, destroyed past Toughness or when already insane."""
    inst = s.play.get(iid)
    if inst is None or invulnerable(s, iid):
        return False
    inst = s.own_inst(iid)
    inst.wounds += 1
    out.append(ev.Wounded(card=iid, wounds=inst.wounds))
    trigger(s, "wounded", card=iid, ctl=inst.ctl)
    if inst.insane or inst.wounds > stats(s, iid).toughness:
        destroy(s, iid, out)
    return True


def go_insane(s: CocState, iid: str, out: list[Event]) -> bool:
    """CoC-R63..R65, CoC-A2: face down, exhausted, uncommitted; attachments destroyed; wounded = destroyed."""
    inst = s.play.get(iid)
    if inst is None or inst.insane or cdef(iid).type != "character" or immune_to_insanity(s, iid):
        return False
    if inst.wounds:
        destroy(s, iid, out)
        return True
    for a in attachments(s, iid):
        leave_play(s, a, "destroyed", out)
    inst = s.own_inst(iid)
    inst.insane = True
    inst.exhausted = True
    inst.story = None
    out.append(ev.WentInsane(card=iid))
    trigger(s, "insane", card=iid, ctl=inst.ctl)
    return True


def restore(s: CocState, iid: str, out: list[Event]) -> None:
    inst = s.own_inst(iid)
    inst.insane = False
    inst.exhausted = True
    out.append(ev.Restored(card=iid))
    trigger(s, "restored", card=iid, ctl=inst.ctl)


def can_restore(s: CocState, iid: str, framework: bool = True) -> bool:
    """``framework``: the Refresh phase restore (CoC-R32) rather than a card effect."""
    rules = having("no_restore")
    for src, inst in s.play.items():
        if inst.card not in rules:
            continue
        for _, ab in abilities(inst.card, "no_restore"):
            if text_on(s, src) and ab.fn(s, src, iid, framework):  # type: ignore[misc]
                return False
    return True


def can_commit(s: CocState, iid: str) -> bool:
    """CoC-R44: ready, sane, and no prohibition in force; a character attached to another (Hound of
    Tindalos) is an attachment for now (CoC-R132), not one of ``characters``, and cannot commit."""
    inst = s.play[iid]
    if (inst.exhausted or inst.insane or inst.story is not None or inst.host is not None
            or cdef(iid).type != "character"):
        return False
    rules = having("no_commit")
    for src, x in s.play.items():
        if x.card not in rules:
            continue
        for _, ab in abilities(x.card, "no_commit"):
            if text_on(s, src) and ab.fn(s, src, iid):  # type: ignore[misc]
                return False
    return True


def struggles_of(s: CocState, story: str) -> list[int]:
    """Struggles per icon this story resolves: its icons minus losses, plus boosters (CoC-R60)."""
    d = cdef(story)
    counts = list(d.struggles)
    for m in s.mods:
        if m["k"] == "story_icon" and m["t"] == story:
            w = m.get("while")  # Wilmarth: only while he stays committed there
            if w is not None and not (w in s.play and s.play[w].story == story and text_on(s, w)):
                continue
            counts[m["i"]] = max(0, counts[m["i"]] - 1)
    return counts


def boosters(s: CocState, story: str, icon: int) -> int:
    """Booster icons on a story now (recounted before each extra struggle, CoC-A23)."""
    n = 0
    for i, x in s.play.items():
        if (x.host == story or x.story == story) and not x.insane:
            n += cdef(i).boosters[icon]
    return n


def story_icons(s: CocState, story: str) -> list[int]:
    """Struggles per icon a story resolves now with its boosters (``struggles_of`` plus ``boosters`` of each
    icon), read in one pass over the table: every view shows them for each story."""
    counts = struggles_of(s, story)
    for i, x in s.play.items():
        if (x.host == story or x.story == story) and not x.insane:
            extra = cdef(i).boosters
            if any(extra):
                counts = [a + b for a, b in zip(counts, extra, strict=True)]
    return counts


# ---------------------------------------------------------------------------------------------- tokens
def place_tokens(s: CocState, story: str, p: int, n: int, out: list[Event]) -> None:
    if story not in s.stories or n <= 0:
        return
    s.tokens[story][p] += n
    out.append(ev.TokensPlaced(story=story, seat=s.players[p].seat, count=n, total=s.tokens[story][p]))
    trigger(s, "token", story=story, ctl=p)
    if s.tokens[story][p] >= WIN_TOKENS and not any(t.get("t") == "win" and t["story"] == story for t in s.tasks):
        s.tasks.append({"t": "win", "story": story, "p": p})  # CoC-R84: at once


def remove_tokens(s: CocState, story: str, p: int, n: int, out: list[Event]) -> None:
    if story not in s.stories:
        return
    k = min(n, s.tokens[story][p])
    s.tokens[story][p] -= k
    if k:
        out.append(ev.TokensRemoved(story=story, seat=s.players[p].seat, count=k))


def add_domain(s: CocState, p: int, out: list[Event], held: list[int] | None = None) -> int | None:
    """CoC-R131: the deck's top card, looked at by its owner, becomes a face-down domain."""
    from rules.coc_lcg.state import Domain

    if not s.players[p].deck:
        return None
    pl = s.own_player(p)
    c = pl.deck.pop()
    pl.domains.append(Domain(card=c))
    out.append(ev.DomainAdded(seat=pl.seat, domain=len(pl.domains) - 1))
    out.append(ev.Looked(seat=pl.seat, cards=[c], audience=pl.seat))
    check_deckout(s, p, out, held=held)
    return len(pl.domains) - 1


# ---------------------------------------------------------------------------------------------- abilities
TRIGGERED = ("action", "response", "forced", "disrupt")
BORROWED = 100  # ability numbers from this up are borrowed (Richard Upton Pickman)


def borrowed_from(s: CocState, src: str) -> str | None:
    """The card whose triggered abilities ``src`` has gained this phase (the latest such effect)."""
    found = None
    for m in s.mods:
        if m["k"] == "borrow" and m["t"] == src:
            found = m["card"]
    return found


def source_abilities(s: CocState, src: str, kind: str | None = None) -> list[tuple[int, Any]]:
    """(number, ability) of a card in play or in a discard pile, borrowed triggered abilities included."""
    own = abilities(card_id(src), kind)
    b = borrowed_from(s, src) if s.mods and src in s.play else None
    if b is not None:
        own = own + [(BORROWED + i, a) for i, a in abilities(b, kind) if a.kind in TRIGGERED and a.zone == "play"]
    return own


def ability_at(s: CocState, src: str, number: int) -> tuple[str, int] | None:
    """The (card id, index in its script) that ability ``number`` of ``src`` refers to."""
    if number >= BORROWED:
        b = borrowed_from(s, src)
        if b is None or number - BORROWED >= len(SCRIPTS[b].abilities):
            return None
        return b, number - BORROWED
    cid = card_id(src)
    sc = SCRIPTS.get(cid)
    if sc is None or not 0 <= number < len(sc.abilities):
        return None
    return cid, number

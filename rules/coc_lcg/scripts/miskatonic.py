"""Miskatonic University (F21, F22, F24..F40)."""

from __future__ import annotations

from rules.coc_lcg import events as ev
from rules.coc_lcg import table as T
from rules.coc_lcg.cards import ICONS
from rules.coc_lcg.effects import (
    Ask,
    Choose,
    Ctx,
    Do,
    Draw,
    Each,
    Fn,
    Mod,
    Tokens,
    X,
    char,
    each_discards,
    overpaid,
    put_into_play,
    when,
)
from rules.coc_lcg.script import Ability, script
from rules.coc_lcg.scripts.agency import back_from_discard
from rules.coc_lcg.scripts.common import a_story, this_card, yours
from rules.coc_lcg.state import CocState
from rules.core import Event


# F21 Professor Albert Wilmarth: while he is committed, his story loses a struggle icon you choose
# (chosen when he is committed; the loss lasts while he stays there).
def _wilmarth(s: CocState, ctx: Ctx, out: list[Event]) -> Ask | None:
    story = ctx["ev"]["story"]
    if ctx["vars"].get("icon") is None:
        have = [ICONS[i] for i, n in enumerate(T.struggles_of(s, story)) if n > 0]
        if not have:
            return None
        ctx["again"] = True
        ctx["vars"]["icon"] = "?"
        return Ask(ctx["ctl"], "icon", have, q="lose_icon")
    if ctx["vars"]["icon"] != "?":
        s.mods.append({"t": story, "k": "story_icon", "ctl": ctx["ctl"], "until": "phase",
                       "i": ICONS.index(ctx["vars"]["icon"]), "while": ctx["src"]})
    return None


script("miskatonic-professor-albert-wilmarth",
       Ability("forced", on="committed", when=this_card, ops=(Fn(_wilmarth),)))

# F22 Dr. Ali Kafour: when you commit him, draw a card.
script("miskatonic-dr-ali-kafour", Ability("response", on="committed", when=this_card, ops=(Draw(1),)))


# F24 Professor Nathaniel Peaslee: when he goes from play to your discard pile, pay 2 to put into play
# every character that went to a discard pile this phase.
def _peaslee(s: CocState, ctx: Ctx, out: list[Event]) -> None:
    for c in list(dict.fromkeys(s.moved)):
        pl = s.players[T.owner(c)]
        if T.cdef(c).type == "character" and c in pl.discard:
            put_into_play(s, c, T.owner(c), out)


script("miskatonic-professor-nathaniel-peaslee",
       Ability("response", on="left", zone="discard", cost=(("pay", 2),),
               when=lambda s, ctx, t: t["card"] == ctx["src"] and t["dest"] == "discard", ops=(Fn(_peaslee),)))


# F25 Anthropology Advisor: your Investigators cost 1 less and gain an Investigation icon.
def _advisor_cost(s: CocState, src: str, iid: str, p: int, cost: int, dom: int | None) -> int:
    if p == s.play[src].ctl and "Investigator" in T.cdef(iid).subtypes and T.cdef(iid).type == "character":
        return max(0, cost - 1)
    return cost


def _investigator(s: CocState, src: str, tgt: str, st: T.Stats) -> bool:
    return "Investigator" in st.subtypes


def _plus_investigation(st: T.Stats) -> None:
    st.icons[3] += 1


script("miskatonic-anthropology-advisor",
       Ability("cost", fn=_advisor_cost), Ability("constant", fn=yours(_investigator, _plus_investigation)))

# F26 Visiting Author: like Local Sheriff.
back_from_discard("miskatonic-visiting-author")

# F27 Mad Genius: when restored, 1 success token on a story you choose.
script("miskatonic-mad-genius",
       Ability("response", on="restored", when=this_card, ops=(Choose("st", zone="stories"), Tokens("st"))))


# F28 Strange Librarian: exhaust, look at the top 3 cards of a deck; one to the bottom, two back on top
# in the order you choose.
def _librarian(s: CocState, ctx: Ctx, out: list[Event]) -> Ask | None:
    v = ctx["vars"]
    me = s.own_player(ctx["ctl"])
    if v.get("pile") is None:
        v["pile"] = "?"
        ctx["again"] = True
        return Ask(ctx["ctl"], "pile", ["0", "1"], q="which_deck")
    target = s.own_player(int(v["pile"]))
    if "_looked" not in v:
        top = target.deck[-3:]
        del target.deck[-3:]
        me.peek = list(reversed(top))  # first = the card that was on top
        v["_looked"] = True
        out.append(ev.Looked(seat=me.seat, cards=list(me.peek), audience=me.seat))
        ctx["again"] = True
        v["_picked"] = []
        if not me.peek:
            return None
        return Ask(ctx["ctl"], "bottom", None, zone="peek", q="to_bottom")
    if v.get("bottom"):
        me.peek.remove(v["bottom"])
        target.deck.insert(0, v.pop("bottom"))
    if v.get("next"):
        v["_picked"].append(v.pop("next"))  # stays in peek (and accounted for) until all are ordered
    if len(me.peek) - len(v["_picked"]) > 1:
        ctx["again"] = True
        return Ask(ctx["ctl"], "next", None, zone="peek", q="next_on_top")
    order = v["_picked"] + [c for c in me.peek if c not in v["_picked"]]  # top first
    me.peek = []
    target.deck.extend(reversed(order))
    return None


script("miskatonic-strange-librarian", Ability("action", cost=(("exhaust",),), ops=(Fn(_librarian),)))


# F30 Itinerant Scholar: sacrifice him, move a drain marker from one of your domains to an undrained one.
def _move_marker(s: CocState, ctx: Ctx, out: list[Event]) -> Ask | None:
    v = ctx["vars"]
    p = ctx["ctl"]
    doms = s.players[p].domains
    if v.get("frm") is None:
        drained = [str(k) for k, d in enumerate(doms) if d.drained]
        fresh = [str(k) for k, d in enumerate(doms) if not d.drained]
        if not drained or not fresh:
            return None
        ctx["again"] = True
        v["frm"] = "?"
        return Ask(p, "frm", drained, q="marker_from")
    if v.get("to") is None:
        ctx["again"] = True
        v["to"] = "?"
        return Ask(p, "to", [str(k) for k, d in enumerate(doms) if not d.drained], q="marker_to")
    s.own_player(p).domains[int(v["frm"])].drained = False
    out.append(ev.DomainRefreshed(seat=s.players[p].seat, domain=int(v["frm"])))
    T.drain(s, p, int(v["to"]), out)
    return None


def _has_drained(s: CocState, ctx: Ctx) -> bool:
    doms = s.players[ctx["ctl"]].domains
    return any(d.drained for d in doms) and any(not d.drained for d in doms)


script("miskatonic-itinerant-scholar",
       Ability("action", cost=(("sacrifice",),), req=_has_drained, ops=(Fn(_move_marker),)))

# F31 Natural Philosopher: when it enters play, draw 1, then each player discards a card (forced).
script("miskatonic-natural-philosopher",
       Ability("forced", on="entered", when=this_card, ops=(Draw(1), *each_discards())))

# F32 Student Archaeologist: when restored, draw 1, then each player discards a card.
script("miskatonic-student-archaeologist",
       Ability("response", on="restored", when=this_card, ops=(Draw(1), *each_discards())))

# F33 Celano Fragments: exhaust and pay X to take a committed character of cost X or less off its story.
script("miskatonic-celano-fragments",
       Ability("action", cost=(("exhaust",), ("pay_x",)),
               ops=(Choose("t", char(committed=True, max_cost=X)), Do("uncommit"))))

# F34 Open for Inspection: attaches to a story; its boosters come from the card data (CoC-R60).
script("miskatonic-open-for-inspection", attach=a_story)


# F35 Atwood Science Hall: your characters get +1 skill per Investigation icon (read after other icons).
def _atwood(s: CocState, src: str, tgt: str, st: T.Stats) -> None:
    x = s.play.get(tgt)
    if x is not None and x.ctl == s.play[src].ctl and T.cdef(tgt).type == "character":
        st.skill += st.icons[3]


script("miskatonic-atwood-science-hall", Ability("constant", zone="late", fn=_atwood))

# F36 Binding: a character loses its printed icons this phase.
script("miskatonic-binding",
       Ability("action", zone="hand", ops=(Choose("t", char()), Mod("t", "no_printed_icons"))))

# F37 Feast or Famine: draw 2, then each player discards a card.
script("miskatonic-feast-of-famine", Ability("action", zone="hand", ops=(Draw(2), *each_discards())))

# F38 Restless and Wary: ready every exhausted character.
script("miskatonic-restless-and-wary", Ability("action", zone="hand", ops=(Each("ready", char(ready=False)),)))

# F39 Dr. Carson's Treatment: restore and ready up to 2 insane characters; overpaid, +2 Combat each.
script("miskatonic-dr-carsons-treatment",
       Ability("action", zone="hand",
               ops=(Choose("a", char(insane=True)), Choose("b", char(insane=True), optional=True),
                    Do("restore", "a"), Do("ready", "a"), Do("restore", "b"), Do("ready", "b"),
                    *when(overpaid, Mod("a", "icon", i=1, n=2), Mod("b", "icon", i=1, n=2)))))

# F40 Unearthing the Ancients: draw 3 (Operations only).
script("miskatonic-unearthing-the-ancients", Ability("action", zone="hand", ops_only=True, ops=(Draw(3),)))

"""Hastur (F81..F100)."""

from __future__ import annotations

from rules.coc_lcg import table as T
from rules.coc_lcg.effects import (
    Cancel,
    Choose,
    Ctx,
    Do,
    Fn,
    Mod,
    ModEach,
    char,
    effect_disrupt_kinds,
    who,
)
from rules.coc_lcg.script import Ability, script
from rules.coc_lcg.scripts.common import played_overpaid, this_card, won_by_two
from rules.coc_lcg.state import CocState
from rules.core import Event

# F81 Hastur: pay 3 to drive a character insane.
script("hastur-hastur", Ability("action", cost=(("pay", 3),), ops=(Choose("t", char(maddenable=True)), Do("insane"))))

# F82 Victoria Glasser: when she enters play, drive a character insane (forced).
script("hastur-victoria-glasser",
       Ability("forced", on="entered", when=this_card, ops=(Choose("t", char(maddenable=True)), Do("insane"))))


# F83 Yellow Muse: while committed, the other characters at its story lose Fast.
def _muse(s: CocState, src: str, tgt: str, st: T.Stats) -> None:
    story = s.play[src].story
    if story is not None and tgt != src and tgt in s.play and s.play[tgt].story == story:
        st.kws.discard("fast")


script("hastur-yellow-muse", Ability("constant", fn=_muse))

# F84 Demon Lover: exhaust, a character gets -2 skill this phase.
script("hastur-demon-lover",
       Ability("action", cost=(("exhaust",),), ops=(Choose("t", char()), Mod("t", "skill", n=-2))))


# F85 Thing from the Stars: costs 1 less (min 1) per non-Hastur faction among the paying domain's
# resources; exhaust to destroy an insane character.
def _thing_cost(s: CocState, src: str, iid: str, p: int, cost: int, dom: int | None) -> int:
    if dom is None:
        return cost
    kinds = {T.cdef(r).faction for r in s.players[p].domains[dom].resources} - {"hastur", "neutral"}
    return max(1, cost - len(kinds))


script("hastur-thing-from-the-stars",
       Ability("cost", zone="hand", fn=_thing_cost),
       Ability("action", cost=(("exhaust",),), ops=(Choose("t", char(insane=True)), Do("destroy"))))

# F86 Messenger from Beyond: exhaust, a character loses a Terror icon this phase.
script("hastur-messenger-from-beyond",
       Ability("action", cost=(("exhaust",),), ops=(Choose("t", char()), Mod("t", "icon", i=0, n=-1))))


# F87 Performance Artist: sacrifice him to cancel the effects of any ability of a character or support card,
# whoever uses it.
def _card_ability(s: CocState, ctx: Ctx, trig: dict) -> bool:
    return (not trig["event"] and trig["kind"] in effect_disrupt_kinds()
            and T.cdef(trig["card"]).type in ("character", "support"))


script("hastur-performance-artist",
       Ability("disrupt", on="initiated", when=_card_ability, cost=(("sacrifice",),), ops=(Cancel(),)))

# F89 Predatory Byakhee: sacrifice it to discard the top 3 cards of an opponent's deck.
script("hastur-predatory-byakhee",
       Ability("action", cost=(("sacrifice",),), ops=(Fn(lambda s, ctx, out: T.mill(s, who(ctx, "opp"), 3, out)),)))

# F90 Bearer of the Yellow Sign: when played from hand and overpaid, drive a character insane.
script("hastur-bearer-of-the-yellow-sign",
       Ability("response", on="played", when=played_overpaid,
               ops=(Choose("t", char(maddenable=True)), Do("insane"))))


# F91 Ghost: Invulnerable while committed.
def _ghost(s: CocState, src: str, tgt: str, st: T.Stats) -> None:
    if tgt == src and s.play[src].story is not None:
        st.kws.add("invulnerable")


script("hastur-ghost", Ability("constant", fn=_ghost))

# F93 Victoria's Loft: insane characters are not restored in the Refresh phase.
script("hastur-victorias-loft", Ability("no_restore", fn=lambda s, src, iid, framework: framework))


# F94 Sedated: attaches to an insane character, which cannot be restored.
def _insane_host(s: CocState, ctx: Ctx, host: str) -> bool:
    return host in s.play and T.cdef(host).type == "character" and s.play[host].insane


script("hastur-sedated",
       Ability("no_restore", fn=lambda s, src, iid, framework: s.play[src].host == iid), attach=_insane_host)


# F95 Byakhee Attack: the opponent discards 2 cards of their choice (Operations only).
def _two_discards() -> tuple:
    from rules.coc_lcg.effects import DiscardChosen

    return (Choose("_a", zone="hand", chooser="opp", target=False, q="discard"), DiscardChosen("_a"),
            Choose("_b", zone="hand", chooser="opp", target=False, q="discard"), DiscardChosen("_b"))


script("hastur-byakhee-attack", Ability("action", zone="hand", ops_only=True, ops=_two_discards()))

# F96 Agoraphobia: return a character with no Terror icons to its owner's hand.
script("hastur-agoraphobia",
       Ability("action", zone="hand", ops=(Choose("t", char(no_terror=True)), Do("hand"))))

# F97 Scotophobia: opposing characters lose their printed Terror icons this phase.
script("hastur-scotophobia", Ability("action", zone="hand", ops=(ModEach(char("opp"), "no_printed_terror"),)))

# F98 Despair: after you win a struggle by 2+, return a character with no Attachments to its owner's hand.
script("hastur-despair",
       Ability("response", on="struggle_won", when=won_by_two, zone="hand",
               ops=(Choose("t", char(where=lambda s, ctx, i: not T.attachments(s, i))), Do("hand"))))


# F99 Blind Submission: take control of a character with skill 2 or less until the end of the phase.
def _take(s: CocState, ctx: Ctx, out: list[Event]) -> None:
    from rules.coc_lcg import events as ev

    t = ctx["vars"].get("t")
    if t is None or t not in s.play:
        return
    x = s.play[t]
    d = T.cdef(t)
    if d.unique and any(y.card == d.id and y.ctl == ctx["ctl"] for y in s.play.values()):
        return  # CoC-R111: no second copy under one player's control
    s.mods.append({"t": t, "k": "control", "ctl": ctx["ctl"], "until": "phase", "back": x.ctl})
    x = s.own_inst(t)
    x.ctl = ctx["ctl"]
    x.story = None
    out.append(ev.ControlChanged(card=t, seat=s.players[ctx["ctl"]].seat))


script("hastur-blind-submission",
       Ability("action", zone="hand", ops=(Choose("t", char("opp", max_skill=2)), Fn(_take))))


# F100 Power Drain: cancel any Action or Response (an event or a card ability, either player's) as it is
# played or triggered.
def _action_or_response(s: CocState, ctx: Ctx, trig: dict) -> bool:
    return trig["kind"] in ("action", "response")


script("hastur-power-drain",
       Ability("disrupt", on="initiated", when=_action_or_response, zone="hand", ops=(Cancel(),)))

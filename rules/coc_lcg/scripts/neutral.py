"""Neutral cards F141..F155 (both quick-start packets and the conspiracy)."""

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
    Fn,
    Mod,
    Tokens,
    char,
    support,
)
from rules.coc_lcg.script import Ability, script
from rules.coc_lcg.scripts.common import any_character, on_host, own_character, won_by_two
from rules.coc_lcg.state import CocState
from rules.core import Event


# F141 Mystic Bounty Hunter: sacrifice him, every Attachment in every discard pile goes to its owner's hand.
def _bounty(s: CocState, ctx: Ctx, out: list[Event]) -> None:
    for p in (0, 1):
        pl = s.own_player(p)
        for c in [c for c in pl.discard if T.cdef(c).attachment]:
            pl.discard.remove(c)
            pl.hand.append(c)
            out.append(ev.ReturnedToHand(card=c))


script("neutral-mystic-bounty-hunter", Ability("action", cost=(("sacrifice",),), ops=(Fn(_bounty),)))


# F142 Freelance Agent: committed, +2 Combat for each character with lower skill that the opponent has
# committed, at any story (as printed: not only its own story).
def _agent(s: CocState, src: str, tgt: str, st: T.Stats) -> None:
    inst = s.play[src]
    if tgt != src or inst.story is None:
        return
    mine, opp = st.skill, 1 - inst.ctl
    st.icons[1] += 2 * sum(1 for c, x in s.play.items()
                           if x.story is not None and x.ctl == opp and T.stats(s, c).skill < mine)


script("neutral-freelance-agent", Ability("constant", zone="late", fn=_agent))  # after skill changes

# F143 .45 Pistols: the host gains a Combat icon.
script("neutral-45-pistols", Ability("constant", fn=on_host(lambda st: st.icons.__setitem__(1, st.icons[1] + 1))),
       attach=any_character)

# F144 Political Demonstration: after winning a struggle by 2+, destroy a support card.
script("neutral-political-demonstration",
       Ability("response", on="struggle_won", when=won_by_two, zone="hand",
               ops=(Choose("t", support()), Do("destroy"))))


# F145 Overzealous Initiate: sacrifice him, the top card of your deck becomes a new domain.
def _new_domain(s: CocState, ctx: Ctx, out: list[Event]) -> None:
    T.add_domain(s, ctx["ctl"], out)


script("neutral-overzealous-initiate", Ability("action", cost=(("sacrifice",),), ops=(Fn(_new_domain),)))

# F146 Arkham Asylum: pay 1, restore and ready an insane character.
script("neutral-arkham-asylum",
       Ability("action", cost=(("pay", 1),), ops=(Choose("t", char(insane=True)), Do("restore"), Do("ready"))))


# F147 Moving the Scenery: after winning a struggle by 2+, move one success token across a story.
def _move_token(s: CocState, ctx: Ctx, out: list[Event]) -> None:
    st, side = ctx["vars"].get("st"), ctx["vars"].get("side")
    if st is None or side is None or st not in s.stories:
        return
    frm = int(side)
    if s.tokens[st][frm] > 0:
        T.remove_tokens(s, st, frm, 1, out)
        T.place_tokens(s, st, 1 - frm, 1, out)


def _has_tokens(s: CocState, ctx: Ctx, iid: str) -> bool:
    return sum(s.tokens[iid]) > 0


def _side_options(s: CocState, ctx: Ctx, out: list[Event]) -> Ask | None:
    st = ctx["vars"].get("st")
    if st is None:
        return None
    sides = [str(p) for p in (0, 1) if s.tokens[st][p] > 0]
    if len(sides) == 1:
        ctx["vars"]["side"] = sides[0]
        return None
    return Ask(ctx["ctl"], "side", sides, q="token_side")


script("neutral-moving-the-scenery",
       Ability("response", on="struggle_won", when=won_by_two, zone="hand",
               ops=(Choose("st", _has_tokens, zone="stories"), Fn(_side_options, choosing=True),
                    Fn(_move_token))))


# F148 Military Advisor: after it is wounded, pay 2 to wound a character with lower skill.
def _lower_than_src(s: CocState, ctx: Ctx, iid: str) -> bool:
    return ctx["src"] in s.play and T.stats(s, iid).skill < T.stats(s, ctx["src"]).skill


script("neutral-military-advisor",
       Ability("response", on="wounded", when=lambda s, ctx, t: t["card"] == ctx["src"], cost=(("pay", 2),),
               ops=(Choose("t", char(where=_lower_than_src, woundable=True)), Do("wound"))))

# F149 Serpent from Yoth: whenever it enters your discard pile, from anywhere (play, hand, deck, a domain),
# each opponent sacrifices a character.
script("neutral-serpent-from-yoth",
       Ability("forced", on="discarded", when=lambda s, ctx, t: t["card"] == ctx["src"], zone="discard",
               ops=(Choose("t", char("opp"), chooser="opp", target=False, q="sacrifice"), Do("sacrifice"))))


# F150 Tcho-Tcho Talisman: the host gains 2 Terror; when it goes to a discard pile, pay 1 to take it back.
def _talisman_back(s: CocState, ctx: Ctx, out: list[Event]) -> None:
    src = ctx["src"]
    pl = s.own_player(T.owner(src))
    if src in pl.discard:
        pl.discard.remove(src)
        pl.hand.append(src)
        out.append(ev.ReturnedToHand(card=src))


script("neutral-tcho-tcho-talisman",
       Ability("constant", fn=on_host(lambda st: st.icons.__setitem__(0, st.icons[0] + 2))),
       Ability("response", on="left", zone="discard", cost=(("pay", 1),),
               when=lambda s, ctx, t: t["card"] == ctx["src"] and t["dest"] == "discard",
               ops=(Fn(_talisman_back),)),
       attach=own_character)


# F151 Inside Information: a story loses one struggle icon of your choice until the end of the phase.
def _icon_options(s: CocState, ctx: Ctx, out: list[Event]) -> Ask | None:
    st = ctx["vars"].get("st")
    if st is None:
        return None
    have = [ICONS[i] for i, n in enumerate(T.struggles_of(s, st)) if n > 0]
    if not have:
        return None
    return Ask(ctx["ctl"], "icon", have, q="lose_icon")


script("neutral-inside-information",
       Ability("action", zone="hand",
               ops=(Choose("st", zone="stories"), Fn(_icon_options, choosing=True),
                    Mod("st", "story_icon", i=lambda s, c: c["vars"].get("icon")))))

# F152 Dabbler in the Unknown: sacrifice him, 1 token on a story that has none.
script("neutral-dabbler-in-the-unknown",
       Ability("action", cost=(("sacrifice",),),
               ops=(Choose("st", lambda s, ctx, i: sum(s.tokens[i]) == 0, zone="stories"), Tokens("st"))))

# F153 Gentleman's Club: exhaust and pay 2 to draw a card.
script("neutral-gentlemans-club", Ability("action", cost=(("exhaust",), ("pay", 2)), ops=(Draw(1),)))


# F154 Eldritch Nexus: a new domain, with the next card of your deck on it as a resource.
def _nexus(s: CocState, ctx: Ctx, out: list[Event]) -> None:
    p = ctx["ctl"]
    d = T.add_domain(s, p, out)
    pl = s.own_player(p)
    if d is None or s.phase == "over" or not pl.deck:
        return
    c = pl.deck.pop()
    pl.domains[d].resources.append(c)
    out.append(ev.ResourceAttached(seat=pl.seat, card=c, domain=d))
    T.check_deckout(s, p, out)


script("neutral-eldritch-nexus", Ability("action", zone="hand", ops=(Fn(_nexus),)))

# F155 The Bootleg Whiskey Cover-Up: a conspiracy; characters committed to it have blank text
# (``table.blanked``). Its struggles come from its data.
script("neutral-the-bootleg-whiskey-cover-up")


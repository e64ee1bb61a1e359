"""Cthulhu (F41..F60)."""

from __future__ import annotations

from rules.coc_lcg import table as T
from rules.coc_lcg.effects import Cancel, Choose, Ctx, Do, Each, Mod, X, char, support
from rules.coc_lcg.script import Ability, script
from rules.coc_lcg.scripts.common import a_story, any_character, every, icons, on_host, this_card
from rules.coc_lcg.state import CocState

# F41 Cthulhu: after a player draws in their Draw phase, that player sacrifices a character (forced).
script("cthulhu-cthulhu",
       Ability("forced", on="draw_phase",
               ops=(Choose("t", char("ev"), chooser="ev", target=False, q="sacrifice"), Do("sacrifice"))))


# F42 Dagon: pay 1 and sacrifice a Deep One to cancel an event (anyone's) that would destroy Dagon; an
# event that only targets him (a wound he is Invulnerable to, insanity) is not cancelled.
def _event_on_dagon(s: CocState, ctx: Ctx, trig: dict) -> bool:
    return trig["event"] and ctx["src"] in trig["destroys"]


script("cthulhu-dagon",
       Ability("disrupt", on="initiated", when=_event_on_dagon, cost=(("pay", 1),),
               ops=(Choose("d", char("you", subtype="Deep One")), Do("sacrifice", "d"), Cancel())))


# F45 Shadow-spawned Hunting Horror: while committed, every committed character loses an Investigation icon.
def _horror(s: CocState, src: str, tgt: str, st: T.Stats) -> None:
    x = s.play.get(tgt)
    if s.play[src].story is not None and x is not None and x.story is not None:
        st.icons[3] -= 1


script("cthulhu-shadow-spawned-hunting-horror", Ability("constant", fn=_horror))


# F46 Ravager from the Deep: when committed, wound every other character at that story (forced).
def _at_story(s: CocState, ctx: Ctx, iid: str) -> bool:
    return s.play[iid].story == ctx["ev"]["story"]


script("cthulhu-ravager-from-the-deep",
       Ability("forced", on="committed", when=this_card, ops=(Each("wound", char(where=_at_story, others=True)),)))


# F48 Adult Deep One: pay 2 to cancel any effect that targets it, whoever started it.
def _targets_me(s: CocState, ctx: Ctx, trig: dict) -> bool:
    return ctx["src"] in trig["targets"]


script("cthulhu-adult-deep-one",
       Ability("disrupt", on="initiated", when=_targets_me, cost=(("pay", 2),), ops=(Cancel(),)))


# F49 Ocean Crawlers: +1 skill for each Attachment in play.
def _crawlers(s: CocState, src: str, tgt: str, st: T.Stats) -> None:
    if tgt == src:
        st.skill += sum(1 for i in s.play if T.cdef(i).attachment)


script("cthulhu-ocean-crawlers", Ability("constant", fn=_crawlers))


# F50 Lord of the Silver Twilight: Cthulhu costs you 1 less (never below 1).
def _lord(s: CocState, src: str, iid: str, p: int, cost: int, dom: int | None) -> int:
    if T.card_id(iid) == "cthulhu-cthulhu" and p == s.play[src].ctl:
        return max(1, cost - 1)
    return cost


script("cthulhu-lord-of-the-silver-twilight", Ability("cost", fn=_lord))

# F51 Mature Deep One: pay 3 to destroy an Attachment.
script("cthulhu-mature-deep-one",
       Ability("action", cost=(("pay", 3),), ops=(Choose("t", support(subtype="Attachment")), Do("destroy"))))

# F53 Sleep of Reason: attaches to a story; its 3 Terror boosters come from the card data (CoC-R60).
script("cthulhu-sleep-of-reason", attach=a_story)

# F54 Sword of Y'ha-Tallo: the host gains a Terror and a Combat icon.
script("cthulhu-sword-of-yha-tallo", Ability("constant", fn=on_host(icons(t=1, c=1))), attach=any_character)

# F55 Shadowed Reef: Deep One characters gain a Terror icon (cumulative, CoC-R124).
script("cthulhu-shadowed-reef",
       Ability("constant", fn=every(lambda s, src, tgt, st: "Deep One" in st.subtypes, icons(t=1))))

# F56 Deep One Assault (Loyal): destroy a character or support with cost X or less.
script("cthulhu-deep-one-assault",
       Ability("action", zone="hand",
               ops=(Choose("t", lambda s, ctx, i: i in s.play and T.cdef(i).type in ("character", "support")
                           and T.stats(s, i).cost <= X(s, ctx)),
                    Do("destroy"))))


# F57 Pulled Under: exhaust your character with 2+ Terror to destroy an exhausted non-Ancient One.
def _two_terror(s: CocState, ctx: Ctx, iid: str) -> bool:
    return T.stats(s, iid).icons[0] >= 2


script("cthulhu-pulled-under",
       Ability("action", zone="hand",
               ops=(Choose("a", char("you", ready=True, where=_two_terror)),
                    Choose("t", char(ready=False, not_subtype="Ancient One")),
                    Do("exhaust", "a"), Do("destroy"))))

# F58 Get It Off!: destroy an Attachment.
script("cthulhu-get-it-off",
       Ability("action", zone="hand", ops=(Choose("t", support(subtype="Attachment")), Do("destroy"))))


# F59 Sacrificial Offerings: wound an opposing character; its controller may then wound one.
script("cthulhu-sacrificial-offerings",
       Ability("action", zone="hand",
               ops=(Choose("t", char("opp", woundable=True)), Do("wound"),
                    Choose("u", char(woundable=True), chooser="opp", optional=True, target=False, q="wound"),
                    Do("wound", "u"))))

# F60 Touched by the Sleeper: a Cthulhu character gets +2 Terror this phase.
script("cthulhu-touched-by-the-sleeper",
       Ability("action", zone="hand", ops=(Choose("t", char(faction="cthulhu")), Mod("t", "icon", i=0, n=2))))


"""Shub-Niggurath (F121..F140)."""

from __future__ import annotations

from collections.abc import Callable

from rules.coc_lcg import table as T
from rules.coc_lcg.cards import CardDef
from rules.coc_lcg.effects import Cancel, Choose, Ctx, Do, Fn, ModEach, Sel, X, add_mod, char, support
from rules.coc_lcg.script import Ability, script
from rules.coc_lcg.scripts.common import any_character, this_card, yours
from rules.coc_lcg.state import CocState
from rules.core import Event


def _shuffle_deck(s: CocState, ctx: Ctx, out: list[Event]) -> None:
    s.rng.shuffle(s.own_player(ctx["ctl"]).deck)


def _from_deck(pred: Callable[[CardDef], bool]) -> Sel:
    """A character of your deck passing ``pred`` that may enter play under you."""
    def sel(s: CocState, ctx: Ctx, iid: str) -> bool:
        d = T.cdef(iid)
        return d.type == "character" and pred(d) and T.may_enter(s, iid, ctx["ctl"]) is None
    return sel


# F121 Shub-Niggurath: pay 3, search your deck for a Dark Young character, put it into play, shuffle.
script("shub-niggurath-shub-niggurath",
       Ability("action", cost=(("pay", 3),),
               ops=(Choose("t", _from_deck(lambda d: "Dark Young" in d.subtypes), zone="deck", optional=True,
                           target=False, q="search"), Do("put_into_play"), Fn(_shuffle_deck))))


# F122 Y'Golonac: pay 1 to ready a character, which must then commit to his story if it can (checked
# when its controller confirms their commits).
def _ygolonac(s: CocState, ctx: Ctx, out: list[Event]) -> None:
    t = ctx["vars"].get("t")
    if t is not None:
        add_mod(s, t, "follow", ctx["ctl"], until="turn", src=ctx["src"])


script("shub-niggurath-ygolonac",
       Ability("action", cost=(("pay", 1),),
               ops=(Choose("t", char(ready=False, insane=False)), Do("ready"), Fn(_ygolonac))))


# F123 Priestess of Bubastis: exhaust; your next Shub-Niggurath character this phase costs 1 less (min 1).
def _priestess(s: CocState, ctx: Ctx, out: list[Event]) -> None:
    add_mod(s, "*", "next_cost", ctx["ctl"], n=1, f="shub_niggurath")


script("shub-niggurath-priestess-of-bubastis", Ability("action", cost=(("exhaust",),), ops=(Fn(_priestess),)))

# F124 Slavering Gug: pay 4 to wound a character.
script("shub-niggurath-slavering-gug",
       Ability("action", cost=(("pay", 4),), ops=(Choose("t", char(woundable=True)), Do("wound"))))

# F125 Forest Sister: pay 1 to cancel a wound about to be dealt to her.
script("shub-niggurath-forest-sister",
       Ability("disrupt", on="would_wound", when=this_card, cost=(("pay", 1),), ops=(Cancel(),)))


# F126 Ancient Guardian: pay 1 to ready one of your exhausted characters or supports.
def _own_exhausted(s: CocState, ctx: Ctx, iid: str) -> bool:
    x = s.play.get(iid)
    return (x is not None and x.ctl == ctx["ctl"] and x.exhausted and not x.insane
            and T.cdef(iid).type in ("character", "support"))


script("shub-niggurath-ancient-guardian",
       Ability("action", cost=(("pay", 1),), ops=(Choose("t", _own_exhausted), Do("ready"))))


# F127 Small Ghouls: when it enters play, 3 cards of your discard pile go to the bottom of your deck in
# the order you choose (as many as there are, up to 3; forced).
def _to_bottom(s: CocState, ctx: Ctx, out: list[Event]) -> None:
    v = ctx["vars"]
    for k in ("a", "b", "c"):
        c = v.get(k)
        pl = s.own_player(ctx["ctl"])
        if c is not None and c in pl.discard:
            pl.discard.remove(c)
            pl.deck.insert(0, c)


script("shub-niggurath-small-ghouls",
       Ability("forced", on="entered", when=this_card,
               ops=(Choose("a", zone="discard", target=False, q="to_bottom"),
                    Choose("b", zone="discard", target=False, q="to_bottom"),
                    Choose("c", zone="discard", target=False, q="to_bottom"), Fn(_to_bottom))))


# F128 Watcher of the Woods: enters play exhausted unless you control a support card.
def _watcher(s: CocState, ctl: int) -> bool:
    return not any(x.ctl == ctl and T.cdef(i).type == "support" for i, x in s.play.items())


script("shub-niggurath-watcher-of-the-woods", enters_exhausted=_watcher)


# F129 Mi-Go Scout: every Mi-Go character gains an Investigation icon.
def _migo(s: CocState, src: str, tgt: str, st: T.Stats) -> None:
    if "Mi-Go" in st.subtypes and T.cdef(tgt).type == "character":
        st.icons[3] += 1


script("shub-niggurath-mi-go-scout", Ability("constant", fn=_migo))

# F130 Mi-Go Warrior: exhaust to cancel a wound about to be dealt to any character.
script("shub-niggurath-mi-go-warrior",
       Ability("disrupt", on="would_wound", cost=(("exhaust",),), ops=(Cancel(),)))


# F131 Hungry Dark Young: when it enters play, put into play a character of printed cost 2 or less from
# your hand or discard pile.
def _cheap_char(s: CocState, ctx: Ctx, iid: str) -> bool:
    d = T.cdef(iid)
    return d.type == "character" and (d.cost or 0) <= 2 and T.may_enter(s, iid, ctx["ctl"]) is None


script("shub-niggurath-hungry-dark-young",
       Ability("response", on="entered", when=this_card,
               ops=(Choose("t", _cheap_char, zone="hand+discard", optional=True, target=False, q="put_into_play"),
                    Do("put_into_play"))))


# F133 Shadowed Woods: after you play a Shub-Niggurath character from hand, pay X to return a character
# of cost X or less from your discard pile to your hand.
def _shub_played(s: CocState, ctx: Ctx, trig: dict) -> bool:
    d = T.cdef(trig["card"])
    return trig["ctl"] == ctx["ctl"] and d.type == "character" and d.faction == "shub_niggurath"


def _cheap_in_discard(s: CocState, ctx: Ctx, iid: str) -> bool:
    return T.cdef(iid).type == "character" and (T.cdef(iid).cost or 0) <= X(s, ctx)


script("shub-niggurath-shadowed-woods",
       Ability("response", on="played", when=_shub_played, cost=(("pay_x",),),
               ops=(Choose("t", _cheap_in_discard, zone="discard", target=False, q="from_discard"), Do("to_hand"))))

# F134 Ghoul Taint: its host cannot be committed during its controller's turn.
script("shub-niggurath-ghoul-taint",
       Ability("no_commit", fn=lambda s, src, iid: s.play[src].host == iid and s.active == s.play[iid].ctl),
       attach=any_character)


# F135 Altar of the Blessed: your characters get +1 skill.
def _plus_skill(st: T.Stats) -> None:
    st.skill += 1


script("shub-niggurath-altar-of-the-blessed", Ability("constant", fn=yours(lambda s, src, tgt, st: True, _plus_skill)))

# F136 Regeneration: cancel a wound about to be dealt to a character you control.
script("shub-niggurath-regeneration",
       Ability("disrupt", on="would_wound", zone="hand", when=lambda s, ctx, t: t["ctl"] == ctx["ctl"],
               ops=(Cancel(),)))

# F137 Burrowing Beneath: destroy a support card.
script("shub-niggurath-burrowing-beneath", Ability("action", zone="hand", ops=(Choose("t", support()), Do("destroy"))))

# F138 Horrid Mutation: your committed characters get +1 Terror this phase.
script("shub-niggurath-horrid-mutation",
       Ability("action", zone="hand", ops=(ModEach(char("you", committed=True), "icon", i=0, n=1),)))

# F139 Bred to Survive: your characters gain Invulnerability this phase.
script("shub-niggurath-bred-to-survive",
       Ability("action", zone="hand", ops=(ModEach(char("you"), "kw", kw="invulnerable"),)))

# F140 Shocking Transformation: sacrifice one of your characters, then search your deck for a character
# that is not an Ancient One, put it into play and shuffle.
script("shub-niggurath-shocking-transformation",
       Ability("action", zone="hand",
               ops=(Choose("s", char("you")), Do("sacrifice", "s"),
                    Choose("t", _from_deck(lambda d: "Ancient One" not in d.subtypes), zone="deck", optional=True,
                           target=False, q="search"),
                    Do("put_into_play"), Fn(_shuffle_deck))))


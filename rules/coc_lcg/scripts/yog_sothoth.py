"""Yog-Sothoth (F101..F120)."""

from __future__ import annotations

from collections.abc import Iterator

from rules.coc_lcg import events as ev
from rules.coc_lcg import table as T
from rules.coc_lcg.effects import Ask, Choose, Ctx, Do, Each, Fn, Sel, X, add_mod, char, overpaid
from rules.coc_lcg.script import Ability, script
from rules.coc_lcg.scripts.common import this_card, to_discard_from_play
from rules.coc_lcg.state import CocState
from rules.core import Event


# F101 Yog-Sothoth: costs 1 less (min 1) for each Spell card in your discard pile.
def _yog_cost(s: CocState, src: str, iid: str, p: int, cost: int, dom: int | None) -> int:
    spells = sum(1 for c in s.players[p].discard if "Spell" in T.cdef(c).subtypes)
    return max(1, cost - spells)


script("yog-sothoth-yog-sothoth", Ability("cost", zone="hand", fn=_yog_cost))


# F102 Servant from Out of Time: when it enters play, sacrifice one of your resources if able (forced).
def _own_resource(s: CocState, ctx: Ctx, iid: str) -> bool:
    return any(iid in d.resources for d in s.players[ctx["ctl"]].domains)


script("yog-sothoth-servant-from-out-of-time",
       Ability("forced", on="entered", when=this_card,
               ops=(Choose("r", _own_resource, zone="resources", target=False, q="sacrifice_resource"),
                    Do("destroy_resource", "r"))))


# F103 Son of Yeb: +1 Combat for each Cultist character you control.
def _son(s: CocState, src: str, tgt: str, st: T.Stats) -> None:
    if tgt == src:
        me = s.play[src].ctl
        st.icons[1] += sum(1 for c in T.characters(s, me) if "Cultist" in T.stats(s, c).subtypes)


script("yog-sothoth-son-of-yeb", Ability("constant", fn=_son))

# F104 Living Mummy: when it goes from play to your discard pile, wound every character (forced).
script("yog-sothoth-living-mummy",
       Ability("forced", on="left", zone="discard", when=to_discard_from_play, ops=(Each("wound", char()),)))

# F105 Fishers from Outside: when it enters play, return an exhausted character to its owner's hand.
script("yog-sothoth-fishers-from-outside",
       Ability("forced", on="entered", when=this_card, ops=(Choose("t", char(ready=False)), Do("hand"))))

# F106 Cannibal Ghast: cannot be committed during your own turn.
script("yog-sothoth-cannibal-ghast",
       Ability("no_commit", fn=lambda s, src, iid: iid == src and s.active == s.play[src].ctl))


# F107 Spell-bound Shoggoth: every other character gets -1 skill.
def _shoggoth(s: CocState, src: str, tgt: str, st: T.Stats) -> None:
    if tgt != src and T.cdef(tgt).type == "character":
        st.skill -= 1


script("yog-sothoth-spell-bound-shoggoth", Ability("constant", fn=_shoggoth))


# F109 Guardian Elder Thing: while committed, pay 2 to wound every character at its story.
def _with_me(s: CocState, ctx: Ctx, iid: str) -> bool:
    me = s.play.get(ctx["src"])
    return me is not None and me.story is not None and s.play[iid].story == me.story


script("yog-sothoth-guardian-elder-thing",
       Ability("action", cost=(("pay", 2),), committed=True, ops=(Each("wound", char(where=_with_me)),)))


# F110 Hound of Tindalos: attach itself to a character (-4 skill while there); pay 1 to come off.
def _hound_on(s: CocState, ctx: Ctx, out: list[Event]) -> None:
    t = ctx["vars"].get("t")
    me = s.play.get(ctx["src"])
    if t is None or me is None or t not in s.play:
        return
    for a in T.attachments(s, ctx["src"]):
        T.leave_play(s, a, "destroyed", out)  # an attachment cannot carry attachments
    me = s.own_inst(ctx["src"])
    me.host = t
    me.story = None
    out.append(ev.EnteredPlay(seat=s.players[me.ctl].seat, card=ctx["src"], host=t))


def _hound_off(s: CocState, ctx: Ctx, out: list[Event]) -> None:
    me = s.play.get(ctx["src"])
    if me is not None and me.host is not None:
        me = s.own_inst(ctx["src"])
        me.host = None
        out.append(ev.EnteredPlay(seat=s.players[me.ctl].seat, card=ctx["src"]))


def _hound_minus(s: CocState, src: str, tgt: str, st: T.Stats) -> None:
    if s.play[src].host == tgt:
        st.skill -= 4


script("yog-sothoth-hound-of-tindalos",
       Ability("action", req=lambda s, ctx: s.play[ctx["src"]].host is None,
               ops=(Choose("t", char(others=True)), Fn(_hound_on))),
       Ability("action", cost=(("pay", 1),), req=lambda s, ctx: s.play[ctx["src"]].host is not None,
               ops=(Fn(_hound_off),)),
       Ability("constant", fn=_hound_minus))


# F111 Disciple of the Gate: skill equals the number of Yog-Sothoth characters in play.
def _disciple(s: CocState, src: str, tgt: str, st: T.Stats) -> None:
    if tgt == src:
        st.skill += sum(1 for c in T.characters(s) if not s.play[c].insane and T.cdef(c).faction == "yog_sothoth")


script("yog-sothoth-disciple-of-the-gate", Ability("constant", fn=_disciple))


# F113 Forbidden Shrine: your committed characters get +1 skill.
def _shrine(s: CocState, src: str, tgt: str, st: T.Stats) -> None:
    x = s.play.get(tgt)
    if x is not None and x.ctl == s.play[src].ctl and x.story is not None:
        st.skill += 1


script("yog-sothoth-forbidden-shrine", Ability("constant", fn=_shrine))


# F114 Blackmoor Estate: exhaust and pay X to discard the top X cards of a player's deck.
def _which_player(s: CocState, ctx: Ctx, out: list[Event]) -> Ask:
    return Ask(ctx["ctl"], "who", ["0", "1"], q="which_deck")


script("yog-sothoth-blackmoor-estate",
       Ability("action", cost=(("exhaust",), ("pay_x",)),
               ops=(Fn(_which_player), Fn(lambda s, ctx, out: T.mill(s, int(ctx["vars"]["who"]), ctx["x"], out)))))


# F115 Journey to the Other Side: look at your top 5 and put them back in any order; overpaid, you may
# take one of them into your hand first.
def _journey(s: CocState, ctx: Ctx, out: list[Event]) -> Ask | None:
    v = ctx["vars"]
    me = s.own_player(ctx["ctl"])
    if "_looked" not in v:
        top = me.deck[-5:]
        del me.deck[-5:]
        me.peek = list(reversed(top))
        v["_looked"] = True
        v["_picked"] = []
        out.append(ev.Looked(seat=me.seat, cards=list(me.peek), audience=me.seat))
        if overpaid(s, ctx) and me.peek:
            ctx["again"] = True
            v["keep"] = "?"
            return Ask(ctx["ctl"], "keep", None, zone="peek", optional=True, q="take_one")
    if v.get("keep") not in (None, "?"):
        me.peek.remove(v["keep"])
        me.hand.append(v.pop("keep"))
    v["keep"] = None
    if v.get("next"):
        v["_picked"].append(v.pop("next"))  # stays in peek (and accounted for) until all are ordered
    if len(me.peek) - len(v["_picked"]) > 1:
        ctx["again"] = True
        return Ask(ctx["ctl"], "next", None, zone="peek", q="next_on_top")
    order = v["_picked"] + [c for c in me.peek if c not in v["_picked"]]  # top first
    me.peek = []
    me.deck.extend(reversed(order))
    T.check_deckout(s, ctx["ctl"], out)
    return None


script("yog-sothoth-journey-to-the-other-side", Ability("action", zone="hand", ops=(Fn(_journey),)))


# F116 Opening the Limbo Gate: a character from each player's discard pile enters play (Operations only).
def _discard_char(whose: str) -> Sel:
    def sel(s: CocState, ctx: Ctx, iid: str) -> bool:
        p = ctx["ctl"] if whose == "you" else 1 - ctx["ctl"]
        return iid in s.players[p].discard and T.cdef(iid).type == "character" and T.may_enter(s, iid, p) is None
    return sel


class _FromDiscard(Choose):
    """Choose a card in either player's discard pile (public) with a selector."""

    def _matches(self, s: CocState, ctx: Ctx) -> Iterator[str]:
        pool = [c for pl in s.players for c in pl.discard]
        taken = {v for v in ctx["vars"].values() if isinstance(v, str)}
        return (c for c in dict.fromkeys(pool) if c not in taken and (self.sel is None or self.sel(s, ctx, c)))


script("yog-sothoth-opening-the-limbo-gate",
       Ability("action", zone="hand", ops_only=True,
               ops=(_FromDiscard("a", _discard_char("you"), target=False, q="from_discard"), Do("put_into_play", "a"),
                    _FromDiscard("b", _discard_char("opp"), target=False, q="from_discard"),
                    Do("put_into_play", "b"))))

# F117 A Single Glimpse: an opponent sacrifices a character if able (Operations only).
script("yog-sothoth-a-single-glimpse",
       Ability("action", zone="hand", ops_only=True,
               ops=(Choose("t", char("opp"), chooser="opp", target=False, q="sacrifice"), Do("sacrifice"))))

# F118 Gathering at the Stones: a card of your discard pile to your hand (Operations only).
script("yog-sothoth-gathering-at-the-stones",
       Ability("action", zone="hand", ops_only=True,
               ops=(Choose("t", zone="discard", target=False, q="from_discard"), Do("to_hand"))))


# F119 Unspeakable Resurrection: put into play a character of cost X or less from your discard pile.
def _raisable(s: CocState, ctx: Ctx, iid: str) -> bool:
    d = T.cdef(iid)
    return d.type == "character" and (d.cost or 0) <= X(s, ctx) and T.may_enter(s, iid, ctx["ctl"]) is None


script("yog-sothoth-unspeakable-resurrection",
       Ability("action", zone="hand",
               ops=(Choose("t", _raisable, zone="discard", target=False, q="from_discard"), Do("put_into_play"))))


# F120 Dampen Light: every card costs 1 more to play this phase.
def _dampen(s: CocState, ctx: Ctx, out: list[Event]) -> None:
    add_mod(s, "*", "cost_all", ctx["ctl"], n=1)


script("yog-sothoth-dampen-light", Ability("action", zone="hand", ops=(Fn(_dampen),)))


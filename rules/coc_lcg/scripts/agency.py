"""The Agency (F1..F20 and F23, Steve Clarney, an Agency card by misprint)."""

from __future__ import annotations

from collections.abc import Iterator

from rules.coc_lcg import table as T
from rules.coc_lcg.effects import (
    Ask,
    Choose,
    Ctx,
    Do,
    Fn,
    Mod,
    Op,
    X,
    char,
    overpaid,
    support,
    when,
    wound_with_window,
)
from rules.coc_lcg.script import Ability, script
from rules.coc_lcg.scripts.common import any_character, on_host, src_committed, this_card, won_by_two
from rules.coc_lcg.state import CocState
from rules.core import Event


# F1 Thomas F. Malone: after a story he was at resolves, destroy an opposing Villainous or Cultist there.
def _malone_there(s: CocState, ctx: Ctx, trig: dict) -> bool:
    return ctx["src"] in trig["chars"]


def _villain_at_story(s: CocState, ctx: Ctx, iid: str) -> bool:
    st = T.stats(s, iid)
    return iid in ctx["ev"]["chars"] and ("villainous" in st.kws or "Cultist" in st.subtypes)


script("agency-thomas-f-malone",
       Ability("response", on="story_resolved", when=_malone_there,
               ops=(Choose("t", char("opp", where=_villain_at_story)), Do("destroy"))))


# F2 Kirby O'Donnell: while committed, Heroic characters +1 Combat, Villainous ones -1 Terror.
def _kirby(s: CocState, src: str, tgt: str, st: T.Stats) -> None:
    if not src_committed(s, src) or T.cdef(tgt).type != "character":
        return
    if "heroic" in st.kws:
        st.icons[1] += 1
    if "villainous" in st.kws:
        st.icons[0] -= 1


script("agency-kirby-odonnell", Ability("constant", fn=_kirby))


# F3 Local Sheriff / F26 Visiting Author: pay 1, back to hand if it reached your discard pile this phase.
def back_from_discard(card: str) -> None:
    def went_this_phase(s: CocState, ctx: Ctx) -> bool:
        return ctx["src"] in s.moved

    script(card, Ability("action", zone="discard", cost=(("pay", 1),), req=went_this_phase,
                         ops=(Do("to_hand", "src"),)))


back_from_discard("agency-local-sheriff")


# F4 Paul LeMond: pay 1, copy a character's printed icons until the end of the phase.
def _copy_icons(s: CocState, ctx: Ctx, out: list[Event]) -> None:
    t = ctx["vars"].get("t")
    if t is not None and ctx["src"] in s.play:
        Mod("src", "icons", icons=list(T.cdef(t).icons))(s, ctx, out)


script("agency-paul-lemond",
       Ability("action", cost=(("pay", 1),), ops=(Choose("t", char(others=True)), Fn(_copy_icons))))


# F5 Professor Hermann Mulder: goes insane whenever 6 or more characters are in play.
def _mulder(s: CocState, src: str, out: list[Event]) -> None:
    if len(T.characters(s)) >= 6:
        T.go_insane(s, src, out)


script("agency-professor-hermann-mulder", Ability("state", fn=_mulder))

# F6 Monster Hunter: after you win a struggle by 2+, pay 2 to wound a character with skill 2 or less.
script("agency-monster-hunter",
       Ability("response", on="struggle_won", when=won_by_two, cost=(("pay", 2),),
               ops=(Choose("t", char(max_skill=2, woundable=True)), Do("wound"))))


# F11 Peeler: Willpower while any Attachment is in play.
def _peeler(s: CocState, src: str, tgt: str, st: T.Stats) -> None:
    if tgt == src and any(T.cdef(i).attachment for i in s.play):
        st.kws.add("willpower")


script("agency-peeler", Ability("constant", fn=_peeler))

# F12 T-Men: when it enters play, wound a character (forced).
script("agency-t-men", Ability("forced", on="entered", when=this_card,
                               ops=(Choose("t", char(woundable=True)), Do("wound"))))


# F14 Shotgun: its host, while committed, may pay 1 to wound a character at the same story.
def _same_story_as_host(s: CocState, ctx: Ctx, iid: str) -> bool:
    host = s.play[ctx["src"]].host if ctx["src"] in s.play else None
    return host in s.play and s.play[host].story is not None and s.play[iid].story == s.play[host].story


script("agency-shotgun",
       Ability("action", cost=(("pay", 1),), committed=True, by_host=True,
               ops=(Choose("t", char(where=_same_story_as_host, woundable=True)), Do("wound"))),
       attach=any_character)


# F15 Patrol Wagon: the host gets Toughness +1; pay 2 to cancel a wound about to be dealt to it.
def _wagon_host(s: CocState, ctx: Ctx, trig: dict) -> bool:
    return ctx["src"] in s.play and s.play[ctx["src"]].host == trig["card"]


def _tough(st: T.Stats) -> None:
    st.toughness += 1


from rules.coc_lcg.effects import Cancel  # noqa: E402

script("agency-patrol-wagon",
       Ability("constant", fn=on_host(_tough)),
       Ability("disrupt", on="would_wound", when=_wagon_host, cost=(("pay", 2),), ops=(Cancel(),)),
       attach=any_character)

# F16 Shotgun Blast: wound a character whose skill is at most X.
script("agency-shotgun-blast",
       Ability("action", zone="hand", ops=(Choose("t", char(max_skill=X, woundable=True)), Do("wound"))))


# F17 Short Fuse: 7 wound tokens on a character (Operations only).
def _seven(s: CocState, ctx: Ctx, out: list[Event]) -> None:
    t = ctx["vars"].get("t")
    for _ in range(7):
        if t in s.play:
            wound_with_window(s, t, out)


script("agency-short-fuse",
       Ability("action", zone="hand", ops_only=True, ops=(Choose("t", char(woundable=True)), Fn(_seven))))


# F18 Torch the Joint!: destroy a non-Agency resource or a Location (Operations only).
def _torchable(s: CocState, ctx: Ctx, iid: str) -> bool:
    if iid in s.play:
        return support(subtype="Location")(s, ctx, iid)
    return T.cdef(iid).faction != "agency"


def _torch(s: CocState, ctx: Ctx, out: list[Event]) -> None:
    t = ctx["vars"].get("t")
    if t is None:
        return
    from rules.coc_lcg.effects import apply_verb

    apply_verb(s, "destroy" if t in s.play else "destroy_resource", t, out, ctx)


class _TableChoose(Choose):
    """Choose among supports in play and resources on every domain."""

    def _matches(self, s: CocState, ctx: Ctx) -> Iterator[str]:
        pool = list(s.play) + [r for q in (0, 1) for d in s.players[q].domains for r in d.resources]
        return (c for c in pool if _torchable(s, ctx, c))


script("agency-torch-the-joint",
       Ability("action", zone="hand", ops_only=True, ops=(_TableChoose("t"), Fn(_torch))))


# F19 Small Price to Pay: one of yours and one opposing character; one goes insane, the other is wounded.
# Only a character that can go insane may be the one chosen for it (a Terror icon or Willpower,
# CoC-R77/R108), and only one that can be wounded the other (Invulnerability, CoC-R103): a pair with no
# such split cannot be chosen, and when one split is left the player is not asked.
def _split_ok(s: CocState, mad: str, hurt: str) -> bool:
    return not s.play[mad].insane and not T.immune_to_insanity(s, mad) and not T.invulnerable(s, hurt)


def _pair_ok(s: CocState, mine: str, theirs: str) -> bool:
    return _split_ok(s, mine, theirs) or _split_ok(s, theirs, mine)


def _mine_ok(s: CocState, ctx: Ctx, iid: str) -> bool:
    return any(_pair_ok(s, iid, o) for o in T.characters(s, 1 - ctx["ctl"]))


def _theirs_ok(s: CocState, ctx: Ctx, iid: str) -> bool:
    mine = ctx["vars"].get("a")
    return mine in s.play and _pair_ok(s, mine, iid)


class _WhichGoesInsane(Op):
    """The split of the two chosen characters: asked only when both ways are allowed."""

    def __call__(self, s: CocState, ctx: Ctx, out: list[Event]) -> Ask | None:
        a, b = ctx["vars"].get("a"), ctx["vars"].get("b")
        if a not in s.play or b not in s.play:
            return None
        splits = [o for o, (mad, hurt) in (("mine", (a, b)), ("theirs", (b, a))) if _split_ok(s, mad, hurt)]
        if len(splits) == 1:
            ctx["vars"]["mad"] = splits[0]
            return None
        return Ask(ctx["ctl"], "mad", splits, q="which_goes_insane") if splits else None


def _price(s: CocState, ctx: Ctx, out: list[Event]) -> None:
    a, b, which = ctx["vars"].get("a"), ctx["vars"].get("b"), ctx["vars"].get("mad")
    if a is None or b is None or which is None:
        return
    mad, hurt = (a, b) if which == "mine" else (b, a)
    T.go_insane(s, mad, out)
    if hurt in s.play:
        wound_with_window(s, hurt, out)


script("agency-small-price-to-pay",
       Ability("action", zone="hand",
               ops=(Choose("a", char("you", where=_mine_ok)), Choose("b", char("opp", where=_theirs_ok)),
                    _WhichGoesInsane(), Fn(_price))))

# F20 Working a Hunch: +2 Combat this phase; overpaid, +1 Arcane and +1 Investigation too.
script("agency-working-a-hunch",
       Ability("action", zone="hand",
               ops=(Choose("t", char()), Mod("t", "icon", i=1, n=2),
                    *when(overpaid, Mod("t", "icon", i=2, n=1), Mod("t", "icon", i=3, n=1)))))


# F23 Steve Clarney: while committed, every character loses all Toughness.
def _clarney(s: CocState, src: str, tgt: str, st: T.Stats) -> None:
    if src_committed(s, src) and T.cdef(tgt).type == "character":
        st.no_toughness = True


script("agency-steve-clarney", Ability("constant", fn=_clarney))


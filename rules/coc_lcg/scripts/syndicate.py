"""The Syndicate (F61..F80)."""

from __future__ import annotations

from rules.coc_lcg import table as T
from rules.coc_lcg.effects import Ask, Choose, Ctx, Do, Each, Fn, Mod, X, char, effect_disrupt_kinds, overpaid, when
from rules.coc_lcg.script import Ability, script
from rules.coc_lcg.scripts.common import any_character, icons, on_host, played_overpaid, this_card, yours
from rules.coc_lcg.state import CocState
from rules.core import Event


# F61 "Jack" Brass Brady: just before any triggered ability resolves (a card's in play, either player's;
# events are not abilities, CoC-R116), return Brady to his owner's hand; his own Disrupt is not one he
# answers again.
def _brady(s: CocState, ctx: Ctx, trig: dict) -> bool:
    return not trig["event"] and trig["kind"] in effect_disrupt_kinds() and trig["card"] != ctx["src"]


script("syndicate-jack-brass-brady", Ability("disrupt", on="initiated", when=_brady, ops=(Do("hand", "src"),)))


# F63 Richard Upton Pickman: pay 2; until the end of the phase he gains a character's keywords and
# triggered abilities, and that character's text box is blank.
def _pickman(s: CocState, ctx: Ctx, out: list[Event]) -> None:
    t = ctx["vars"].get("t")
    if t is None or ctx["src"] not in s.play or t not in s.play:
        return
    for kw in sorted(T.stats(s, t).kws):
        s.mods.append({"t": ctx["src"], "k": "kw", "kw": kw, "ctl": ctx["ctl"], "until": "phase"})
    s.mods.append({"t": ctx["src"], "k": "borrow", "card": T.card_id(t), "ctl": ctx["ctl"], "until": "phase"})
    s.mods.append({"t": t, "k": "blank", "ctl": ctx["ctl"], "until": "phase"})


script("syndicate-richard-upton-pickman",
       Ability("action", cost=(("pay", 2),), ops=(Choose("t", char(others=True, insane=False)), Fn(_pickman))))

# F65 Clover Club Bouncer: exhaust, a character gets -1 skill this phase.
script("syndicate-clover-club-bouncer",
       Ability("action", cost=(("exhaust",),), ops=(Choose("t", char()), Mod("t", "skill", n=-1))))

# F66 Clover Club Torch Singer: pay 1, a character gets -2 skill this phase.
script("syndicate-clover-club-torch-singer",
       Ability("action", cost=(("pay", 1),), ops=(Choose("t", char()), Mod("t", "skill", n=-2))))

# F68 Syndicate Liaison: when it enters play, exhaust a ready character (forced).
script("syndicate-syndicate-liaison",
       Ability("forced", on="entered", when=this_card, ops=(Choose("t", char(ready=True)), Do("exhaust"))))


# F69 Hard Case: when it enters play, exhaust a character of printed cost up to your domain count.
def _cheap(s: CocState, ctx: Ctx, iid: str) -> bool:
    return (T.cdef(iid).cost or 0) <= len(s.players[ctx["ctl"]].domains)


script("syndicate-hard-case",
       Ability("response", on="entered", when=this_card,
               ops=(Choose("t", char(ready=True, where=_cheap)), Do("exhaust"))))


# F70 Patsy: sacrifice him to remove exactly 2 tokens from a story holding 4 or fewer.
def _patsy_story(s: CocState, ctx: Ctx, iid: str) -> bool:
    return 2 <= sum(s.tokens[iid]) <= 4


def _patsy(s: CocState, ctx: Ctx, out: list[Event]) -> Ask | None:
    v = ctx["vars"]
    st = v.get("st")
    if st is None or st not in s.stories:
        return None
    if v.get("side") not in (None, "?"):
        T.remove_tokens(s, st, int(v["side"]), 1, out)
        v["left"] = v.get("left", 2) - 1
    v["side"] = None
    if v.get("left", 2) <= 0:
        return None
    sides = [str(p) for p in (0, 1) if s.tokens[st][p] > 0]
    if not sides:
        return None
    ctx["again"] = True
    if len(sides) == 1:
        v["side"] = sides[0]
        return None
    v["side"] = "?"
    return Ask(ctx["ctl"], "side", sides, q="token_side")


script("syndicate-patsy",
       Ability("action", cost=(("sacrifice",),), ops=(Choose("st", _patsy_story, zone="stories"), Fn(_patsy))))

# F71 Extortionist: when played from hand and overpaid, exhaust a character that is not an Ancient One.
script("syndicate-extortionist",
       Ability("response", on="played", when=played_overpaid,
               ops=(Choose("t", char(ready=True, not_subtype="Ancient One")), Do("exhaust"))))

# F72 Freelance Photographer: pay 1 to ready it.
script("syndicate-freelance-photographer",
       Ability("action", cost=(("pay", 1),), req=lambda s, ctx: s.play[ctx["src"]].exhausted,
               ops=(Do("ready", "src"),)))


# F73 Dutch Courage: your characters get Toughness +1.
def _tough(st: T.Stats) -> None:
    st.toughness += 1


script("syndicate-dutch-courage", Ability("constant", fn=yours(lambda s, src, tgt, st: True, _tough)))

# F74 Cathouse: after you overpay for a triggered ability, ready a character.
script("syndicate-cathouse",
       Ability("response", on="ability_overpaid", when=lambda s, ctx, t: t["ctl"] == ctx["ctl"],
               ops=(Choose("t", char(ready=False, insane=False)), Do("ready"))))

# F75 Alhazred's Lamp: the host gains one icon of each kind.
script("syndicate-alhazred-lamp", Ability("constant", fn=on_host(icons(1, 1, 1, 1))), attach=any_character)

# F76 Like a Moth to the Flame: a character's printed skill becomes 0 this phase.
script("syndicate-like-a-moth",
       Ability("action", zone="hand", ops=(Choose("t", char()), Mod("t", "printed_skill", n=0))))

# F77 Panic (Loyal): exhaust every character whose skill is lower than X.
script("syndicate-panic",
       Ability("action", zone="hand",
               ops=(Each("exhaust", char(ready=True, where=lambda s, ctx, i: T.stats(s, i).skill < X(s, ctx))),)))

# F78 Get on Yer Feet!: ready a character; overpaid, +3 skill this phase.
script("syndicate-get-on-yer-feet",
       Ability("action", zone="hand",
               ops=(Choose("t", char(ready=False, insane=False)), Do("ready"),
                    *when(overpaid, Mod("t", "skill", n=3)))))


# F79 Low Blow: exhaust a ready character, or drive an exhausted one insane.
def _low_blow_target(s: CocState, ctx: Ctx, iid: str) -> bool:
    x = s.play[iid]
    return not x.exhausted or (not x.insane and not T.immune_to_insanity(s, iid))


def _low_blow(s: CocState, ctx: Ctx, out: list[Event]) -> None:
    t = ctx["vars"].get("t")
    if t is None or t not in s.play:
        return
    from rules.coc_lcg.effects import apply_verb

    apply_verb(s, "insane" if s.play[t].exhausted else "exhaust", t, out, ctx)


script("syndicate-low-blow",
       Ability("action", zone="hand", ops=(Choose("t", char(where=_low_blow_target)), Fn(_low_blow))))


# F80 Legacy of Ramses: ready an exhausted character; you may drain a domain to keep this card (to hand).
def _ramses_domains(s: CocState, ctx: Ctx, out: list[Event]) -> Ask | None:
    fresh = [str(k) for k, d in enumerate(s.players[ctx["ctl"]].domains) if not d.drained]
    if not fresh:
        return None
    return Ask(ctx["ctl"], "dom", fresh, optional=True, q="drain_to_keep")


def _ramses_keep(s: CocState, ctx: Ctx, out: list[Event]) -> None:
    d = ctx["vars"].get("dom")
    if d is not None:
        T.drain(s, ctx["ctl"], int(d), out)
        ctx["vars"]["_to_hand"] = True


script("syndicate-legacy-of-ramses",
       Ability("action", zone="hand",
               ops=(Choose("t", char(ready=False, insane=False)), Do("ready"), Fn(_ramses_domains),
                    Fn(_ramses_keep))))


"""The ten story cards (F156..F165): each has one optional story effect for its winner (CoC-R85).

"Each player" effects run for the winner first, then the opponent.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.coc_lcg import events as ev
from rules.coc_lcg import table as T
from rules.coc_lcg.effects import Ask, Choose, Ctx, Fn, Sel, Tokens
from rules.coc_lcg.script import Ability, script
from rules.coc_lcg.state import CocState
from rules.core import Event


def story(card: str, *ops: object) -> None:
    script(card, Ability("story", ops=tuple(ops)))


def _order(ctx: Ctx) -> tuple[int, int]:
    return ctx["ctl"], 1 - ctx["ctl"]


# F156 Nowhere to Hide: every success token on every story is lost.
def _nowhere(s: CocState, ctx: Ctx, out: list[Event]) -> None:
    for st in s.stories:
        for p in (0, 1):
            T.remove_tokens(s, st, p, s.tokens[st][p], out)


story("story-nowhere-to-hide", Fn(_nowhere))


# F157 The Shadow Out of Time: each player may swap cards in hand for as many from the top of their
# discard pile. Asked per player: how many, then which hand cards (one at a time).
def _shadow(s: CocState, ctx: Ctx, out: list[Event]) -> Ask | None:
    v = ctx["vars"]
    k = v.get("_k", 0)  # which player of the two is choosing
    if k >= 2:
        return None
    p = _order(ctx)[k]
    pl = s.own_player(p)
    if "_n" not in v:
        most = min(len(pl.hand), len(pl.discard))
        if most == 0:
            v["_k"] = k + 1
            ctx["again"] = True
            return None
        ctx["again"] = True
        v["_n"] = None
        return Ask(p, "_n", [str(i) for i in range(most + 1)], q="swap_count")
    n = int(v["_n"] or 0)
    picked = v.setdefault("_picked", [])
    if v.get("_c"):
        picked.append(v.pop("_c"))
    if len(picked) < n:
        ctx["again"] = True
        v["_c"] = None
        return Ask(p, "_c", None, zone="hand", q="swap_card")
    top = pl.discard[len(pl.discard) - n:] if n else []
    del pl.discard[len(pl.discard) - n:]
    for c in picked:
        pl.hand.remove(c)
        T.to_discard(s, c)
        out.append(ev.Discarded(seat=pl.seat, card=c))
    pl.hand.extend(top)
    for key in ("_n", "_picked", "_c"):
        v.pop(key, None)
    v["_k"] = k + 1
    ctx["again"] = True
    return None


story("story-the-shadow-out-of-time", Fn(_shadow))


# F158 Opening Night: every character in every discard pile enters play insane, under its owner.
def _opening(s: CocState, ctx: Ctx, out: list[Event]) -> None:
    for p in _order(ctx):
        pl = s.own_player(p)
        for c in [c for c in pl.discard if T.cdef(c).type == "character"]:
            if T.may_enter(s, c, p, insane=True) is not None:
                continue  # CoC-R111: a second copy of a unique card cannot come in
            pl.discard.remove(c)
            T.enter_play(s, c, p, out, insane=True)


story("story-opening-night", Fn(_opening))


# F159 Ancient Apocrypha: each player adds a domain and puts every character of their discard pile on it.
def _apocrypha(s: CocState, ctx: Ctx, out: list[Event]) -> None:
    held: list[int] = []  # both players add their domain at once: an empty deck is judged after both (CoC-A21)
    for p in _order(ctx):
        d = T.add_domain(s, p, out, held)
        if d is None:
            continue
        pl = s.own_player(p)
        for c in [c for c in pl.discard if T.cdef(c).type == "character"]:
            pl.discard.remove(c)
            pl.domains[d].resources.append(c)
            out.append(ev.ResourceAttached(seat=pl.seat, card=c, domain=d))
    T.settle_deckouts(s, held, out)


story("story-ancient-apocrypha", Fn(_apocrypha))


# F160 The Call of Cthulhu: each player takes any one card of their deck into hand, then shuffles.
def _shuffle(who: str) -> Callable[[CocState, Ctx, list[Event]], None]:
    def fn(s: CocState, ctx: Ctx, out: list[Event]) -> None:
        p = ctx["ctl"] if who == "you" else 1 - ctx["ctl"]
        c = ctx["vars"].get(f"_s{who}")
        pl = s.own_player(p)
        if c is not None and c in pl.deck:
            pl.deck.remove(c)
            pl.hand.append(c)
            out.append(ev.Drew(seat=pl.seat, count=1))
            T.check_deckout(s, p, out)
        s.rng.shuffle(pl.deck)
    return fn


story("story-the-call-of-cthulhu",
      Choose("_syou", zone="deck", target=False, q="search"), Fn(_shuffle("you")),
      Choose("_sopp", zone="deck", chooser="opp", target=False, q="search"), Fn(_shuffle("opp")))


# F161 Through the Gates / F162 Rotting Away: each player sacrifices their characters by printed skill.
def _sacrifice_by_skill(test: Callable[[int], bool]) -> Callable[[CocState, Ctx, list[Event]], None]:
    def fn(s: CocState, ctx: Ctx, out: list[Event]) -> None:
        for p in _order(ctx):
            for c in T.characters(s, p):
                printed = 0 if s.play[c].insane else T.cdef(c).skill  # an insane card has no skill (CoC-R63)
                if c in s.play and test(printed):
                    T.leave_play(s, c, "sacrificed", out)
    return fn


story("story-through-the-gates", Fn(_sacrifice_by_skill(lambda k: k >= 3)))
story("story-rotting-away", Fn(_sacrifice_by_skill(lambda k: k <= 2)))


# F163 Frozen in Time: for each of their resources a player discards the top 2 cards of their deck or
# destroys that resource (one question per resource, winner first); a deck emptied on the way is judged
# once everyone has answered, so both players running out is a draw (CoC-A21).
def _frozen(s: CocState, ctx: Ctx, out: list[Event]) -> Ask | None:
    v = ctx["vars"]
    todo = v.get("_todo")
    if todo is None:
        todo = v["_todo"] = [[p, r] for p in _order(ctx) for d in s.players[p].domains for r in d.resources]
    if v.get("_how") is not None and todo:
        p, r = todo.pop(0)
        if v["_how"] == "destroy":
            for d in s.own_player(p).domains:
                if r in d.resources:
                    d.resources.remove(r)
                    T.to_discard(s, r)
                    out.append(ev.ResourceDiscarded(seat=s.players[p].seat, card=r))
        else:
            T.mill(s, p, 2, out, v.setdefault("_out", []))  # one effect on both: deck-outs judged at the end
        v["_how"] = None
    if s.phase == "over":
        return None
    if not todo:
        T.settle_deckouts(s, v.get("_out", []), out)  # CoC-A21
        return None
    ctx["again"] = True
    v["_how"] = None
    return Ask(todo[0][0], "_how", ["mill", "destroy"], q=f"frozen:{todo[0][1]}")


story("story-frozen-in-time", Fn(_frozen))


# F164 Dreamwalkers: each player shuffles one of their other won stories back into the story deck.
def _dream_put(who: str) -> Callable[[CocState, Ctx, list[Event]], None]:
    def fn(s: CocState, ctx: Ctx, out: list[Event]) -> None:
        p = ctx["ctl"] if who == "you" else 1 - ctx["ctl"]
        c = ctx["vars"].get(f"_w{who}")
        if c is not None and c in s.players[p].won:
            s.own_player(p).won.remove(c)
            s.story_deck.append(c)
            s.rng.shuffle(s.story_deck)
    return fn


def _won_story(whom: str) -> Sel:
    def sel(s: CocState, ctx: Ctx, iid: str) -> bool:
        p = ctx["ctl"] if whom == "you" else 1 - ctx["ctl"]
        return iid in s.players[p].won and iid != ctx["src"] and T.cdef(iid).type == "story"
    return sel


story("story-dreamwalkers",
      Choose("_wyou", _won_story("you"), zone="won", target=False, q="dreamwalkers"), Fn(_dream_put("you")),
      Choose("_wopp", _won_story("opp"), zone="won", chooser="opp", target=False, q="dreamwalkers"),
      Fn(_dream_put("opp")))


# F165 The Other Path: each player may put 1 token on a story where they have 2 or fewer.
def _few(whom: str) -> Sel:
    def sel(s: CocState, ctx: Ctx, iid: str) -> bool:
        p = ctx["ctl"] if whom == "you" else 1 - ctx["ctl"]
        return s.tokens[iid][p] <= 2
    return sel


story("story-the-other-path",
      Choose("_pyou", _few("you"), zone="stories", optional=True, target=False, q="other_path"),
      Tokens("_pyou"),
      Choose("_popp", _few("opp"), zone="stories", chooser="opp", optional=True, target=False, q="other_path"),
      Tokens("_popp", whom="opp"))

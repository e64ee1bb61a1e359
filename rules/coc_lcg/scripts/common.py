"""Shared pieces of card scripts: trigger conditions, attachment rules, constant helpers."""

from __future__ import annotations

from collections.abc import Callable

from rules.coc_lcg import table as T
from rules.coc_lcg.effects import Ctx
from rules.coc_lcg.state import CocState


def won_by_two(s: CocState, ctx: Ctx, trig: dict) -> bool:
    """"After you win an icon struggle by 2 or more"."""
    return trig["ctl"] == ctx["ctl"] and trig["margin"] >= 2


def this_card(s: CocState, ctx: Ctx, trig: dict) -> bool:
    """The trigger is about the ability's own card (entered play, committed, restored, wounded...)."""
    return trig.get("card") == ctx["src"]


def to_discard_from_play(s: CocState, ctx: Ctx, trig: dict) -> bool:
    return trig.get("card") == ctx["src"] and trig["dest"] == "discard"


def played_overpaid(s: CocState, ctx: Ctx, trig: dict) -> bool:
    return trig.get("card") == ctx["src"] and bool(trig.get("over"))


def any_character(s: CocState, ctx: Ctx, host: str) -> bool:
    return host in s.play and T.cdef(host).type == "character" and s.play[host].host is None


def own_character(s: CocState, ctx: Ctx, host: str) -> bool:
    return any_character(s, ctx, host) and s.play[host].ctl == ctx["ctl"]


def a_story(s: CocState, ctx: Ctx, host: str) -> bool:
    return host in s.stories


def on_host(fn: Callable[[T.Stats], None]) -> Callable[[CocState, str, str, T.Stats], None]:
    """A constant that changes only the character this attachment is on."""

    def const(s: CocState, src: str, tgt: str, st: T.Stats) -> None:
        if s.play[src].host == tgt:
            fn(st)

    return const


def icons(t: int = 0, c: int = 0, a: int = 0, i: int = 0) -> Callable[[T.Stats], None]:
    def add(st: T.Stats) -> None:
        for k, n in enumerate((t, c, a, i)):
            st.icons[k] += n

    return add


def skill(n: int) -> Callable[[T.Stats], None]:
    def add(st: T.Stats) -> None:
        st.skill += n

    return add


def yours(
    fn: Callable[[CocState, str, str, T.Stats], bool], change: Callable[[T.Stats], None]
) -> Callable[[CocState, str, str, T.Stats], None]:
    """A constant for characters the source's controller controls that pass ``fn``."""

    def const(s: CocState, src: str, tgt: str, st: T.Stats) -> None:
        x = s.play.get(tgt)
        if x is not None and x.ctl == s.play[src].ctl and T.cdef(tgt).type == "character" and fn(s, src, tgt, st):
            change(st)

    return const


def every(
    fn: Callable[[CocState, str, str, T.Stats], bool], change: Callable[[T.Stats], None]
) -> Callable[[CocState, str, str, T.Stats], None]:
    """A constant for every character in play that passes ``fn``."""

    def const(s: CocState, src: str, tgt: str, st: T.Stats) -> None:
        if T.cdef(tgt).type == "character" and tgt in s.play and fn(s, src, tgt, st):
            change(st)

    return const


def src_committed(s: CocState, src: str) -> bool:
    return s.play[src].story is not None

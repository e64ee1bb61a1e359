"""Who may answer what happened, and the effect tasks that answers start.

Below the task runner (``flow``) and the effect vocabulary (``effects``), which both open reaction
windows: a trigger is offered to Forced Responses (``forced_matches``) and to the seats that might
respond or disrupt (``reaction_seats``). Whom to ask uses public facts only (cards in play, and each seat's
deck list from the lobby), never the hand, so whether you are asked says nothing about what you hold
(CoC-D4).
"""

from __future__ import annotations

from typing import Any

from rules.coc_lcg import table as T
from rules.coc_lcg.cards import catalog
from rules.coc_lcg.script import Ability, abilities, answering
from rules.coc_lcg.state import CocState


def effect_task(s: CocState, src: str, ab: int, ctl: int, **extra: Any) -> dict[str, Any]:
    """A resolving ability: ``card``/``ab`` name the script ability (``card`` differs from the source's
    own card for borrowed abilities); ``src`` is the card it works for."""
    s.counter += 1
    task = {"t": "effect", "src": src, "card": T.card_id(src), "ab": ab, "ctl": ctl, "vars": {}, "i": 0,
            "x": 0, "over": False, "ev": None, "event": False, "init": False, "cancel": False,
            "n": s.counter, "skip": 0}
    task.update(extra)
    if ab >= T.BORROWED:
        ref = T.ability_at(s, src, ab)
        assert ref is not None
        task["card"], task["ab"] = ref
    return task


def _sources(s: CocState, trig: dict, kind: str) -> list[tuple[str, int]]:
    """Cards whose text may answer ``trig`` with a ``kind`` ability: cards in play, and the card the
    trigger is about when it has just left play or reached a discard pile (text that works from the
    discard pile, CoC-R118).
    Cards with no such ability (their own or borrowed, ``T.source_abilities``) are left out early."""
    kinds = answering(kind, trig["on"])  # the others have nothing to answer it with
    borrowing = any(m["k"] == "borrow" for m in s.mods)
    out = [(i, x.ctl) for i, x in s.play.items() if (borrowing or x.card in kinds) and T.text_on(s, i)]
    c = trig.get("card")
    if c and c not in s.play and trig["on"] in ("left", "discarded"):
        out.append((c, trig["ctl"]))
    return out


def forced_matches(s: CocState, trig: dict) -> list[tuple[str, int, int]]:
    found: list[tuple[str, int, int]] = []
    for src, ctl in _sources(s, trig, "forced"):
        for idx, ab in T.source_abilities(s, src, "forced"):
            if ab.on == trig["on"] and (ab.when is None or ab.when(s, {"src": src, "ctl": ctl}, trig)):
                found.append((src, idx, ctl))
    found.sort(key=lambda f: f[2] != s.active)  # CoC-A5: the active player's first
    return found


def reaction_seats(s: CocState, trig: dict, kind: str) -> list[int]:
    """Seats that might answer ``trig`` with a ``kind`` (response/disrupt), by public facts only."""
    srcs = _sources(s, trig, kind)
    return [p for p in (s.active, 1 - s.active)
            if _in_play_option(s, trig, kind, p, srcs) or _deck_has(s, p, trig, kind)]


def _deck_has(s: CocState, p: int, trig: dict, kind: str) -> bool:
    for ab in _deck_events(s.players[p].deck_list, kind).get(trig["on"], ()):
        if ab.when is None or ab.when(s, {"src": None, "ctl": p}, trig):  # it reads only whose it is (public)
            return True
    return False


_DECK_EVENTS: dict[tuple[str, int, int], tuple[list[str], dict[str, list[Ability]]]] = {}


def _deck_events(deck_list: list[str], kind: str) -> dict[str, list[Ability]]:
    """The ``kind`` abilities of the events in a deck list, by trigger name. A dealt deck list never
    changes and clones share it, so it is remembered by identity and length (the entry holds the list:
    its id cannot be reused while remembered; a list grown in place, as tests do, is looked at again)."""
    key = (kind, id(deck_list), len(deck_list))
    hit = _DECK_EVENTS.get(key)
    if hit is not None and hit[0] is deck_list:
        return hit[1]
    by_on: dict[str, list[Ability]] = {}
    cat = catalog()
    for cid in dict.fromkeys(deck_list):
        if cat[cid].type == "event":
            for _, ab in abilities(cid, kind):
                by_on.setdefault(ab.on or "", []).append(ab)
    if len(_DECK_EVENTS) >= 256:
        _DECK_EVENTS.clear()
    _DECK_EVENTS[key] = (deck_list, by_on)
    return by_on


def _in_play_option(s: CocState, trig: dict, kind: str, p: int, srcs: list[tuple[str, int]]) -> bool:
    """Has ``p`` a ``kind`` ability answering ``trig`` among ``srcs`` (``_sources``) that it can pay for?"""
    for src, ctl in srcs:
        if ctl != p:
            continue
        for _, ab in T.source_abilities(s, src, kind):
            if ab.on != trig["on"] or ab.zone == "hand":
                continue
            if ab.when is not None and not ab.when(s, {"src": src, "ctl": p}, trig):
                continue
            if T.cost_ok(s, p, src, ab):
                return True
    return False


def push_react(s: CocState, trig: dict, kind: str, seats: list[int] | None = None) -> None:
    """A reaction window for ``seats`` (``reaction_seats`` when not given: callers that just asked pass
    its answer)."""
    if seats is None:
        seats = reaction_seats(s, trig, kind)
    s.tasks.append({"t": "react", "kind": kind, "ev": trig, "seats": seats, "k": 0, "passes": 0, "used": []})

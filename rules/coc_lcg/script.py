"""How a card's text is written down: a :class:`Script` of :class:`Ability` records.

An ability is data: its kind (how and when it is used), the trigger it answers, its costs, and an ordered
list of effect ops built from the vocabulary in ``effects.py``. Passive text is a small function applied
while the card is in play (``constant`` for stats, ``cost`` for cost changes, ``no_commit`` /
``no_restore`` for prohibitions, ``state`` for state-based checks). A card whose text is only keywords
has an empty script: it is still *scripted*, because the engine knows it has nothing else to do.

``SCRIPTS`` maps card ids to scripts; the engine refuses to deal a card that has none
(``coc.card_unscripted``), so an unscripted card can never play as a blank one.

Writing a card (see ``scripts/*.py`` for all 165)::

    script("agency-t-men", Ability("forced", on="entered", when=this_card,
                                   ops=(Choose("t", char(woundable=True)), Do("wound"))))

Trigger names (``on``) raised by the engine: ``entered``, ``left`` (with ``how`` and ``dest``), ``played``
(``over`` when overpaid), ``discarded`` (a card reaching its owner's discard pile from anywhere, raised only for
cards whose text answers it), ``committed``, ``wounded``, ``insane``, ``restored``, ``token``, ``struggle_won``
(``icon``, ``margin``), ``success``, ``story_resolved`` (``chars``), ``story_won``, ``draw_phase``,
``ability_overpaid``; Disrupts answer ``initiated`` (an effect about to resolve, with its ``targets``) and
``would_wound``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

KINDS = ("action", "response", "forced", "disrupt", "constant", "cost", "no_commit", "no_restore", "state", "story")


@dataclass(frozen=True)
class Ability:
    kind: str
    ops: tuple[Any, ...] = ()
    on: str | None = None  # the trigger a response / forced response / disrupt answers
    when: Callable[..., bool] | None = None  # (state, ctx, event) -> bool; ctx = {"src", "ctl"}
    cost: tuple[Any, ...] = ()  # ("pay", n) | ("pay_x",) | ("exhaust",) | ("sacrifice",)
    req: Callable[..., bool] | None = None  # (state, ctx) -> bool: may it be used now at all
    zone: str = "play"  # where the card must be: play | hand (events) | discard; "late" for constants
    # applied after all others (they read the skill or icons other constants give)
    ops_only: bool = False  # "play only during your Operations phase": the active player's window
    committed: bool = False  # usable only while its source (or, with by_host, its host) is committed
    by_host: bool = False  # an attachment granting its host an ability: the host's controller uses it
    fn: Callable[..., Any] | None = None  # passive kinds: see the module docstring


@dataclass(frozen=True)
class Script:
    abilities: tuple[Ability, ...] = ()
    attach: Callable[..., bool] | None = None  # attachments: (state, ctx, host iid) -> may it go there
    enters_exhausted: Callable[..., bool] | None = None  # (state, controller) -> bool
    keywords_only: bool = field(default=False)  # no text beyond keywords and stats


SCRIPTS: dict[str, Script] = {}


def script(card_id: str, *abilities: Ability, **kw: Any) -> None:
    if card_id in SCRIPTS:
        raise ValueError(f"{card_id} scripted twice")
    SCRIPTS[card_id] = Script(abilities=tuple(abilities), **kw)
    _INDEX.clear()
    _HAVING.clear()
    TIMING.clear()
    _ANSWERING.clear()


_INDEX: dict[str | None, dict[str, list[tuple[int, Ability]]]] = {}
_HAVING: dict[tuple[str, str | None], frozenset[str]] = {}
# (event card id, window kind, trigger name, in its player's own operations step) -> whether the event's text lets it
# be played then (``playing._may_time``); read from scripts only, so emptied when one is registered
TIMING: dict[tuple[str, str, str | None, bool], bool] = {}
_ANSWERING: dict[tuple[str, str], frozenset[str]] = {}


def abilities(card_id: str, kind: str | None = None) -> list[tuple[int, Ability]]:
    """(index, ability) of a card's script, optionally of one kind (cached: scripts never change)."""
    by_card = _INDEX.get(kind)
    if by_card is None:
        by_card = _INDEX[kind] = {}
    found = by_card.get(card_id)
    if found is None:
        sc = SCRIPTS.get(card_id)
        found = [] if sc is None else [(i, a) for i, a in enumerate(sc.abilities) if kind is None or a.kind == kind]
        if sc is not None:
            by_card[card_id] = found
    return found


def having(kind: str, zone: str | None = None) -> frozenset[str]:
    """Card ids with at least one ability of ``kind`` (working from ``zone``, if given): scans over cards
    in play or in a pile skip the rest."""
    found = _HAVING.get((kind, zone))
    if found is None:
        found = _HAVING[kind, zone] = frozenset(
            c for c, sc in SCRIPTS.items() if any(a.kind == kind and zone in (None, a.zone) for a in sc.abilities))
    return found


def answering(kind: str, on: str) -> frozenset[str]:
    """Card ids with an ability of ``kind`` answering the trigger ``on`` (a subset of ``having(kind)``):
    reaction scans skip cards that cannot answer this trigger before reading the table about them."""
    found = _ANSWERING.get((kind, on))
    if found is None:
        found = _ANSWERING[kind, on] = frozenset(
            c for c, sc in SCRIPTS.items() if any(a.kind == kind and a.on == on for a in sc.abilities))
    return found

"""Card effects, written once per distinct effect and looked up by the effect id in the card data.

``play_card`` is the one way a card enters play (from hand, from cards an action drew, from a dream,
from the discard pile); it opens reaction windows where a surprise could answer. Effects that need a
choice push a ``choose`` frame whose options are public strings; ``CHOICES`` resolves the answer.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.core import Decision, Event, RuleError
from rules.fluxx_cthulhu import events as ev
from rules.fluxx_cthulhu.cards import ACTION, CREEPER, GOAL, KEEPER, RULE, SURPRISE, UNGOAL
from rules.fluxx_cthulhu.state import FlxState
from rules.fluxx_cthulhu.table import (
    ACTION_OR_RANDOM,
    CHOOSE,
    DEAL,
    DISCARD_INVESTIGATOR,
    REPLACE_GOAL,
    USE_DRAWN,
    C,
    attach_loose,
    discard_creeper,
    discard_keeper,
    discard_rules,
    draw,
    has_necronomicon,
    move_creeper,
    move_keeper,
    owner_of,
    place_creeper,
    place_goal,
    place_keeper,
    place_rule,
    push_window,
)

Effect = Callable[[FlxState, int, str, list[Event]], None]


# ====================================================================== playing a card
def play_card(s: FlxState, idx: int, card: str, source: str, counted: bool, events: list[Event]) -> None:
    p = s.players[idx]
    if counted:
        s.played += 1
    events.append(ev.CardPlayed(seat=p.seat, card=card, source=source, counted=counted))
    t = C[card].type
    if t == KEEPER:
        s.chain.append({"kind": "keeper", "card": card, "seat": p.seat})
        if not push_window(s, "keeper", card, p.seat):
            s.chain.pop()
            place_keeper(s, idx, card, events)
    elif t in (GOAL, UNGOAL):
        place_goal(s, idx, card, events)
    elif t == RULE:
        place_rule(s, idx, card, events)
    elif t == ACTION:
        s.chain.append({"kind": "action", "card": card, "seat": p.seat})
        if not push_window(s, "action", card, p.seat):
            s.chain.pop()
            resolve_action(s, idx, card, events)
    elif t == SURPRISE:
        events.append(ev.SurprisePlayed(seat=p.seat, card=card, mode="on"))
        s.chain.append({"kind": "surprise", "card": card, "seat": p.seat, "mode": "on"})
        push_window(s, "surprise", card, p.seat)  # resolved by the flow once the window closes
    elif t == CREEPER:
        place_creeper(s, idx, card, events)


def resolve_action(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    """FLX-R11: do what it says, then it is in the discard pile (``finish_resolving``)."""
    s.resolving.append((card, len(s.stack)))
    ACTIONS[C[card].effect or ""](s, idx, card, events)
    finish_resolving(s)


def resolve_on_turn_surprise(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    s.resolving.append((card, len(s.stack)))
    ACTIONS[C[card].on_turn or ""](s, idx, card, events)
    finish_resolving(s)


def finish_resolving(s: FlxState) -> bool:
    """Discard the innermost action being carried out once the decisions it set off are all answered (the
    stack is back to its depth when it began); True if one was discarded."""
    if s.resolving and len(s.stack) <= s.resolving[-1][1]:
        s.discard.append(s.resolving.pop()[0])
        return True
    return False


def _choose(s: FlxState, idx: int, effect: str, options: list[str], card: str, **extra: object) -> None:
    if options:
        s.stack.append(
            Decision(
                kind=CHOOSE,
                seats=[s.players[idx].seat],
                params={"effect": effect, "options": options, "card": card, **extra},
            )
        )


def _all_keepers(s: FlxState, skip: int | None = None) -> list[str]:
    return [k for i, p in enumerate(s.players) if i != skip for k in p.keepers]


# ====================================================================== action effects
def _dreams(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    p = s.players[idx]
    base = len(p.limbo)
    n = len(s.players)
    draw(s, idx, n, events, zone="limbo")
    if len(p.limbo) > base:
        order = [s.players[(idx + k) % n].seat for k in range(n)]
        s.stack.append(Decision(kind=DEAL, seats=[p.seat], params={"base": base, "to": order}))


def _play_from_discard(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    opts = sorted(
        {c for c in s.discard if c != card and (C[c].type == ACTION or (C[c].type == KEEPER and C[c].investigator))}
    )
    _choose(s, idx, "play_from_discard", opts, card)


def _mi_go(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    owes = []
    for i, p in enumerate(s.players):
        if "elder_sign" in p.keepers:
            continue
        inv = [k for k in p.keepers if C[k].investigator]
        if len(inv) == 1:
            discard_keeper(s, i, inv[0], "mi_go_migration", events)
        elif inv:
            owes.append(p.seat)
    if owes:
        s.stack.append(Decision(kind=DISCARD_INVESTIGATOR, seats=owes, params={"then": "mi_go_2"}))
    else:
        mi_go_part_two(s, events)


def mi_go_part_two(s: FlxState, events: list[Event]) -> None:
    i = owner_of(s, "mi_go")
    if i is None:
        return
    p = s.players[i]
    for k in [k for k in p.keepers if C[k].investigator]:
        if k in p.keepers:
            discard_keeper(s, i, k, "mi_go_migration", events)
    if "mi_go" in p.creepers:
        discard_creeper(s, i, "mi_go", "mi_go_migration", events)


def _fbi_raid(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    _choose(s, idx, "fbi_raid", _all_keepers(s), card)


def _revelations(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    draw(s, idx, 3 if has_necronomicon(s, s.players[idx]) else 2, events)


def _yellow_sign(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    opts = list(s.rules)
    if len(opts) > 1 and has_necronomicon(s, s.players[idx]):
        opts.append("all")
    _choose(s, idx, "trash_rule", opts, card)


def _exchange(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    mine = s.players[idx].keepers
    opts = [f"{m}>{t}" for m in mine for t in _all_keepers(s, skip=idx)]
    _choose(s, idx, "exchange_keepers", opts, card)


def _draw_use(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    p = s.players[idx]
    base = len(p.limbo)
    got = draw(s, idx, C[card].params.get("draw", 2), events, zone="limbo")
    left = min(C[card].params.get("play", 2), len(got))
    if left:
        s.stack.append(Decision(kind=USE_DRAWN, seats=[p.seat], params={"base": base, "left": left}))


def _steal(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    _choose(s, idx, "steal_keeper", _all_keepers(s, skip=idx), card)


def _trash_keeper(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    _choose(s, idx, "trash_keeper", _all_keepers(s), card)


def _trash_rule(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    _choose(s, idx, "trash_rule", list(s.rules), card)


def _rules_reset(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    if s.rules:
        discard_rules(s, s.players[idx].seat, list(s.rules), events)


def _extra_turn(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    s.extra_turns += 1
    events.append(ev.ExtraTurnGained(seat=s.players[idx].seat))


def _trade(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    _choose(s, idx, "trade_hands", [p.seat for i, p in enumerate(s.players) if i != idx], card)


def _rotate(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    hands = [p.hand for p in s.players]
    n = len(s.players)
    for i, p in enumerate(s.players):
        p.hand = hands[(i - 1) % n]
    events.append(ev.HandsSwapped(seats=[p.seat for p in s.players], kind="rotate"))


def _discard_draw(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    p = s.players[idx]
    gone, p.hand = p.hand, []
    if gone:
        s.discard.extend(gone)
        events.append(ev.CardsDiscarded(seat=p.seat, cards=gone, reason="card_effect"))
        draw(s, idx, len(gone), events)


def _banish(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    _choose(s, idx, "banish_creeper", list(s.players[idx].creepers), card)


def _ungoal_from_discard(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    _choose(s, idx, "ungoal_from_discard", sorted({c for c in s.discard if C[c].type == UNGOAL}), card)


def _others_discard(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    seats = [p.seat for i, p in enumerate(s.players) if i != idx and p.hand]
    if seats:
        s.stack.append(Decision(kind=ACTION_OR_RANDOM, seats=seats, params={"by": s.players[idx].seat}))


def _nothing(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    return None


ACTIONS: dict[str, Effect] = {
    "dreams_and_omens": _dreams,
    "play_from_discard": _play_from_discard,
    "mi_go_migration": _mi_go,
    "fbi_raid": _fbi_raid,
    "revelations": _revelations,
    "yellow_sign": _yellow_sign,
    "exchange_keepers": _exchange,
    "draw_use": _draw_use,
    "steal_keeper": _steal,
    "trash_keeper": _trash_keeper,
    "trash_rule": _trash_rule,
    "rules_reset": _rules_reset,
    "extra_turn": _extra_turn,
    "trade_hands": _trade,
    "rotate_hands": _rotate,
    "discard_draw": _discard_draw,
    "banish_creeper": _banish,
    "ungoal_from_discard": _ungoal_from_discard,
    "others_discard_action_or_random": _others_discard,
    "": _nothing,
}


# ====================================================================== answers to "choose"
def _c_play_from_discard(s: FlxState, idx: int, opt: str, params: dict, events: list[Event]) -> None:
    s.discard.remove(opt)
    play_card(s, idx, opt, "discard", False, events)


def _c_fbi(s: FlxState, idx: int, opt: str, params: dict, events: list[Event]) -> None:
    src = owner_of(s, opt)
    assert src is not None
    feds = owner_of(s, "feds")
    if feds is not None and opt != "feds" and feds != src:
        move_keeper(s, opt, src, feds, "fbi_raid", events)
    else:
        discard_keeper(s, src, opt, "fbi_raid", events)


def _c_trash_rule(s: FlxState, idx: int, opt: str, params: dict, events: list[Event]) -> None:
    discard_rules(s, s.players[idx].seat, list(s.rules) if opt == "all" else [opt], events)


def _c_exchange(s: FlxState, idx: int, opt: str, params: dict, events: list[Event]) -> None:
    mine, theirs = opt.split(">")
    other = owner_of(s, theirs)
    assert other is not None
    move_keeper(s, mine, idx, other, "exchange", events)
    move_keeper(s, theirs, other, idx, "exchange", events)


def _c_steal(s: FlxState, idx: int, opt: str, params: dict, events: list[Event]) -> None:
    src = owner_of(s, opt)
    assert src is not None
    move_keeper(s, opt, src, idx, "steal", events)


def _c_trash_keeper(s: FlxState, idx: int, opt: str, params: dict, events: list[Event]) -> None:
    src = owner_of(s, opt)
    assert src is not None
    discard_keeper(s, src, opt, "card_effect", events)


def _c_trade(s: FlxState, idx: int, opt: str, params: dict, events: list[Event]) -> None:
    j = s.seat_index(opt)
    assert j is not None
    a, b = s.players[idx], s.players[j]
    a.hand, b.hand = b.hand, a.hand
    events.append(ev.HandsSwapped(seats=[a.seat, b.seat], kind="trade"))


def _c_banish(s: FlxState, idx: int, opt: str, params: dict, events: list[Event]) -> None:
    discard_creeper(s, idx, opt, "card_effect", events)


def _c_ungoal(s: FlxState, idx: int, opt: str, params: dict, events: list[Event]) -> None:
    s.discard.remove(opt)
    place_goal(s, idx, opt, events)


def _c_replace_goal(s: FlxState, idx: int, opt: str, params: dict, events: list[Event]) -> None:
    """Double Agenda: the old goal the player chose leaves for the one they just played."""
    s.goals.remove(opt)
    s.discard.append(opt)
    events.append(ev.CardsDiscarded(seat=s.players[idx].seat, cards=[opt], reason=REPLACE_GOAL))


CHOICES: dict[str, Callable[[FlxState, int, str, dict, list[Event]], None]] = {
    "play_from_discard": _c_play_from_discard,
    "fbi_raid": _c_fbi,
    "trash_rule": _c_trash_rule,
    "exchange_keepers": _c_exchange,
    "steal_keeper": _c_steal,
    "trash_keeper": _c_trash_keeper,
    "trade_hands": _c_trade,
    "banish_creeper": _c_banish,
    "ungoal_from_discard": _c_ungoal,
    REPLACE_GOAL: _c_replace_goal,
}


# ====================================================================== free actions (FLX-R27)
def power_options(s: FlxState, idx: int) -> list[tuple[str, str | None, str | None]]:
    """Every free action the player on turn may take now, as (card, target, to)."""
    p = s.players[idx]
    out: list[tuple[str, str | None, str | None]] = []
    hidden = s.hidden
    for k in p.keepers:
        power = C[k].power
        if power is None:
            continue
        if power == "move_creeper":
            for j, q in enumerate(s.players):
                for cr in q.creepers:
                    if cr == hidden or s.attached.get(cr) == "necronomicon":
                        continue
                    for t, r in enumerate(s.players):
                        if t != j:
                            out.append((k, cr, r.seat))
        elif power == "hide_creeper":
            if hidden is not None:
                out.append((k, hidden, None))
            elif "elder_sign" not in s.used:
                out.extend((k, cr, None) for cr in p.creepers)
        elif power == "dreamer":  # only an attachment: a Nightmares still waiting for a keeper stays
            if "nightmares" in s.attached:
                out.append((k, "nightmares", None))
        elif power == "sanitarium":
            out.extend((k, cr, None) for cr in p.creepers if cr in ("nightmares", "insanity") and cr in s.attached)
        elif power == "feds":
            out.extend((k, kk, None) for kk in sorted(set(s.attached.values())) if kk != "feds")
        elif power == "reanimator":
            body_owner = owner_of(s, "the_body")
            if body_owner is not None and body_owner != idx and hidden != "the_body":
                out.append((k, "the_body", None))
    if "fear_of_the_unknown" in s.rules and "fear_of_the_unknown" not in s.used:
        out.append(("fear_of_the_unknown", None, None))
    return out


def any_time_powers(s: FlxState, idx: int) -> list[tuple[str, str | None, str | None]]:
    """Free actions open to a player whatever the moment, their turn or not: turning up the creeper hidden
    under their Elder Sign, which its card allows at any time (a hidden creeper is public knowledge)."""
    if s.hidden is not None and "elder_sign" in s.players[idx].keepers:
        return [("elder_sign", s.hidden, None)]
    return []


def reveal_hidden(s: FlxState, idx: int, events: list[Event]) -> None:
    """Turn up the creeper under the Elder Sign: it counts again (wins, Doom) and an attaching one fastens
    on again (FLX-R13)."""
    target = s.hidden
    assert target is not None
    s.hidden = None
    events.append(ev.CreeperHidden(seat=s.players[idx].seat, card=target, hidden=False))
    attach_loose(s, idx, events)


def use_power(s: FlxState, idx: int, card: str, target: str | None, to: str | None, events: list[Event]) -> None:
    if (card, target, to) not in power_options(s, idx):
        raise RuleError("flx.power_unavailable", card=card, target=target, to=to)
    p = s.players[idx]
    events.append(ev.PowerUsed(seat=p.seat, card=card, target=target, to=to))
    power = C[card].power if card != "fear_of_the_unknown" else "fear"
    if power == "move_creeper":
        assert target is not None and to is not None
        src = owner_of(s, target)
        dst = s.seat_index(to)
        assert src is not None and dst is not None
        move_creeper(s, target, src, dst, "necronomicon", events)
        if "necronomicon" in p.keepers:  # then the book goes back to its owner's hand
            for cr in [c for c, k in s.attached.items() if k == "necronomicon"]:
                del s.attached[cr]
            p.keepers.remove("necronomicon")
            p.hand.append("necronomicon")
            events.append(ev.CardReturned(seat=p.seat, card="necronomicon"))
    elif power == "hide_creeper":
        assert target is not None
        if s.hidden == target:
            reveal_hidden(s, idx, events)
        else:
            s.attached.pop(target, None)
            s.hidden = target
            s.used.append("elder_sign")
            events.append(ev.CreeperHidden(seat=p.seat, card=target, hidden=True))
    elif power in ("dreamer", "sanitarium"):
        assert target is not None
        src = owner_of(s, target)
        assert src is not None
        discard_creeper(s, src, target, card, events)
    elif power == "feds":
        assert target is not None
        src = owner_of(s, target)
        assert src is not None
        discard_keeper(s, src, target, "feds", events)
        if "feds" in p.keepers:
            discard_keeper(s, idx, "feds", "feds", events)
    elif power == "reanimator":
        src = owner_of(s, "the_body")
        assert src is not None
        move_creeper(s, "the_body", src, idx, "reanimator", events)
    elif power == "fear":
        s.used.append("fear_of_the_unknown")
        s.extra_plays += 1
        draw(s, idx, 1, events)

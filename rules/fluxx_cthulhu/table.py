"""Zone helpers shared by the turn flow and the card effects: drawing with creeper replacement, placing
and moving cards, rule look-ups, Doom and goal checks. All of them change the state they are given."""

from __future__ import annotations

from rules.core import Decision, Event
from rules.fluxx_cthulhu import events as ev
from rules.fluxx_cthulhu.cards import CREEPER, GOAL, SURPRISE, UNGOAL, catalog
from rules.fluxx_cthulhu.state import FlxState, PlayerState

C = catalog()

# Decision frame kinds
REACT = "react"  # reaction window: everyone but the trigger's player answers pass or a surprise
HAND_LIMIT = "hand_limit"
KEEPER_LIMIT = "keeper_limit"
USE_DRAWN = "use_drawn"  # play cards an action drew (params: base, left)
DEAL = "deal_dreams"  # Dreams and Omens: give the drawn cards out (params: base, to)
PLAY_DREAM = "play_dream"
CHOOSE = "choose"  # generic: params effect, options (public strings)
ACTION_OR_RANDOM = "discard_action_or_random"
DISCARD_INVESTIGATOR = "discard_investigator"

SURPRISES = ("secret_cultist", "twist_of_fate", "disorder_of_the_stars")
# What each reaction trigger lets an off-turn surprise do (FLX-R15); a surprise trigger lets any cancel.
TRIGGER_EFFECT = {"keeper": "hijack_played_keeper", "action": "cancel_action", "ungoal": "win_on_ungoal"}
MODE = {"hijack_played_keeper": "hijack", "cancel_action": "cancel", "win_on_ungoal": "win"}


# ------------------------------------------------------------------ rules in force
def rule_value(s: FlxState, category: str) -> int | str | None:
    for r in s.rules:
        if C[r].category == category:
            return C[r].value
    return None


def has_category(s: FlxState, category: str) -> bool:
    for r in s.rules:
        if C[r].category == category:
            return True
    return False


def has_necronomicon(s: FlxState, p: PlayerState) -> bool:
    """For Actions and New Rules: the Librarian stands in while the book is nowhere on the table."""
    if "necronomicon" in p.keepers:
        return True
    if "librarian" in p.keepers:
        return not any("necronomicon" in q.keepers for q in s.players)
    return False


def draw_target(s: FlxState, idx: int) -> int:
    n = int(rule_value(s, "draw") or 1)
    p = s.players[idx]
    bonus = rule_value(s, "draw_bonus")
    if bonus is not None:
        n += max(0, min(own_doom(s, p), int(bonus)))
    if has_category(s, "studies") and has_necronomicon(s, p):
        n += 1
    return n


def must_play(s: FlxState) -> bool:
    """FLX-R6/R7: whether the player on turn still owes a play under the rules in force right now."""
    hand = s.players[s.current].hand
    if not hand:
        return False
    v = rule_value(s, "play")
    if v == "all":
        return True
    if v == "all_but_1":
        return len(hand) > 1 or s.played < s.extra_plays
    return s.played < int(v or 1) + s.extra_plays


def play_target(s: FlxState) -> int | str:
    v = rule_value(s, "play") or 1
    return v + s.extra_plays if isinstance(v, int) else v


# ------------------------------------------------------------------ doom and goals
def own_doom(s: FlxState, p: PlayerState) -> int:
    """FLX-R18/R19: a player's Doom icons minus their blessings; a creeper under the Elder Sign is out.

    A blessing cancels a Doom icon of its own player only, so a player's count stops at 0: spare
    blessings never lower anyone else's Doom nor the table's (which is the sum of these counts)."""
    total = 0
    for k in p.keepers:
        c = C[k]
        total += c.doom - c.blessing
    hidden = s.hidden
    for k in p.creepers:
        if k != hidden:
            total += C[k].doom
    return total if total > 0 else 0


def table_doom(s: FlxState) -> int:
    return sum(own_doom(s, p) for p in s.players)


def visible(s: FlxState, p: PlayerState) -> set[str]:
    out = set(p.keepers)
    out.update(p.creepers)
    out.discard(s.hidden)
    return out


def meets_goal(s: FlxState, p: PlayerState, goal: str, have: set[str] | None = None) -> bool:
    c = C[goal]
    if have is None:
        have = visible(s, p)
    for x in c.all_of:
        if x not in have:
            return False
    if c.investigators_at_least and sum(1 for k in p.keepers if C[k].investigator) < c.investigators_at_least:
        return False
    if c.doom_scope == "self" and own_doom(s, p) < (c.doom_at_least or 0):
        return False
    if c.doom_scope == "table" and table_doom(s) < (c.doom_at_least or 0):
        return False
    if not c.any_creepers:
        hidden = s.hidden
        for cr in p.creepers:
            if cr != hidden and cr not in c.allowed_creepers and cr not in c.all_of:
                return False
    return True


def ungoal_met(s: FlxState, ungoal: str, doom: int | None = None) -> bool:
    """FLX-R25: whether ``ungoal``'s condition holds; ``doom`` stands in for the table's Doom (the AI asks
    what a keeper about to be played would make of it)."""
    c = C[ungoal]
    if c.someone_has and not any(all(x in visible(s, p) for x in c.someone_has) for p in s.players):
        return False
    if c.doom_at_least is None:
        return True
    return (table_doom(s) if doom is None else doom) >= c.doom_at_least


def live(s: FlxState, card: str) -> bool:
    """Whether ``card`` might be in someone's hand as far as the table can tell (not discarded, not
    in the chain, part of this deck). Windows open on this public fact, never on who holds what."""
    if card not in C or (C[card].house and not s.options.house_cards):
        return False
    if card in s.discard:
        return False
    for item in s.chain:
        if item["card"] == card:
            return False
    return all(c != card for c, _ in s.resolving)


def owner_of(s: FlxState, card: str) -> int | None:
    for i, p in enumerate(s.players):
        if card in p.keepers or card in p.creepers:
            return i
    return None


# ------------------------------------------------------------------ moving cards
def draw(s: FlxState, idx: int, n: int, events: list[Event], zone: str = "hand") -> list[str]:
    """Draw ``n`` non-creeper cards; each creeper drawn goes in front of the drawer and is replaced
    (FLX-R12), the deck is rebuilt from the discard pile when empty (FLX-R22)."""
    p = s.players[idx]
    got: list[str] = []
    while len(got) < n:
        if not s.deck:
            if not s.discard:
                break
            s.deck = s.discard
            s.discard = []
            s.rng.shuffle(s.deck)
            events.append(ev.Reshuffled(count=len(s.deck)))
        c = s.deck.pop()
        if C[c].type == CREEPER:
            place_creeper(s, idx, c, events)
            continue
        got.append(c)
    if got:
        getattr(p, zone).extend(got)
        events.append(ev.CardsDrawn(seat=p.seat, count=len(got), zone=zone))
        events.append(ev.CardsDrawn(seat=p.seat, count=len(got), zone=zone, cards=got, audience=p.seat))
    return got


def _free_keeper(s: FlxState, p: PlayerState) -> str | None:
    taken = set(s.attached.values())
    for k in p.keepers:
        if k not in taken:
            return k
    return None


def place_creeper(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    p = s.players[idx]
    p.creepers.append(card)
    target = _free_keeper(s, p) if C[card].attaches else None
    if target is not None:
        s.attached[card] = target
    events.append(ev.CreeperPlaced(seat=p.seat, card=card, attached_to=target))


def attach_loose(s: FlxState, idx: int, events: list[Event]) -> None:
    """FLX-R13: a waiting attaching creeper fastens onto a keeper as soon as one is free."""
    p = s.players[idx]
    for cr in p.creepers:
        if C[cr].attaches and cr not in s.attached and cr != s.hidden:
            k = _free_keeper(s, p)
            if k is None:
                return
            s.attached[cr] = k
            events.append(ev.CreeperAttached(seat=p.seat, card=cr, keeper=k))


def place_keeper(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    s.players[idx].keepers.append(card)
    events.append(ev.KeeperPlaced(seat=s.players[idx].seat, card=card))
    attach_loose(s, idx, events)


def attachments(s: FlxState, keeper: str) -> list[str]:
    return [cr for cr, k in s.attached.items() if k == keeper]


def move_keeper(s: FlxState, card: str, src: int, dst: int, reason: str, events: list[Event]) -> None:
    a, b = s.players[src], s.players[dst]
    a.keepers.remove(card)
    b.keepers.append(card)
    if card == "elder_sign":
        s.hidden = None
    for cr in attachments(s, card):
        a.creepers.remove(cr)
        b.creepers.append(cr)
    events.append(ev.CardMoved(card=card, from_seat=a.seat, to_seat=b.seat, reason=reason))
    attach_loose(s, dst, events)
    if card == "elder_sign":  # the creeper it hid stays behind, face up again
        attach_loose(s, src, events)


def move_creeper(s: FlxState, card: str, src: int, dst: int, reason: str, events: list[Event]) -> None:
    if card in s.attached:  # the keeper travels with it (Necronomicon ruling)
        move_keeper(s, s.attached[card], src, dst, reason, events)
        return
    a, b = s.players[src], s.players[dst]
    a.creepers.remove(card)
    if s.hidden == card:
        s.hidden = None
    b.creepers.append(card)
    events.append(ev.CardMoved(card=card, from_seat=a.seat, to_seat=b.seat, reason=reason))
    if C[card].attaches:
        k = _free_keeper(s, b)
        if k is not None:
            s.attached[card] = k
            events.append(ev.CreeperAttached(seat=b.seat, card=card, keeper=k))


def discard_keeper(s: FlxState, idx: int, card: str, reason: str, events: list[Event]) -> None:
    p = s.players[idx]
    p.keepers.remove(card)
    gone = [card]
    if card == "elder_sign":
        s.hidden = None
    for cr in attachments(s, card):
        del s.attached[cr]
        p.creepers.remove(cr)
        gone.append(cr)
    s.discard.extend(gone)
    events.append(ev.CardsDiscarded(seat=p.seat, cards=gone, reason=reason))
    if card == "elder_sign":  # the creeper it hid is face up again and may attach
        attach_loose(s, idx, events)


def discard_creeper(s: FlxState, idx: int, card: str, reason: str, events: list[Event]) -> None:
    p = s.players[idx]
    p.creepers.remove(card)
    s.attached.pop(card, None)
    if s.hidden == card:
        s.hidden = None
    s.discard.append(card)
    events.append(ev.CardsDiscarded(seat=p.seat, cards=[card], reason=reason))


def discard_from_hand(s: FlxState, idx: int, card: str, reason: str, events: list[Event]) -> None:
    p = s.players[idx]
    p.hand.remove(card)
    s.discard.append(card)
    events.append(ev.CardsDiscarded(seat=p.seat, cards=[card], reason=reason))


def place_rule(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    """FLX-R8: a New Rule replaces the one of its category; other categories coexist."""
    cat = C[card].category
    replaced = [r for r in s.rules if cat is not None and C[r].category == cat]
    for r in replaced:
        s.rules.remove(r)
        s.discard.append(r)
    s.rules.append(card)
    events.append(ev.RulePlaced(seat=s.players[idx].seat, card=card, replaced=replaced))
    trim_goals(s, events)


def discard_rules(s: FlxState, seat: str, rules: list[str], events: list[Event]) -> None:
    for r in rules:
        s.rules.remove(r)
        s.discard.append(r)
    events.append(ev.CardsDiscarded(seat=seat, cards=list(rules), reason="rule_removed"))
    trim_goals(s, events)


def _goal_caps(s: FlxState) -> tuple[int, bool]:
    return (2 if has_category(s, "goal_count") else 1), has_category(s, "goal_ungoal_coexist")


REPLACE_GOAL = "replace_goal"  # CHOOSE effect: which old goal a goal played under Double Agenda replaces


def place_goal(s: FlxState, idx: int, card: str, events: list[Event]) -> None:
    """FLX-R9/R14: a goal or ungoal replaces the one in its spot. The Stars Are Right gives ungoals a spot
    of their own. Double Agenda makes two spots: a third goal comes into play beside them and its player
    chooses which of the two old ones to discard (until then ``trim_goals`` leaves the three alone, and
    the win check sees the new goal at once, FLX-R21)."""
    cap, stars = _goal_caps(s)
    kind = C[card].type
    pool_cap = (cap if kind == GOAL else 1) if stars else cap
    pool = [g for g in s.goals if not stars or C[g].type == kind]
    replaced = []
    if len(pool) >= pool_cap and pool_cap == 1:
        for g in pool:
            s.goals.remove(g)
            s.discard.append(g)
            replaced.append(g)
    s.goals.append(card)
    events.append(ev.GoalPlaced(seat=s.players[idx].seat, card=card, replaced=replaced))
    if len(pool) >= pool_cap > 1:
        s.stack.append(Decision(kind=CHOOSE, seats=[s.players[idx].seat],
                                params={"effect": REPLACE_GOAL, "options": pool, "card": card}))


def replacing_goal(s: FlxState) -> bool:
    """Whether a player still owes the choice of the goal their new one replaces (see ``place_goal``)."""
    return any(f.kind == CHOOSE and f.params.get("effect") == REPLACE_GOAL for f in s.stack)


def trim_goals(s: FlxState, events: list[Event]) -> None:
    """Discard the oldest goals beyond the spots the rules in force allow (a spot was lost)."""
    if s.goals and replacing_goal(s):
        return
    cap, stars = _goal_caps(s)
    gone = []
    while True:
        if stars:
            goals = [g for g in s.goals if C[g].type == GOAL]
            ungoals = [g for g in s.goals if C[g].type == UNGOAL]
            victim = goals[0] if len(goals) > cap else ungoals[0] if len(ungoals) > 1 else None
        else:
            victim = s.goals[0] if len(s.goals) > cap else None
        if victim is None:
            break
        s.goals.remove(victim)
        s.discard.append(victim)
        gone.append(victim)
    if gone:
        events.append(ev.CardsDiscarded(seat=None, cards=gone, reason="goal_spot_lost"))


def other_seats(s: FlxState, seat: str | None) -> list[str]:
    return [p.seat for p in s.players if p.seat != seat]


def push_window(s: FlxState, trigger: str, card: str, by: str | None) -> bool:
    """Open a reaction window if a surprise that could answer this trigger is still live."""
    if trigger == "surprise":
        if not any(live(s, x) for x in SURPRISES if x != card):
            return False
    else:
        want = TRIGGER_EFFECT[trigger]
        if not any(live(s, x) for x in SURPRISES if C[x].off_turn == want):
            return False
    seats = other_seats(s, by)
    if not seats:
        return False
    s.stack.append(Decision(kind=REACT, seats=seats, params={"trigger": trigger, "card": card, "by": by}))
    return True


def surprise_mode(trigger: str, card: str) -> str | None:
    """How ``card`` answers a window opened for ``trigger``, or None if it does not apply."""
    c = C.get(card)
    if c is None or c.type != SURPRISE:
        return None
    if trigger == "surprise":
        return "cancel"
    want = TRIGGER_EFFECT.get(trigger)
    return MODE[want] if want is not None and c.off_turn == want else None


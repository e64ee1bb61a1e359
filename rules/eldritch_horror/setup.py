"""Setting up a game (digest §3, steps 1-9) and equipping a new or replacement investigator (EH-R63)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.core import Rng, RuleError
from rules.core import errors as E
from rules.eldritch_horror import people as P
from rules.eldritch_horror import progress as G
from rules.eldritch_horror import world as W
from rules.eldritch_horror.data import COLOURS, load
from rules.eldritch_horror.effects import set_expedition
from rules.eldritch_horror.events import EhEvent
from rules.eldritch_horror.machine import PHASE_STEP, ask, ev, push, resume
from rules.eldritch_horror.options import EhOptions
from rules.eldritch_horror.state import EhState

C = load()
ENCOUNTER_DECKS = ("general", "america", "europe", "asia_australia", "other_world", "expedition")


def mythos_pool(difficulty: str) -> dict[str, list[str]]:
    """Mythos cards by colour for a difficulty: easy drops the hard cards, hard the easy ones."""
    banned = {"easy": "hard", "hard": "easy"}.get(difficulty)
    return {c: sorted(k for k, m in C.mythos.items() if m["color"] == c and m["difficulty"] != banned) for c in COLOURS}


def build_mythos(state: EhState, rng: Rng) -> None:
    """Setup step 8: deal each stage from the shuffled colour piles; stage I ends up on top."""
    pools = mythos_pool(state.difficulty)
    for pile in pools.values():
        rng.shuffle(pile)
    stages = []
    for stage in ("stage1", "stage2", "stage3"):
        cards = []
        for colour, n in zip(COLOURS, C.ancient_ones[state.ancient_one]["mythos"][stage], strict=True):
            cards += [pools[colour].pop() for _ in range(n)]
        rng.shuffle(cards)
        stages.append(cards)
    # the deck is drawn from the end of the list: stage III first in the list, stage I last
    state.mythos_deck = stages[2] + stages[1] + stages[0]
    state.decks["mythos_box"] = sorted(c for pile in pools.values() for c in pile)


def equip(state: EhState, i: int, events: list[EhEvent]) -> None:
    """Setup step 4: starting possessions; health and sanity are already at their maximum."""
    inv = state.investigators[i]
    data = C.investigators[inv["name"]]
    for name in data["assets"]:
        card = P.draw_matching(state, "assets", lambda c, n=name: c == n)
        if card is None and name in state.reserve:
            state.reserve.remove(name)
            P.refill_reserve(state)
            card = name
        if card is not None:
            inv["assets"].append(card)
    for name in data["spells"]:
        card = P.draw_matching(state, "spells", lambda c, n=name: P.kind_of(c) == n)
        if card is not None:
            inv["spells"].append(card)
    for _ in range(data["clues"]):
        P.gain_clue(state, i, events)
    if data["improve_at_setup"]:
        push(state, [{"op": "improve_skill", "skill": "any", "n": 1}], {"inv": i, "bound": i})


def new_state(seats: Sequence[str], opts: EhOptions, seed: int) -> tuple[EhState, list[EhEvent]]:
    seats = E.checked_seats(seats, 1, 8)
    count = opts.investigators or len(seats)
    if count < len(seats):
        raise RuleError("eh.too_few_investigators", investigators=count, seats=len(seats))
    chosen = list(opts.chosen)
    unknown = [n for n in chosen if n not in C.investigators]
    if unknown or len(set(chosen)) != len(chosen) or len(chosen) > count:
        raise RuleError("eh.bad_investigators", names=", ".join(unknown or chosen))
    rng = Rng.from_seed(seed)
    ao = opts.ancient_one if opts.ancient_one != "random" else sorted(C.ancient_ones)[rng.below(len(C.ancient_ones))]
    rest = sorted(n for n in C.investigators if n not in chosen)
    rng.shuffle(rest)
    names = chosen + rest[: count - len(chosen)]
    events: list[EhEvent] = []
    state = EhState(
        seats=seats, ancient_one=ao, difficulty=opts.difficulty, rng=rng,
        investigators=[P.new_investigator(n, seats[k % len(seats)]) for k, n in enumerate(names)],
        unused=sorted(rest[count - len(chosen):]),
    )
    if opts.lead == "random":  # step 3: the players cannot agree, so chance decides
        state.lead = rng.below(len(state.investigators))
    if opts.pick == "players" and len(chosen) < count:
        # step 3: from the lead, each player whose investigator was not named picks one; until then the slot
        # holds a stand-in from the random draw (kept in ``unused``, shown to nobody)
        state.picking = [k for k in W.order(state) if k >= len(chosen)]
        state.unused = sorted(set(state.unused) | set(names[len(chosen):]))
        for k in state.picking:
            state.investigators[k]["status"] = "choosing"
    aod = C.ancient_ones[ao]
    # step 2: gate stack, clue pool, monster cup (epic monsters boxed, the Ancient One's set aside)
    state.gate_stack = sorted(C.gate_tokens)
    rng.shuffle(state.gate_stack)
    state.clue_pool = sorted(C.spaces)
    state.cup = sorted(m for m in W.TOKENS if not W.is_epic(m))
    state.box = sorted(m for m in W.TOKENS if W.is_epic(m))
    for name in aod["set_aside"]:
        mid = next(m for m in state.cup if W.TOKENS[m] == name)
        state.cup.remove(mid)
        state.set_aside.append(mid)
    # step 7: decks (research, special and mystery decks of this Ancient One only)
    decks = {d: sorted(C.decks[d]) for d in ENCOUNTER_DECKS}
    decks["research"] = sorted(C.decks["research_" + ao.lower().replace("-", "_")])
    decks["special"] = sorted(c for c in C.decks["special"] if C.encounters[c].get("mystery") == aod["special_deck"])
    decks["assets"] = sorted(C.assets)
    decks["artifacts"] = sorted(C.artifacts)
    decks["spells"] = sorted(f"{n}#{k}" for n, s in C.spells.items() for k in range(s["copies"]))
    decks["conditions"] = sorted(f"{n}#{k}" for n, c in C.conditions.items() for k in range(c["copies"]))
    for cards in decks.values():
        rng.shuffle(cards)
    state.decks = decks
    state.discards = {d: [] for d in decks}
    state.mystery_deck = list(aod["mysteries"])
    rng.shuffle(state.mystery_deck)
    build_mythos(state, rng)
    state.doom = aod["doom"]
    if state.picking:
        state.phase = "setup"
    else:
        finish_setup(state, events)
    return state, events


def finish_setup(state: EhState, events: list[EhEvent]) -> None:
    """Steps 4 and 9, once every investigator is known: possessions, the reserve, the Ancient One's setup,
    the first gates, the expedition, clues and the first mystery."""
    aod = C.ancient_ones[state.ancient_one]
    state.phase = "action"
    P.refill_reserve(state)
    for i in range(len(state.investigators)):
        equip(state, i, events)
    push(state, aod["setup"], {"inv": None})
    ref = C.reference_for(len(state.investigators))
    for _ in range(ref["spawn_gates"]):
        W.spawn_gate(state, events)
    set_expedition(state)
    for _ in range(ref["spawn_clues"]):
        W.spawn_clue(state, events)
    G.enter_mystery(state, events)
    ev(events, "setup", ancient_one=state.ancient_one, investigators=[inv["name"] for inv in state.investigators])


def setup_step(state: EhState, events: list[EhEvent]) -> None:
    """Setup step 3, one pick at a time: the next player in turn names an unused investigator, or leaves
    it to chance."""
    if not state.picking:
        finish_setup(state, events)
        return
    ask(state, "pick_investigator", state.picking[0], [*state.unused, "random"])


@resume("pick_investigator")
def _resume_pick(state: EhState, frame: Any, choice: str, events: list[EhEvent]) -> None:
    k = state.picking.pop(0)
    name = state.unused[state.rng.below(len(state.unused))] if choice == "random" else choice
    state.unused.remove(name)
    seat = state.investigators[k]["seat"]
    state.investigators[k] = P.new_investigator(name, seat)
    ev(events, "picked", investigator=name, seat=seat)


PHASE_STEP["setup"] = setup_step

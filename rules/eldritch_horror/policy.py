"""A purposeful Eldritch Horror investigator: the AI's play at the normal level and the searcher's rollouts.

Random investigators lose every game: they wander, rest at full health and never put a clue on the
mystery. The investigators win by solving three mysteries (EH-R73/R74) before doom runs out (EH-R34),
and with two investigators a mystery is small (one to four tokens, EH-R73), so the plan is simple and
written down here rather than searched for:

* the active mystery says where its progress is made (clue spaces for research mysteries, gates for the
  gate mysteries, its own space or the spaces with Eldritch tokens for its encounter, the epic monster's
  space, any monster) and what it costs (usually clues); an investigator short of the cost goes for clues
  first; an open gate pulls hard because open gates advance doom (EH-R32), and a rumor's space pulls
  harder as its countdown runs out (EH-R76);
* in the Action phase (EH-R8..R19) an investigator near defeat rests first and keeps off monsters;
  otherwise it travels towards the best such space (a space it can reach this round counts for most; a
  clue the partner stands on counts less, so the two spread out), rests when hurt, prepares a ticket
  when the target is far, acquires assets in a city, and otherwise ends;
* in the Encounter phase it takes the encounter that advances the mystery, closes a gate, solves a
  rumor, or gains clues;
* a reroll is taken while the test is still failing; a clue pays for it when the clue is spare, or in a
  test that decides a gate, a research clue or the mystery's own step (EH-R53);
* putting a clue on the mystery, paying its cost and the like are always accepted;
* every other small choice (which reward, which condition, what to buy) is judged one step ahead on a
  sample of what the seat could imagine (``engine.determinize``: no peeking), played on briefly by this
  same policy without that look-ahead, and scored by :func:`worth`.

Everything here reads only the table (public in Eldritch Horror) through what ``determinize`` keeps.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from rules.core import Rng, RuleError
from rules.eldritch_horror import world as W
from rules.eldritch_horror.actions import Choose
from rules.eldritch_horror.data import load
from rules.eldritch_horror.state import EhState

C = load()
# Tuned on 60-game runs per Ancient One (benchmarks/ai.py): an open gate's pull (3 and 9 won less often
# than 6), the health or sanity at which an investigator rests first and keeps away from monsters (2 and 4
# lost more games than 3), and what losing a turn to Delayed costs in ``worth``.
GATE = 6.0
FRAGILE = 3
DELAY = 3.0
DIST = C.distances


# ---------------------------------------------------------------- judging a position


def worth(state: EhState) -> float:
    """How well the team stands, in rough "rounds of progress": solved mysteries dominate, then tokens on
    the current mystery, then doom left and gates open, then clues and the investigators' shape (health and
    sanity counted with diminishing returns, since the last points are the ones that matter)."""
    if state.outcome is not None:
        return 1000.0 if state.outcome.get("won") else -1000.0
    total = 30.0 * len(state.solved) + 2.0 * state.doom - 3.0 * len(state.gates) - 0.4 * len(state.monsters)
    if state.awakened:
        total -= 25.0
    if state.final is not None and state.final.get("solved"):
        total += 30.0
    need = _need(state)
    if state.mystery is not None and need:
        total += 25.0 * min(1.0, state.mystery["tokens"] / need)
    elif state.mystery is not None:  # an epic monster to defeat: the wounds it carries are the progress
        epic = C.mysteries[state.mystery["name"]]["solve"].get("defeat_epic")
        for m in state.monsters:
            if W.TOKENS[m["id"]] == epic:
                total += 20.0 * min(1.0, m.get("damage", 0) / max(1, W.toughness(state, m["id"])))
    if state.final is not None:
        total += 3.0 * state.final.get("tokens", 0)
    for card in state.in_play:  # a rumor's Eldritch tokens are the time left before it strikes
        if C.mythos[card["id"]].get("subtype") == "rumor":
            total -= _rumor_threat(card)
    for inv in state.investigators:
        if inv["status"] != "active":
            total -= 12.0
            continue
        data = C.investigators[inv["name"]]
        total += _vital(inv["health"], data["health"]) + _vital(inv["sanity"], data["sanity"])
        total += 2.5 * min(len(inv["clues"]), 4) + 0.8 * max(0, len(inv["clues"]) - 4)
        total += 1.2 * len(inv["assets"]) + 2.0 * len(inv["artifacts"]) + 1.2 * len(inv["spells"])
        total += 0.8 * sum(inv["improve"].values()) + 0.3 * sum(inv["tickets"].values())
        total -= 1.5 * len(inv["conditions"]) + (DELAY if inv["delayed"] else 0.0)
    return total


def _rumor_threat(card: dict[str, Any]) -> float:
    """A rumor in play hurts more as its Eldritch tokens (its countdown, EH-R76) run out."""
    return 3.0 + 10.0 / (1.0 + max(0, int(card.get("eldritch") or 0)))


def _vital(now: int, most: int) -> float:
    """Health or sanity: each point near zero is worth far more than one near the maximum."""
    now = max(0, min(now, most))
    return sum(3.0 if k < 2 else 1.5 if k < 4 else 0.6 for k in range(now))


# ---------------------------------------------------------------- what the mystery wants


def _need(state: EhState) -> int:
    """Tokens the active mystery needs (0 for an epic monster to defeat)."""
    if state.mystery is None:
        return 0
    need = C.mysteries[state.mystery["name"]]["solve"].get("tokens")
    return 0 if need is None else W.amount(state, need)


def _cost(progress: dict[str, Any] | None) -> int:
    """Clues the mystery's step costs (a cost on its own encounter's optional step counts too)."""
    if not progress:
        return 0
    total = sum(int(c.get("n", 1)) for c in progress.get("cost", [])
                if c.get("op") == "spend" and c.get("what") == "clue")
    for eff in progress.get("effects", []):
        total = max(total, _effect_cost(eff))
    return total


def _effect_cost(eff: dict[str, Any]) -> int:
    own = sum(int(c.get("n", 1)) for c in eff.get("cost", []) if c.get("op") == "spend" and c.get("what") == "clue")
    inner = [_effect_cost(e) for key in ("pass", "then", "if_defeated") for e in eff.get(key, [])]
    return max([own, *inner])


def reserve(state: EhState) -> int:
    """Clues an investigator keeps back for the mystery instead of spending them on rerolls."""
    progress = (C.mysteries[state.mystery["name"]].get("progress") if state.mystery else None) or {}
    if progress.get("on") == "research_clue":
        return 0
    return _cost(progress)


def _strong(inv: dict[str, Any]) -> bool:
    """More than half health and sanity left: fit to seek out a fight."""
    data = C.investigators[inv["name"]]
    return inv["health"] * 2 > data["health"] and inv["sanity"] * 2 > data["sanity"]


def fragile(inv: dict[str, Any]) -> bool:
    """Close enough to defeat that one bad fight or failed test could end the investigator (EH: defeat
    loses every possession and clue)."""
    return inv["health"] <= FRAGILE or inv["sanity"] <= FRAGILE


def goals(state: EhState, i: int) -> dict[str, float]:
    """Space -> how much investigator ``i`` gains by having an encounter there this round."""
    inv = state.investigators[i]
    clues = len(inv["clues"])
    out: dict[str, float] = {}

    def add(space: str | None, value: float) -> None:
        if space:
            out[space] = out.get(space, 0.0) + value

    mystery = state.mystery
    md = C.mysteries[mystery["name"]] if mystery else None
    progress = (md or {}).get("progress") or {}
    on = progress.get("on")
    cost = _cost(progress)
    want_clues = 3.0 + (4.0 if on == "research_clue" else 2.5 if clues < max(cost, 1) else 0.0)
    if state.decks.get("research") or state.discards.get("research"):
        for s in state.clues:
            add(s, want_clues)
    omen = W.omen_colour(state)
    nxt = C.omen_track[(state.omen + 1) % len(C.omen_track)]
    for g in state.gates:
        value = GATE + (2.0 if C.gate_tokens[g] == nxt else 0.0)
        if on == "gate_closed":
            if progress.get("omen_match"):
                value += 6.0 if C.gate_tokens[g] == omen and clues >= cost else 1.0
            elif len(inv["spells"]) >= 2:
                value += 6.0
        add(g, value)
    if mystery and md is not None:
        ready = clues >= cost
        if on in ("encounter", "special") and progress.get("at") == "mystery_space":
            add(mystery.get("space"), 10.0 if ready else 0.0)
        if on == "encounter" and progress.get("at") == "eldritch_space":
            for s, n in state.space_eldritch.items():
                if n:
                    add(s, 10.0 if ready else 0.0)
        if on == "monster_defeated" and ready and _strong(inv):
            for m in state.monsters:
                if not W.is_epic(m["id"]):
                    add(m["space"], 4.0)
        epic = md["solve"].get("defeat_epic")
        if epic and _strong(inv):
            for m in state.monsters:
                if W.TOKENS[m["id"]] == epic:
                    add(m["space"], 9.0)
    if state.expedition:
        add(state.expedition, 1.5)
    for s, card_id in state.rumors.items():
        card = next((m for m in state.in_play if m["id"] == card_id), None)
        solvable = any(r["op"] == "rumor_encounter" for r in C.mythos[card_id].get("solve") or [])
        if card is not None and solvable:
            add(s, _rumor_threat(card) if clues >= W.amount(state, "half_investigators") else 1.0)
    monsters_here: dict[str, int] = {}
    for m in state.monsters:
        monsters_here[m["space"]] = monsters_here.get(m["space"], 0) + 1
    for s in list(out):
        if monsters_here.get(s) and not (on == "monster_defeated" or (md or {}).get("solve", {}).get("defeat_epic")):
            out[s] -= 1.5 * monsters_here[s] * (1.0 if _strong(inv) else 2.0) + (8.0 if fragile(inv) else 0.0)
    for j in W.active(state):  # the partner's likely target is worth less to me
        if j != i:
            other = state.investigators[j]["space"]
            if other in out and other in state.clues:
                out[other] -= 3.0
    return out


def _score(targets: dict[str, float], space: str) -> float:
    """A space's worth: a target there now counts fully, one further away less for each step."""
    best = targets.get(space, 0.0)
    for t, v in targets.items():
        if v > 0:
            best = max(best, v - 2.0 * DIST[space][t] - 0.5)
    return best


# ---------------------------------------------------------------- decisions


def _options(actions: list[BaseModel]) -> list[str] | None:
    options = [a.option for a in actions if isinstance(a, Choose)]
    return options if len(options) == len(actions) else None


def _act(state: EhState, i: int, options: list[str]) -> str | None:
    """One Action-phase action (EH-R8..R19)."""
    inv = state.investigators[i]
    data = C.investigators[inv["name"]]
    here = inv["space"]
    targets = goals(state, i)
    stay = _score(targets, here)
    travels = [o for o in options if o.startswith("travel:")]
    if "rest" in options and fragile(inv):
        return "rest"
    if travels:
        best = max(travels, key=lambda o: (_score(targets, o.rsplit(">", 1)[-1].split(":", 1)[-1]), -len(o)))
        dest = best.rsplit(">", 1)[-1].split(":", 1)[-1]
        gain = _score(targets, dest) - stay
        far = targets and max(targets.values()) > 0 and DIST[dest].get(max(targets, key=targets.__getitem__), 0) >= 1
        prep = [o for o in options if o.startswith("prepare:")]
        if gain > 0.5:
            if prep and far and sum(inv["tickets"].values()) == 0:
                return _ticket(here, targets, prep)
            return best
    if "rest" in options and (inv["health"] < data["health"] - 1 or inv["sanity"] < data["sanity"] - 1):
        return "rest"
    if "acquire" in options and len(inv["assets"]) < 5:
        return "acquire"
    for o in options:
        if o.startswith("component:spell:") and reserve(state) < len(inv["clues"]) + 1 and _spell_mystery(state):
            return o
    prep = [o for o in options if o.startswith("prepare:")]
    if prep and sum(inv["tickets"].values()) < 2:
        return _ticket(here, targets, prep)
    if "rest" in options and (inv["health"] < data["health"] or inv["sanity"] < data["sanity"]):
        return "rest"
    return None if _spare(options) else "end"


def _spare(options: list[str]) -> list[str]:
    """With no plan left, the choice is between ending and a component's own action (judged ahead)."""
    comps = [o for o in options if o.startswith(("component:", "free:"))]
    return [*comps, "end"] if comps and "end" in options else []


def _spell_mystery(state: EhState) -> bool:
    md = C.mysteries[state.mystery["name"]] if state.mystery else None
    return bool(md and (md.get("progress") or {}).get("on") == "spell_lore_pass")


def _ticket(here: str, targets: dict[str, float], prep: list[str]) -> str:
    """The ticket for the kind of route that leads from here towards the best target."""
    if not targets:
        return prep[0]
    goal = max(targets, key=lambda t: targets[t] - 2.0 * DIST[here][t])
    kinds = [kind for nxt, kind in C.spaces[here].routes.items() if DIST[nxt][goal] < DIST[here][goal]]
    for o in prep:
        if o.split(":", 1)[1] in kinds:
            return o
    return prep[0]


_ENCOUNTER_RANK = ("mystery", "special", "other_world", "research", "rumor", "corpse", "expedition")


def _encounter(state: EhState, i: int, options: list[str]) -> str:
    """The encounter that moves the game on (EH-R23..R26): the mystery's own, closing a gate, research."""
    inv = state.investigators[i]
    md = C.mysteries[state.mystery["name"]] if state.mystery else None
    progress = (md or {}).get("progress") or {}
    ready = len(inv["clues"]) >= _cost(progress)

    def rank(o: str) -> tuple[int, int]:
        head = o.split(":", 1)[0]
        if head in ("mystery", "special"):
            return (0 if ready else 3, 0)
        if head == "other_world":
            return (4 if fragile(inv) else 1, 0)
        if head == "research":
            return (0 if progress.get("on") == "research_clue" else 2, 0)
        if head == "rumor":
            return (1 if len(inv["clues"]) >= W.amount(state, "half_investigators") else 6, 0)
        if head in _ENCOUNTER_RANK:
            return (5 + _ENCOUNTER_RANK.index(head), 0)
        if o == "none":
            return (20, 0)
        if o.startswith("cast:"):
            return (15, 0)
        return (12, 0 if o != "location:general" else 1)

    return min(options, key=rank)


def _reroll(state: EhState, i: int, options: list[str]) -> str:
    """Reroll while the test still fails (and, in combat, the lowest die); a clue only if spare (EH-R53)."""
    t = state.test or {}
    inv = state.investigators[i]
    dice = list(t.get("dice", []))
    from rules.eldritch_horror.dice import threshold

    need_face = threshold(inv)
    got = sum(1 for d in dice if d >= need_face)
    failing = got < int(t.get("need", 1))
    combat = bool((t.get("ctx") or {}).get("combat"))
    if not failing and not (combat and t.get("skill") == "strength"):
        return "accept"
    free = [o for o in options if o != "accept" and not o.startswith(("reroll:clue", "reroll:sanity"))]
    if free:
        return free[0]
    if not failing:
        return "accept"
    clue = [o for o in options if o.startswith("reroll:clue")]
    if clue and _clue_worth_it(state, inv, t.get("ctx") or {}):
        return max(clue, key=lambda o: len(o.split("@", 1)[1].split("+")))
    sanity = [o for o in options if o.startswith("reroll:sanity")]
    if sanity and inv["sanity"] > 3:
        return sanity[0]
    return "accept"


_GATE_CARDS = frozenset(C.decks.get("other_world", []))
_RESEARCH_CARDS = frozenset(c for name, ids in C.decks.items() if name.startswith("research") for c in ids)


def _clue_worth_it(state: EhState, inv: dict[str, Any], ctx: dict[str, Any]) -> bool:
    """A clue spent on a reroll (EH-R53) is worth it when it is spare, and also in the tests that decide
    a gate, a research clue or the mystery's own step (as long as the step's price is still payable)."""
    clues = len(inv["clues"])
    if clues > reserve(state):
        return True
    if ctx.get("card_kind") == "mystery":
        return clues - 1 >= reserve(state)
    return clues >= 1 and ctx.get("card") in _GATE_CARDS | _RESEARCH_CARDS


_YES_EFFECTS = ("mystery_clue", "place_eldritch", "take_eldritch", "bank_", "solve_rumor")


def _fixed(state: EhState, options: list[str]) -> str | None:
    """The decisions with a clear rule; None where the look-ahead should judge."""
    top = state.stack[-1]
    kind = top.kind
    i = top.params.get("inv")
    if kind == "pick_investigator" or kind == "replace":
        named = [o for o in options if o in C.investigators]
        return max(named, key=_investigator_strength) if named else None
    if i is None:
        return None
    if kind == "action":
        return _act(state, i, options)
    if kind == "encounter":
        return _encounter(state, i, options)
    if kind == "reroll":
        return _reroll(state, i, options)
    if kind == "lead":
        return "keep" if "keep" in options else None
    if kind == "trade_consent":
        return "allow" if "allow" in options else None
    if kind == "fight":
        fights = [o for o in options if o.startswith("fight:")]
        md = C.mysteries[state.mystery["name"]] if state.mystery else {}
        epic = (md or {}).get("solve", {}).get("defeat_epic")
        for o in fights:
            if epic and o.endswith(":" + epic):
                return o
        return min(fights, key=lambda o: W.toughness(state, int(o.split(":")[1]))) if fights else None
    if kind == "optional":
        effect = str(top.params.get("effect", ""))
        if any(w in effect for w in _YES_EFFECTS) and "yes" in options:
            return "yes"
    return None


def _investigator_strength(name: str) -> float:
    """Setup step 3's pick: sturdy investigators with Lore and Observation (research and gate tests);
    fixed pairs such as Trish Scarborough with Charlie Kane or Mark Harrigan solved fewer mysteries."""
    d = C.investigators[name]
    s = d["skills"]
    return (d["health"] + d["sanity"] + 1.5 * (s["lore"] + s["observation"]) + s["strength"] + s["will"]
            + 0.5 * s["influence"])


def _settled(state: EhState, actions: list[BaseModel], rnd: random.Random) -> BaseModel | list[BaseModel]:
    """The fixed rules' answer, or the actions still worth weighing: on an action step the spare ones when
    there are any. A decision the rules cannot read is settled at random."""
    options = _options(actions)
    if options is None or not state.stack:
        return actions[rnd.randrange(len(actions))]
    choice = _fixed(state, options)
    if choice is not None and choice in options:
        return actions[options.index(choice)]
    if state.stack[-1].kind == "action" and (spare := set(_spare(options))):
        return [a for a, o in zip(actions, options, strict=True) if o in spare]
    return actions


def quick(state: EhState, seat: str, actions: list[BaseModel], rnd: random.Random) -> BaseModel:
    """The cheap policy (rollouts, and the look-ahead's own play): the fixed rules, else random."""
    settled = _settled(state, actions, rnd)
    return settled if isinstance(settled, BaseModel) else settled[rnd.randrange(len(settled))]


Engine = Any  # the EH engine (apply, pending, legal_actions, determinize)


def make_decide(engine: Engine, samples: int = 2, horizon: int = 8) -> Callable[..., BaseModel]:
    """The full policy: the fixed rules, and where they have no answer a one-step look-ahead (see module doc)."""

    def decide(state: EhState, seat: str, actions: list[BaseModel], rnd: random.Random) -> BaseModel:
        settled = _settled(state, actions, rnd)
        if isinstance(settled, BaseModel):
            return settled
        actions = settled
        totals = [0.0] * len(actions)
        for _ in range(samples):
            base = engine.determinize(state, seat, Rng.from_seed(rnd.getrandbits(63)))
            for k, act in enumerate(actions):
                totals[k] += _look(engine, base, seat, act, rnd, horizon)
        best = max(totals)
        top = [k for k, v in enumerate(totals) if v >= best - 1e-9]
        return actions[top[rnd.randrange(len(top))]]

    return decide


def _look(engine: Engine, state: EhState, seat: str, act: BaseModel, rnd: random.Random, horizon: int) -> float:
    try:
        state, _ = engine.apply(state, seat, act)
    except RuleError:
        return -1e6
    phase, rnd_round = state.phase, state.round
    for _ in range(horizon):
        prompts = engine.pending(state)
        if not prompts or state.phase != phase or state.round != rnd_round:
            break
        who = prompts[0].seat
        legal = engine.legal_actions(state, who)
        step = legal[0] if len(legal) == 1 else quick(state, who, legal, rnd)
        state, _ = engine.apply(state, who, step)
    return worth(state)

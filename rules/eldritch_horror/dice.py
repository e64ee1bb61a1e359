"""Skill tests (EH-R48..R54): dice pool, successes, clue and possession rerolls.

A test rolls, then waits in ``state.test`` while the tester may reroll failed dice (a clue each, or a
possession's reroll); accepting resolves the pass or fail branch with ``successes`` in its context.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from rules.eldritch_horror import people as P
from rules.eldritch_horror import progress as G
from rules.eldritch_horror import world as W
from rules.eldritch_horror.data import load
from rules.eldritch_horror.machine import Ctx, Events, Op, ask, ev, op, push, resume
from rules.eldritch_horror.state import EhState

C = load()


def situations(ctx: Ctx) -> set[str]:
    out = {"always"}
    if ctx.get("combat"):
        out.add("combat")
    if ctx.get("spell"):
        out.add("spell")
    if ctx.get("acquire"):
        out.add("acquire")
    if str(ctx.get("card", "")).startswith("other_world"):
        out.add("other_world")
    return out


def skill_value(state: EhState, i: int, skill: str, ctx: Ctx) -> int:
    """Printed skill + improvement + the single best possession bonus that applies (EH-R49, EH-R51)."""
    inv = state.investigators[i]
    base = C.investigators[inv["name"]]["skills"][skill] + inv["improve"][skill]
    when = situations(ctx)
    bonuses = [
        b["n"]
        for card in P.possessions(inv)
        for b in (card.get("mechanics") or {}).get("bonus", [])
        if b["skill"] == skill and b["when"] in when
    ]
    if ctx.get("combat") and state.combat is not None:  # a spell or item readied for this fight
        bonuses.append(state.combat.get("bonus", {}).get(skill, 0))
    return base + max(bonuses, default=0)


def extra_dice(state: EhState, i: int, ctx: Ctx) -> int:
    """Sheet passives of investigators on the tester's space (Jim Culver in combat, Leo Anderson in the
    wilderness, Silas Marsh at sea): one die each, besides the one-bonus rule (§11.10)."""
    here = state.investigators[i]["space"]
    other_world = str(ctx.get("card", "")).startswith("other_world")
    n = 0
    for j in W.active(state):
        other = state.investigators[j]
        if other["space"] != here:
            continue
        sources = [C.investigators[other["name"]].get("passive") or {}]
        sources += [c.get("mechanics") or {} for c in P.possessions(other)]  # e.g. Urban Guide
        for src in sources:
            extra = src.get("extra_die")
            if not extra:
                continue
            when = extra["when"]
            if when == "other_world":  # Gate Box
                n += other_world
            elif not other_world:
                n += (when == "combat" and bool(ctx.get("combat"))) or C.spaces[here].type == when
    return n


def threshold(inv: dict[str, Any]) -> int:
    """5-6 succeed; Blessed makes it 4-6, Cursed only 6."""
    for c in inv["conditions"]:
        t = (C.conditions[P.kind_of(c)]["mechanics"] or {}).get("success_from")
        if t:
            return int(t)
    return 5


def successes(dice: list[int], need: int, double_sixes: bool = False) -> int:
    return sum(1 + (double_sixes and d == 6) for d in dice if d >= need)


def _extra_die_givers(state: EhState, i: int) -> list[str]:
    """Lola Hayes, once per round: someone on her space rolls one more die."""
    here = state.investigators[i]["space"]
    return [
        state.investigators[j]["name"] for j in W.active(state)
        if state.investigators[j]["space"] == here and "passive:extra_die" not in state.investigators[j]["used"]
        and (C.investigators[state.investigators[j]["name"]].get("passive") or {}).get("extra_die_once_per_round")
    ]


def _card_rules(state: EhState, i: int, key: str, test: dict[str, Any]) -> list[str]:
    """Possessions whose ``key`` mechanic fits this test's skill and situation."""
    inv = state.investigators[i]
    when = situations(test["ctx"])
    out = []
    for name in inv["assets"] + inv["artifacts"]:
        card = C.assets.get(name) or C.artifacts.get(name) or {}
        rule = (card.get("mechanics") or {}).get(key)
        if not rule or rule["skill"] not in ("any", test["skill"]) or rule["when"] not in when:
            continue
        if not (rule.get("once_per_round") and f"{key}:{name}" in inv["used"]) and name not in test["used"]:
            out.append(name)
    return sorted(set(out))


def reroll_sources(state: EhState, i: int, test: dict[str, Any]) -> list[str]:
    """Possessions whose reroll fits this test and was not used yet (once per test; once per round if so marked)."""
    inv = state.investigators[i]
    when = situations(test["ctx"])
    out = []
    for name in inv["assets"] + inv["artifacts"]:
        card = C.assets.get(name) or C.artifacts.get(name) or {}
        for r in (card.get("mechanics") or {}).get("reroll", []):
            if r["skill"] not in ("any", test["skill"]) or r["when"] not in when or name in test["used"]:
                continue
            if not (r["once_per_round"] and f"reroll:{name}" in inv["used"]):
                out.append(name)
    return sorted(set(out))


def start_test(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    i = P.living(state, ctx.get("inv"))
    if i is None:
        return
    value = skill_value(state, i, o["skill"], ctx) + int(o.get("mod", 0))
    if o.get("extra_dice_per_clue"):
        value += len(state.investigators[i]["clues"])
    value += extra_dice(state, i, ctx)
    n = max(1, value)  # EH-R49: always at least one die
    dice = [state.rng.die() for _ in range(n)]
    if ctx.get("dice_all"):
        dice = [int(ctx["dice_all"])] * n
    state.test = {
        "inv": i, "skill": o["skill"], "dice": dice, "pass": o.get("pass", []), "fail": o.get("fail", []),
        "need": int(o.get("min_successes", 1)), "ctx": ctx, "used": [], "no_clues": bool(ctx.get("no_clue_rerolls")),
    }
    ev(events, "test", investigator=state.investigators[i]["name"], skill=o["skill"], dice=dice)
    offer(state, events)


def clue_reroll_count(state: EhState, i: int) -> int:
    """Dice one clue rerolls: 1 (EH-R53), or 2 with Trish Scarborough on the tester's space."""
    here = state.investigators[i]["space"]
    trish = any((C.investigators[state.investigators[j]["name"]].get("passive") or {}).get("clue_rerolls_two")
                and state.investigators[j]["space"] == here for j in W.active(state))
    return 2 if trish else 1


def _which_dice(dice: list[int], need: int, count: int) -> list[str]:
    """The tester picks which failed dice a reroll takes (EH-R53): each choice names the faces to reroll
    (``2``, or ``1+3`` for two dice); dice showing the same face are interchangeable, so each set is
    offered once."""
    failed = sorted(d for d in dice if d < need)
    k = min(count, len(failed))
    return sorted({"+".join(str(d) for d in combo) for combo in combinations(failed, k)})


def offer(state: EhState, events: Events) -> None:
    """Ask for a reroll while one is possible and useful; otherwise settle the test (EH-R53)."""
    t = state.test
    assert t is not None
    i = t["inv"]
    inv = state.investigators[i]
    need = threshold(inv)
    options = []
    if any(d < need for d in t["dice"]):
        per_clue = _which_dice(t["dice"], need, clue_reroll_count(state, i))
        if inv["clues"] and not t["no_clues"]:
            options += [f"reroll:clue@{w}" for w in per_clue]
        if P.sanity_for_clue(state, i) and not t["no_clues"]:
            options += [f"reroll:sanity@{w}" for w in per_clue]  # Norman Withers: the clue paid with sanity
        options += [f"reroll:{name}@{w}"
                    for name in reroll_sources(state, i, t) for w in _which_dice(t["dice"], need, 1)]
        options += [f"bump:{name}" for name in _card_rules(state, i, "bump", t)]
        if inv["sanity"] > 2:
            options += [f"reroll_all:{name}" for name in _card_rules(state, i, "reroll_all", t)]
    options += [f"add:{name}" for name in _extra_die_givers(state, i)]
    if not options:
        settle(state, events)
        return
    ask(state, "reroll", i, ["accept", *options], dice=list(t["dice"]), skill=t["skill"])


@resume("reroll")
def _reroll(state: EhState, frame: Any, choice: str, events: Events) -> None:
    t = state.test
    assert t is not None
    if choice == "accept":
        settle(state, events)
        return
    i = t["inv"]
    inv = state.investigators[i]
    how, _, source = choice.partition(":")
    need = threshold(inv)
    if how == "add":
        giver = next(j for j in W.active(state) if state.investigators[j]["name"] == source)
        state.investigators[giver]["used"].append("passive:extra_die")
        t["dice"].append(state.rng.die())
        ev(events, "extra_die", investigator=inv["name"], source=source, dice=list(t["dice"]))
        offer(state, events)
        return
    if how == "bump":  # add 1 to the best failed die
        t["used"].append(source)
        inv["used"].append(f"bump:{source}")
        k = max((j for j in range(len(t["dice"])) if t["dice"][j] < need), key=lambda j: t["dice"][j])
        t["dice"][k] += 1
        ev(events, "bump", investigator=inv["name"], source=source, dice=list(t["dice"]))
        offer(state, events)
        return
    if how == "reroll_all":  # Axe: 2 sanity rerolls every failed die
        t["used"].append(source)
        P.lose(state, i, "sanity", 2, events)
        for k in range(len(t["dice"])):
            if t["dice"][k] < need:
                t["dice"][k] = state.rng.die()
        ev(events, "reroll", investigator=inv["name"], source=source, dice=list(t["dice"]))
        offer(state, events)
        return
    source, _, faces = source.partition("@")
    if source in ("clue", "sanity"):
        if source == "clue":
            P.spend_clues(state, i, 1)
        else:
            inv["used"].append("passive:sanity_for_clue")
            P.lose(state, i, "sanity", 1, events)
    else:
        t["used"].append(source)
        inv["used"].append(f"reroll:{source}")
    taken: set[int] = set()
    for face in (int(f) for f in faces.split("+")):
        k = next(j for j in range(len(t["dice"])) if t["dice"][j] == face and j not in taken)
        taken.add(k)
        t["dice"][k] = state.rng.die()
    ev(events, "reroll", investigator=inv["name"], source=source, dice=list(t["dice"]))
    offer(state, events)


def settle(state: EhState, events: Events) -> None:
    """EH-R50: one success (or the card's minimum) passes; the number of successes is the result."""
    t = state.test
    assert t is not None
    state.test = None
    double_sixes = bool(_card_rules(state, t["inv"], "double_sixes", {**t, "used": []}))
    got = successes(t["dice"], threshold(state.investigators[t["inv"]]), double_sixes)
    passed = got >= t["need"]
    ev(events, "test_result", investigator=state.investigators[t["inv"]]["name"], successes=got, passed=passed)
    ctx = {**t["ctx"], "successes": got, "passed": passed}
    for frame in reversed(state.work):  # later ops of the same card read the last result
        if ctx.get("card") is not None and frame["ctx"].get("card") == ctx.get("card"):
            frame["ctx"]["successes"], frame["ctx"]["passed"] = got, passed
            break
    if passed:
        G.test_passed(state, t["skill"], ctx)  # Arcane Understanding: its offer follows the pass effects
    push(state, t["pass"] if passed else t["fail"], ctx)


@op("test")
def _test(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    start_test(state, ctx, o, events)


@op("test_and_gain_clues_equal_successes")
def _test_gain(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    gain = [{"op": "gain_clue", "n": "successes"}]
    start_test(state, ctx, {"skill": o["skill"], "mod": o.get("mod", 0), "pass": gain, "fail": []}, events)


@op("roll_dice")
def _roll(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """A bare roll (monster reckonings, some mythos): each die picks the outcome whose range holds it."""
    for _ in range(int(o.get("n", 1))):
        die = int(ctx["dice_all"]) if ctx.get("dice_all") else state.rng.die()
        ev(events, "roll", die=die)
        for key, effects in o["outcomes"].items():
            if _in_range(state, die, key):
                push(state, effects, ctx)
                break


def _in_range(state: EhState, die: int, key: str) -> bool:
    if key.startswith("<="):
        limit = len(W.active(state)) if key == "<=investigators" else int(key[2:])
        return die <= limit
    lo, _, hi = key.partition("-")
    return int(lo) <= die <= int(hi or lo)

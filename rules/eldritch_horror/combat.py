"""Combat encounters (EH-R66..R72): a Will test against horror, then a Strength test against damage.

A combat is a frame of ops with ``combat: True`` in its context (so combat bonuses apply) and the fight's
flags in ``state.combat`` (one fight at a time). Monster specials are data hooks keyed by ``when``.
"""

from __future__ import annotations

from typing import Any

from rules.eldritch_horror import people as P
from rules.eldritch_horror import progress as G
from rules.eldritch_horror import world as W
from rules.eldritch_horror.data import load
from rules.eldritch_horror.machine import Ctx, Events, Op, ev, op, pick, push
from rules.eldritch_horror.state import EhState

C = load()


def combat_ops(mid: int) -> list[Op]:
    return [
        {"op": "combat_start", "monster": mid},
        {"op": "combat_prep", "used": []},
        {"op": "combat_hooks", "when": "before_will_test"},
        {"op": "combat_will"},
        {"op": "combat_hooks", "when": "after_will_test"},
        {"op": "combat_hooks", "when": "before_strength_test"},
        {"op": "combat_strength"},
        {"op": "combat_end"},
    ]


def fight(state: EhState, i: int, mid: int) -> None:
    """Queue a combat encounter of investigator ``i`` against monster ``mid``."""
    rules = {r.get("rule") for r in W.stats(state, mid).get("special_effects") or []}
    ctx = {"inv": i, "bound": i, "monster": mid, "combat": True}
    if "no_clue_rerolls_in_this_combat" in rules:  # Tick-Tock Men
        ctx["no_clue_rerolls"] = True
    push(state, combat_ops(mid), ctx)


def boosts(state: EhState, i: int, used: list[str]) -> list[str]:
    """What may be readied before the fight: combat spells to cast, one-shot items to spend."""
    inv = state.investigators[i]
    out = [f"cast:{P.kind_of(c)}" for c in inv["spells"] if C.spells[P.kind_of(c)].get("combat_cast")]
    for a in inv["assets"]:
        boost = (C.assets[a].get("mechanics") or {}).get("combat_boost")
        if boost and not (boost.get("once_per_round") and f"boost:{a}" in inv["used"]):
            out.append(f"use:{a}")
    return sorted(set(out) - set(used))


@op("combat_prep")
def _prep(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    if _fight(state, ctx) is None:
        return
    offers = boosts(state, ctx["inv"], o["used"])
    if not offers:
        return
    choice = pick(state, ctx, o, ["fight", *offers], kind="optional")
    if choice in (None, "fight"):
        return
    i = ctx["inv"]
    inv = state.investigators[i]
    state.work[-1]["ops"].insert(0, {"op": "combat_prep", "used": [*o["used"], choice]})
    how, _, name = choice.partition(":")
    if how == "use":
        boost = C.assets[name]["mechanics"]["combat_boost"]
        if boost["discard"]:  # Kerosene, Holy Water
            inv["assets"].remove(name)
            state.discards["assets"].append(name)
        else:  # Carbine Rifle, once per round
            inv["used"].append(f"boost:{name}")
        for skill, n in boost["skills"].items():
            _bonus(state, skill, n)
        ev(events, "boost", investigator=inv["name"], card=name)
        return
    card = next(c for c in inv["spells"] if P.kind_of(c) == name)
    push(state, C.spells[name]["combat_cast"]["effects"], {**ctx, "card": card, "card_kind": "spell", "spell": True})


def _bonus(state: EhState, skill: str, n: int) -> None:
    if state.combat is not None:
        bonus = state.combat.setdefault("bonus", {})
        bonus[skill] = max(bonus.get(skill, 0), n)


@op("combat_bonus")
def _combat_bonus(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    _bonus(state, o["skill"], int(o["n"]))


def _fight(state: EhState, ctx: Ctx) -> dict[str, Any] | None:
    """The fight under way, or None once it is over in all but name (its investigator fell, its monster was
    defeated or left the board): the steps still queued for it then do nothing."""
    c = state.combat
    live = (
        c is not None and P.alive(state, ctx.get("inv")) and not c["defeated"]
        and W.monster_at(state, c["monster"]) is not None
    )
    return c if live else None


def _hooks(state: EhState, mid: int, when: str) -> list[dict[str, Any]]:
    return [h for h in W.stats(state, mid).get("special_effects") or [] if h.get("when") == when]


def _push_hooks(state: EhState, ctx: Ctx, when: str) -> None:
    c = state.combat
    if c is None:
        return
    for h in reversed(_hooks(state, c["monster"], when)):
        effects = h["effects"]
        if h.get("optional"):
            effects = [{"op": "optional", "cost": h.get("cost", []), "then": effects}]
        push(state, effects, ctx)


@op("combat_start")
def _start(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    m = W.monster_at(state, o["monster"])
    state.combat = {"inv": ctx["inv"], "monster": o["monster"], "defeated": False, "skip_strength": False,
                    "lost_health": False, "space": m["space"] if m else None,
                    "toughness": W.toughness(state, o["monster"])}
    ev(events, "combat", investigator=state.investigators[ctx["inv"]]["name"], monster=W.TOKENS[o["monster"]],
       id=o["monster"])


@op("combat_hooks")
def _hooks_op(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    if _fight(state, ctx) is not None:
        _push_hooks(state, ctx, o["when"])


@op("combat_will")
def _will(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """EH-R67: lose sanity equal to horror minus successes; Will successes never hurt the monster."""
    c = _fight(state, ctx)
    if c is None:
        return
    s = W.stats(state, c["monster"])
    if not s.get("will_test"):
        return
    after = [{"op": "combat_horror"}]
    push(state, [{
        "op": "test", "skill": "will", "mod": s["will_test"]["mod"],
        "pass": [*after, {"op": "combat_hooks", "when": "pass_will_test"}],
        "fail": [*after, {"op": "combat_hooks", "when": "fail_will_test"}],
    }], ctx)


@op("combat_horror")
def _horror(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    c = _fight(state, ctx)
    if c is None:
        return
    s = W.stats(state, c["monster"])
    horror = int(s["horror"] or 0)
    cap = (C.investigators[state.investigators[ctx["inv"]]["name"]].get("passive") or {}).get("horror_cap")
    if cap is not None:  # Diana Stanley
        horror = min(horror, cap)
    loss = max(0, horror - int(ctx.get("successes") or 0))
    if loss:
        push(state, [{"op": "lose_sanity", "n": loss}], ctx)
        _push_hooks(state, {**ctx, "lost": loss}, "lose_sanity_from_will_test")  # Cthulhu: counted first


@op("skip_strength_test")
def _skip(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    if state.combat is not None:
        state.combat["skip_strength"] = True


@op("combat_strength")
def _strength(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """EH-R68: lose health equal to damage minus successes; the monster takes the successes as damage.
    Skipped when the investigator fell during the Will test (EH-R70)."""
    c = _fight(state, ctx)
    if c is None or c["skip_strength"]:
        return
    s = W.stats(state, c["monster"])
    if not s.get("strength_test"):
        return
    after = [{"op": "combat_damage"}]
    push(state, [{"op": "test", "skill": "strength", "mod": s["strength_test"]["mod"], "pass": after, "fail": after}],
         ctx)


def _reduction(state: EhState, i: int) -> int:
    """The largest cut to monster damage among the investigator's assets (the Fishing Net's 1)."""
    inv = state.investigators[i]
    return max([(C.assets[a].get("mechanics") or {}).get("damage_reduction", 0) for a in inv["assets"]], default=0)


@op("combat_damage")
def _damage(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    c = _fight(state, ctx)
    if c is None:
        return
    mid = c["monster"]
    s = W.stats(state, mid)
    got = int(ctx.get("successes") or 0)
    damage = int(s["damage"] or 0)
    if damage > 1:  # Fishing Net: the monster's damage drops (never below 1) before successes count
        damage = max(1, damage - _reduction(state, ctx["inv"]))
    loss = max(0, damage - got)
    i = ctx["inv"]
    if loss:
        c["lost_health"] = True
        take: list[Op] = [{"op": "lose_health", "n": loss}]
        instead = [h for h in _hooks(state, mid, "fail_strength_test")
                   if any(e.get("replaces") == "health_loss" for e in h["effects"])]
        if instead:  # the Maniac: an Ally may be given up in place of the health
            swap = [{k: v for k, v in e.items() if k != "replaces"} for e in instead[0]["effects"]]
            push(state, [{"op": "choose_one", "options": [take, swap]}], ctx)
        else:
            push(state, take, ctx)
    defeated = G.hurt_monster(state, mid, got, events)
    if defeated:
        return
    if loss and P.alive(state, i):
        _push_hooks(state, ctx, "lost_health_from_strength_test_and_not_defeated")
        _push_hooks(state, ctx, "lost_health_from_strength_test")


@op("combat_end")
def _end(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    c = state.combat
    state.combat = None
    if c is None:
        return
    ctx["defeated"] = c["defeated"]
    for frame in reversed(state.work):
        if frame["ctx"].get("ambush") == c["monster"]:
            frame["ctx"]["defeated"] = c["defeated"]
            break
    if c["defeated"] and P.alive(state, c["inv"]):
        inv = state.investigators[c["inv"]]
        for card in P.possessions(inv):
            push(state, (card.get("mechanics") or {}).get("on_defeat_monster", []), {**ctx, "combat": False})
        for h in _hooks(state, c["monster"], "defeated_in_combat_encounter"):
            effects = h["effects"]
            if h.get("optional"):
                effects = [{"op": "optional", "cost": h.get("cost", []), "then": effects}]
            push(state, effects, {**ctx, "combat": False})
        for card in state.in_play:
            for rule in C.mythos[card["id"]].get("solve") or []:
                if rule["op"] == "on_defeat_monster_at" and rule["space"] == c["space"]:
                    trophy = {"op": "rumor_trophy", "card": card["id"], "n": c["toughness"]}
                    optional = {"op": "optional", "cost": rule["may_pay"], "then": [trophy]}
                    push(state, [optional], {**ctx, "combat": False})


@op("monster_ambush", "investigator_on_space_encounters_this_monster")
def _ambush(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    """EH-R71: a monster fights you at once and goes back to the cup afterwards, beaten or not."""
    if o["op"] == "investigator_on_space_encounters_this_monster":
        m = W.monster_at(state, ctx.get("monster", -1))
        if m is None:
            return
        present = [i for i in W.order(state) if P.alive(state, i) and state.investigators[i]["space"] == m["space"]]
        if present:
            fight(state, present[0], m["id"])
        return
    targets = P.target_investigators(state, o["who"], ctx) if o.get("who") else [ctx.get("inv")]
    i = P.living(state, targets[0] if targets else None)
    if i is None:
        return
    name = o.get("monster")
    named = bool(name) and name != "random_from_cup"
    pool = [m for m in state.set_aside + state.cup if W.TOKENS[m] == name] if named else []
    here = [m for m in W.monsters_on(state, state.investigators[i]["space"])
            if named and W.TOKENS[m["id"]] == name and not W.is_epic(m["id"])]
    if not pool and here:  # the named monster was just brought to you (Hound of Tindalos): that one ambushes
        here[0]["ambush"] = True
        mid = here[0]["id"]
    else:
        if not pool and not state.cup:
            return
        mid = pool[0] if pool else state.cup[state.rng.below(len(state.cup))]
        (state.set_aside if mid in state.set_aside else state.cup).remove(mid)
        state.monsters.append({"id": mid, "space": state.investigators[i]["space"], "damage": 0, "ambush": True})
    ev(events, "ambush", investigator=state.investigators[i]["name"], monster=W.TOKENS[mid])
    after = {"op": "ambush_end", "monster": mid,
             "if_defeated": o.get("if_defeated", []), "if_not_defeated": o.get("if_not_defeated", [])}
    actx = {**ctx, "inv": i, "bound": i, "ambush": mid}
    push(state, [after], actx)
    fight(state, i, mid)


@op("ambush_end")
def _ambush_end(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    m = W.monster_at(state, o["monster"])
    if m is not None:  # survived: back to the cup all the same
        state.monsters.remove(m)
        state.cup.append(o["monster"])
    push(state, o["if_defeated"] if ctx.get("defeated") else o["if_not_defeated"], {**ctx, "combat": False})


@op("encounter_each_monster_on_space")
def _each_monster(state: EhState, ctx: Ctx, o: Op, events: Events) -> None:
    i = P.living(state, ctx.get("inv"))
    if i is None:
        return
    for m in reversed(W.monsters_on(state, state.investigators[i]["space"])):
        fight(state, i, m["id"])

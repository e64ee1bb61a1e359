"""What the table sees. Eldritch Horror has no private hands (digest §9): every seat sees the same view.

Never shown: deck orders and contents (only sizes), the gate stack, the clue pool, the monster cup, unused
Mythos cards and which copy of a spell or condition someone holds (its hidden back).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from rules.core import Prompt
from rules.core.fastmodel import builder
from rules.eldritch_horror import mythos as M
from rules.eldritch_horror import people as P
from rules.eldritch_horror import progress as G
from rules.eldritch_horror import world as W
from rules.eldritch_horror.data import SKILLS, load
from rules.eldritch_horror.state import EhState

C = load()


class InvestigatorView(BaseModel):
    name: str
    seat: str
    status: str
    space: str
    health: int
    max_health: int
    sanity: int
    max_sanity: int
    skills: dict[str, int]
    improvements: dict[str, int]
    clues: int
    tickets: dict[str, int]
    assets: list[str]
    artifacts: list[str]
    spells: list[str]
    conditions: list[str]
    delayed: bool
    lead: bool


class MonsterView(BaseModel):
    """Monster backs are public once on the board (digest §9, §11.12): there is no opponent to hide them from."""

    id: int
    name: str
    space: str
    damage: int
    toughness: int
    epic: bool
    will_mod: int | None
    horror: int | None
    strength_mod: int | None
    monster_damage: int | None


class EhView(BaseModel):
    viewer: str | None
    ancient_one: str
    difficulty: str
    round: int
    phase: str
    doom: int
    omen: str
    omen_index: int  # the omen's slot on the track: blue is there twice, so the colour alone cannot place it
    omen_eldritch: int
    awakened: bool
    investigators: list[InvestigatorView]
    gates: list[str]
    monsters: list[MonsterView]
    clues: list[str]
    space_eldritch: dict[str, int]
    reserve: list[str]
    expedition: str | None
    rumors: dict[str, str]
    in_play: list[dict[str, Any]]
    mystery: dict[str, Any] | None
    solved: list[str]
    final: dict[str, Any] | None
    corpses: list[dict[str, Any]]
    sizes: dict[str, int]
    mythos_stages: list[int]  # cards left in stages I, II, III (setup Step 8); the first non-empty one is drawn from
    reference: dict[str, int]
    pending: list[Prompt]
    outcome: dict[str, Any] | None


_REFERENCE = {n: C.reference_for(n) for n in range(1, 9)}
"""The reference card by number of investigators (the game takes one to eight), looked up once."""


def _with_numbers(state: EhState, shown: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """A mystery as it stands, with the amount its card writes as an expression worked out for this table.
    Clue tokens on the card name spaces (as face-down clues do), so only their number is shown."""
    public = {k: v for k, v in shown.items() if k != "clues"}
    return {**public, "needs": G.target(state, data)}


def build_view(state: EhState, seat: str | None, pending: list[Prompt],
               earlier: tuple[EhState, EhView] | None = None) -> EhView:
    """The view of ``state`` (the same for every seat but ``viewer``). Built without validation
    (``fastmodel``): every part is made here from the engine's own valid state, and the bot builds a view
    for every message after a move (validating them cost about a third of building one). ``earlier``: a
    state and its view, whose investigators are taken over where they are equal (most moves change one
    investigator or none, and comparing is cheaper than building)."""
    known = _shown_investigators(earlier)
    invs = []
    for i, inv in enumerate(state.investigators):
        if inv["status"] == "choosing":  # setup: a stand-in until its player picks (never shown)
            continue
        same = known.get(inv["name"])
        if same is not None and same[0] == inv and same[1].lead == (i == state.lead):
            invs.append(same[1])
            continue
        data = C.investigators[inv["name"]]
        invs.append(_investigator({
            "name": inv["name"], "seat": inv["seat"], "status": inv["status"], "space": inv["space"],
            "health": inv["health"], "max_health": data["health"], "sanity": inv["sanity"],
            "max_sanity": data["sanity"], "skills": {s: data["skills"][s] + inv["improve"][s] for s in SKILLS},
            "improvements": dict(inv["improve"]), "clues": len(inv["clues"]), "tickets": dict(inv["tickets"]),
            "assets": list(inv["assets"]), "artifacts": list(inv["artifacts"]),
            "spells": sorted(P.kind_of(s) for s in inv["spells"]),
            "conditions": sorted(P.kind_of(c) for c in inv["conditions"]), "delayed": inv["delayed"],
            "lead": i == state.lead,
        }))
    monsters = []
    for m in state.monsters:
        st = W.stats(state, m["id"])
        monsters.append(_monster({
            "id": m["id"], "name": W.TOKENS[m["id"]], "space": m["space"], "damage": m["damage"],
            "toughness": W.toughness_of(state, st), "epic": W.is_epic(m["id"]),
            "will_mod": st["will_test"]["mod"] if st.get("will_test") else None, "horror": st.get("horror"),
            "strength_mod": st["strength_test"]["mod"] if st.get("strength_test") else None,
            "monster_damage": st.get("damage"),
        }))
    sizes = {f"deck:{k}": len(v) for k, v in state.decks.items() if k != "mythos_box"}
    sizes |= {"mythos": len(state.mythos_deck), "mysteries": len(state.mystery_deck),
              "gate_stack": len(state.gate_stack), "clue_pool": len(state.clue_pool), "cup": len(state.cup)}
    mystery = final = None
    if state.mystery is not None and (mystery_data := G.mystery_data(state)) is not None:
        mystery = _with_numbers(state, state.mystery, mystery_data)
    if state.final is not None and (final_data := G.final_data(state)) is not None:
        final = _with_numbers(state, state.final, final_data)
    return _view({
        "viewer": seat, "ancient_one": state.ancient_one, "difficulty": state.difficulty, "round": state.round,
        "phase": state.phase, "doom": state.doom, "omen": W.omen_colour(state), "omen_index": state.omen,
        "omen_eldritch": state.omen_eldritch, "awakened": state.awakened,
        "investigators": invs, "gates": list(state.gates), "monsters": monsters, "clues": sorted(state.clues),
        "space_eldritch": dict(state.space_eldritch), "reserve": list(state.reserve), "expedition": state.expedition,
        "rumors": {s: C.mythos[c]["name"] for s, c in state.rumors.items()},
        "in_play": [{"id": m["id"], "name": C.mythos[m["id"]]["name"], "eldritch": m["eldritch"], "health": m["health"]}
                    for m in state.in_play],
        "mystery": mystery, "solved": list(state.solved), "final": final,
        "corpses": [{"name": c["name"], "space": c["space"], "token": c["token"]} for c in state.corpses],
        "sizes": sizes, "mythos_stages": M.stages_left(state),
        "reference": dict(_REFERENCE.get(len(state.investigators)) or C.reference_for(len(state.investigators))),
        "pending": list(pending),
        "outcome": None if state.outcome is None else dict(state.outcome),
    })


def _shown_investigators(earlier: tuple[EhState, EhView] | None) -> dict[str, tuple[dict[str, Any], InvestigatorView]]:
    """An earlier state's investigators shown in its view, by name, with what the view shows of them."""
    if earlier is None:
        return {}
    state, view = earlier
    shown = [inv for inv in state.investigators if inv["status"] != "choosing"]
    return {inv["name"]: (inv, v) for inv, v in zip(shown, view.investigators, strict=True)}


def for_seat(view: EhView, seat: str | None) -> EhView:
    """``view`` as ``seat`` sees it: the same parts (nobody changes a view), another viewer."""
    return _view({**view.__dict__, "viewer": seat})


_view = builder(EhView)
_investigator = builder(InvestigatorView)
_monster = builder(MonsterView)

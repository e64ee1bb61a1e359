"""Building exact Call of Cthulhu LCG positions for rule and card tests."""

from __future__ import annotations

from typing import Any

from rules.core import Event
from rules.coc_lcg import flow, reactions
from rules.coc_lcg.spec import SPEC
from rules.coc_lcg.state import CocState, Domain, Inst

ENGINE = SPEC.engine
SEATS = ["a", "b"]
FILLER = "agency-blackwood-file-clerk"


def new(seed: int = 1, **options: Any) -> CocState:
    return ENGINE.new_game(SEATS, SPEC.parse_options(options), seed)


def all_cards(s: CocState) -> list[str]:
    """Every deck card wherever it is (conservation check)."""
    cards = list(s.resolving)
    for pl in s.players:
        cards += pl.deck + pl.hand + pl.discard + pl.peek
        cards += [c for c in pl.won if not c.startswith("s:")]
        for d in pl.domains:
            cards += d.resources + ([d.card] if d.card else [])
    cards += [c for c in s.play if not c.startswith("s:")]
    return sorted(cards)


def full(s: CocState) -> list[str]:
    out = []
    for p, pl in enumerate(s.players):
        seen: dict[str, int] = {}
        for c in pl.deck_list:
            seen[c] = seen.get(c, 0) + 1
            out.append(f"{p}:{c}:{seen[c]}")
    return sorted(out)


class Table:
    """A position built by hand: both players with empty zones, a filler deck, the three stories."""

    def __init__(self, active: int = 0, deck: int = 20, seed: int = 1) -> None:
        s = new(seed)
        s.stack.clear()
        s.tasks.clear()
        s.triggers.clear()
        for p, pl in enumerate(s.players):
            pl.hand, pl.discard, pl.picks, pl.won = [], [], [], []
            pl.deck = [f"{p}:{FILLER}:{k}" for k in range(100, 100 + deck)]
            pl.domains = [Domain() for _ in range(3)]
            pl.deck_list = []
        s.turn, s.active, s.first = 3, active, active
        self.s = s
        self.n = 0
        self.events: list[Event] = []

    # ------------------------------------------------------------------ building
    def iid(self, p: int, card: str) -> str:
        self.n += 1
        return f"{p}:{card}:{self.n}"

    def put(self, p: int, card: str, **fields: Any) -> str:
        """A card in play under ``p`` (fields: exhausted, insane, wounds, host, story, ctl)."""
        iid = self.iid(p, card)
        ctl = fields.pop("ctl", p)
        self.s.play[iid] = Inst(card=card, owner=p, ctl=ctl, **fields)
        if card == "neutral-the-bootleg-whiskey-cover-up":
            self.s.stories.append(iid)
            self.s.tokens[iid] = [0, 0]
        return iid

    def hand(self, p: int, card: str) -> str:
        iid = self.iid(p, card)
        self.s.players[p].hand.append(iid)
        return iid

    def discard(self, p: int, card: str) -> str:
        iid = self.iid(p, card)
        self.s.players[p].discard.append(iid)
        return iid

    def top(self, p: int, card: str) -> str:
        iid = self.iid(p, card)
        self.s.players[p].deck.append(iid)
        return iid

    def res(self, p: int, dom: int, *cards: str) -> list[str]:
        out = []
        for c in cards:
            iid = self.iid(p, c)
            self.s.players[p].domains[dom].resources.append(iid)
            out.append(iid)
        return out

    def knows(self, p: int, *cards: str) -> None:
        """Put cards in ``p``'s deck list (what reaction windows consult)."""
        self.s.players[p].deck_list += list(cards)

    @property
    def stories(self) -> list[str]:
        return self.s.stories

    # ------------------------------------------------------------------ positions
    def operations(self) -> Table:
        """The active player's Operations window, the rest of the turn to follow."""
        s = self.s
        s.stack = []
        s.phase = s.step = "operations"
        s.tasks = [{"t": "end"}, {"t": "phase", "name": "end"}, {"t": "story"}, {"t": "phase", "name": "story"},
                   {"t": "window", "step": "operations", "seat": None, "passes": 0}]
        self.settle()
        return self

    def story(self) -> Table:
        """The Story phase from its first window."""
        s = self.s
        s.stack = []
        s.phase = s.step = "story"
        s.tasks = [{"t": "end"}, {"t": "phase", "name": "end"}, {"t": "story"}]
        self.settle()
        return self

    def turn(self) -> Table:
        """The active player's turn from its Refresh phase."""
        self.s.tasks = []
        self.s.stack = []
        flow.push_turn(self.s)
        self.settle()
        return self

    def settle(self) -> None:
        flow.settle(self.s, self.events)

    # ------------------------------------------------------------------ acting
    def owing(self) -> tuple[int, str]:
        top = self.s.stack[-1]
        return SEATS.index(top.seats[0]), top.kind

    def do(self, p: int, action: dict[str, Any]) -> list[Event]:
        self.s, evs = ENGINE.apply(self.s, SEATS[p], action)
        self.events += evs
        return evs

    def act(self, action: dict[str, Any]) -> list[Event]:
        return self.do(self.owing()[0], action)

    def play(self, iid: str, domain: int | None = None) -> list[Event]:
        return self.act({"type": "play", "card": iid, "domain": domain})

    def use(self, iid: str, ability: int = 0, domain: int | None = None) -> list[Event]:
        return self.act({"type": "use", "card": iid, "ability": ability, "domain": domain})

    def choose(self, option: str) -> list[Event]:
        return self.act({"type": "choose", "option": option})

    def pass_(self) -> list[Event]:
        return self.act({"type": "pass"})

    def until(self, kind: str, step: str | None = None, limit: int = 60) -> None:
        """Pass windows (and empty commits) until a decision of ``kind`` (at ``step``) is open."""
        for _ in range(limit):
            if not self.s.stack:
                raise AssertionError("game over or nothing pending")
            top = self.s.stack[-1]
            if top.kind == kind and (step is None or top.params.get("step") == step):
                return
            if top.kind in ("window", "react", "resource"):
                self.pass_()
            elif top.kind == "commit":
                self.act({"type": "commit_done"})
            else:
                raise AssertionError(f"stuck at {top.kind} {top.params}")
        raise AssertionError(f"no {kind} reached")

    def pass_window(self) -> None:
        """Both players pass the open action window."""
        self.pass_()
        self.pass_()

    def stats(self, iid: str):
        from rules.coc_lcg import table as T

        return T.stats(self.s, iid)

    def options(self) -> list[str]:
        p, _ = self.owing()
        return [a.option for a in ENGINE.legal_actions(self.s, SEATS[p]) if a.type == "choose"]

    def legal(self, p: int | None = None) -> list[Any]:
        p = self.owing()[0] if p is None else p
        return ENGINE.legal_actions(self.s, SEATS[p])


def run_story(t: Table, card: str, winner: int = 0) -> None:
    """Resolve a story card's effect for ``winner`` as if just won."""
    t.s.stack = []
    t.s.tasks = [reactions.effect_task(t.s, f"s:{card}", 0, winner)]
    t.settle()

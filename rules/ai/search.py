"""Single-observer information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012).

Each iteration samples one state the searching seat cannot tell from the real one
(``engine.determinize``), walks a tree of actions shared by every sample (a child counts how often it
was *available*, so moves that exist only in some samples are not favoured), adds one node, plays on
with the game's rollout policy and scores the end (or an evaluated cut-off) for every seat. Whoever acts
in the simulated game (the player on turn, a seat answering a prompt, a surprise off turn) is the seat
whose reward steers that node, which is what ``engine.pending`` tells.

Everything random comes from one ``random.Random`` seeded by the caller, and the budget is counted in
iterations, never in wall time, so a decision is reproducible.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Mapping
from typing import Any

from pydantic import BaseModel

from rules.ai.hooks import GameAI
from rules.core import GameSpec, Rng, RuleError


class _Node:
    __slots__ = ("avail", "children", "value", "visits")

    def __init__(self) -> None:
        self.children: dict[Hashable, _Node] = {}
        self.visits = 0
        self.value = 0.0
        self.avail = 0


def action_key(action: BaseModel) -> Hashable:
    """Frozen actions are their own key; others are keyed by their JSON (equal actions, equal text)."""
    try:
        hash(action)
    except TypeError:
        return (type(action).__name__, action.model_dump_json())
    return action


def terminal_rewards(spec: GameSpec, state: Any) -> dict[str, float] | None:
    """1 for a sole winner (and for every seat of a won co-operative game), ½ for a shared win, else 0."""
    result = spec.engine.result(state)
    if result is None:
        return None
    seats = [s for group in result.ranking for s in group]
    winners = result.winners
    share = 1.0 if len(winners) <= 1 or len(winners) == len(seats) else 0.5
    return {s: (share if s in winners else 0.0) for s in seats}


def actor(spec: GameSpec, state: Any) -> str | None:
    """The seat that acts next in a simulated game: the first one any prompt names (several seats owing
    at once answer in prompt order); None once the game is over."""
    prompts = spec.engine.pending(state)
    return prompts[0].seat if prompts else None


class Searcher:
    """One decision's search; ``run`` returns the chosen action."""

    def __init__(self, spec: GameSpec, ai: GameAI, rnd: random.Random, level: str = "normal") -> None:
        self.spec = spec
        self.engine = spec.engine
        self.ai = ai
        self.exploration = ai.exploration[level]
        self.rnd = rnd
        self.sampler = Rng.from_seed(rnd.getrandbits(63))

    def legal(self, state: Any, seat: str) -> list[BaseModel]:
        actions = self.engine.legal_actions(state, seat)
        if self.ai.prune is not None and len(actions) > 1:
            actions = self.ai.prune(state, seat, actions) or actions
        return actions

    def run(self, state: Any, seat: str, actions: list[BaseModel], iterations: int) -> BaseModel:
        return self.ranked(state, seat, actions, iterations)[0][0]

    def ranked(
        self, state: Any, seat: str, actions: list[BaseModel], iterations: int
    ) -> list[tuple[BaseModel, int, float]]:
        """Search, then every root action with its simulations and mean reward for ``seat``, best first
        (the order ``run`` picks by); an action no iteration reached has 0 simulations."""
        root = _Node()
        root_keys = [action_key(a) for a in actions]
        for _ in range(iterations):
            self.iterate(state, seat, root, actions, root_keys)
        order = sorted(
            range(len(actions)), key=lambda i: _robust(root.children.get(root_keys[i]), i), reverse=True
        )
        out = []
        for i in order:
            child = root.children.get(root_keys[i])
            visits = child.visits if child is not None else 0
            out.append((actions[i], visits, child.value / visits if child is not None and visits else 0.0))
        return out

    def iterate(
        self, state: Any, seat: str, root: _Node, actions: list[BaseModel], keys: list[Hashable]
    ) -> None:
        sample = self.engine.determinize(state, seat, self.sampler)
        path: list[tuple[_Node, str]] = []
        node, who, options, option_keys = root, seat, actions, keys
        while True:
            choice = self.select(node, who, options, option_keys)
            if choice is None:
                break
            child, act, key, is_new = choice
            try:
                sample, _ = self.engine.apply(sample, who, act)
            except RuleError:  # not legal in this sample after all: drop the iteration
                if is_new:  # and the node it added, which no walk has visited (UCB1 divides by visits)
                    del node.children[key]
                return
            path.append((child, who))
            node = child
            if is_new:
                break
            nxt = actor(self.spec, sample)
            if nxt is None:
                break
            who = nxt
            options = self.legal(sample, who)
            option_keys = [(who, action_key(a)) for a in options]
        rewards = self.rollout(sample)
        for child, mover in path:
            child.visits += 1
            child.value += rewards.get(mover, 0.0)

    def select(
        self, node: _Node, who: str, options: list[BaseModel], keys: list[Hashable]
    ) -> tuple[_Node, BaseModel, Hashable, bool] | None:
        """UCB1 over the children available here; an untried one first (expanded at random)."""
        if not options:
            return None
        untried = []
        for i, k in enumerate(keys):
            child = node.children.get(k)
            if child is None:
                untried.append(i)
            else:
                child.avail += 1
        if untried:
            i = untried[self.rnd.randrange(len(untried))]
            child = node.children[keys[i]] = _Node()
            child.avail = 1
            return child, options[i], keys[i], True
        c = self.exploration
        best_i, best_score = 0, -math.inf
        for i, k in enumerate(keys):
            ch = node.children[k]
            score = ch.value / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
            if score > best_score:
                best_i, best_score = i, score
        return node.children[keys[best_i]], options[best_i], keys[best_i], False

    def rollout(self, state: Any) -> Mapping[str, float]:
        """Play on with the rollout policy; judge the position after ``rollout_depth`` simulated actions
        when the game has an evaluation, else play to the end."""
        ai = self.ai
        limit = ai.rollout_depth if ai.evaluate is not None else 100_000
        policy = ai.rollout
        engine = self.engine
        for _ in range(limit):
            prompts = engine.pending(state)
            if not prompts:
                break
            who = prompts[0].seat
            options = self.legal(state, who)
            act = options[0] if len(options) == 1 else (
                policy(state, who, options, self.rnd) if policy is not None
                else options[self.rnd.randrange(len(options))]
            )
            state, _ = engine.apply(state, who, act)
        done = terminal_rewards(self.spec, state)
        if done is not None:
            return done
        if ai.evaluate is not None:
            return ai.evaluate(state)
        return {}


def _robust(child: _Node | None, index: int) -> tuple[int, float, int]:
    """The most visited root move wins; then the better average; then the earlier legal action."""
    if child is None or child.visits == 0:
        return (0, 0.0, -index)
    return (child.visits, child.value / child.visits, -index)

"""The text side of a move's follow-up, alone: CPU per state and a digest of every payload (plain script).

    python benchmarks/messages.py [--game coc_lcg] [--games 12] [--seed 1] [--repeat 7] [--moves 400]

States come from the first ``--moves`` moves of random two-player games of ``--game`` (``bot_latency``'s
30 clicks a game are about 80 LCG moves with the automatic steps). For each state it builds what the bot
builds after a move: every seat's private message (embed and components, as ``private_message`` makes
them for a DM) and the table message's text (``table_payload`` without its picture, which another process
draws), in English and Russian. It prints the CPU milliseconds per state (each chunk of states at its best
of ``--repeat``, so a busy machine disturbs it less than the whole bot's benchmark) and a SHA-256 of every
payload's JSON: a change that only makes building faster must leave the digest as it was.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import random
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pydantic import BaseModel  # noqa: E402

from bot.storage import SessionRecord  # noqa: E402
from cogs.games.render import private_message, table_payload  # noqa: E402
from cogs.games.ui import register_ui  # noqa: E402
from rules import registry  # noqa: E402

SEATS = ["101", "102"]
LOCALES = ("en", "ru")
CHUNK = 20


def record(game: str, version: int, state: BaseModel) -> SessionRecord:
    """A running session at ``version`` with two named players (what the renderers read from the row)."""
    stamp = datetime(2026, 1, 1, tzinfo=timezone.utc)
    return SessionRecord(id=7, guild_id=1, channel_id=2, game_id=game, status="running", host_id=101,
                         seats=[int(s) for s in SEATS], options={}, seed=0, locale="en", state_json=None,
                         version=version, table_message_id=3, created_at=stamp, updated_at=stamp,
                         names={"101": "Ann", "102": "Boris"})


def sample(game: str, games: int, seed: int, moves: int = 400) -> list[BaseModel]:
    """Every state of ``games`` random games (up to ``moves`` moves each)."""
    engine = registry.get(game).engine
    rnd = random.Random(seed)
    states: list[BaseModel] = []
    for _ in range(games):
        state = engine.new_game(SEATS, None, seed=rnd.getrandbits(32))
        for _move in range(moves):
            prompts = engine.pending(state)
            if not prompts:
                break
            seat = prompts[0].seat
            state, _ = engine.apply(state, seat, rnd.choice(engine.legal_actions(state, seat)))
            states.append(state)
    return states


def build(game: str, states: list[BaseModel], first_version: int = 0) -> list[Any]:
    """Every payload the follow-up of each state builds, in order."""
    out: list[Any] = []
    for version, state in enumerate(states, first_version):
        rec = record(game, version, state)
        for locale in LOCALES:
            for seat in SEATS:
                embed, view = private_message(rec, state, seat, locale, place="Guild · #table")
                out.append((embed, view))
            out.append(table_payload(rec, state, locale, ["a move"], image=None))
    return out


def digest(payloads: list[Any]) -> str:
    h = hashlib.sha256()
    for p in payloads:
        if isinstance(p, tuple):
            embed, view = p
            parts: Any = [embed.to_dict(), view.to_components()]
        else:
            parts = [p["content"], p["embed"].to_dict(), p["view"].to_components()]
        h.update(json.dumps(parts, sort_keys=True, ensure_ascii=False).encode())
    return h.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="coc_lcg")
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--moves", type=int, default=400, help="moves per game at most")
    args = parser.parse_args()
    register_ui(importlib.import_module(f"cogs.{args.game}").UI)
    states = sample(args.game, args.games, args.seed, args.moves)
    # Each chunk of states is timed ``--repeat`` times and its fastest time kept: on a shared machine a
    # short chunk often runs undisturbed, where a whole pass rarely does.
    total = 0.0
    payloads: list[Any] = []
    for start in range(0, len(states), CHUNK):
        chunk = states[start:start + CHUNK]
        best = float("inf")
        for _ in range(args.repeat):
            t0 = time.process_time()
            built = build(args.game, chunk, first_version=start)
            best = min(best, time.process_time() - t0)
        payloads.extend(built)
        total += best
    print(json.dumps({
        "game": args.game, "states": len(states),
        "ms_per_state": round(total / len(states) * 1000, 3),
        "digest": digest(payloads),
    }, indent=2))


if __name__ == "__main__":
    main()

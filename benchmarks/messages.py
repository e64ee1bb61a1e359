"""The text side of a move's follow-up, alone: CPU per state and a digest of every payload (plain script).

    python benchmarks/messages.py [--game coc_lcg] [--games 12] [--seed 1] [--repeat 3] [--moves 400]

States come from the first ``--moves`` moves of random two-player games of ``--game`` (``bot_latency``'s
30 clicks a game are about 80 LCG moves with the automatic steps). For each state it builds what the bot builds after
a move: every seat's private message (embed and components, as ``private_message`` makes them for a DM)
and the table message's text (``table_payload`` without its picture, which another process draws), in
English and Russian. It prints the CPU seconds per state (best of ``--repeat``, so a busy machine
disturbs it less than the whole bot's benchmark) and a SHA-256 of every payload's JSON: a change that
only makes building faster must leave the digest as it was.
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
from bot.ui import register_ui  # noqa: E402
from cogs.games.render import private_message, table_payload  # noqa: E402
from rules import registry  # noqa: E402

SEATS = ["101", "102"]
LOCALES = ("en", "ru")


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


def build(game: str, states: list[BaseModel]) -> list[Any]:
    """Every payload the follow-up of each state builds, in order."""
    out: list[Any] = []
    for version, state in enumerate(states):
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
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--moves", type=int, default=400, help="moves per game at most")
    args = parser.parse_args()
    register_ui(importlib.import_module(f"cogs.{args.game}").UI)
    states = sample(args.game, args.games, args.seed, args.moves)
    times = []
    payloads: list[Any] = []
    for _ in range(args.repeat):
        t0 = time.process_time()
        payloads = build(args.game, states)
        times.append(time.process_time() - t0)
    print(json.dumps({
        "game": args.game, "states": len(states),
        "ms_per_state": round(min(times) / len(states) * 1000, 3),
        "ms_per_state_all": [round(x / len(states) * 1000, 3) for x in times],
        "digest": digest(payloads),
    }, indent=2))


if __name__ == "__main__":
    main()

"""Resident memory of the bot across many finished games: what the table layer keeps per game must be
released when a game ends, so memory stays flat however many games a process has seen.

    python benchmarks/memory.py [--games 10000] [--every 1000] [--moves 4] [--trace 15] [--trim]

Each game, in its own channel: a lobby, two players, the start, a few random moves (DMs, table edits,
timers), then the host ends it. Prints the resident set size (RSS, from /proc) after each ``--every``
games, the number of games the table layer still holds in memory, and the growth from the first sample
(taken after a warm-up of ``--every`` games, once caches such as the card data are loaded).
Schema validation of requests is off (it measures the test fake, not the bot); the fake's own record of
requests is cleared between samples so that it does not count as the bot's memory. Each sample also shows
SQLite's own allocations; ``--trim`` adds the RSS after glibc's ``malloc_trim`` (memory freed but kept by
the C heap is not a leak: the trim hands it back). ``--trace N`` follows
Python's allocations with tracemalloc (several times slower) and prints, at each sample, the N source lines
whose live memory grew most since the first sample: what a creeping RSS is made of.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import gc
import json
import random
import sys
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.client import GameBot  # noqa: E402
from bot.settings import Settings  # noqa: E402
from tests.discord.fake_discord import FakeDiscord, load_spec  # noqa: E402
from tests.discord.harness import Harness  # noqa: E402
from tests.discord.tables import Table, custom_ids  # noqa: E402


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def native_memory() -> tuple[Any, Any]:
    """glibc's ``malloc_trim`` and SQLite's ``sqlite3_memory_used`` (None where the library is not there):
    what RSS holds besides Python's objects, which tracemalloc cannot see."""
    def load(name: str) -> Any:
        try:
            return ctypes.CDLL(name)
        except OSError:
            return None
    libc, lib_sqlite = load("libc.so.6"), load("libsqlite3.so.0")
    if lib_sqlite is not None:
        lib_sqlite.sqlite3_memory_used.restype = ctypes.c_int64
    return libc, lib_sqlite


def forget_fake_history(fake: FakeDiscord) -> None:
    """The fake records every request and message forever; a real Discord does not live in our process."""
    bot_user = fake.users[fake.bot_user.id]
    for store in (fake.requests, fake._messages, fake._history, fake._channel_log, fake.interactions,
                  fake.attachments, fake._deleted, fake._ephemeral, fake._dm_by_user, fake.channels, fake.users):
        store.clear()
    fake.users[fake.bot_user.id] = bot_user


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--every", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=4)
    parser.add_argument("--trim", action="store_true",
                        help="also show the RSS after glibc's malloc_trim (which lowers the samples after it)")
    parser.add_argument("--trace", type=int, default=0, help="print the N lines whose memory grew most")
    args = parser.parse_args()
    if args.trace:
        tracemalloc.start(1)
    first: tracemalloc.Snapshot | None = None
    libc, lib_sqlite = native_memory()
    rnd = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'mem.sqlite3'}"
        fake = FakeDiscord(spec=load_spec(), validate=False)
        h = Harness(lambda: GameBot(Settings(database_url=url, discord_token=None, table_edit_interval=0,
                                             rate_limit_per_second=0)), fake=fake,
                    drain_timeout=600)  # the first picture starts the drawing process: slow on a busy machine
        await h.start()
        samples = []
        try:
            for g in range(1, args.games + 1):
                channel = h.text_channel(f"t{g % 50}")  # channels are reused once their game is over
                h.channel = channel
                users = [h.user(f"g{g}a"), h.user(f"g{g}b")]
                table = Table(h, users)
                await table.open(users[0])
                await table.seat_all()
                for _ in range(args.moves):
                    if not await table.step(rnd):
                        break
                r = await h.slash(users[0], channel, "game abandon")
                await h.click(users[0], r.message_id, custom_ids(r.message)[0])
                if g % args.every == 0:
                    forget_fake_history(fake)
                    gc.collect()
                    sample = {"games": g, "rss_mb": round(rss_mb(), 1), "games_held_in_memory": h.bot.tables.cached()}
                    if lib_sqlite is not None:
                        sample["sqlite_mb"] = round(lib_sqlite.sqlite3_memory_used() / 2**20, 1)
                    if args.trace:
                        sample["python_traced_mb"] = round(tracemalloc.get_traced_memory()[0] / 2**20, 1)
                    if args.trim and libc is not None:  # what is left once the C heap gives free pages back
                        libc.malloc_trim(0)
                        sample["rss_after_malloc_trim_mb"] = round(rss_mb(), 1)
                    samples.append(sample)
                    print(json.dumps(samples[-1]), flush=True)
                    if args.trace:
                        snap = tracemalloc.take_snapshot()
                        if first is None:
                            first = snap
                        else:
                            for stat in snap.compare_to(first, "lineno")[:args.trace]:
                                print(f"  {stat}", flush=True)
        finally:
            await h.close(check=False)
    if len(samples) >= 2:
        base = samples[0]["rss_mb"]
        print(json.dumps({"first_sample_mb": base, "last_sample_mb": samples[-1]["rss_mb"],
                          "growth_pct": round(100 * (samples[-1]["rss_mb"] - base) / base, 1)}))


if __name__ == "__main__":
    asyncio.run(main())

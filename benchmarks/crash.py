"""Kill the bot with SIGKILL at random moments under load, many times, and check that nothing was lost.

    python benchmarks/crash.py --kills 50 [--backend sqlite|postgresql] [--games 20]
    scripts/pg_test_cluster.sh python benchmarks/crash.py --backend postgresql --kills 50

A worker process runs the bot's session service and store (the path every click takes: per-session lock,
load, engine, compare-and-swap, log) over ``--games`` concurrent Call to Glory games, playing random legal
moves as fast as it can, and reports each action on stdout the moment the store acknowledged it. The parent
SIGKILLs it at a random moment, starts a new worker on the same database, which picks the running games up
where they stand, and so on ``--kills`` times. Finished games are replaced by new ones. Checked after every
kill, then at the end:
- every acknowledged action is in its game's log, at the version it was acknowledged with, once;
- replaying every game's log from its seed gives exactly its stored state;
- the games go on: each new worker applies moves to the games the killed one left running.
The Discord layer is left out on purpose: after a restart it redraws tables and DMs from the stored state
(tests/discord/test_restarts.py), so what a crash can break is what this checks.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.sessions import SessionError, SessionService  # noqa: E402
from bot.storage import open_store  # noqa: E402
from bot.transfer import ALL_STATUSES, check_replay  # noqa: E402

GAME = "call_to_glory"


async def worker(url: str, games: int, seed: int) -> None:
    """Play until killed; print ``ack <session> <version> <action_json>`` after every stored action."""
    store = await open_store(url)
    service = SessionService(store)
    rnd = random.Random(seed)
    next_channel = [seed * 100_000]

    async def new_game() -> int:
        next_channel[0] += 1
        rec = await service.open_lobby(guild_id=1, channel_id=next_channel[0], game_id=GAME, host_id=1, options={},
                                       locale="en", host_name="A")
        await service.join(rec.id, 2, "B")
        rec, _ = await service.start(rec.id, 1)
        return rec.id

    async def play(sid: int) -> None:
        while True:
            rec, spec, state = await service.load(sid)
            if rec.status != "running":
                sid = await new_game()
                continue
            seat = spec.engine.pending(state)[0].seat
            action = rnd.choice(spec.engine.legal_actions(state, seat))
            try:
                await service.act(sid, int(seat), rec.version, action)
            except SessionError:
                continue  # another coroutine moved first: reload
            entry = spec.dump_action(spec.parse_action(action) if isinstance(action, dict) else action)
            # The click is logged at the version it produced (one past the one it was applied to); the
            # outcome's version is past the automatic steps that followed it, logged after the click.
            sys.stdout.write(f"ack {sid} {rec.version + 1} {entry}\n")
            sys.stdout.flush()

    running = [r.id for r in await store.sessions_with_status("running")]
    sys.stdout.write(f"resumed {len(running)}\n")
    sys.stdout.flush()
    while len(running) < games:
        running.append(await new_game())
    await asyncio.gather(*(play(sid) for sid in running))


async def verify(url: str, acked: dict[tuple[int, int], str]) -> dict[str, Any]:
    """Acknowledged actions present once at their version; every game equal to the replay of its log."""
    store = await open_store(url)
    try:
        missing = 0
        wrong = 0
        problems: list[str] = []
        logs: dict[int, dict[int, str]] = {}
        records = await store.sessions_with_status(*ALL_STATUSES)
        for rec in records:
            entries = await store.actions(rec.id)
            seqs = [e.seq for e in entries]
            if len(seqs) != len(set(seqs)) or seqs != sorted(seqs):
                problems.append(f"session {rec.id}: log sequence broken")
            logs[rec.id] = {e.seq: e.action_json for e in entries}
            if rec.state_json is not None and (problem := check_replay(rec, entries)):
                problems.append(problem)
        for (sid, version), action in acked.items():
            stored = logs.get(sid, {}).get(version)
            if stored is None:
                missing += 1
            elif stored != action:
                wrong += 1
        return {"sessions": len(records), "acked": len(acked), "missing": missing, "different": wrong,
                "problems": problems}
    finally:
        await store.close()


def one_life(args: argparse.Namespace, url: str, life: int, rnd: random.Random,
             acked: dict[tuple[int, int], str]) -> tuple[int, int]:
    """Start a worker, let it play for a random while, SIGKILL it; returns (acks, games it resumed)."""
    proc = subprocess.Popen(
        [sys.executable, __file__, "--worker", "--database-url", url, "--games", str(args.games),
         "--seed", str(life + 1)],
        stdout=subprocess.PIPE, text=True, bufsize=1,
    )
    assert proc.stdout is not None
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)  # type: ignore[arg-type]
    reader.start()
    deadline = time.monotonic() + 30
    while not any(line.startswith("ack ") for line in lines) and time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"worker {life} exited with status {proc.returncode} before playing")
        time.sleep(0.01)
    time.sleep(rnd.uniform(0.0, args.max_life))  # under load: the kill lands anywhere in a move
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    reader.join(timeout=5)
    resumed = 0
    acks = 0
    for line in lines:
        if line.startswith("ack ") and line.endswith("\n"):  # a line cut by the kill was never acknowledged
            _, sid, version, action = line.rstrip("\n").split(" ", 3)
            acked[(int(sid), int(version))] = action
            acks += 1
        elif line.startswith("resumed "):
            resumed = int(line.split()[1])
    return acks, resumed


def run(args: argparse.Namespace, url: str) -> dict[str, Any]:
    rnd = random.Random(args.seed)
    acked: dict[tuple[int, int], str] = {}
    acks_per_life: list[int] = []
    resumed_per_life: list[int] = []
    failures: list[str] = []
    t0 = time.monotonic()
    for life in range(args.kills):
        acks, resumed = one_life(args, url, life, rnd, acked)
        acks_per_life.append(acks)
        resumed_per_life.append(resumed)
        if args.check_every and (life + 1) % args.check_every == 0:
            report = asyncio.run(verify(url, acked))
            if report["missing"] or report["different"] or report["problems"]:
                failures.append(f"after kill {life + 1}: {report}")
    final = asyncio.run(verify(url, acked))
    return {
        "kills": args.kills,
        "games_at_once": args.games,
        "acknowledged_actions": len(acked),
        "acks_per_life_min_median_max": [min(acks_per_life), sorted(acks_per_life)[len(acks_per_life) // 2],
                                         max(acks_per_life)],
        "games_resumed_per_life_min": min(resumed_per_life[1:] or [0]),
        "missing_acknowledged": final["missing"],
        "different_from_acknowledged": final["different"],
        "replay_mismatches": len(final["problems"]),
        "sessions": final["sessions"],
        "failures": failures + final["problems"][:5],
        "seconds": round(time.monotonic() - t0, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--games", type=int, default=20, help="games played at once")
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--database-url", default=os.environ.get("TEST_DATABASE_URL", ""))
    parser.add_argument("--max-life", type=float, default=0.5, help="seconds of play before a kill, at most")
    parser.add_argument("--check-every", type=int, default=10, help="verify after every N kills (0: end only)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        asyncio.run(worker(args.database_url, args.games, args.seed))
        return
    if args.backend == "sqlite":
        with tempfile.TemporaryDirectory(prefix="crash-") as d:
            result = run(args, f"sqlite:///{Path(d) / 'crash.sqlite3'}")
    else:
        if not args.database_url:
            parser.error("--backend postgresql needs --database-url or TEST_DATABASE_URL")
        import asyncpg

        async def schema(sql: str) -> None:
            conn = await asyncpg.connect(args.database_url)
            try:
                await conn.execute(sql)
            finally:
                await conn.close()

        name = f"crash_{uuid.uuid4().hex[:12]}"
        asyncio.run(schema(f"CREATE SCHEMA {name}"))
        sep = "&" if "?" in args.database_url else "?"
        try:
            result = run(args, f"{args.database_url}{sep}search_path={name}")
        finally:
            asyncio.run(schema(f"DROP SCHEMA {name} CASCADE"))
    result = {"backend": args.backend, **result}
    print(json.dumps(result, indent=2))
    ok = not (result["missing_acknowledged"] or result["different_from_acknowledged"] or result["replay_mismatches"]
              or result["failures"])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

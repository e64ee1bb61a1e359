"""How much a whole game makes each player's phone buzz, through the real bot and discord.py's dispatch.

    python benchmarks/table_pacing.py [--seed 1] [--games call_to_glory,coc_lcg,...] [--autopass on|off]

Plays one whole game of each game with random legal clicks (the test harness's ``Table`` driver; every
request checked against Discord's schema) and prints, per game and per player:
- ``notifying``: new DMs without Discord's silent flag plus channel pings (what makes a notification),
- ``quiet``: silent new DMs (the first view at the start, a replaced deleted DM),
- ``edits``: DM edits made for other players' moves (the clicker's own message is updated by the response),
- ``arrivals``: times a decision arrived to the player while they owed none,
- ``clicks``, ``single_option_clicks`` (clicks where the player had exactly one legal move), ``automatic``
  steps the bot took for them, and the largest number of live DMs the player held for the game.
Targets (issue #13): LCG notifying <= 60 per player, single-option clicks <= 5 % (LCG, Fluxx), and
notifying <= arrivals in every game.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.client import GameBot  # noqa: E402
from bot.settings import Settings  # noqa: E402
from tests.discord.fake_discord import FakeDiscord, load_spec  # noqa: E402
from tests.discord.harness import Harness  # noqa: E402
from tests.discord.tables import Table  # noqa: E402

SEATS = {"call_to_glory": 3, "fluxx_cthulhu": 3, "cthulhu_wars_duel": 2, "coc_lcg": 2, "eldritch_horror": 2}


async def play(game: str, seed: int, autopass: bool, tmp: Path) -> dict[str, Any]:
    url = f"sqlite:///{tmp / (game + '.sqlite3')}"
    fake = FakeDiscord(spec=load_spec())
    h = Harness(lambda: GameBot(Settings(database_url=url, discord_token=None, table_edit_interval=0,
                                         rate_limit_per_second=0)), fake=fake)
    await h.start()
    try:
        users = [h.user(f"p{i}") for i in range(SEATS[game])]
        if not autopass:
            for u in users:
                await h.slash(u, h.channel, "game autopass", enabled=False)
        table = Table(h, users, game=game)
        await table.open(users[0])
        await table.seat_all()
        rnd = random.Random(seed)
        stats = {str(u.id): {"arrivals": 0, "clicks": 0, "single_option_clicks": 0, "max_live_dms": 0} for u in users}
        owed = {s: False for s in stats}
        for _ in range(20000):
            rec, spec, state = await table.load()
            waiting = {p.seat for p in spec.engine.pending(state)}
            for s in stats:
                stats[s]["arrivals"] += s in waiting and not owed[s]
                owed[s] = s in waiting
            if rec.status != "running" or not waiting:
                break
            seat = spec.engine.pending(state)[0].seat
            stats[seat]["clicks"] += 1
            stats[seat]["single_option_clicks"] += len(spec.engine.legal_actions(state, seat)) == 1
            await table.step(rnd)
            for u in users:
                live = [m for m in fake.dms_to(u.id) if not fake.is_deleted(m["id"])]
                stats[str(u.id)]["max_live_dms"] = max(stats[str(u.id)]["max_live_dms"], len(live))
        rec, _spec, _state = await table.load()
        log = await h.bot.store.actions(table.sid)
        out: dict[str, Any] = {"game": game, "status": rec.status, "actions": len(log), "players": {}}
        for i, u in enumerate(users):
            dm = str(fake.dm_channel_id(u.id))
            posts = [r for r in fake.requests_to("POST", "/channels/{channel_id}/messages")
                     if r.params["channel_id"] == dm and r.ok]
            loud = [r for r in posts if not (r.json or {}).get("flags", 0) & 4096]
            pings = [r for r in fake.requests_to("POST", "/channels/{channel_id}/messages")
                     if r.params["channel_id"] == str(h.channel.id) and r.ok
                     and f"<@{u.id}>, " in str((r.json or {}).get("content", ""))]
            edits = [r for r in fake.requests_to("PATCH", "/channels/{channel_id}/messages/{message_id}")
                     if r.params["channel_id"] == dm and r.ok]
            s = stats[str(u.id)]
            out["players"][f"p{i}"] = {
                "notifying": len(loud) + len(pings), "quiet": len(posts) - len(loud), "edits": len(edits),
                **s, "automatic": sum(e.auto and e.seat == str(u.id) for e in log),
                "single_option_share": round(s["single_option_clicks"] / max(1, s["clicks"]), 3),
            }
        return out
    finally:
        await h.close(check=False)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default=",".join(SEATS))
    parser.add_argument("--autopass", choices=("on", "off"), default="on")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games.split(","):
            print(json.dumps(await play(game, args.seed, args.autopass == "on", Path(tmp))), flush=True)


if __name__ == "__main__":
    asyncio.run(main())

"""What one click costs the bot, per game: engine calls and CPU instructions (plain script, not a test).

    python benchmarks/click_cost.py [--game coc_lcg ...] [--clicks 20] [--seed 1]
    python benchmarks/click_cost.py --instructions [--game coc_lcg]     # under valgrind's callgrind

Each game is opened by two players through the real bot and discord.py's dispatch against the fake Discord
(``tests/discord``), then ``--clicks`` clicks are made, each by the seat that owes a decision, on its live
DM, picking among its actions with a seeded generator; everything the click sets off (DMs, the table, the
clock) is waited for. Counted per click: the engine's ``pending``, ``legal_actions``, ``view`` and
``apply`` calls and the private messages built (``private_embed``), the moves' own choosing excluded;
``pending_by_bot`` is the part of ``pending`` the bot asked for itself (the rest is the engines' own
``view`` looking at the prompts it shows).

``--instructions`` runs this script under valgrind's callgrind with collection switched on only while the
bot works on a click: from the click's interaction reaching discord.py (``parse_interaction_create``) until
everything it set off is done.
The driver choosing the move and looking for its button, the fake Discord's server side (recording and
checking each request against Discord's schema, which Discord's servers do in production) and the
harness's waiting are left out, and so is start-up, so a figure is the bot's own. CPU instructions do not
depend on how busy the machine is, so two trees can be compared on a shared machine: run the same command
with ``PYTHONPATH`` and the working directory at the other tree (a ``git worktree`` of it) and the same
seeds. ``--keep DIR`` leaves callgrind's output there (``<game>-<clicks>.out``), for ``callgrind_annotate``
to say where the instructions go. The switch is a three-line C helper built with the machine's compiler
against valgrind's own header (``valgrind/callgrind.h``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, os.getcwd())

from apart import Collection, under_callgrind  # beside this script (found there when it measures another tree)

from bot.client import GameBot
from bot.settings import Settings
from rules import registry
from tests.discord import fake_discord
from tests.discord.harness import Harness
from tests.discord.tables import Table

COUNTED = ("pending", "legal_actions", "view", "apply")
OPTIONS = {"call_to_glory": "quick", "eldritch_horror": "pick=random"}
"""Lobby options that open a game here without questions first (the others open as they are)."""
def counting(calls: Counter[str], name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    engine = name in COUNTED  # the engine's own calls inside one of these are not the bot's

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[name] += 1
        if name == "pending" and not calls["(depth)"]:
            calls["pending_by_bot"] += 1
        calls["(depth)"] += engine
        try:
            return method(*args, **kwargs)
        finally:
            calls["(depth)"] -= engine
    return counted


async def measure(game: str, clicks: int, seed: int, collection: Collection | None = None) -> dict[str, Any]:
    """Play ``clicks`` clicks; with ``collection`` count instructions, else count engine calls."""
    workdir = tempfile.mkdtemp(prefix="click-cost-")
    settings = Settings(database_url=f"sqlite:///{Path(workdir) / 'bench.sqlite3'}", discord_token=None,
                        table_edit_interval=0, rate_limit_per_second=0, ai_processes=0, ai_move_delay=0)
    calls: Counter[str] = Counter()
    made_clicks = [False]  # the measured clicks have begun (the lobby's are not counted)
    spec = registry.get(game)
    if collection is None:
        for name in COUNTED:  # instance attributes shadow the engine's methods for everyone who calls them
            setattr(spec.engine, name, counting(calls, name, getattr(type(spec.engine), name).__get__(spec.engine)))
    else:  # Discord's side of each request and the harness's waiting are not the bot's work
        fake_discord.FakeDiscord._dispatch = collection.quiet(  # type: ignore[method-assign]
            fake_discord.FakeDiscord._dispatch)
        Harness._drain = collection.quiet(Harness._drain)  # type: ignore[method-assign]
    async with Harness(lambda: GameBot(settings, sync_commands="never"), drain_timeout=600) as h:
        if collection is not None:
            # Counting starts as the click's interaction reaches discord.py: building its payload is the
            # harness standing in for Discord's gateway, not the bot's work.
            state = h.bot._connection
            parse = state.parse_interaction_create

            def counted_parse(data: Any) -> None:
                if made_clicks[0]:
                    collection.set(True)
                parse(data)
            state.parse_interaction_create = counted_parse  # type: ignore[method-assign]
        if collection is None:
            from cogs.games.ui import ui_for  # registered as the bot loads the game's cog

            ui = ui_for(game)
            ui.private_embed = counting(calls, "private_message",  # type: ignore[method-assign]
                                        type(ui).private_embed.__get__(ui))
        users = [h.user("ann"), h.user("bob")]
        table = Table(h, users, game=game)
        drawn = secrets.randbits
        secrets.randbits = lambda k: seed % (1 << k)  # the game's seed: the same deal on both trees
        try:
            await table.open(users[0], OPTIONS.get(game))
        finally:
            secrets.randbits = drawn
        await table.seat_all()
        await h.drain()
        rnd = random.Random(seed)
        made = 0
        made_clicks[0] = True
        calls.clear()
        for _ in range(clicks):
            rec, spec_, state = await table.load()
            prompts = spec_.engine.pending(state) if rec.status == "running" else []
            if not prompts:
                break
            seat = prompts[0].seat
            index = rnd.randrange(len(spec_.engine.legal_actions(state, seat)))
            user = table.users[seat]
            message = table.private_message(user, rec.version)
            if message is None:  # no live DM: the table's "My hand" gives the same view (a click of its own)
                await h.click(user, table.table_id, f"gh:{table.sid}")
                message = table.private_message(user, rec.version)
            assert message is not None, f"{user.username} has nothing to click at version {rec.version}"
            # The driver's own look at the state (to choose a move) is not the bot's: take it out again.
            calls.subtract({"pending": 1, "pending_by_bot": 1, "legal_actions": 1})
            if collection is not None:
                collection.set(False)  # a "My hand" click just now was the bot's too, but not this click's
            await table.press(user, message, index, rec.version)
            await h.drain()
            if collection is not None:
                collection.set(False)
            made += 1
    if collection is None:
        for name in COUNTED:
            delattr(spec.engine, name)
        del ui.private_embed
    return {"game": game, "clicks": made,
            **{k: round(v / max(made, 1), 2) for k, v in sorted(calls.items()) if k != "(depth)"}}


def instructions(game: str, clicks: int, seed: int, keep: Path | None = None) -> dict[str, Any]:
    """The bot's instructions per click: callgrind's total, collected only while the bot works, over clicks."""
    with tempfile.TemporaryDirectory() as tmp:
        out = (keep or Path(tmp)) / f"{game}-{clicks}.out"
        total, stdout = under_callgrind(__file__, ["--game", game, "--clicks", str(clicks), "--seed", str(seed)], out)
    made = json.loads(stdout.strip().splitlines()[-1])["clicks"]
    return {"game": game, "clicks": made, "instructions_per_click": total // max(made, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", action="append", choices=[s.id for s in registry.all()])
    parser.add_argument("--clicks", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--instructions", action="store_true")
    parser.add_argument("--keep", type=Path, help="with --instructions: keep callgrind's output in this folder")
    args = parser.parse_args()
    for game in args.game or [s.id for s in registry.all()]:
        if args.instructions:
            print(json.dumps(instructions(game, args.clicks, args.seed, args.keep)), flush=True)
        else:
            print(json.dumps(asyncio.run(measure(game, args.clicks, args.seed, Collection.from_env()))), flush=True)


if __name__ == "__main__":
    main()

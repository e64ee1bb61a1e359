"""The floor under a click's CPU cost: the Discord work every move needs, with no game and no database.

    python benchmarks/discord_floor.py [--game call_to_glory] [--games 200] [--waves 6]
    python benchmarks/discord_floor.py --instructions --game coc_lcg --games 20 --waves 5

A move through the bot cannot cost less than what discord.py (and, here, the fake Discord that stands in
for the network) spends on the messages the move must send: the clicked DM answered with the mover's new
view, the table message edited, and the next seat's DM posted. This script measures that alone. It first
plays the opening of one real game through the bot to copy a real private view and a real table message
(their embeds and components), then runs a bare discord.py bot whose every click does exactly those three
operations with those payloads, in the waves ``bot_latency.py`` uses (every table's click at once, the
driver's own work timed apart). The result, clicks per CPU-second, is the most ``bot_latency.py``'s
"actions per CPU-second" could ever reach on this machine with this fake: everything the bot adds
(engines, rendering the views, the store, the clock) comes on top of it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord
from discord.ext import commands

from benchmarks.apart import Collection, CpuApart, under_callgrind
from bot.client import GameBot
from bot.settings import Settings
from cogs.games.common import show_in_place
from cogs.games.notifier import DiscordNotifier
from cogs.games.payload import Components, as_view, button, option, select
from tests.discord import payloads as P
from tests.discord.fake_discord import FakeDiscord, load_spec
from tests.discord.harness import Harness


async def real_payloads(game: str, workdir: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A private view and a table message as the bot sends them, a few moves into a real game."""
    settings = Settings(database_url=f"sqlite:///{workdir}/copy.sqlite3", discord_token=None, table_edit_interval=0,
                        rate_limit_per_second=0)
    async with Harness(lambda: GameBot(settings), fake=FakeDiscord(spec=load_spec(), validate=False)) as h:
        channel = h.text_channel("table")
        players = [h.user(f"p{i}") for i in range(2)]
        await h.slash(players[0], channel, "game new", game=game)
        rec = await h.bot.store.active_in_channel(channel.id)
        assert rec is not None and rec.table_message_id is not None
        await h.click(players[1], rec.table_message_id, f"gl:{rec.id}:join")
        await h.click(players[0], rec.table_message_id, f"gl:{rec.id}:start")
        table = h.fake.message(rec.table_message_id)
        dms = [m for u in players for m in h.fake.messages_in(h.fake.dm_channel_id(u.id))
               if any(row.get("components") for row in m.get("components", []))]
        assert dms, "no private view with buttons was sent"
        return dms[-1], table


def rebuilt(message: dict[str, Any]) -> dict[str, Any]:
    """The message's embed and components as the bot hands them to discord.py (``cogs.games.payload``),
    ready to send again."""
    view = Components()
    for row_no, row in enumerate(message.get("components", [])):
        for comp in row.get("components", []):
            if comp["type"] == 2:
                view.add(button(comp["custom_id"], comp["label"], discord.ButtonStyle(comp.get("style", 2)),
                                disabled=comp.get("disabled", False), emoji=(comp.get("emoji") or {}).get("name")),
                         row_no)
            elif comp["type"] == 3:
                view.add(select(comp["custom_id"], [option(o["label"], o["value"]) for o in comp["options"]],
                                comp.get("placeholder")), row_no)
    embeds = [discord.Embed.from_dict(e) for e in message.get("embeds", [])]
    return {"content": message.get("content") or None, "embed": embeds[0] if embeds else None, "view": view}


def as_sent(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` for discord.py's own ``send``, which names its components a view."""
    return {**message, "view": as_view(message["view"])}


class FloorBot(commands.Bot):
    """Answers every click with the three sends a move needs, and nothing else."""

    def __init__(self, private: dict[str, Any], table: dict[str, Any]) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.none())
        self.private, self.table = private, table
        self.table_channel: int | None = None
        self.table_message: int | None = None
        self.next_seat: int | None = None

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        mover = rebuilt(self.private)  # a new view for the mover: built per move, as the bot does
        await show_in_place(interaction, mover["embed"], mover["view"])
        assert self.table_channel is not None and self.table_message is not None and self.next_seat is not None
        # The table edit and the next DM go out as the bot's notifier sends them (its answer not parsed).
        notifier = DiscordNotifier(self)  # type: ignore[arg-type]
        await notifier.edit(self.table_channel, self.table_message, **rebuilt(self.table))
        await notifier.send(self.next_seat, **rebuilt(self.private))


async def floor(game: str, games: int, waves: int) -> dict[str, Any]:
    workdir = tempfile.mkdtemp(prefix="discord-floor-")
    private, table = await real_payloads(game, workdir)
    fake = FakeDiscord(spec=load_spec(), validate=False)
    apart = CpuApart()  # the fake's side of each request is Discord's servers' work, not the bot's
    collection = Collection.from_env()  # under ``--instructions``: callgrind counts the bot's work only
    dispatch = fake._dispatch if collection is None else collection.quiet(fake._dispatch)
    fake._dispatch = apart.wrap(dispatch)  # type: ignore[method-assign]
    async with Harness(lambda: FloorBot(private, table), fake=fake) as h:
        bot: FloorBot = h.bot  # type: ignore[assignment]
        channel = h.text_channel("table")
        posted = await bot.get_partial_messageable(channel.id).send(**as_sent(rebuilt(table)))
        bot.table_channel, bot.table_message = channel.id, posted.id
        players = [h.user(f"p{i}") for i in range(games)]
        bot.next_seat = h.fake.dm_channel_id(players[0].id)
        first_dm = await bot.get_partial_messageable(bot.next_seat, type=discord.ChannelType.private).send(
            **as_sent(rebuilt(private)))
        dm_message = h.fake.message(first_dm.id)  # every click comes from this view, which each click edits
        button = next(c["custom_id"] for row in private["components"] for c in row["components"] if c["type"] == 2)
        baseline = set(asyncio.all_tasks())
        clicks = 0
        driver = 0.0
        cpu_start = time.process_time()
        apart.cpu = 0.0
        for _wave in range(waves):
            t_driver = time.process_time()
            batch = []
            for user in players:
                payload = P.interaction_payload(
                    snowflakes=h.snowflakes, application_id=h.fake.application_id, type=P.MESSAGE_COMPONENT,
                    ctx=h._context(user, h.channel_by_id(bot.next_seat)), data=P.button_click_data(button),
                    message=dm_message)
                h.fake.register_interaction(payload)
                batch.append(payload)
            driver += time.process_time() - t_driver
            if collection is not None:
                collection.set(True)
            for payload in batch:
                h.bot._connection.parse_interaction_create(payload)
            me = asyncio.current_task()
            while pending := [t for t in asyncio.all_tasks() if t is not me and t not in baseline and not t.done()]:
                await asyncio.wait(pending)
            if collection is not None:
                collection.set(False)
            clicks += len(batch)
        cpu = time.process_time() - cpu_start - driver
        fake_cpu = apart.cpu
    return {"game": game, "clicks": clicks, "discord_ops_per_click": 3,
            "clicks_per_cpu_s": round(clicks / cpu, 1), "cpu_ms_per_click": round(1000 * cpu / clicks, 3),
            # the same without the fake Discord's own side of the requests (Discord's servers in production)
            "clicks_per_cpu_s_without_fake": round(clicks / (cpu - fake_cpu), 1),
            "cpu_ms_per_click_without_fake": round(1000 * (cpu - fake_cpu) / clicks, 3),
            "private_view_components": sum(len(r["components"]) for r in private["components"]),
            "table_embed_chars": len(json.dumps(table.get("embeds", [])))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="call_to_glory")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--waves", type=int, default=6)
    parser.add_argument("--instructions", action="store_true",
                        help="CPU instructions per click under callgrind (the driver and the fake's side left out, as"
                             " click_cost.py --instructions counts a click), to set beside click_cost's figure")
    args = parser.parse_args()
    if args.instructions:
        with tempfile.TemporaryDirectory() as tmp:
            total, stdout = under_callgrind(__file__, ["--game", args.game, "--games", str(args.games), "--waves",
                                                       str(args.waves)], Path(tmp) / "floor.out")
        clicks = json.loads(stdout)["clicks"]
        print(json.dumps({"game": args.game, "clicks": clicks, "instructions_per_click": total // clicks}))
        return
    print(json.dumps(asyncio.run(floor(args.game, args.games, args.waves)), indent=2))


if __name__ == "__main__":
    main()

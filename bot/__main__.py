"""``python -m bot`` runs the bot. Other commands:

- ``python -m bot play <game> --seats N`` plays a hot-seat game offline;
- ``python -m bot sync`` pushes the slash commands to Discord now, even if they look unchanged;
- ``python -m bot migrate --from URL --to URL`` moves everything the bot keeps to another, empty database and
  verifies the copy.

Failures an operator causes or can fix (a wrong token, no network, an unreachable database) end with one
line saying what to do, not a traceback. A SQLite file that exists but is empty or damaged is refused
before anything connects, with exit status 2: a person must restore it, so a service manager should not
restart into it.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

if TYPE_CHECKING:
    from bot.client import GameBot
    from bot.settings import Settings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Game-night Discord bot")
    sub = parser.add_subparsers(dest="command")
    play = sub.add_parser("play", help="play a hot-seat game in this terminal (no Discord needed)")
    play.add_argument("game", help="game id (an unknown one is answered with the list of games)")
    play.add_argument("--seats", type=int, default=2)
    play.add_argument("--lang", choices=["en", "ru"], default=None, help="default: DEFAULT_LOCALE")
    play.add_argument("--seed", type=int, default=None)
    play.add_argument("--options", default="", help="e.g. 'ninja_power imperial_tasks'")
    sub.add_parser("sync", help="push the slash commands to Discord now (normally done when they change)")
    move = sub.add_parser("migrate", help="move everything to another, empty database, then verify the copy")
    move.add_argument("--from", dest="source", required=True, help="e.g. sqlite:///./data/bot.sqlite3")
    move.add_argument("--to", dest="target", required=True, help="e.g. postgresql://bot:secret@localhost/bot")
    args = parser.parse_args(argv)
    if args.command == "play":
        from bot.offline import play_offline
        from bot.settings import Settings

        lang = args.lang
        if lang is None:
            try:
                lang = Settings().default_locale
            except ValidationError:
                lang = "en"
        return play_offline(args.game, args.seats, lang, args.seed, args.options)
    if args.command == "migrate":
        return run_migrate(args.source, args.target)
    return run_bot(sync_only=args.command == "sync")


def _fail(message: str, status: int = 1) -> int:
    """Print ``message`` and return ``status``: 2 for a setting the operator must fix (a service manager
    should not restart into it), 1 for what may pass by itself (network, a database still starting)."""
    print(message, file=sys.stderr)
    return status


def load_settings() -> Settings | None:
    """The settings, or None after printing what is wrong with them."""
    from bot.settings import Settings

    try:
        settings = Settings()
    except ValidationError as exc:
        print(f"Configuration error:\n{exc}", file=sys.stderr)
        return None
    if settings.discord_token is None:
        print(
            "DISCORD_TOKEN is not set: create an application at https://discord.com/developers/applications,\n"
            "add a bot, copy its token into .env (see .env.example) and run `python -m bot` again.",
            file=sys.stderr,
        )
        return None
    return settings


def run_bot(*, sync_only: bool = False) -> int:
    """Run the bot until it is stopped (or, with ``sync_only``, log in, push the commands and leave)."""
    settings = load_settings()
    if settings is None:
        return 2
    problem = database_problem(settings)
    if problem:
        return _fail(f"Cannot use the database (DATABASE_URL): {problem}", 2)
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)-7s %(name)s: %(message)s")
    from bot.client import make_bot
    from bot.collector import tune_collector

    tune_collector()
    token = settings.discord_token.get_secret_value()  # type: ignore[union-attr]  # checked by load_settings
    bot = make_bot(settings, sync_commands="force" if sync_only else "changed")
    return explain_startup_failure(lambda: _sync_once(bot, token) if sync_only else _run(bot, token))


def database_problem(settings: Settings) -> str | None:
    """What is wrong with the SQLite file the bot would open (None for PostgreSQL, a sound file or none
    yet), checked before anything connects: an emptied or damaged file needs a person with a backup, and
    the bot must not create a fresh database in its place or fail on every move instead."""
    from bot.settings import bot_home
    from bot.storage import check_file, database_backend, sqlite_file_path

    if database_backend(settings.database_url) != "sqlite":
        return None
    return check_file(sqlite_file_path(settings.database_url, base=bot_home()))


async def _run(bot: GameBot, token: str) -> None:
    """Run until Discord ends the connection or a signal asks to stop: SIGTERM (Docker, systemd) and SIGINT
    (Ctrl-C) both stop cleanly through ``GameBot.shutdown`` and end with status 0. Handlers are installed
    explicitly, because as PID 1 in a container a signal without one is ignored."""
    from bot.workers import close_pools

    loop = asyncio.get_running_loop()
    stopping: list[asyncio.Task[None]] = []

    def stop() -> None:
        if not stopping:
            stopping.append(loop.create_task(bot.shutdown()))

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop)
    try:
        async with bot:
            await bot.start(token)
    finally:
        if stopping:
            await stopping[0]
        close_pools()


async def _sync_once(bot: GameBot, token: str) -> None:
    async with bot:
        await bot.login(token)  # runs setup_hook, which syncs (forced)


def explain_startup_failure(start: Callable[[], Coroutine[Any, Any, None]]) -> int:
    """Run ``start()`` (a coroutine factory) to completion; turn the failures an operator can fix into one
    clear line on stderr and an exit status (see ``_fail``). Anything else is a bug and keeps its traceback."""
    import aiohttp
    import discord

    from bot.storage import DataDamaged, StorageError

    try:
        asyncio.run(start())
    except KeyboardInterrupt:
        return 0
    except discord.LoginFailure:
        return _fail("Discord refused the token: DISCORD_TOKEN is invalid or was reset. Copy the bot's current "
                     "token (Developer Portal → your application → Bot → Reset Token) into .env.", 2)
    except discord.PrivilegedIntentsRequired:
        return _fail("Discord refused the connection: the bot asked for an intent not enabled in the "
                     "Developer Portal.", 2)
    except DataDamaged as exc:
        return _fail(f"Cannot use the database (DATABASE_URL): {exc}; restore it from a backup", 2)
    except StorageError as exc:
        return _fail(f"Cannot use the database (DATABASE_URL): {exc}")
    except (aiohttp.ClientError, OSError, TimeoutError) as exc:
        detail = str(exc) or type(exc).__name__
        return _fail(f"Cannot reach Discord ({detail}): check the network connection and try again.")
    return 0


def run_migrate(source: str, target: str) -> int:
    """Move every table from ``source`` to ``target``; exit 0 only when all of it verified."""
    from bot.storage import StorageError
    from bot.transfer import migrate

    logging.basicConfig(level="WARNING", format="%(levelname)s %(name)s: %(message)s")
    try:
        report = asyncio.run(migrate(source, target))
    except (StorageError, ValueError) as exc:
        return _fail(f"migrate: {exc}")
    print(report.summary())
    for problem in report.problems:
        print(f"  {problem}", file=sys.stderr)
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())

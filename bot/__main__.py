"""``python -m bot`` runs the bot; ``python -m bot play <game> --seats N`` plays a hot-seat game offline."""

from __future__ import annotations

import argparse
import logging
import sys

from pydantic import ValidationError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Game-night Discord bot")
    sub = parser.add_subparsers(dest="command")
    play = sub.add_parser("play", help="play a hot-seat game in this terminal (no Discord needed)")
    play.add_argument("game", help="game id, e.g. call_to_glory")
    play.add_argument("--seats", type=int, default=2)
    play.add_argument("--lang", choices=["en", "ru"], default=None, help="default: DEFAULT_LOCALE")
    play.add_argument("--seed", type=int, default=None)
    play.add_argument("--options", default="", help="e.g. 'ninja_power imperial_tasks'")
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
    return run_bot()


def run_bot() -> int:
    from bot.settings import Settings

    try:
        settings = Settings()
    except ValidationError as exc:
        print(f"Configuration error:\n{exc}", file=sys.stderr)
        return 2
    if settings.discord_token is None:
        print(
            "DISCORD_TOKEN is not set: create an application at https://discord.com/developers/applications,\n"
            "add a bot, copy its token into .env (see .env.example) and run `python -m bot` again.",
            file=sys.stderr,
        )
        return 2
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)-7s %(name)s: %(message)s"
    )
    from bot.client import GameBot

    bot = GameBot(settings)
    bot.run(settings.discord_token.get_secret_value(), log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())

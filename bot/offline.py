"""A hot-seat table in the terminal, through the same engine, views and texts as the Discord table."""

from __future__ import annotations

import importlib
import importlib.util
import re
import secrets
from typing import TextIO

from pydantic import BaseModel, ValidationError

from bot.i18n import t
from bot.sessions import SessionError, options_error, parse_option_text
from bot.ui import Names, register_ui, ui_for
from rules import registry
from rules.core import RuleError


def _load_ui(game: str) -> None:
    """Each game cog exposes its presentation as ``UI``; importing it makes no Discord connection."""
    register_ui(importlib.import_module(f"cogs.{game}").UI)


_MENTION = re.compile(r"<@!?([^>\s]+)>")


def plain(text: str, names: Names) -> str:
    """Discord mention markup (``<@1>``, meant to ping a member) as the player's name: a terminal shows
    markup literally."""
    return _MENTION.sub(lambda m: names(m[1]) if m[1] in names.by_seat else m[0], text)


def play_offline(
    game: str, seats: int, lang: str, seed: int | None, options: str,
    stdin: TextIO | None = None, stdout: TextIO | None = None,
) -> int:
    import sys

    inp, out = stdin or sys.stdin, stdout or sys.stdout
    try:
        spec = registry.get(game)
    except KeyError:
        spec = None
    if spec is None or importlib.util.find_spec(f"cogs.{game}") is None:
        known = [s.id for s in registry.all() if importlib.util.find_spec(f"cogs.{s.id}") is not None]
        print(f"Unknown game {game!r}; playable: {', '.join(known)}", file=out)
        return 2
    try:
        opts = spec.parse_options(parse_option_text(spec, options))
    except SessionError as exc:
        print(exc.text(lang), file=out)
        return 2
    except ValidationError as exc:
        print(options_error(exc).text(lang), file=out)
        return 2
    except RuleError as exc:  # an option a game reads itself, e.g. a pasted deck list
        print(t(lang, f"rule.{exc.code}", **exc.params), file=out)
        return 2
    _load_ui(game)
    ui = ui_for(game)
    names = Names({str(i + 1): f"P{i + 1}" for i in range(seats)})
    try:
        state = spec.engine.new_game(list(names.by_seat), opts, seed if seed is not None else secrets.randbits(63))
    except RuleError as exc:
        print(t(lang, f"rule.{exc.code}", **exc.params), file=out)
        return 2
    if notice := ui.start_notice(opts, lang):  # what the Discord table says when the game starts
        print(plain(notice, names), file=out)
    numbers: dict[str, int] = {}  # action -> its number while the same decision stays open
    decision: tuple[str, str, str] | None = None
    while prompts := spec.engine.pending(state):
        seat = prompts[0].seat
        asked = (seat, prompts[0].kind, repr(sorted(prompts[0].params.items())))
        if asked != decision:
            decision, numbers = asked, {}
        view = spec.engine.view(state, seat)
        print("\n" + "=" * 60, file=out)
        print(plain(ui.text_table(spec.engine.view(state, None), lang, names), names), file=out)
        print("-" * 60, file=out)
        print(f"[{names(seat)}] " + plain(ui.text_private(view, lang, names), names), file=out)
        # Within one decision (e.g. a Move step by step, or free actions before the main one) an option keeps
        # its number; one that went away leaves a gap instead of shifting every later number.
        by_number: dict[int, BaseModel] = {}
        for action in spec.engine.legal_actions(state, seat):
            key = action.model_dump_json()
            numbers.setdefault(key, max(numbers.values(), default=0) + 1)
            by_number[numbers[key]] = action
        for i, action in sorted(by_number.items()):
            print(f"  {i:>2}. {plain(ui.action_label(action, view, lang, names), names)}", file=out)
        line = inp.readline()
        if not line:
            return 0
        choice = line.strip()
        if choice in ("q", "quit", "exit"):
            return 0
        if not choice.isdigit() or int(choice) not in by_number:
            print(t(lang, "err.bad_choice"), file=out)
            continue
        try:
            state, events = spec.engine.apply(state, seat, by_number[int(choice)])
        except RuleError as exc:
            print(plain(t(lang, f"rule.{exc.code}", **ui.rule_error_params(exc.params, lang, names)), names),
                  file=out)
            continue
        for e in events:
            if e.audience is None and (text := ui.event_text(e, lang, names)):
                print("  • " + plain(text, names), file=out)
        for text in ui.announcements(events, lang, names):
            print(plain(text, names), file=out)
    result = spec.engine.result(state)
    print(plain(ui.text_table(spec.engine.view(state, None), lang, names), names), file=out)
    if result is not None:
        print(t(lang, "table.finished"), ", ".join(names(s) for s in result.winners), file=out)
    return 0

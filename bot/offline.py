"""A hot-seat table in the terminal, through the same engine, views and texts as the Discord table.

It is meant for learning a game (or trying a rule) without a server, with several people sharing one
keyboard. So each seat's private view appears only after the keyboard was handed over and is wiped before
the next seat looks; the bot's auto-pass takes the moves a seat has no choice about; ``rules QUERY`` asks the
same lookup as ``/rules``; and an option keeps its number while the seat still faces that decision.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, TextIO

from pydantic import BaseModel, ValidationError
from rich.console import Console
from rich.markdown import Markdown
from rich.panel import Panel
from rich.text import Text

from bot.i18n import t
from bot.lookup import UnknownGameError, get_index
from bot.sessions import (
    MAX_AUTO_STEPS,
    SessionError,
    forced_publicly,
    options_error,
    parse_option_text,
)
from cogs.games.ui import GameUI, Names, register_ui, ui_for
from rules import registry
from rules.core import Event, GameSpec, RuleError

CLEAR = "\x1b[H\x1b[2J\x1b[3J"
"""Cursor home, clear the screen, and clear the scrollback (xterm and most terminals since), so the next
player cannot scroll up to the previous one's hand."""

RECENT = 12
"""Lines of what happened that a seat's screen shows at most: enough for a round of the biggest game."""

QUIT = frozenset({"q", "quit", "exit", "выход"})
HELP = frozenset({"?", "h", "help", "помощь", "справка"})
RULES = frozenset({"rules", "rule", "правила", "правило"})
AUTOPASS = frozenset({"autopass", "автопас"})


class Lines(Protocol):
    """Where the typed lines come from: a terminal's standard input, or a test's player."""

    def readline(self) -> str: ...


def _load_ui(game: str) -> None:
    """Each game cog exposes its presentation as ``UI``; importing it makes no Discord connection."""
    register_ui(importlib.import_module(f"cogs.{game}").UI)


_MENTION = re.compile(r"<@!?([^>\s]+)>")


def plain(text: str, names: Names) -> str:
    """Discord mention markup (``<@1>``, meant to ping a member) as the player's name: a terminal shows
    markup literally."""
    return _MENTION.sub(lambda m: names(m[1]) if m[1] in names.by_seat else m[0], text)


def markdown(text: str, names: Names) -> Markdown:
    """A Discord text rendered: Discord keeps every line break of a message, CommonMark would join the lines
    of a paragraph, so each break is made a hard one."""
    return Markdown(plain(text, names).replace("\n", "  \n"))


@dataclass
class Numbering:
    """Option numbers a player can rely on. While one seat faces the same kind of decision (two draws in a
    row, cards played one after another, a move taken step by step) an option keeps its number and one
    that went away leaves a gap; numbering starts again at 1 for another decision, or when nothing shown
    before is still offered."""

    decision: tuple[str, str] | None = None
    numbers: dict[str, int] = field(default_factory=dict)

    def assign(self, seat: str, kind: str, actions: list[BaseModel],
               dump: Callable[[BaseModel], str]) -> dict[int, BaseModel]:
        keys = [dump(a) for a in actions]
        if (seat, kind) != self.decision or not any(k in self.numbers for k in keys):
            self.decision, self.numbers = (seat, kind), {}
        for key in keys:
            self.numbers.setdefault(key, max(self.numbers.values(), default=0) + 1)
        return dict(sorted((self.numbers[k], a) for k, a in zip(keys, actions, strict=True)))


class HotSeat:
    """One game at one terminal. ``run`` plays it until it ends, the input ends or someone quits."""

    def __init__(self, spec: GameSpec, ui: GameUI, state: BaseModel, names: Names, lang: str,
                 console: Console, inp: Lines) -> None:
        self.spec, self.ui, self.state, self.names, self.lang = spec, ui, state, names, lang
        self.console, self.inp = console, inp
        self.seats = list(names.by_seat)
        self.autopass = dict.fromkeys(self.seats, True)  # on, as the bot's default
        self.numbering = Numbering()
        self.recent: dict[str, list[str]] = {s: [] for s in self.seats}  # what each seat has not seen yet
        self.public: list[str] = []  # what the table saw since the keyboard last changed hands
        self.viewer: str | None = None  # whose private view is on the screen

    def say(self, text: str, **params: object) -> None:
        self.console.print(plain(t(self.lang, text, **params), self.names), markup=False, highlight=False)

    def run(self) -> int:
        redraw = True
        while True:
            self.take_forced_steps()
            prompts = self.spec.engine.pending(self.state)
            if not prompts:
                break
            seat = prompts[0].seat
            if seat != self.viewer:
                if len(self.seats) > 1 and not self.hand_over(seat):
                    return 0
                self.viewer, redraw = seat, True
            options = self.numbering.assign(seat, prompts[0].kind, self.spec.engine.legal_actions(self.state, seat),
                                            self.spec.dump_action)
            if redraw:
                self.screen(seat, options)
                redraw = False
            self.console.print(Text(t(self.lang, "offline.prompt", seat=self.names(seat)), style="bold"), end="")
            self.console.file.flush()
            line = self.inp.readline()
            if not line:
                self.console.print()
                return 0
            word, _, rest = line.strip().partition(" ")
            if word.lower() in QUIT:
                return 0
            if not word:
                redraw = True
            elif word.lower() in HELP:
                self.say("offline.help")
            elif word.lower() in RULES:
                self.rules(rest.strip())
            elif word.lower() in AUTOPASS:
                self.autopass[seat] = not self.autopass[seat]
                self.say("offline.autopass_" + ("on" if self.autopass[seat] else "off"), seat=self.names(seat))
            elif word.isdigit() and int(word) in options:
                redraw = self.act(seat, options[int(word)])
            else:
                self.say("offline.bad_choice", first=min(options), last=max(options))
        self.finish()
        return 0

    # ------------------------------------------------------------------ moves
    def act(self, seat: str, action: BaseModel, *, auto: bool = False) -> bool:
        """Apply one move and share out what it showed; False (nothing changed) when the engine refuses it."""
        try:
            self.state, events = self.spec.engine.apply(self.state, seat, action)
        except RuleError as exc:
            self.console.print(plain(t(self.lang, f"rule.{exc.code}",
                                       **self.ui.rule_error_params(exc.params, self.lang, self.names)), self.names),
                               markup=False, highlight=False)
            return False
        self.share(events, auto)
        return True

    def take_forced_steps(self) -> None:
        """The bot's own rule (``SessionService._single_move``): a seat left with one legal move has it taken
        for it when its auto-pass is on, or whatever that setting when everyone can see the move is forced."""
        for _ in range(MAX_AUTO_STEPS):
            if self.spec.engine.result(self.state) is not None:
                return
            step = self.single_move()
            if step is None:
                return
            self.act(*step, auto=True)

    def single_move(self) -> tuple[str, BaseModel] | None:
        for seat in dict.fromkeys(p.seat for p in self.spec.engine.pending(self.state)):
            legal = self.spec.engine.legal_actions(self.state, seat)
            if len(legal) == 1 and (self.autopass[seat]
                                    or forced_publicly(self.spec, self.state, seat, legal[0], self.seats)):
                return seat, legal[0]
        return None

    def share(self, events: list[Event], auto: bool) -> None:
        """Each line goes to the seats that may read it, to be shown on their next screen."""
        for e in events:
            text = self.ui.event_text(e, self.lang, self.names)
            if not text:
                continue
            text = t(self.lang, "table.auto_step", line=text) if auto else text
            for seat in self.seats if e.audience is None else [e.audience]:
                if seat in self.recent:
                    self.recent[seat].append(text)
            if e.audience is None:
                self.public.append(text)
        for text in self.ui.announcements(events, self.lang, self.names):
            self.public.append(text)
            for lines in self.recent.values():
                lines.append(text)

    # ------------------------------------------------------------------ screens
    def clear(self) -> None:
        if self.console.is_terminal:
            self.console.file.write(CLEAR)

    def hand_over(self, seat: str) -> bool:
        """Wipe the screen (the previous seat's hand with it), show what the table saw, and wait until the
        next player has the keyboard. False when they quit instead."""
        self.clear()
        for text in self.public[-RECENT:]:
            self.console.print(markdown("• " + text, self.names))
        self.public.clear()
        self.console.print(Text(t(self.lang, "offline.handoff", seat=self.names(seat)), style="bold reverse"),
                           end="")
        self.console.file.flush()
        line = self.inp.readline()
        self.clear()
        return bool(line) and line.strip().lower() not in QUIT

    def screen(self, seat: str, options: dict[int, BaseModel]) -> None:
        engine, lang, names = self.spec.engine, self.lang, self.names
        self.clear()
        view = engine.view(self.state, seat)
        self.console.print(markdown(self.ui.text_table(engine.view(self.state, None), lang, names), names))
        if lines := self.recent[seat][-RECENT:]:
            self.console.rule(t(lang, "offline.recent"), style="dim")
            for text in lines:
                self.console.print(markdown("• " + text, names))
        self.recent[seat].clear()
        self.console.print(Panel(markdown(self.ui.text_private(view, lang, names), names),
                                 title=t(lang, "offline.private", seat=names(seat)), title_align="left"))
        for number, action in options.items():
            label = plain(self.ui.action_label(action, view, lang, names), names)
            self.console.print(Text.assemble((f"{number:>3}. ", "bold cyan"), label))
        self.say("offline.hint")

    def rules(self, query: str) -> None:
        """The ``/rules`` answer in the terminal: the best section, then the next ones to look at."""
        if not query:
            self.say("offline.rules_usage")
            return
        index = get_index()
        try:
            answer = index.answer_rules(self.spec.id, query, self.lang)
        except UnknownGameError:
            self.say("lookup.unknown_game", game=self.spec.name(self.lang))
            return
        if not answer.hits:
            self.say("lookup.no_match", query=query)
            for hit in answer.suggestions:
                self.console.print(f"  • {hit.title}", markup=False, highlight=False)
            return
        best = answer.hits[0]
        self.console.rule(best.title)
        self.console.print(markdown(best.text, self.names))
        self.say("lookup.rules_covered", rules=", ".join(best.rules) or "—")
        if len(answer.hits) > 1:
            self.say("offline.see_also", titles="; ".join(h.title for h in answer.hits[1:]))

    def finish(self) -> None:
        self.clear()
        for text in self.public[-RECENT:]:
            self.console.print(markdown("• " + text, self.names))
        self.console.print(markdown(self.ui.text_table(self.spec.engine.view(self.state, None), self.lang,
                                                       self.names), self.names))
        result = self.spec.engine.result(self.state)
        if result is not None:
            self.console.print(Text(f"{t(self.lang, 'table.finished')} "
                                    f"{', '.join(self.names(s) for s in result.winners)}", style="bold"))


def play_offline(
    game: str, seats: int, lang: str, seed: int | None, options: str,
    stdin: Lines | None = None, stdout: TextIO | None = None, *, terminal: bool | None = None,
) -> int:
    """Play ``game`` at this terminal; ``terminal`` forces (True) or forbids (False) colours and screen
    clearing, which are otherwise used when the output is a terminal. Returns the process's exit status."""
    import sys

    inp, out = stdin or sys.stdin, stdout or sys.stdout
    console = Console(file=out, force_terminal=terminal, highlight=False, emoji=False)
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
        console.print(markdown(notice, names))
    try:
        return HotSeat(spec, ui, state, names, lang, console, inp).run()
    except KeyboardInterrupt:
        console.print()
        return 0

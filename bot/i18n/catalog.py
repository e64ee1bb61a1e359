"""Message catalogs: YAML files flattened to dotted keys, with Russian plural forms.

The bot's own texts live in ``bot/i18n/<lang>.yaml``; each game's vocabulary (its actions, events, error
codes) lives beside its engine in ``rules/<game>/i18n/<lang>.yaml``, so adding a game adds files and edits
none. A value may be a mapping of plural forms (``one``/``few``/``many``), picked by the ``count`` param.

Texts name slash commands through placeholders, never by hand: ``{/game new}`` becomes a command mention
(``</game new:ID>``, which Discord shows clickable and in the reader's own language) once the ids are known
from the sync, and the command's localized name (``/игра новая``) until then; ``{opt:game.new.thread}``
becomes an option's localized name. A Russian reader is thus never told to type an English command.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import yaml

LANGUAGES = ("en", "ru")
DEFAULT = "en"
_ROOT = Path(__file__).resolve().parents[2]
COMMAND = re.compile(r"\{/([a-z_]+(?: [a-z_]+){0,2})\}")
"""``{/game new}``: a command by its English (default) name, up to a subcommand group and subcommand."""
OPTION = re.compile(r"\{opt:([a-z_]+(?:\.[a-z_]+){1,3})\}")
"""``{opt:game.new.thread}``: an option by its command's key path and its English name."""


def locale_of(value: object) -> str:
    """Map a Discord locale (``ru``, ``en-US``, a ``discord.Locale``) to a catalog language."""
    raw = str(getattr(value, "value", value) or "").lower()
    return "ru" if raw.startswith("ru") else DEFAULT


def _flatten(prefix: str, node: Any, out: dict[str, Any]) -> None:
    if isinstance(node, dict) and not (set(node) and set(node) <= {"one", "few", "many", "other"}):
        for key, value in node.items():
            if isinstance(key, bool):  # YAML 1.1 reads a bare on/off/yes/no key as a boolean
                raise ValueError(f"key {key!r} under {prefix or 'the top'} is a YAML boolean: quote it")
            _flatten(f"{prefix}.{key}" if prefix else str(key), value, out)
    else:
        out[prefix] = node


def _plural_ru(n: int) -> str:
    n = abs(n)
    if n % 10 == 1 and n % 100 != 11:
        return "one"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return "few"
    return "many"


class _SafeParams(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


class Catalog:
    def __init__(self, messages: dict[str, dict[str, Any]]) -> None:
        self.messages = messages
        self.command_ids: dict[str, int] = {}
        # lang -> key -> the text (or its plural forms) with the default language's fallback taken and the
        # command and option placeholders resolved: a click renders dozens of texts, each asked many times.
        self._ready: dict[str, dict[str, str | dict[str, str]]] = {lang: {} for lang in LANGUAGES}

    def set_command_ids(self, ids: Mapping[str, int]) -> None:
        """Learn the top-level commands' ids (known only after a sync): from then on ``{/…}`` placeholders
        become clickable mentions."""
        self.command_ids = {str(name): int(cid) for name, cid in ids.items()}
        self._ready = {lang: {} for lang in LANGUAGES}
        t_cached.cache_clear()

    def command(self, lang: str, path: str) -> str:
        """A command as the reader sees it: a mention when its id is known, else its localized name."""
        cid = self.command_ids.get(path.split(" ", 1)[0])
        if cid:
            return f"</{path}:{cid}>"
        words = path.split(" ")
        if lang == DEFAULT:
            return "/" + path
        names = [self.messages[lang].get("cmd." + ".".join(words[:i + 1]), words[i]) for i in range(len(words))]
        return "/" + " ".join(str(n) for n in names)

    def option(self, lang: str, path: str) -> str:
        """An option's name as the reader's client shows it (English is the source name itself)."""
        return str(self.messages[lang].get(f"cmd.{path}.name", path.rsplit(".", 1)[-1]))

    def resolve(self, lang: str, text: str) -> str:
        """Replace command and option placeholders in any text (catalog values, reference sections)."""
        if "{/" in text:
            text = COMMAND.sub(lambda m: self.command(lang, m.group(1)), text)
        if "{opt:" in text:
            text = OPTION.sub(lambda m: self.option(lang, m.group(1)), text)
        return text

    @classmethod
    def load(cls, root: Path = _ROOT) -> Catalog:
        messages: dict[str, dict[str, Any]] = {lang: {} for lang in LANGUAGES}
        files = sorted((root / "bot" / "i18n").glob("*.yaml")) + sorted(root.glob("rules/*/i18n/*.yaml"))
        for path in files:
            lang = path.stem
            if lang not in messages:
                continue
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
            flat: dict[str, Any] = {}
            _flatten("", data, flat)
            clash = set(flat) & set(messages[lang])
            if clash:
                raise ValueError(f"{path}: keys defined twice: {sorted(clash)[:5]}")
            messages[lang].update(flat)
        return cls(messages)

    def has(self, lang: str, key: str) -> bool:
        return key in self.messages.get(lang, {})

    def get(self, locale: object, key: str, **params: Any) -> str:
        # Callers mostly pass a language already mapped: skip the mapping then (a table refresh asks for
        # dozens of texts).
        lang = locale if locale in LANGUAGES else locale_of(locale)
        value = self._ready[lang].get(key)
        if value is None:
            value = self._prepare(lang, key)
        if isinstance(value, dict):
            count = int(params.get("count", 0))
            form = _plural_ru(count) if lang == "ru" else ("one" if count == 1 else "other")
            value = value.get(form) or value.get("other") or value.get("many") or next(iter(value.values()))
        if "{" not in value:
            return value
        if "min" in params and "max" in params and "players" not in params:
            params["players"] = self.players(lang, params["min"], params["max"])
        game = params.get("game")
        if isinstance(game, str):
            # A game id handed over as {game} (a refusal naming the channel's game) is shown by the
            # game's name in the reader's language, never as its id.
            params["game"] = self.messages[lang].get(f"cmd.game_name.{game}", game)
        try:
            return value.format_map(params)
        except KeyError:  # a placeholder nobody filled stays as it is (copying the params costs every call)
            return value.format_map(_SafeParams(params))

    def _prepare(self, lang: str, key: str) -> str | dict[str, str]:
        value = self.messages[lang].get(key)
        if value is None:
            value = self.messages[DEFAULT].get(key, key)
        ready: str | dict[str, str] = (
            {form: self.resolve(lang, str(text)) for form, text in value.items()} if isinstance(value, dict)
            else self.resolve(lang, str(value)))
        self._ready[lang][key] = ready
        return ready

    def players(self, lang: str, lo: int, hi: int) -> str:
        """A seat range in words, so every text that names one ({players}) reads right: "2 players",
        "2–4 players", «2 игрока», «от 2 до 4 игроков»."""
        if lo == hi:
            return self.get(lang, "common.players_exact", count=lo)
        return self.get(lang, "common.players_range", lo=lo, hi=hi)


@cache
def catalog() -> Catalog:
    return Catalog.load()


def t(locale: object, key: str, **params: Any) -> str:
    return catalog().get(locale, key, **params)


@lru_cache(maxsize=8192)
def t_cached(locale: str, key: str, **params: str | int) -> str:
    """``t`` for a text whose parameters are plain strings and numbers, its answers kept: a table and each
    player's view word many of the same texts after every move. Learning the command ids forgets them."""
    return catalog().get(locale, key, **params)


def commands_in(locale: object, text: str) -> str:
    """Command placeholders of a text that is not a catalog entry (a rules section) resolved for a reader."""
    return catalog().resolve(locale if locale in LANGUAGES else locale_of(locale), text)

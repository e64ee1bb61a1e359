"""Every text exists in Russian and English, and every rule error an engine can raise has a message."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.i18n import catalog, locale_of, t
from bot.i18n.catalog import Catalog
from rules import registry

ROOT = Path(__file__).resolve().parents[1]


def test_every_key_exists_in_both_languages() -> None:
    messages = catalog().messages
    en = {k for k in messages["en"] if not k.startswith("cmd.")}
    ru = {k for k in messages["ru"] if not k.startswith("cmd.")}
    assert en - ru == set() and ru - en == set()


@pytest.mark.parametrize("spec", registry.all(), ids=lambda s: s.id)
def test_every_rule_error_code_has_a_message(spec) -> None:
    sources = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "rules").glob(f"{spec.id}/*.py"))
    sources += "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "rules" / "core").glob("*.py"))
    codes = set(re.findall(r'RuleError\(\s*"([a-z_.]+)"', sources))
    codes |= {"unknown_seat", "not_your_turn", "bad_action", "game_over", "seat_count", "duplicate_seat"}
    assert codes
    for lang in ("en", "ru"):
        missing = sorted(c for c in codes if not catalog().has(lang, f"rule.{c}"))
        assert not missing, f"{lang}: {missing}"


def test_russian_plurals_and_locale_mapping() -> None:
    assert locale_of("ru") == "ru" and locale_of("en-GB") == "en" and locale_of(None) == "en"
    assert t("ru", "lobby.seats", count=1) == "За столом 1 игрок"
    assert t("ru", "lobby.seats", count=3) == "За столом 3 игрока"
    assert t("ru", "lobby.seats", count=5) == "За столом 5 игроков"
    assert t("ru", "lobby.seats", count=11) == "За столом 11 игроков"
    assert t("en", "lobby.seats", count=1) == "1 player seated"
    assert t("fr", "err.stale").startswith("That button is outdated")


def test_on_and_off_read_as_words() -> None:
    """Lobby options show switches as words; a bare YAML ``on:`` key once turned into a boolean and the
    lobby printed the raw key ``common.off`` instead."""
    assert (t("en", "common.on"), t("en", "common.off")) == ("on", "off")
    assert (t("ru", "common.on"), t("ru", "common.off")) == ("вкл.", "выкл.")


def test_a_bare_yaml_boolean_key_is_refused(tmp_path: Path) -> None:
    (tmp_path / "bot" / "i18n").mkdir(parents=True)
    (tmp_path / "bot" / "i18n" / "en.yaml").write_text("common:\n  off: 'off'\n", encoding="utf-8")
    with pytest.raises(ValueError, match="quote it"):
        Catalog.load(tmp_path)


def test_seat_ranges_read_naturally_in_both_languages() -> None:
    """A text given a seat range says it in words: an exact count for two-player games, Russian plural
    forms ("2 игрока", not "2–2 игроков")."""
    assert t("en", "lobby.help", min=2, max=2).startswith("Press Join to take a seat (2 players).")
    assert "(2 игрока)" in t("ru", "lobby.help", min=2, max=2)
    assert "(от 2 до 4 игроков)" in t("ru", "lobby.help", min=2, max=4)
    assert "(1 player)" not in t("en", "lobby.help", min=1, max=8) and "1–8 players" in t("en", "lobby.help", min=1, max=8)
    assert t("ru", "rule.seat_count", min=2, max=2) == "Для этой игры нужно 2 игрока."

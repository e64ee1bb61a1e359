"""Settings load from env and .env, validate at construction, and resolve every SQLite URL form."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import Settings

_VARS = ("DISCORD_TOKEN", "DATABASE_URL", "DEV_GUILD_ID", "LOG_LEVEL", "DEFAULT_LOCALE")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Isolate from the developer's environment and from any real .env in the working directory."""
    for name in _VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def test_defaults() -> None:
    s = Settings()
    assert s.discord_token is None
    assert s.database_url == "sqlite:///./data/bot.sqlite3"
    assert s.dev_guild_id is None
    assert s.log_level == "INFO"
    assert s.default_locale == "en"


def test_environment_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def")
    monkeypatch.setenv("DEV_GUILD_ID", "123456789012345678")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    monkeypatch.setenv("DEFAULT_LOCALE", "RU")
    monkeypatch.setenv("DATABASE_URL", "other.sqlite3")
    s = Settings()
    assert s.discord_token is not None and s.discord_token.get_secret_value() == "abc.def"
    assert "abc.def" not in repr(s)
    assert s.dev_guild_id == 123456789012345678
    assert s.log_level == "DEBUG"
    assert s.default_locale == "ru"
    assert s.database_url == "other.sqlite3"


def test_dotenv_file_read_and_environment_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".env").write_text("LOG_LEVEL=WARNING\nDEFAULT_LOCALE=ru\nDEV_GUILD_ID=\nUNRELATED=1\n")
    monkeypatch.setenv("LOG_LEVEL", "ERROR")
    s = Settings()
    assert s.default_locale == "ru"
    assert s.log_level == "ERROR"
    assert s.dev_guild_id is None  # empty means unset


def test_env_example_loads_to_defaults(tmp_path: Path) -> None:
    """A freshly copied .env.example must start the bot with exactly the documented defaults."""
    defaults = Settings()
    example = Path(__file__).resolve().parents[1] / ".env.example"
    (tmp_path / ".env").write_text(example.read_text())
    assert Settings() == defaults


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("LOG_LEVEL", "LOUD"),
        ("DEFAULT_LOCALE", "de"),
        ("DEV_GUILD_ID", "not-a-number"),
        ("DEV_GUILD_ID", "-5"),
        ("DATABASE_URL", "mysql://db/bot"),
        ("DATABASE_URL", "sqlite://relative.db"),
        ("DATABASE_URL", "sqlite:///"),
        ("DATABASE_URL", "sqlite:///:memory:"),
        ("DATABASE_URL", "sqlite:///bot.db?mode=ro"),
    ],
)
def test_bad_values_name_the_setting(monkeypatch: pytest.MonkeyPatch, name: str, value: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError) as info:
        Settings()
    assert name.lower() in str(info.value)


@pytest.mark.parametrize(
    ("url", "relative_to_cwd"),
    [
        ("sqlite:///./data/bot.sqlite3", "data/bot.sqlite3"),
        ("sqlite:///nested/dir/bot.db", "nested/dir/bot.db"),
        ("plain/bot.db", "plain/bot.db"),
    ],
)
def test_relative_sqlite_forms(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, url: str, relative_to_cwd: str) -> None:
    monkeypatch.setenv("DATABASE_URL", url)
    path = Settings().sqlite_path()
    assert path == (tmp_path / relative_to_cwd).resolve()
    assert path.parent.is_dir()
    assert not path.exists()  # only the directory is made; the store creates the file


def test_absolute_sqlite_forms(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    target = (tmp_path / "abs" / "bot.sqlite3").resolve()
    for url in (f"sqlite:///{target}", str(target)):  # f"sqlite:///" + "/tmp/..." gives the four-slash form
        monkeypatch.setenv("DATABASE_URL", url)
        assert Settings().sqlite_path() == target
    assert f"sqlite:///{target}".startswith("sqlite:////")


def test_postgres_url_is_accepted_but_has_no_sqlite_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot@localhost/bot")
    s = Settings()
    with pytest.raises(ValueError, match="not a SQLite URL"):
        s.sqlite_path()


def test_table_edit_interval_default_and_range(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TABLE_EDIT_INTERVAL", raising=False)
    assert Settings().table_edit_interval == 1.0
    monkeypatch.setenv("TABLE_EDIT_INTERVAL", "0")
    assert Settings().table_edit_interval == 0
    monkeypatch.setenv("TABLE_EDIT_INTERVAL", "60")
    with pytest.raises(ValidationError):
        Settings()

"""Settings load from env and .env, validate at construction, and resolve every SQLite URL form."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

import bot.settings
from bot.settings import Settings, parse_shard_ids

_VARS = ("DISCORD_TOKEN", "DATABASE_URL", "DEV_GUILD_ID", "LOG_LEVEL", "DEFAULT_LOCALE", "BOT_HOME",
         "SHARD_COUNT", "SHARD_IDS", "TABLE_EDIT_INTERVAL")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Isolate from the developer's environment and from any real .env in the working directory or in
    the checkout (the project folder is pointed at an empty directory)."""
    for name in _VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "project").mkdir()
    monkeypatch.setattr(bot.settings, "PROJECT_DIR", tmp_path / "project")


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


# --- where .env and the data live ----------------------------------------------------------------------


def test_bot_home_holds_the_env_file_and_the_data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Started from anywhere (a service manager's /), the bot reads BOT_HOME/.env and keeps its SQLite
    file under BOT_HOME, not under the working directory."""
    home = tmp_path / "home"
    home.mkdir()
    (home / ".env").write_text("DEFAULT_LOCALE=ru\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("BOT_HOME", str(home))
    s = Settings()
    assert s.default_locale == "ru"
    assert s.sqlite_path() == (home / "data" / "bot.sqlite3").resolve()
    assert s.store_url() == f"sqlite:///{(home / 'data' / 'bot.sqlite3').resolve()}"
    assert not (elsewhere / "data").exists()


def test_project_env_is_read_and_the_homes_wins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "project" / ".env").write_text("LOG_LEVEL=WARNING\nDEFAULT_LOCALE=ru\n")
    assert (Settings().log_level, Settings().default_locale) == ("WARNING", "ru")
    (tmp_path / ".env").write_text("LOG_LEVEL=ERROR\n")  # the home is the working directory here
    assert (Settings().log_level, Settings().default_locale) == ("ERROR", "ru")


def test_postgres_store_url_is_passed_through(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:pw@db:5432/bot")
    assert Settings().store_url() == "postgresql://bot:pw@db:5432/bot"


# --- shards ----------------------------------------------------------------------------------------------


def test_no_shard_settings_is_one_process_owning_everything() -> None:
    s = Settings()
    assert (s.shard_count, s.shard_ids) == (None, None) and s.owns_shard_zero()


@pytest.mark.parametrize(("text", "ids"), [("0,1", [0, 1]), ("0-3", [0, 1, 2, 3]), (" 4 , 0-1 ", [4, 0, 1])])
def test_shard_ids_from_the_environment(monkeypatch: pytest.MonkeyPatch, text: str, ids: list[int]) -> None:
    monkeypatch.setenv("SHARD_COUNT", "6")
    monkeypatch.setenv("SHARD_IDS", text)
    s = Settings()
    assert (s.shard_count, s.shard_ids) == (6, ids)
    assert s.owns_shard_zero() == (0 in ids)


@pytest.mark.parametrize(("count", "ids"), [(None, "0"), ("2", "2"), ("4", "0,0"), ("4", "3-1"), ("4", "x"),
                                            ("0", "0")])
def test_bad_shard_settings_are_refused(monkeypatch: pytest.MonkeyPatch, count: str | None, ids: str) -> None:
    if count is not None:
        monkeypatch.setenv("SHARD_COUNT", count)
    monkeypatch.setenv("SHARD_IDS", ids)
    with pytest.raises(ValidationError, match="shard"):
        Settings()


def test_parse_shard_ids_keeps_order() -> None:
    assert parse_shard_ids("2-3,0") == [2, 3, 0]

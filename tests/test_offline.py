"""The terminal hot-seat table plays a whole game through the same engine and texts."""

from __future__ import annotations

import io

from bot.__main__ import main
from bot.offline import play_offline


def test_offline_quick_game_to_the_end_in_russian() -> None:
    out = io.StringIO()
    code = play_offline("call_to_glory", 3, "ru", 4, "quick", stdin=io.StringIO("1\n" * 2000), stdout=out)
    text = out.getvalue()
    assert code == 0
    assert "Зов Славы — раунд 1/1" in text and "Игра окончена" in text


def test_offline_refuses_bad_input_without_changing_the_game() -> None:
    out = io.StringIO()
    code = play_offline("call_to_glory", 2, "en", 1, "", stdin=io.StringIO("99\nabc\nq\n"), stdout=out)
    assert code == 0 and out.getvalue().count("That choice is not available.") == 2


def test_offline_bad_options_and_seats() -> None:
    out = io.StringIO()
    assert play_offline("call_to_glory", 2, "en", 1, "quick imperial_tasks", stdin=io.StringIO(), stdout=out) == 2
    assert "cannot be combined with Imperial Tasks" in out.getvalue()
    out = io.StringIO()
    assert play_offline("call_to_glory", 7, "en", 1, "", stdin=io.StringIO(), stdout=out) == 2
    assert "2–4 players" in out.getvalue()
    out = io.StringIO()
    assert play_offline("chess", 2, "en", 1, "", stdin=io.StringIO(), stdout=out) == 2


def test_offline_reports_an_option_the_game_reads_itself() -> None:
    """A deck pairing naming no faction is refused in words, not with a traceback."""
    out = io.StringIO()
    assert play_offline("coc_lcg", 2, "en", 1, "deck1=agency+necronomicon/A", stdin=io.StringIO(), stdout=out) == 2
    assert "necronomicon" in out.getvalue() and "Traceback" not in out.getvalue()


def test_running_without_a_token_explains_and_exits(monkeypatch, capsys) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "")
    monkeypatch.chdir("/")
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err and "Traceback" not in err and len(err.strip().splitlines()) == 2


def test_offline_prints_names_not_mention_markup_and_the_house_card_notice() -> None:
    """Announcements are written for Discord ("<@1>: 21 — total 21"); the terminal shows "P1" instead. The
    Fluxx house-cards notice the Discord table posts at the start is printed too."""
    from bot.i18n import t

    for game, options, seats in (("call_to_glory", "quick", 3), ("fluxx_cthulhu", "", 3),
                                 ("cthulhu_wars_duel", "", 2)):
        out = io.StringIO()
        assert play_offline(game, seats, "ru", 5, options, stdin=io.StringIO("1\n" * 3000), stdout=out) == 0
        text = out.getvalue()
        assert "<@" not in text, game
    assert "P1" in text
    out = io.StringIO()
    play_offline("fluxx_cthulhu", 2, "ru", 3, "", stdin=io.StringIO("q\n"), stdout=out)
    assert out.getvalue().startswith(t("ru", "fluxx_cthulhu.notice.house"))


def test_offline_call_to_glory_scores_name_players() -> None:
    out = io.StringIO()
    play_offline("call_to_glory", 2, "en", 4, "quick", stdin=io.StringIO("1\n" * 2000), stdout=out)
    text = out.getvalue()
    assert "1. P" in text and "— total" in text and "<@" not in text

"""The terminal hot-seat table plays whole games through the same engine, texts, auto-pass and rules lookup
as the bot, hiding each seat's private view from the next player at the keyboard."""

from __future__ import annotations

import io
import re

import pytest
from pydantic import BaseModel

from bot.__main__ import main
from bot.i18n import t
from bot.offline import CLEAR, Numbering, play_offline

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def flat(text: str) -> str:
    """Text with its line wrapping undone, to find a sentence however the terminal's width broke it."""
    return " ".join(text.split())


def screens(out: str) -> list[str]:
    """What the terminal showed between two clears, colours taken out."""
    return [ANSI.sub("", part) for part in out.split(CLEAR)]


class Player:
    """Whoever is at the keyboard, answering what the screen shows: Enter when asked to take the keyboard,
    else the first option listed (numbers have gaps once options went away, so "1" is not always one)."""

    def __init__(self, screen: io.StringIO, lang: str, answers: int, autopass: bool) -> None:
        self.screen, self.read_up_to, self.first, self.answers = screen, 0, "1", answers
        self.autopass_off: set[str] | None = None if autopass else set()  # seats that turned it off
        self.handoff = t(lang, "offline.handoff", seat="\0").split("\0")[0]

    def readline(self) -> str:
        shown = ANSI.sub("", self.screen.getvalue()[self.read_up_to:])
        self.read_up_to = len(self.screen.getvalue())
        self.answers -= 1
        if self.answers < 0:
            return ""  # the end of the input, as when a terminal closes
        if self.handoff in shown.rsplit("\n", 1)[-1]:
            return "\n"
        if numbers := re.findall(r"^ +(\d+)\. ", shown, flags=re.MULTILINE):
            self.first = numbers[0]
        seat = shown.rsplit("\n", 1)[-1].split(" ›")[0]
        if self.autopass_off is not None and seat not in self.autopass_off:
            self.autopass_off.add(seat)
            return "autopass\n"
        return self.first + "\n"


def play(game: str, seats: int, lang: str, seed: int, options: str, typed: str | None = None,
         terminal: bool = False, answers: int = 3000, autopass: bool = True) -> tuple[int, str]:
    """Play with ``typed`` as the input, or with a ``Player`` choosing the first option ``answers`` times."""
    out = io.StringIO()
    inp = io.StringIO(typed) if typed is not None else Player(out, lang, answers, autopass)
    code = play_offline(game, seats, lang, seed, options, stdin=inp, stdout=out, terminal=terminal)
    return code, out.getvalue()


def test_a_quick_call_to_glory_for_two_seats_clears_each_hand_before_the_keyboard_moves() -> None:
    """CTG-R quick game (one round) played to its end by two people sharing a terminal: every seat's view is
    drawn only on a screen of its own, after the keyboard was handed to that seat, and wiped before the next
    hand-over, so no screen ever holds two hands or a hand next to the hand-over question."""
    code, out = play("call_to_glory", 2, "en", 4, "quick", terminal=True)
    assert code == 0
    shown = screens(out)
    private = {seat: t("en", "offline.private", seat=seat) for seat in ("P1", "P2")}
    handoff = {seat: t("en", "offline.handoff", seat=seat).strip() for seat in ("P1", "P2")}
    holder = None  # who was last given the keyboard
    hands = 0
    for screen in shown:
        owners = [seat for seat, title in private.items() if title in screen]
        given = [seat for seat, text in handoff.items() if text in screen]
        assert len(owners) + len(given) <= 1, screen
        if given:
            holder = given[0]
        if owners:
            assert owners == [holder], screen
            hands += 1
    assert hands > 10 and {s for s in handoff if any(handoff[s] in x for x in shown)} == {"P1", "P2"}
    assert t("en", "table.finished") in shown[-1] and "<@" not in out


def test_a_seat_is_never_asked_about_a_move_it_cannot_choose() -> None:
    """Auto-pass as the bot does it: a decision with one legal move is taken for the seat (marked automatic),
    so every list of options put to a player offers a real choice."""
    code, out = play("call_to_glory", 2, "en", 4, "quick")
    assert code == 0
    option_lists = re.findall(r"(?:^ +\d+\. .*\n)+", out, flags=re.MULTILINE)
    assert option_lists and all(len(block.splitlines()) >= 2 for block in option_lists)
    assert t("en", "table.auto_step", line="") in out


def test_turning_autopass_off_asks_for_a_single_move_the_others_cannot_see_is_forced() -> None:
    """LCG response windows: a seat holding no response has only "pass", but whether it holds one is hidden.
    With auto-pass on (the bot's default) that pass is made for it; turned off, the seat is asked, while a
    move everyone can see is forced (``forced_publicly``) is still made for it."""
    _, with_autopass = play("coc_lcg", 2, "en", 2, "", answers=80)
    _, without = play("coc_lcg", 2, "en", 2, "", answers=80, autopass=False)
    assert flat(t("en", "offline.autopass_off", seat="P1")) in flat(without)
    assert flat(t("en", "offline.autopass_off", seat="P2")) in flat(without)

    def single_choices(out: str) -> int:
        return sum(len(b.splitlines()) == 1 for b in re.findall(r"(?:^ +\d+\. .*\n)+", out, flags=re.MULTILINE))

    assert single_choices(with_autopass) == 0 < single_choices(without)
    assert "(automatic)" in without


def test_bad_input_gets_one_short_line_and_changes_nothing() -> None:
    code, out = play("call_to_glory", 2, "en", 1, "", "\n99\nabc\nq\n")
    assert code == 0
    bad = t("en", "offline.bad_choice", first=1, last=2)
    assert flat(out).count(flat(bad)) == 2
    # the screen was drawn once: the refusals did not print it again
    assert out.count(t("en", "offline.private", seat="P1")) == 1
    assert out.rstrip().endswith(t("en", "offline.prompt", seat="P1").strip())


def test_the_prompt_says_how_to_get_help_and_quit_in_both_languages() -> None:
    for lang in ("en", "ru"):
        _, out = play("call_to_glory", 2, lang, 1, "", "\n?\nq\n")
        assert t(lang, "offline.prompt", seat="P1") in out
        assert flat(t(lang, "offline.hint")) in flat(out)
        assert flat(t(lang, "offline.help")) in flat(out)


def test_rules_query_answers_from_the_same_lookup_as_the_bot() -> None:
    """The answer is the ``/rules`` lookup's best section, its rule ids and the next sections to read; a
    question that matches nothing names the closest topics; an empty one says how to ask."""
    from bot.lookup import get_index

    best = get_index().answer_rules("call_to_glory", "how is a round scored", "en").hits[0]
    _, out = play("call_to_glory", 2, "en", 1, "", "\nrules how is a round scored\nrules\nq\n")
    assert best.title in out and flat(t("en", "lookup.rules_covered", rules=", ".join(best.rules))) in flat(out)
    assert flat(t("en", "offline.rules_usage")) in flat(out)
    assert out.count(t("en", "offline.private", seat="P1")) == 1  # the answer did not redraw the table
    ru = get_index().answer_rules("call_to_glory", "подсчёт очков", "ru").hits[0]
    _, out = play("call_to_glory", 2, "ru", 1, "", "\nправила подсчёт очков\nq\n")
    assert ru.title in out
    _, out = play("call_to_glory", 2, "en", 1, "", "\nrules qqqzzxx\nq\n")
    assert flat(t("en", "lookup.no_match", query="qqqzzxx")) in flat(out)


def test_an_option_keeps_its_number_while_the_seat_still_faces_that_decision() -> None:
    class Play(BaseModel):
        card: str

    numbering = Numbering()

    def dump(action: BaseModel) -> str:
        return action.model_dump_json()

    first = numbering.assign("1", "play", [Play(card=c) for c in "abcd"], dump)
    assert {n: a.model_dump()["card"] for n, a in first.items()} == {1: "a", 2: "b", 3: "c", 4: "d"}
    after = numbering.assign("1", "play", [Play(card=c) for c in "acde"], dump)
    assert {n: a.model_dump()["card"] for n, a in after.items()} == {1: "a", 3: "c", 4: "d", 5: "e"}
    # another decision, or nothing left of the old list: numbered from 1 again
    assert list(numbering.assign("2", "play", [Play(card="a")], dump)) == [1]
    assert list(numbering.assign("2", "play", [Play(card="x"), Play(card="y")], dump)) == [1, 2]


def test_offline_quick_game_to_the_end_in_russian() -> None:
    code, out = play("call_to_glory", 3, "ru", 4, "quick")
    assert code == 0
    assert "Зов Славы — раунд 1/1" in out and "Игра окончена" in out


def test_quitting_at_the_hand_over_screen_shows_no_hand() -> None:
    code, out = play("call_to_glory", 2, "en", 1, "", "q\n")
    assert code == 0 and t("en", "offline.private", seat="P1") not in out


def test_offline_bad_options_and_seats() -> None:
    code, out = play("call_to_glory", 2, "en", 1, "quick imperial_tasks", "")
    assert code == 2 and "cannot be combined with Imperial Tasks" in out
    code, out = play("call_to_glory", 7, "en", 1, "", "")
    assert code == 2 and "2–4 players" in out
    code, out = play("chess", 2, "en", 1, "", "")
    assert code == 2 and "call_to_glory" in out


def test_offline_reports_an_option_the_game_reads_itself() -> None:
    """A deck pairing naming no faction is refused in words, not with a traceback."""
    code, out = play("coc_lcg", 2, "en", 1, "deck1=agency+necronomicon/A", "")
    assert code == 2 and "necronomicon" in out and "Traceback" not in out


def test_running_without_a_token_explains_and_exits(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "")
    monkeypatch.chdir("/")
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err and "Traceback" not in err and len(err.strip().splitlines()) == 2


def test_offline_prints_names_not_mention_markup_and_the_house_card_notice() -> None:
    """Announcements are written for Discord ("<@1>: 21 — total 21"); the terminal shows "P1" instead. The
    Fluxx house-cards notice the Discord table posts at the start is printed, before the first hand-over."""
    for game, options, seats in (("call_to_glory", "quick", 3), ("fluxx_cthulhu", "", 3),
                                 ("cthulhu_wars_duel", "", 2)):
        code, out = play(game, seats, "ru", 5, options, answers=120)
        assert code == 0 and "<@" not in out and "P1" in out, game
    _, out = play("fluxx_cthulhu", 2, "ru", 3, "", "q\n")
    first_words = " ".join(t("ru", "fluxx_cthulhu.notice.house").split()[:6])
    assert " ".join(out.split()).startswith(first_words)


def test_python_m_bot_play_in_a_pseudo_terminal_clears_the_screen_by_itself() -> None:
    """The real command, in a real (pseudo-)terminal: rich sees a terminal without being told, so the hand-over
    wipes screen and scrollback, and the hand is drawn after it; q ends the game with status 0."""
    pty = pytest.importorskip("pty")
    import os
    import select
    import subprocess
    import sys
    from pathlib import Path

    leader, follower = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1]), "TERM": "xterm", "COLUMNS": "100"}
    proc = subprocess.Popen([sys.executable, "-m", "bot", "play", "call_to_glory", "--seats", "2", "--seed", "4",
                             "--lang", "en"], stdin=follower, stdout=follower, stderr=follower, env=env)
    os.close(follower)
    os.write(leader, b"\nq\n")
    out = b""
    while select.select([leader], [], [], 120)[0]:  # a bound against a hang, not a timing check
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the program ended and closed its side
            break
        if not chunk:
            break
        out += chunk
    os.close(leader)
    assert proc.wait(timeout=120) == 0
    text = out.decode()
    handed = text.index(t("en", "offline.handoff", seat="P1").strip())
    assert CLEAR in text[handed:] and t("en", "offline.private", seat="P1") in text[text.index(CLEAR, handed):]

"""The table's "last moves" field: the newest line always shows, and Eldritch Horror's log reads out the
part of each encounter card being resolved, in the reader's language."""

from __future__ import annotations

from cogs.eldritch_horror import UI as EH_UI
from cogs.games import newest_first_fit
from cogs.games.ui import Names
from rules.eldritch_horror.data import load
from rules.eldritch_horror.events import EhEvent
from rules.eldritch_horror.phases import section


def test_the_oldest_lines_give_way_first() -> None:
    lines = ["a" * 600, "b" * 300, "c" * 200]
    assert newest_first_fit(lines, 1024) == "b" * 300 + "\n" + "c" * 200
    assert newest_first_fit(["x" * 2000], 1024) == "x" * 1023 + "…"
    assert newest_first_fit(["one", "two"], 1024) == "one\ntwo"


def test_an_encounter_card_is_read_out_in_both_languages() -> None:
    cards = load().encounters
    card_id = next(c for c in cards if c.startswith("general-"))
    part = section(cards[card_id], "city")
    assert part is not None
    event = EhEvent(type="encounter_card", data={"deck": "general", "card": card_id, "section": part["section"]})
    for lang in ("en", "ru"):
        line = EH_UI.event_text(event, lang, Names({}))
        assert line is not None and part["text"][lang] in line and line.startswith("📖")
    bare = EhEvent(type="encounter_card", data={"deck": "general", "card": "no-such-card", "section": None})
    assert EH_UI.event_text(bare, "en", Names({})) == "Encounter card drawn: General"

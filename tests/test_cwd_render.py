"""The Cthulhu Wars: Duel table presentation without Discord: map layouts, the picture, texts in both
languages for everything the engine emits, and action menus that fit Discord's component limits."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.offline import play_offline
from bot.render.cwd_map import LAYOUT_DIR, LayoutError, check_layout, layout
from bot.ui import MAX_OPTION_LABEL, MAX_ROWS, MAX_SELECT_OPTIONS, Names, layout_actions
from cogs.cthulhu_wars_duel import UI
from rules import registry
from rules.cthulhu_wars_duel.maps import MAP_IDS, load

ROOT = Path(__file__).resolve().parents[1]
ENGINE = registry.get("cthulhu_wars_duel").engine
NAMES = Names({"s1": "Alice", "s2": "Борис"})
LEFTOVER = re.compile(r"\{[a-z_]+\}|cthulhu_wars_duel\.")


def random_states(map_id: str, games: int, seed: int) -> Iterator[tuple[Any, list[Any]]]:
    """Every state of a few random games (biased towards building and fighting, so boards fill up),
    with the events that led to it."""
    rnd = random.Random(seed)
    busy = ("recruit", "summon", "awaken", "build_gate", "move", "move_unit", "battle", "capture", "ritual")
    for g in range(games):
        state = ENGINE.new_game(["s1", "s2"], {"map": map_id}, seed=seed * 100 + g)
        events: list[Any] = []
        yield state, events
        while prompts := ENGINE.pending(state):
            legal = ENGINE.legal_actions(state, prompts[0].seat)
            keen = [a for a in legal if a.type in busy]
            action = rnd.choice(keen if keen and rnd.random() < 0.85 else legal)
            state, events = ENGINE.apply(state, prompts[0].seat, action)
            yield state, events


# ---------------------------------------------------------------------- layouts
@pytest.mark.parametrize("map_id", MAP_IDS)
def test_layout_places_exactly_the_maps_areas(map_id: str) -> None:
    data = json.loads((LAYOUT_DIR / f"{map_id}.json").read_text(encoding="utf-8"))
    game_map = load(map_id)
    assert set(data["areas"]) == set(game_map.areas)
    lay = layout(map_id)
    for pair in lay.wrap:
        a, b = sorted(pair)
        assert b in game_map.adj[a]
    # No two boxes overlap, so every area stays readable.
    spots = list(lay.pos.values())
    for i, (x1, y1) in enumerate(spots):
        for x2, y2 in spots[i + 1:]:
            assert abs(x1 - x2) >= 130 or abs(y1 - y2) >= 96


def test_every_map_has_a_layout_file_and_nothing_else_is_there() -> None:
    assert {p.stem for p in LAYOUT_DIR.glob("*.json")} == set(MAP_IDS)


def test_a_layout_from_a_stale_area_list_or_with_an_invented_wrap_is_refused() -> None:
    data = json.loads((LAYOUT_DIR / "extinction.json").read_text(encoding="utf-8"))
    game_map = load("extinction")
    missing = {**data, "areas": {k: v for k, v in data["areas"].items() if k != "karoo"}}
    with pytest.raises(LayoutError):
        check_layout(missing, game_map)
    with pytest.raises(LayoutError):
        check_layout({**data, "wrap": [["arctic", "antarctic"]]}, game_map)  # CWD: no north-south wrap
    with pytest.raises(LayoutError):
        check_layout({**data, "areas": {**data["areas"], "arctic": [5, 5]}}, game_map)


# ---------------------------------------------------------------------- the picture
@pytest.mark.parametrize("map_id", MAP_IDS)
def test_render_gives_a_small_valid_png_for_mid_game_states(map_id: str) -> None:
    states = [s for i, (s, _e) in enumerate(random_states(map_id, 2, 7)) if i % 25 == 0]
    assert len(states) >= 3
    for i, state in enumerate(states):
        view = ENGINE.view(state, None)
        png = UI.table_image(view, ("en", "ru")[i % 2], NAMES)
        assert png.startswith(b"\x89PNG") and len(png) < 1_000_000
        img = Image.open(io.BytesIO(png))
        img.verify()
        assert img.size == (layout(map_id).size[0] + 290, layout(map_id).size[1])


def test_image_key_follows_what_the_picture_shows() -> None:
    """An unchanged key keeps the old picture, so the same key must always mean the same picture."""
    seen: dict[Any, bytes] = {}
    repeats = 0
    for i, (state, _events) in enumerate(random_states("extinction", 1, 3)):
        if i >= 100:
            break
        view = ENGINE.view(state, None)
        key = UI.image_key(view)
        png = UI.table_image(view, "en", NAMES)
        if key in seen:
            repeats += 1
            assert seen[key] == png
        seen[key] = png
    assert repeats and len(seen) > 5
    state = ENGINE.new_game(["s1", "s2"], {}, seed=1)
    a = UI.image_key(ENGINE.view(state, None))
    prompts = ENGINE.pending(state)
    moved, _ = ENGINE.apply(state, prompts[0].seat, ENGINE.legal_actions(state, prompts[0].seat)[0])
    assert UI.image_key(ENGINE.view(moved, None)) != a  # the Windwalker's start appeared on the board
    assert UI.image_key(ENGINE.view(moved, None)) == UI.image_key(ENGINE.view(moved, "s1"))


# ---------------------------------------------------------------------- texts
def engine_event_types() -> set[str]:
    src = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "rules" / "cthulhu_wars_duel").glob("*.py"))
    return set(re.findall(r'\bev\(\s*"([a-z_]+)"', src))


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_every_event_type_the_engine_emits_has_a_text(locale: str) -> None:
    from bot.i18n import catalog

    types = engine_event_types()
    assert {"battle", "dice", "killed", "game_over", "elder_sign_value"} <= types
    missing = sorted(e for e in types if not catalog().has(locale, f"cthulhu_wars_duel.event.{e}"))
    assert not missing


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_texts_of_random_games_are_complete_in_both_languages(map_id: str) -> None:
    """Event lines, prompts and action labels: no placeholder or key left unresolved, labels within
    Discord's limits, and every legal action reachable from the buttons and menus the layout builds."""
    kinds: set[str] = set()
    for state, events in random_states(map_id, 3, 11):
        for locale in ("en", "ru"):
            for e in events:
                text = UI.event_text(e, locale, NAMES)
                assert text and not LEFTOVER.search(text), (e, text)
            for line in UI.announcements(events, locale, NAMES):
                assert not LEFTOVER.search(line)
        prompts = ENGINE.pending(state)
        if not prompts:
            continue
        seat = prompts[0].seat
        view = ENGINE.view(state, seat)
        legal = ENGINE.legal_actions(state, seat)
        locale = "ru" if len(kinds) % 2 else "en"
        kinds.add(prompts[0].kind)
        assert not LEFTOVER.search(UI.prompt_text(prompts[0], locale, NAMES))
        for a in legal:
            label = UI.action_label(a, view, locale, NAMES)
            assert label and not LEFTOVER.search(label), (a, label)
        pages = layout_actions(UI, view, legal, locale, NAMES).pages
        offered: set[int] = set()
        for page in range(pages):  # beyond five rows the actions are paged; together the pages offer all
            lay = layout_actions(UI, view, legal, locale, NAMES, page)
            offered |= {i for _r, i, _l in lay.buttons} | {i for *_x, opts in lay.selects for i, _l in opts}
            rows = {r for r, _i, _l in lay.buttons} | {r for r, *_x in lay.selects}
            assert max(rows) < (MAX_ROWS if pages == 1 else MAX_ROWS - 1)
            for _row, _part, _ph, opts in lay.selects:
                assert len(opts) <= MAX_SELECT_OPTIONS and all(len(label) <= MAX_OPTION_LABEL for _i, label in opts)
        assert offered == set(range(len(legal))), f"{prompts[0].kind}: {len(legal)} actions, {len(offered)} offered"
    assert {"turn", "doom_turn", "move"} <= kinds


def test_hidden_elder_sign_values_only_in_their_owners_view() -> None:
    for state, _events in random_states("extinction", 4, 5):
        if any(p["signs"] for p in state.players):
            break
    else:
        pytest.fail("no Elder Sign drawn")
    owner = next(i for i, p in enumerate(state.players) if p["signs"])
    seat = state.seats[owner]
    values = ", ".join(str(v) for v in sorted(state.players[owner]["signs"]))
    private = UI.private_embed(ENGINE.view(state, seat), "en", NAMES)
    field = next(f for f in private.fields if f.name and f.name.startswith("Your Elder Signs"))
    assert field.value == values
    public = UI.table_embed(ENGINE.view(state, None), "en", NAMES)
    assert not any(f.name and "Your Elder Signs" in f.name for f in public.fields)
    assert UI.personal(ENGINE.view(state, seat)) == tuple(sorted(state.players[owner]["signs"]))


def test_start_notice_says_the_extinction_map_is_reconstructed() -> None:
    spec = registry.get("cthulhu_wars_duel")
    text = UI.start_notice(spec.parse_options({}), "en")
    assert text and "reconstruction" in text
    assert "реконструкция" in (UI.start_notice(spec.parse_options({}), "ru") or "")
    assert "reconstruction" not in (UI.start_notice(spec.parse_options({"map": "earth"}), "en") or "")


def test_offline_terminal_table_plays_in_russian() -> None:
    out = io.StringIO()
    code = play_offline("cthulhu_wars_duel", 2, "ru", 4, "map=earth", stdin=io.StringIO("1\n" * 150), stdout=out)
    text = out.getvalue()
    assert code == 0
    assert "Войны Ктулху: Дуэль — раунд 1" in text and "Оседлавший ветер" in text
    assert "**Северная Америка**: 🟧 Ак" in text  # the board in words: the Sleeper's start and its Acolytes

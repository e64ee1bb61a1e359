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
from cogs.cthulhu_wars_duel.map import (LAYOUT_DIR, LayoutError, _crosses_box, border_over, border_path, check_layout,
                                 layout, wrap_items)
from bot.render import font
from cogs.games.ui import MAX_OPTION_LABEL, MAX_ROWS, MAX_SELECT_OPTIONS, Names, layout_actions
from cogs.cthulhu_wars_duel import UI
from rules import registry
from rules.cthulhu_wars_duel.common import ice_tax, kind_cost
from rules.cthulhu_wars_duel.events import CwdEvent
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


def test_a_cancelled_move_says_what_was_taken_back() -> None:
    """"Bob takes the move back" left the table guessing which move: the Move action's steps are undone
    and its Power refunded (battle.py ``_cancel_move``)."""
    from bot.i18n import t

    assert t("en", "cthulhu_wars_duel.event.move_cancelled", seat="Bob", steps=2) == (
        "Bob cancels their Move action: the units moved in it go back (2 steps) and its Power is refunded")
    assert "движение" in t("ru", "cthulhu_wars_duel.event.move_cancelled", seat="Боря", steps=2)


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_texts_of_random_games_are_complete_in_both_languages(map_id: str) -> None:
    """Event lines, prompts and action labels: no placeholder or key left unresolved, labels within
    Discord's limits, and every legal action reachable from the buttons and menus the layout builds."""
    kinds: set[str] = set()
    for state, events in random_states(map_id, 3, 11):
        for locale in ("en", "ru"):
            for e in events:
                text = UI.event_text(e, locale, NAMES)
                if e.type == "map_reconstructed":  # the start notice says it already: not a second line
                    assert text is None
                    continue
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
            if a.type in ("summon", "awaken", "recruit", "build_gate", "capture", "battle"):
                # A button that spends Power says how much, as the engine will charge it (Ice Age included).
                p = state.seats.index(seat)
                base = kind_cost(state, p, a.kind) if a.type in ("summon", "awaken") else \
                    {"recruit": 1, "build_gate": 3, "capture": 1, "battle": 1}[a.type]
                assert label.endswith(f"({base + ice_tax(state, p, a.area)})"), (a, label)
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
    assert "Северная Америка: 🟧 Ак" in text  # the board in words: the Sleeper's start and its Acolytes


# ---------------------------------------------------------------------- readability fixes
@pytest.mark.parametrize("map_id", MAP_IDS)
def test_no_border_line_hides_under_a_third_area(map_id: str) -> None:
    """A straight line from Kalahari to Karoo ran under the Antarctic box, so the picture seemed to join
    areas that do not border each other. Each border now bends around the boxes in its way; one that no
    bend can clear is drawn over the boxes, where it is seen to pass by."""
    lay, game_map = layout(map_id), load(map_id)
    bent = 0
    for a in game_map.areas:
        for b in game_map.adj[a]:
            if a > b or frozenset((a, b)) in lay.wrap:
                continue
            path = border_path(map_id, a, b)
            bent += len(path) > 2
            others = [xy for c, xy in lay.pos.items() if c not in (a, b)]
            hidden = any(_crosses_box(p, q, box) for p, q in zip(path, path[1:]) for box in others)
            assert hidden == border_over(map_id, a, b), (a, b)
            assert all(0 <= x <= lay.size[0] and 0 <= y <= lay.size[1] for x, y in path)
    assert bent, "some border had to bend"
    if map_id == "extinction":
        assert len(border_path(map_id, "antarctic", "tethys_ocean")) == 3
        assert not border_over(map_id, "antarctic", "tethys_ocean")


def test_legend_keeps_each_unit_code_with_its_name() -> None:
    small = font(11)
    items = ["БО Бесформенное отродье", "Ак Аколит", "Кл Колдун", "Зм Змеелюд", "Ца Цатоггуа"]
    lines = wrap_items(items, small, 260)
    assert len(lines) > 1
    joined = " ".join(lines)
    for item in items:
        assert item in joined, "no code is split from its name by a line break"


def test_russian_event_lines_keep_names_in_the_nominative() -> None:
    """Russian cannot decline player and area names, so the lines put them after a colon or an arrow:
    once they read "Борис передвигает Аколит из Антарктика в Карру" and "У Борис нет энергии"."""
    names = Names({"s1": "Анна", "s2": "Борис"})

    def text(event_type: str, **data: Any) -> str | None:
        return UI.event_text(CwdEvent(type=event_type, data=data), "ru", names)

    assert text("moved", seat="s2", kind="ww_acolyte", src="antarctic", dst="karoo") == \
        "Борис передвигает фигуру: Аколит, Антарктика → Карру"
    assert text("summoned", seat="s1", kind="serpent_man", area="laurussia") == \
        "Анна призывает в зону Лавруссия: Змеелюд"
    assert text("decay_advanced", seat="s2", decay=2) == "Борис: энергии нет, увядание растёт до 2"
    assert text("doom", seat="s2", amount=2, total=14, why="ritual") == "Борис: +2 к судьбе (ритуал) — всего 14"
    assert text("doom", seat="s1", amount=1, total=3) == "Анна: +1 к судьбе — всего 3"
    assert UI.event_text(CwdEvent(type="doom", data={"seat": "s1", "amount": 2, "total": 9, "why": "kill"}), "en",
                         names) == "Анна gains 2 Doom (kill) — 9 in all"
    assert text("map_reconstructed", map="extinction") is None, "the start notice says it once"
    rolled = UI.event_text(CwdEvent(type="dice", data={"seat": "s1", "dice": 1, "kills": 0, "pains": 1}), "en", names)
    assert rolled == "Анна rolls 1 × 🎲: Kills 0, Pains 1", "once '1 dice: 0 Kills, 1 Pains'"
    from bot.i18n import t

    assert t("ru", "cthulhu_wars_duel.choice.first", who="Анна") == "Первый ход: Анна"
    assert t("ru", "opt.cthulhu_wars_duel.ritual_track") == "Шкала конца света"
    assert t("ru", "cthulhu_wars_duel.ui.ritual", track="5").startswith("Шкала конца света")


# ---------------------------------------------------------------------- what the picture shows
def _picture(state: Any) -> Image.Image:
    return Image.open(io.BytesIO(UI.table_image(ENGINE.view(state, None), "en", NAMES))).convert("RGB")


def _colours(img: Image.Image, box: tuple[int, int, int, int]) -> dict[tuple[int, int, int], int]:
    """Pixel count per colour inside ``box``."""
    return {c: n for n, c in img.crop(box).getcolors(maxcolors=1 << 20)}


def test_picture_shows_start_glyphs_turn_first_player_and_the_reconstruction_notice() -> None:
    """Each faction's start glyph is a diamond in its colour on its glyph areas; the turn holder and the
    first player are marked in the side panel (and so in the image key); the Extinction picture says it is
    a reconstruction on its own, since it is often seen without the table text."""
    from cogs.cthulhu_wars_duel.map import BOX_H, BOX_W, FACTION_RGB, acting_seat

    state = ENGINE.new_game(["s1", "s2"], {}, seed=1)
    state, _ = ENGINE.apply(state, "s2", {"type": "decide", "choice": "start", "area": "arctic"})
    img = _picture(state)
    lay, game_map = layout("extinction"), load("extinction")
    for faction, areas in (("sleeper", game_map.sleeper_start), ("windwalker", game_map.windwalker_start)):
        for a in areas:
            x, y = lay.pos[a]
            assert img.getpixel((x - BOX_W // 2 + 11, y + BOX_H // 2 - 11)) == FACTION_RGB[faction], a
    w, h = lay.size
    assert len(_colours(img, (w - 300, h - 18, w - 4, h - 2))) > 3, "the reconstruction notice is drawn"
    view = ENGINE.view(state, None)
    assert acting_seat(view) == "s1" and view.first_player == "s1"
    other = state.clone()
    other.turn = 1
    assert UI.image_key(ENGINE.view(other, None)) != UI.image_key(view)
    assert _picture(other).crop((w, 0, w + 290, h)).tobytes() != img.crop((w, 0, w + 290, h)).tobytes()


def test_captives_and_cards_held_units_are_drawn_in_their_owners_colour() -> None:
    """A captured Wendigo on the Sleeper card, a Serpent Man on the Windwalker card (Ancient Sorcery) and
    the Cursed Slumber Gate are drawn in the owning faction's colour, beside the card that holds them."""
    from cogs.cthulhu_wars_duel.map import FACTION_RGB

    state = ENGINE.new_game(["s1", "s2"], {}, seed=1)
    state, _ = ENGINE.apply(state, "s2", {"type": "decide", "choice": "start", "area": "arctic"})
    w, h = layout("extinction").size
    panel = (w + 20, 110, w + 290, h - 200)
    plain = _colours(_picture(state), panel)
    held = state.clone()
    held.captives[0] = {"wendigo": 1}
    held.sorcery = 1
    held.units[0]["central_pangaea"]["serpent_man"] = 1  # keeps the count honest: one is on the card
    held.slumber = True
    drawn = _colours(_picture(held), panel)
    for faction in ("sleeper", "windwalker"):
        colour = FACTION_RGB[faction]
        assert drawn.get(colour, 0) > plain.get(colour, 0) + 5, faction
    assert UI.image_key(ENGINE.view(held, None)) != UI.image_key(ENGINE.view(state, None))


# ---------------------------------------------------------------------- labels carry their costs
def _ready(seed: int = 1) -> Any:
    state = ENGINE.new_game(["s1", "s2"], {}, seed=seed)
    state, _ = ENGINE.apply(state, "s2", {"type": "decide", "choice": "start", "area": "arctic"})
    return state


def _label(state: Any, seat: str, locale: str = "en", **match: Any) -> str:
    view = ENGINE.view(state, seat)
    action = next(a for a in ENGINE.legal_actions(state, seat)
                  if all(getattr(a, k, None) == v for k, v in match.items()))
    return UI.action_label(action, view, locale, NAMES)


def test_ritual_label_gives_its_price_herald_included() -> None:
    """CWD-R110/R111: the Ritual button shows the track's price; Herald of the Outer Gods makes it 5."""
    state = _ready()
    state.phase, state.turn, state.first, state.ritual = "doom", 1, 1, 2
    state.players[1]["power"] = 9
    assert _label(state, "s2", type="ritual") == "Perform a Ritual of Annihilation (7)"
    state.players[1]["books"] = ["herald_of_the_outer_gods"]
    assert _label(state, "s2", "ru", type="ritual") == "Провести ритуал конца света (5)"


def test_move_step_labels_price_ice_age_and_arctic_wind() -> None:
    """Each step says its price: 1; one more the first time the Sleeper steps into the Ice Age area; free
    for a unit following Ithaqua with Arctic Wind."""
    state = _ready()
    state.ice = "kalahari"
    state, _ = ENGINE.apply(state, "s1", {"type": "move"})
    assert _label(state, "s1", kind="sl_acolyte", dst="appalachia").endswith("(1)")
    assert _label(state, "s1", kind="sl_acolyte", dst="kalahari").endswith("(2 with the Ice Age)")
    state, _ = ENGINE.apply(state, "s1", {"type": "move_unit", "kind": "sl_acolyte", "src": "central_pangaea",
                                          "dst": "kalahari"})
    assert _label(state, "s1", kind="sl_acolyte", dst="kalahari").endswith("(1)")
    ww = _ready()
    ww.turn, ww.players[1]["power"], ww.players[1]["books"] = 1, 4, ["arctic_wind"]
    ww.units[1]["arctic"].update({"ithaqua": 1, "wendigo": 1})
    ww, _ = ENGINE.apply(ww, "s2", {"type": "move"})
    ww, _ = ENGINE.apply(ww, "s2", {"type": "move_unit", "kind": "ithaqua", "src": "arctic", "dst": "siberia"})
    assert _label(ww, "s2", kind="wendigo", dst="siberia").endswith("(free: Arctic Wind)")
    assert _label(ww, "s2", "ru", kind="wendigo", dst="siberia").endswith("(бесплатно: Арктический ветер)")
    assert _label(ww, "s2", kind="wendigo", dst="ural").endswith("(1)")


def test_build_gate_in_a_towered_area_warns_that_the_tower_takes_it() -> None:
    """CWD-R98: a Gate built where a Dark Tower stands is covered at once; the button says so."""
    state = _ready()
    state.units[0] = {"central_pangaea": {"sl_acolyte": 5}, "cimmeria": {"sl_acolyte": 1}}
    state.towers = ["cimmeria"]
    assert "Dark Tower" in _label(state, "s1", type="build_gate", area="cimmeria")
    state.towers = []
    assert _label(state, "s1", type="build_gate", area="cimmeria") == "Build a Gate in Cimmeria (3)"


def test_spellbook_choices_say_what_each_book_does() -> None:
    state = _ready()
    from rules.core import Decision

    state.stack.append(Decision(kind="choose_book", seats=["s1"], params={"requirement": "sl_req_ritual"}))
    labels = {a.choice: UI.action_label(a, ENGINE.view(state, "s1"), "ru", NAMES)
              for a in ENGINE.legal_actions(state, "s1") if a.type == "decide"}
    assert labels["burrow"] == "Норы: движение, стоившее 2 энергии и больше, возвращает 1 энергию"
    assert all(": " in label and len(label) <= MAX_OPTION_LABEL for label in labels.values())


def test_eternal_prompt_names_the_result_and_sacrifice_dice_line_names_the_conversion() -> None:
    from rules.core import Prompt

    kill = UI.prompt_text(Prompt(seat="s2", kind="eternal", params={"result": "k"}), "en", NAMES)
    pain = UI.prompt_text(Prompt(seat="s2", kind="eternal", params={"result": "p"}), "ru", NAMES)
    assert kill.endswith("(it cancels a Kill)") and pain.endswith("(отменяется результат «Боль»)")
    line = UI.event_text(CwdEvent(type="dice", data={"seat": "s2", "dice": 3, "rolls": [6, 4, 6], "kills": 0,
                                                     "pains": 3, "converted": 2}), "en", NAMES)
    assert line.endswith("[6 4 6] (Demand Sacrifice: 2 × Kill → Pain)")


def test_offline_option_numbers_stay_put_within_one_decision() -> None:
    """In a Move the options change after every step; a surviving option keeps its number (bot/offline.py),
    so a player reading the list does not pick the wrong unit."""
    out = io.StringIO()
    screens: list[dict[str, str]] = []

    class Player(io.StringIO):
        def readline(self, *_: Any) -> str:
            text = out.getvalue()
            if text.rstrip().endswith("(q quits)."):
                return "\n"  # the keyboard passes to the next seat
            block = text[text.rfind("╰"):]  # the options listed under the seat's view
            options = dict(reversed(m) for m in re.findall(r"^\s+(\d+)\. (.+)$", block, re.M))
            screens.append(options)
            if len(screens) == 1:
                return "1\n"  # the Windwalker starts in the first glyph area
            if len(screens) == 2:
                return options["Move (1 per unit)"] + "\n"
            if len(screens) in (3, 4):
                return next(n for label, n in options.items() if label.startswith("Move Acolyte")) + "\n"
            return "q\n"

    play_offline("cthulhu_wars_duel", 2, "en", 4, "", stdin=Player(), stdout=out)
    before, after = screens[2], screens[3]
    kept = set(before) & set(after)
    assert kept and all(before[label] == after[label] for label in kept)
    assert int(after["Finish moving"]) > max(int(n) for n in before.values()), "a new option gets a new number"


def test_russian_texts_call_the_windwalker_by_the_editions_name() -> None:
    """The Russian edition names the faction «Оседлавший ветер»; no other rendering (a calque such as
    «Ветроход», a capital «Ветер», «ветра») may appear in the game's Russian texts or its rules reference."""
    from bot.i18n import t

    assert t("ru", "cthulhu_wars_duel.faction.windwalker") == "Оседлавший ветер"
    wrong = re.compile(r"[Вв]етроход|Оседлавш\w* (?!ветер\b)\w+")
    for path in (ROOT / "rules/cthulhu_wars_duel/i18n/ru.yaml", ROOT / "rules/cthulhu_wars_duel/reference/sections.yaml"):
        text = path.read_text(encoding="utf-8")
        assert not wrong.findall(text), (path.name, wrong.findall(text)[:3])

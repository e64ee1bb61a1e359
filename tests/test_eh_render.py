"""The Eldritch Horror table picture: its layout places exactly the board's spaces, and random mid-game
states of random games draw as valid PNGs under Discord's comfortable size."""

from __future__ import annotations

import copy
import io
import random

import pytest
from PIL import Image

from cogs.eldritch_horror import UI
from cogs.eldritch_horror.map import LayoutError, check_layout, draw_map, layout, read_board, read_layout, space_name
from rules import registry

ENGINE = registry.get("eldritch_horror").engine


def test_layout_places_exactly_the_boards_spaces() -> None:
    board = read_board()
    lay = layout()
    assert set(lay.pos) == {s["name"] for s in board["spaces"]}
    assert len(lay.pos) == 36
    assert len(set(lay.pos.values())) == 36, "no two spaces share a spot"
    w, h = lay.size
    assert all(0 < x < w and 0 < y < h for x, y in lay.pos.values())
    for a, b, _kind in board["routes"]:
        assert a in lay.pos and b in lay.pos


def test_a_stale_layout_is_refused() -> None:
    data, board = read_layout(), read_board()
    missing = copy.deepcopy(data)
    del missing["spaces"]["Tokyo"]
    with pytest.raises(LayoutError, match="Tokyo"):
        check_layout(missing, board)
    extra = copy.deepcopy(data)
    extra["spaces"]["Atlantis"] = {"x": 50, "y": 50, "name": {"en": "Atlantis", "ru": "Атлантида"}}
    with pytest.raises(LayoutError, match="Atlantis"):
        check_layout(extra, board)
    unnamed = copy.deepcopy(data)
    unnamed["spaces"]["Rome"]["name"] = {"en": "Rome"}
    with pytest.raises(LayoutError, match="Rome"):
        check_layout(unnamed, board)
    bad_wrap = copy.deepcopy(data)
    bad_wrap["wrap"].append(["Rome", "Tokyo"])
    with pytest.raises(LayoutError, match="wrap"):
        check_layout(bad_wrap, board)


def test_space_names_in_both_languages_keep_their_numbers() -> None:
    assert space_name("Space 1", "en") == "Alaskan Coast (1)"
    assert space_name("Space 1", "ru") == "Побережье Аляски (1)"
    assert space_name("Arkham", "ru") == "Аркхэм"


def mid_game_views(games: int, seed: int) -> list:
    rnd = random.Random(seed)
    views = []
    for g in range(games):
        seats = [str(100 + i) for i in range(rnd.randint(1, 4))]
        state = ENGINE.new_game(seats, {"investigators": rnd.choice([0, len(seats), 8])}, seed=rnd.getrandbits(32))
        stop = rnd.randint(10, 120)
        for _ in range(stop):
            prompts = ENGINE.pending(state)
            if not prompts:
                break
            state, _ = ENGINE.apply(state, prompts[0].seat, rnd.choice(ENGINE.legal_actions(state, prompts[0].seat)))
        views.append(ENGINE.view(state, None))
    return views


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_random_mid_game_states_draw_valid_pngs(locale: str) -> None:
    for view in mid_game_views(4, seed=len(locale)):
        data = draw_map(view, locale)
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < 1_000_000
        img = Image.open(io.BytesIO(data))
        img.verify()
        assert img.size[0] == layout().size[0] and img.size[1] > layout().size[1]


def test_image_key_follows_what_the_picture_shows() -> None:
    views = mid_game_views(3, seed=9)
    keys = {UI.image_key(v) for v in views}
    assert len(keys) == len(views), "different boards, different pictures"
    assert UI.image_key(views[0]) == UI.image_key(views[0].model_copy(deep=True))
    moved = views[0].model_copy(deep=True)
    moved.doom -= 1
    assert UI.image_key(moved) != UI.image_key(views[0])


def test_only_the_omens_own_slot_is_ringed() -> None:
    """EH-R32: blue is on the track twice; the view's ``omen_index`` says which one is current, so
    the picture rings that space alone and a move between the two blues changes the picture."""
    from cogs.eldritch_horror.map import DOOM_STEP, DOOM_X0, OMEN_TRACK, omen_slot

    blues = [k for k, c in enumerate(OMEN_TRACK) if c == "blue"]
    assert len(blues) == 2
    view = mid_game_views(1, seed=3)[0]
    h = layout().size[1]
    rings = {}
    for k in blues:
        v = view.model_copy(update={"omen": "blue", "omen_index": k})
        assert omen_slot(v) == k
        img = Image.open(io.BytesIO(draw_map(v, "en"))).convert("RGB")
        # the white ring's top edge sits 13 px above the middle of each omen circle
        rings[k] = [img.getpixel((DOOM_X0 + 21 * DOOM_STEP + 50 + j * 34, h + 6 + 30 - 13)) for j in blues]
        assert UI.image_key(v) != UI.image_key(view.model_copy(update={"omen": "blue", "omen_index": blues[0] + blues[1] - k}))
    white = (255, 255, 255)
    assert rings[blues[0]][0] == white and rings[blues[0]][1] != white
    assert rings[blues[1]][1] == white and rings[blues[1]][0] != white


def test_the_legend_ties_each_marker_to_its_investigator_in_the_readers_language() -> None:
    """Markers carried the English initial ("J" for both Jim Culver and Jacqueline Fine) and nothing said
    which colour was whose. A legend under the tracks now names each marker, in the reader's language, and
    explains the map's symbols; the picture changes when an investigator is replaced."""
    from cogs.eldritch_horror import card
    from cogs.eldritch_horror.map import LEGEND_ROW, STRIP_H, _legend_rows

    view = mid_game_views(1, seed=4)[0]
    names = {i.name: card(i.name, "ru") for i in view.investigators}
    rows = _legend_rows(view, names, "ru")
    assert [item[1] for row in rows for kind, item in row if kind == "investigator"] == [names[i.name] for i in view.investigators]
    assert rows[-2:] == [[("symbols", None)], [("board", None)]]
    png = UI.table_image(view, "ru", None)  # type: ignore[arg-type]
    names |= {m.name: card(m.name, "ru") for m in view.monsters} | {c["name"]: card(c["name"], "ru") for c in view.corpses}
    img = Image.open(io.BytesIO(png))
    assert img.size[1] == layout().size[1] + STRIP_H + LEGEND_ROW * len(rows) + 6
    assert png != draw_map(view, "ru"), "the legend and markers use the Russian names"
    legend_top = layout().size[1] + STRIP_H + 4
    band = img.convert("RGB").crop((0, legend_top, img.size[0], img.size[1]))
    assert len(band.getcolors(maxcolors=100_000) or []) > 10, "the legend is drawn"
    other = view.investigators[0].model_copy(update={"name": "Silas Marsh" if view.investigators[0].name != "Silas Marsh"
                                                    else "Lily Chen"})
    replaced = view.model_copy(update={"investigators": [other, *view.investigators[1:]]})
    assert UI.image_key(replaced) != UI.image_key(view)


def test_a_clue_marker_leaves_the_space_number_readable() -> None:
    """The clue diamond sat over the left half of a numbered space, hiding its first digit."""
    from cogs.eldritch_horror.map import CLUE, R

    view = mid_game_views(1, seed=4)[0].model_copy(update={"clues": ["Space 12"]})
    img = Image.open(io.BytesIO(draw_map(view, "en"))).convert("RGB")
    x, y = layout().pos["Space 12"]
    inside = [img.getpixel((x + dx, y + dy)) for dx in range(-R + 2, R - 1) for dy in range(-R + 2, R - 1)
              if dx * dx + dy * dy < (R - 2) ** 2]
    assert CLUE not in inside


def _board(**update):
    """A quiet mid-game view with the given fields replaced."""
    return mid_game_views(1, seed=4)[0].model_copy(update=update)


def test_markers_that_share_an_initial_get_distinct_letters() -> None:
    """Leo Anderson and Lola Hayes both showed "L"; markers now carry both initials when one is shared."""
    from cogs.eldritch_horror.map import marks

    assert marks(["Leo Anderson", "Lola Hayes", "Jim Culver"]) == {"Leo Anderson": "LA", "Lola Hayes": "LH", "Jim Culver": "J"}
    assert marks(["Джим Калвер", "Диана Стэнли"]) == {"Джим Калвер": "ДК", "Диана Стэнли": "ДС"}
    assert marks(["Anna Lee", "Anna Long"]) == {"Anna Lee": "ALe", "Anna Long": "ALo"}
    assert len(set(marks(["Ann Lee", "Ann Lee Jr"]).values())) == 2


def test_a_defeated_investigator_is_struck_through_where_they_fell() -> None:
    """EH-R60: the defeated token lies on its side in the city; the picture greys it and strikes it in red."""
    from cogs.eldritch_horror.map import DEFEATED, INV_R, R

    view = _board()
    fallen = view.investigators[0].model_copy(update={"status": "defeated", "space": "Rome"})
    shown = view.model_copy(update={"investigators": [fallen, *view.investigators[1:]], "corpses": [
        {"name": fallen.name, "space": "Rome", "token": "health"}]})
    img = Image.open(io.BytesIO(draw_map(shown, "en"))).convert("RGB")
    x, y = layout().pos["Rome"]
    cy = y - R - INV_R - 2
    near = [img.getpixel((x + dx, cy + dy)) for dx in range(-INV_R, INV_R) for dy in range(-INV_R, INV_R)]
    assert DEFEATED in near


def test_azathoths_eldritch_tokens_sit_on_the_omen_track() -> None:
    """Azathoth's sheet puts Eldritch tokens on the green omen space; the picture shows their number there."""
    plain = _board(omen_eldritch=0)
    marked = plain.model_copy(update={"omen_eldritch": 2})
    assert draw_map(plain, "en") != draw_map(marked, "en")
    assert UI.image_key(plain) != UI.image_key(marked)


def test_the_legend_keys_monsters_routes_and_space_types() -> None:
    """The map shows how many monsters stand on a space; the legend names them, space by space, and explains
    the three kinds of route and of space."""
    from cogs.eldritch_horror.map import _legend_rows

    view = _board()
    rows = _legend_rows(view, {}, "en")
    keyed = [item for row in rows for kind, item in row if kind == "monsters"]
    for m in view.monsters:
        assert any(item.startswith(space_name(m.space, "en") + ":") and m.name in item for item in keyed)
    for key in ("train", "ship", "uncharted", "city", "wilderness", "sea"):
        for lang in ("en", "ru"):
            from bot.i18n import t
            assert t(lang, f"eldritch_horror.img.legend.{key}") != f"eldritch_horror.img.legend.{key}"


def test_tokens_stay_readable_at_the_size_discord_shows_the_picture() -> None:
    """On a phone Discord shows the picture about DISCORD_WIDTH px wide: an investigator's marker and a
    monster count must still be about 9 px across there (they were 5)."""
    from cogs.eldritch_horror.map import BADGE_H, DISCORD_WIDTH, INV_R, INVESTIGATOR_RGB, R

    view = _board()
    one = view.model_copy(update={"investigators": [view.investigators[0].model_copy(update={"space": "Space 20"})]})
    img = Image.open(io.BytesIO(draw_map(one, "en"))).convert("RGB")
    scale = DISCORD_WIDTH / img.size[0]
    assert 2 * INV_R * scale >= 9 and BADGE_H * scale >= 7
    small = img.resize((DISCORD_WIDTH, round(img.size[1] * scale)), Image.LANCZOS)
    x, y = layout().pos["Space 20"]
    cx, cy = x * scale, (y - R - INV_R - 2) * scale
    rgb = INVESTIGATOR_RGB[0]
    solid = [(i, j) for i in range(int(cx) - 6, int(cx) + 7) for j in range(int(cy) - 6, int(cy) + 7)
             if sum(abs(a - b) for a, b in zip(small.getpixel((i, j)), rgb)) < 40]
    assert len(solid) >= 12, "the marker's colour still shows as a patch, not a speck"

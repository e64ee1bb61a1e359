"""The Eldritch Horror table picture: the world map with its typed routes, gates, monsters, clues,
investigators, the expedition and rumor markers, and a strip with the doom and omen tracks.

Space positions and display names come from ``rules/eldritch_horror/data/layout.json`` (presentation only;
the engine never reads it), checked against ``board.json``. The routes, spaces and names never change in a
game, so they are drawn once per language and reused: a redraw only paints the tokens.
"""

from __future__ import annotations

import io
import json
import math
from dataclasses import dataclass
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import locale_of, t
from bot.render import font
from rules.eldritch_horror.data import DATA

GAME = "eldritch_horror"
STRIP_H = 64  # the doom/omen strip under the map
BG = (24, 36, 52)
TEXT = (236, 232, 220)
DIM = (150, 158, 170)
ROUTE = {"ship": (92, 150, 220), "train": (200, 170, 120), "uncharted": (120, 190, 120)}
SPACE_FILL = {"city": (214, 200, 170), "sea": (70, 120, 180), "wilderness": (96, 140, 80)}
OMEN_RGB = {"green": (60, 180, 90), "blue": (70, 140, 230), "red": (220, 60, 60)}
CLUE = (250, 205, 60)
MONSTER = (170, 30, 40)
RUMOR = (170, 90, 200)
ELDRITCH = (80, 200, 230)
# Okabe-Ito plus two: investigators stay told apart with common colour-vision deficiencies.
INVESTIGATOR_RGB = [(230, 159, 0), (86, 180, 233), (0, 158, 115), (240, 228, 66), (0, 114, 178), (213, 94, 0),
                    (204, 121, 167), (255, 255, 255)]
R = 15  # space radius
DOOM_X0, DOOM_STEP = 150, 42
LEGEND_ROW = 22  # each legend row under the strip: who is which marker, then what the symbols mean


class LayoutError(ValueError):
    pass


@dataclass(frozen=True)
class Layout:
    size: tuple[int, int]
    pos: dict[str, tuple[int, int]]
    names: dict[str, dict[str, str]]
    wrap: frozenset[frozenset[str]]


def check_layout(data: dict[str, Any], board: dict[str, Any]) -> Layout:
    """Exactly the board's spaces, inside the picture, each with both names; wrap pairs must be real
    routes, or the picture would invent a connection."""
    spaces = data["spaces"]
    names = {s["name"] for s in board["spaces"]}
    if set(spaces) != names:
        raise LayoutError(f"layout spaces differ from the board: missing {sorted(names - set(spaces))}, "
                          f"extra {sorted(set(spaces) - names)}")
    w, h = data["size"]
    pos: dict[str, tuple[int, int]] = {}
    for name, s in spaces.items():
        if not (R <= s["x"] <= w - R and R <= s["y"] <= h - R):
            raise LayoutError(f"{name} lies outside the picture")
        if not (s["name"].get("en") and s["name"].get("ru")):
            raise LayoutError(f"{name} needs an English and a Russian name")
        pos[name] = (int(s["x"]), int(s["y"]))
    routes = {frozenset(r[:2]) for r in board["routes"]}
    wrap = frozenset(frozenset(p) for p in data["wrap"])
    if not wrap <= routes:
        raise LayoutError(f"wrap pairs that are not routes: {sorted(map(sorted, wrap - routes))}")
    return Layout((int(w), int(h)), pos, {k: dict(v["name"]) for k, v in spaces.items()}, wrap)


def read_layout() -> dict[str, Any]:
    return json.loads((DATA / "layout.json").read_text(encoding="utf-8"))


def read_board() -> dict[str, Any]:
    return json.loads((DATA / "board.json").read_text(encoding="utf-8"))


@cache
def layout() -> Layout:
    return check_layout(read_layout(), read_board())


def space_name(space: str, locale: str) -> str:
    """A space's display name; numbered spaces keep their number so the map and the text agree."""
    names = layout().names.get(space)
    if names is None:
        return space
    name = names.get(locale_of(locale)) or names["en"]
    if space.startswith("Space "):
        return f"{name} ({space.split()[1]})"
    return name


def _short(space: str) -> str:
    return space.split()[1] if space.startswith("Space ") else ""


def _dashed(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], rgb: tuple[int, int, int],
            dash: float, gap: float, width: int) -> None:
    length = math.dist(a, b)
    if length == 0:
        return
    dx, dy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    pos = 0.0
    while pos < length:
        end = min(pos + dash, length)
        draw.line((a[0] + dx * pos, a[1] + dy * pos, a[0] + dx * end, a[1] + dy * end), fill=rgb, width=width)
        pos = end + gap


def _route(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], kind: str) -> None:
    rgb = ROUTE[kind]
    if kind == "train":
        draw.line((*a, *b), fill=rgb, width=4)
    elif kind == "ship":
        _dashed(draw, a, b, rgb, 10, 6, 3)
    else:
        _dashed(draw, a, b, rgb, 3, 6, 3)


@cache
def _base(lang: str) -> Image.Image:
    """Routes, spaces, names and the empty tracks: what every picture of a game in ``lang`` shares."""
    lay = layout()
    board = read_board()
    types = {s["name"]: s["type"] for s in board["spaces"]}
    w, h = lay.size
    img = Image.new("RGB", (w, h + STRIP_H), BG)
    draw = ImageDraw.Draw(img)
    for x in range(0, w, 80):
        draw.line((x, 0, x, h), fill=(30, 44, 62))
    for y in range(0, h, 80):
        draw.line((0, y, w, y), fill=(30, 44, 62))
    for a, b, kind in board["routes"]:
        pa, pb = lay.pos[a], lay.pos[b]
        if frozenset((a, b)) in lay.wrap:
            west, east = (pa, pb) if pa[0] < pb[0] else (pb, pa)
            mid_y = (west[1] + east[1]) / 2
            _route(draw, west, (0, mid_y), kind)
            _route(draw, east, (w, mid_y), kind)
        else:
            _route(draw, pa, pb, kind)
    small, label = font(10), font(11, bold=True)
    for name, (x, y) in lay.pos.items():
        kind = types[name]
        draw.ellipse((x - R, y - R, x + R, y + R), fill=SPACE_FILL[kind], outline=(20, 20, 20), width=2)
        if name in EXPEDITION_SPACES:
            draw.ellipse((x - R - 3, y - R - 3, x + R + 3, y + R + 3), outline=(230, 200, 120), width=1)
        number = _short(name)
        if number:
            draw.text((x, y), number, font=label, fill=(20, 20, 20), anchor="mm")
        text = lay.names[name].get(lang) or lay.names[name]["en"]
        draw.text((x, y + R + 8), text, font=small if number else label, fill=TEXT if not number else DIM,
                  anchor="mm", stroke_width=2, stroke_fill=BG)
    # the strip: doom track 0..doom_max and the omen track
    top = h + 6
    draw.line((0, h, w, h), fill=(60, 70, 90), width=2)
    draw.text((12, top + 4), t(lang, f"{GAME}.img.doom"), font=font(13, bold=True), fill=TEXT)
    for k in range(board["doom_max"] + 1):
        cx = DOOM_X0 + k * DOOM_STEP
        draw.ellipse((cx - 11, top + 22 - 11, cx + 11, top + 22 + 11), outline=(120, 60, 60), width=2)
        draw.text((cx, top + 22), str(k), font=small, fill=DIM, anchor="mm")
    ox = DOOM_X0 + (board["doom_max"] + 1) * DOOM_STEP + 30
    draw.text((ox, top + 4), t(lang, f"{GAME}.img.omen"), font=font(13, bold=True), fill=TEXT)
    for k, colour in enumerate(board["omen_track"]):
        cx = ox + 20 + k * 34
        draw.ellipse((cx - 11, top + 30 - 11, cx + 11, top + 30 + 11), fill=OMEN_RGB[colour], outline=(20, 20, 20))
    return img


EXPEDITION_SPACES = frozenset(s["name"] for s in read_board()["spaces"] if s["expedition"])


def _count_badge(draw: ImageDraw.ImageDraw, x: float, y: float, n: int, fill: tuple[int, int, int]) -> None:
    draw.ellipse((x - 8, y - 8, x + 8, y + 8), fill=fill, outline=(10, 10, 10))
    draw.text((x, y), str(n), font=font(10, bold=True), fill=(255, 255, 255), anchor="mm")


def draw_map(view: Any, locale: str, names: dict[str, str] | None = None) -> bytes:
    """The board for ``view`` (the engine's public :class:`EhView`) as a PNG. ``names`` gives each
    investigator's name in the reader's language (English names otherwise): markers carry its initial and
    the legend under the tracks ties each marker's colour to its investigator."""
    lang = locale_of(locale)
    lay = layout()
    names = names or {}
    base = _base(lang)
    w, h = lay.size
    rows = _legend_rows(view, names)
    img = Image.new("RGB", (base.width, base.height + LEGEND_ROW * len(rows) + 6), BG)
    img.paste(base, (0, 0))
    draw = ImageDraw.Draw(img)
    gate_rgb = _gate_colours()
    for space in view.gates:
        x, y = lay.pos[space]
        draw.ellipse((x - R - 6, y - R - 6, x + R + 6, y + R + 6), outline=gate_rgb.get(space, (200, 60, 200)), width=5)
    for space in view.rumors:
        x, y = lay.pos[space]
        draw.regular_polygon((x - R, y - R, 9), 5, fill=RUMOR, outline=(20, 20, 20))
    if view.expedition:
        x, y = lay.pos[view.expedition]
        draw.polygon([(x + R - 2, y - R - 14), (x + R - 2, y - R + 2), (x + R + 12, y - R - 6)], fill=(240, 220, 120))
        draw.line((x + R - 2, y - R - 14, x + R - 2, y - R + 6), fill=(20, 20, 20), width=2)
    for space in view.clues:
        x, y = lay.pos[space]
        # left of the space, clear of a numbered space's number
        draw.polygon([(x - R - 12, y), (x - R - 5, y - 7), (x - R + 2, y), (x - R - 5, y + 7)], fill=CLUE,
                     outline=(40, 30, 0))
    for space, n in view.space_eldritch.items():
        if n and space in lay.pos:
            x, y = lay.pos[space]
            _count_badge(draw, x + R + 2, y + R - 2, n, (30, 120, 150))
    monsters: dict[str, list[Any]] = {}
    for m in view.monsters:
        monsters.setdefault(m.space, []).append(m)
    for space, group in monsters.items():
        if space not in lay.pos:
            continue
        x, y = lay.pos[space]
        bx, by = x + R - 2, y - R - 4
        epic = any(m.epic for m in group)
        draw.rectangle((bx, by - 9, bx + 18, by + 9), fill=(120, 20, 120) if epic else MONSTER, outline=(10, 10, 10))
        draw.text((bx + 9, by), str(len(group)), font=font(11, bold=True), fill=(255, 255, 255), anchor="mm")
    here: dict[str, list[int]] = {}
    for i, inv in enumerate(view.investigators):
        if inv.status == "active":
            here.setdefault(inv.space, []).append(i)
    for space, idxs in here.items():
        if space not in lay.pos:
            continue
        x, y = lay.pos[space]
        for k, i in enumerate(idxs):
            inv = view.investigators[i]
            cx, cy = x - (len(idxs) - 1) * 7 + k * 14, y - R - 12
            rgb = INVESTIGATOR_RGB[i % len(INVESTIGATOR_RGB)]
            outline = (255, 215, 0) if inv.lead else (10, 10, 10)
            draw.ellipse((cx - 8, cy - 8, cx + 8, cy + 8), fill=rgb, outline=outline, width=3 if inv.lead else 1)
            draw.text((cx, cy), names.get(inv.name, inv.name)[:1], font=font(10, bold=True), fill=(10, 10, 10),
                      anchor="mm")
    for corpse in view.corpses:
        if corpse["space"] in lay.pos:
            x, y = lay.pos[corpse["space"]]
            draw.line((x - R, y + R, x - R + 10, y + R - 10), fill=(200, 200, 200), width=2)
            draw.line((x - R, y + R - 10, x - R + 10, y + R), fill=(200, 200, 200), width=2)
    # tracks
    top = h + 6
    cx = DOOM_X0 + max(0, min(view.doom, 20)) * DOOM_STEP
    draw.ellipse((cx - 12, top + 22 - 12, cx + 12, top + 22 + 12), fill=(200, 40, 40), outline=(255, 255, 255), width=2)
    draw.text((cx, top + 22), str(view.doom), font=font(11, bold=True), fill=(255, 255, 255), anchor="mm")
    k = omen_slot(view)
    ox = DOOM_X0 + 21 * DOOM_STEP + 30 + 20 + k * 34
    draw.ellipse((ox - 14, top + 30 - 14, ox + 14, top + 30 + 14), outline=(255, 255, 255), width=3)
    _legend(draw, rows, lang, h + STRIP_H + 4)
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=1)
    return out.getvalue()


def _legend_rows(view: Any, names: dict[str, str]) -> list[list[tuple[str, Any]]]:
    """The legend's rows: investigators (marker colour, name, status) wrapped to the picture's width, then
    one row of symbols."""
    w = layout().size[0]
    small = font(11, bold=True)
    rows: list[list[tuple[str, Any]]] = [[]]
    x = 12
    for i, inv in enumerate(view.investigators):
        label = names.get(inv.name, inv.name)
        width = 24 + small.getlength(label) + 18
        if rows[-1] and x + width > w - 12:
            rows.append([])
            x = 12
        rows[-1].append(("investigator", (i, label, inv.status == "active", inv.lead)))
        x += width
    rows.append([("symbols", None)])
    return rows


def _legend(draw: ImageDraw.ImageDraw, rows: list[list[tuple[str, Any]]], lang: str, top: int) -> None:
    small, bold = font(11), font(11, bold=True)
    for r, row in enumerate(rows):
        y = top + r * LEGEND_ROW + LEGEND_ROW // 2
        x = 12.0
        for kind, item in row:
            if kind == "investigator":
                i, label, active, lead = item
                rgb = INVESTIGATOR_RGB[i % len(INVESTIGATOR_RGB)]
                draw.ellipse((x, y - 8, x + 16, y + 8), fill=rgb if active else BG, outline=(255, 215, 0) if lead
                             else rgb, width=3 if lead else 2)
                draw.text((x + 8, y), label[:1], font=font(10, bold=True), fill=(10, 10, 10) if active else rgb,
                          anchor="mm")
                draw.text((x + 22, y), label, font=bold, fill=TEXT if active else DIM, anchor="lm")
                x += 24 + bold.getlength(label) + 18
            else:
                for symbol, key in (("monster", "monsters"), ("clue", "clue"), ("rumor", "rumor"),
                                    ("expedition", "expedition"), ("gate", "gate"), ("eldritch", "eldritch"),
                                    ("corpse", "corpse")):
                    _symbol(draw, symbol, x + 8, y)
                    text = t(lang, f"{GAME}.img.legend.{key}")
                    draw.text((x + 22, y), text, font=small, fill=DIM, anchor="lm")
                    x += 22 + small.getlength(text) + 18


def _symbol(draw: ImageDraw.ImageDraw, kind: str, x: float, y: float) -> None:
    """The legend's small copy of a marker the map uses."""
    if kind == "monster":
        draw.rectangle((x - 8, y - 8, x + 8, y + 8), fill=MONSTER, outline=(10, 10, 10))
        draw.text((x, y), "1", font=font(10, bold=True), fill=(255, 255, 255), anchor="mm")
    elif kind == "clue":
        draw.polygon([(x - 7, y), (x, y - 7), (x + 7, y), (x, y + 7)], fill=CLUE, outline=(40, 30, 0))
    elif kind == "rumor":
        draw.regular_polygon((x, y, 8), 5, fill=RUMOR, outline=(20, 20, 20))
    elif kind == "expedition":
        draw.polygon([(x - 5, y - 8), (x - 5, y + 4), (x + 8, y - 2)], fill=(240, 220, 120))
        draw.line((x - 5, y - 8, x - 5, y + 8), fill=(200, 200, 200), width=2)
    elif kind == "gate":
        draw.ellipse((x - 8, y - 8, x + 8, y + 8), outline=OMEN_RGB["red"], width=4)
    elif kind == "eldritch":
        _count_badge(draw, x, y, 1, (30, 120, 150))
    elif kind == "corpse":
        draw.line((x - 6, y + 6, x + 6, y - 6), fill=(200, 200, 200), width=2)
        draw.line((x - 6, y - 6, x + 6, y + 6), fill=(200, 200, 200), width=2)


def omen_slot(view: Any) -> int:
    """The ringed omen space. Blue is on the track twice, so the slot comes from ``omen_index``; a view from
    before that field existed falls back to the first slot of its colour."""
    index = getattr(view, "omen_index", None)
    if isinstance(index, int) and 0 <= index < len(OMEN_TRACK):
        return index
    return OMEN_TRACK.index(view.omen)


@cache
def _gate_colours() -> dict[str, tuple[int, int, int]]:
    return {g["space"]: OMEN_RGB[g["omen"]] for g in read_board()["gate_tokens"]}


OMEN_TRACK: tuple[str, ...] = tuple(read_board()["omen_track"])

"""The Eldritch Horror table picture: the world map with its typed routes, gates, monsters, clues,
investigators, the expedition and rumor markers, and a strip with the doom and omen tracks.

Space positions and display names come from ``rules/eldritch_horror/data/layout.json`` (presentation only;
the engine never reads it), checked against ``board.json``. The routes, spaces and names never change in a
game, so they are drawn once per language and reused: a redraw only paints the tokens.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import locale_of, t
from bot.render import font, png_bytes
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
LEGEND_ROW = 26  # each legend row under the strip: who is which marker, the monsters, what the symbols mean
# Token sizes chosen for a phone: Discord shows the picture about DISCORD_WIDTH pixels wide there, so a marker
# MARKER px across on a 1280 px map is still about 10 px across on the screen.
DISCORD_WIDTH = 400
INV_R = 15  # an investigator's marker
BADGE_W, BADGE_H = 30, 24  # a space's monster count
DEFEATED = (225, 40, 40)


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


@lru_cache(maxsize=1024)
def space_name(space: str, locale: str) -> str:
    """A space's display name; numbered spaces keep their number so the map and the text agree. Cached:
    the table text names every gate, clue, monster and investigator by its space after each move."""
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


def _count_badge(draw: ImageDraw.ImageDraw, x: float, y: float, n: int, fill: tuple[int, int, int],
                 r: int = 11) -> None:
    draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=(10, 10, 10), width=2)
    draw.text((x, y), str(n), font=font(r + 3, bold=True), fill=(255, 255, 255), anchor="mm")


def marks(labels: list[str]) -> dict[str, str]:
    """The letters on each investigator's marker: the initial, or, when two share it (Leo Anderson and Lola
    Hayes), first and last initials ("LA", "LH"), then the last name's first two letters; a number tells
    apart whatever still collides."""
    def initials(label: str) -> str:
        words = label.split()
        return (words[0][:1] + words[-1][:1]).upper() if len(words) > 1 else label[:2].title()

    def longer(label: str) -> str:
        words = label.split()
        return words[0][:1].upper() + words[-1][:2].title() if len(words) > 1 else label[:3].title()

    out = {label: label[:1].upper() for label in labels}
    for better in (initials, longer):
        shared = [label for label in labels if list(out.values()).count(out[label]) > 1]
        out |= {label: better(label) for label in shared}
    shared = [label for label in labels if list(out.values()).count(out[label]) > 1]
    for k, label in enumerate(shared):
        out[label] += str(k + 1)
    return out


def _marker(draw: ImageDraw.ImageDraw, x: float, y: float, rgb: tuple[int, int, int], text: str, lead: bool = False,
            defeated: bool = False, r: int = INV_R) -> None:
    """An investigator's token: their colour and letters; the lead's ringed in gold; a defeated one greyed
    and struck through in red, as the token laid on its side is on the table."""
    fill = (110, 110, 110) if defeated else rgb
    draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=(255, 215, 0) if lead else (10, 10, 10),
                 width=4 if lead else 2)
    draw.text((x, y), text, font=font(r if len(text) > 1 else r + 2, bold=True), fill=(10, 10, 10), anchor="mm")
    if defeated:
        d = r * 0.8
        draw.line((x - d, y - d, x + d, y + d), fill=DEFEATED, width=4)
        draw.line((x - d, y + d, x + d, y - d), fill=DEFEATED, width=4)


def draw_map(view: Any, locale: str, names: dict[str, str] | None = None) -> bytes:
    """The board for ``view`` (the engine's public :class:`EhView`) as a PNG. ``names`` gives investigator and
    monster names in the reader's language (English names otherwise): markers carry an investigator's
    letters, and the legend under the tracks names each marker, lists the monsters by space and explains the
    symbols, routes and space types."""
    lang = locale_of(locale)
    lay = layout()
    names = names or {}
    base = _base(lang)
    _w, h = lay.size
    rows = _legend_rows(view, names, lang)
    img = Image.new("RGB", (base.width, base.height + LEGEND_ROW * len(rows) + 6), BG)
    img.paste(base, (0, 0))
    draw = ImageDraw.Draw(img)
    gate_rgb = _gate_colours()
    for space in view.gates:
        x, y = lay.pos[space]
        draw.ellipse((x - R - 7, y - R - 7, x + R + 7, y + R + 7), outline=gate_rgb.get(space, (200, 60, 200)), width=6)
    for space in view.rumors:
        x, y = lay.pos[space]
        draw.regular_polygon((x - R, y - R, 12), 5, fill=RUMOR, outline=(20, 20, 20))
    if view.expedition:
        x, y = lay.pos[view.expedition]
        draw.polygon([(x + R - 2, y - R - 18), (x + R - 2, y - R + 2), (x + R + 16, y - R - 8)], fill=(240, 220, 120),
                     outline=(20, 20, 20))
        draw.line((x + R - 2, y - R - 18, x + R - 2, y - R + 8), fill=(20, 20, 20), width=3)
    for space in view.clues:
        x, y = lay.pos[space]
        # left of the space, clear of a numbered space's number
        draw.polygon([(x - R - 19, y), (x - R - 9, y - 10), (x - R + 1, y), (x - R - 9, y + 10)], fill=CLUE,
                     outline=(40, 30, 0), width=2)
    for space, n in view.space_eldritch.items():
        if n and space in lay.pos:
            x, y = lay.pos[space]
            _count_badge(draw, x + R + 4, y + R, n, (30, 120, 150))
    monsters: dict[str, list[Any]] = {}
    for m in view.monsters:
        monsters.setdefault(m.space, []).append(m)
    for space, group in monsters.items():
        if space not in lay.pos:
            continue
        x, y = lay.pos[space]
        bx, by = x + R - 2, y - R - 6
        epic = any(m.epic for m in group)
        draw.rectangle((bx, by - BADGE_H / 2, bx + BADGE_W, by + BADGE_H / 2), fill=(120, 20, 120) if epic else MONSTER,
                       outline=(10, 10, 10), width=2)
        draw.text((bx + BADGE_W / 2, by), str(len(group)), font=font(18, bold=True), fill=(255, 255, 255), anchor="mm")
    letters = marks(_marked(view, names))
    here: dict[str, list[tuple[int, bool]]] = {}
    for i, inv in enumerate(view.investigators):
        if inv.status in ("active", "defeated", "devoured"):
            here.setdefault(inv.space, []).append((i, inv.status != "active"))
    for space, idxs in here.items():
        if space not in lay.pos:
            continue
        x, y = lay.pos[space]
        step = 2 * INV_R - 2
        for k, (i, fallen) in enumerate(idxs):
            inv = view.investigators[i]
            cx, cy = x - (len(idxs) - 1) * step / 2 + k * step, y - R - INV_R - 2
            label = names.get(inv.name, inv.name)
            _marker(draw, cx, cy, INVESTIGATOR_RGB[i % len(INVESTIGATOR_RGB)], letters[label], inv.lead, fallen)
    shown = {inv.name for inv in view.investigators if inv.status != "active"}
    for corpse in view.corpses:  # a fallen investigator already replaced: their possessions still lie here
        if corpse["space"] in lay.pos and corpse["name"] not in shown:
            x, y = lay.pos[corpse["space"]]
            label = names.get(corpse["name"], corpse["name"])
            _marker(draw, x - R - 10, y - R - 10, (110, 110, 110), letters.get(label, label[:1]), defeated=True, r=11)
    # tracks
    top = h + 6
    cx = DOOM_X0 + max(0, min(view.doom, 20)) * DOOM_STEP
    draw.ellipse((cx - 14, top + 22 - 14, cx + 14, top + 22 + 14), fill=(200, 40, 40), outline=(255, 255, 255), width=2)
    draw.text((cx, top + 22), str(view.doom), font=font(14, bold=True), fill=(255, 255, 255), anchor="mm")
    k = omen_slot(view)
    ox = DOOM_X0 + 21 * DOOM_STEP + 30 + 20 + k * 34
    draw.ellipse((ox - 14, top + 30 - 14, ox + 14, top + 30 + 14), outline=(255, 255, 255), width=3)
    if getattr(view, "omen_eldritch", 0):  # Azathoth's sheet: Eldritch tokens on the green omen space
        gx = DOOM_X0 + 21 * DOOM_STEP + 30 + 20 + OMEN_TRACK.index("green") * 34
        _count_badge(draw, gx - 24, top + 30, view.omen_eldritch, (30, 120, 150), r=10)
    _legend(draw, rows, lang, h + STRIP_H + 4)
    return png_bytes(img)


def _marked(view: Any, names: dict[str, str]) -> list[str]:
    """Display names of every investigator with a marker: those in play and those lying defeated."""
    out = [names.get(inv.name, inv.name) for inv in view.investigators]
    out += [names.get(c["name"], c["name"]) for c in view.corpses]
    return list(dict.fromkeys(out))


def _legend_rows(view: Any, names: dict[str, str], lang: str = "en") -> list[list[tuple[str, Any]]]:
    """The legend's rows, each wrapped to the picture's width: investigators (marker, name, status), the
    monsters space by space (the map shows only how many), then two rows of symbols."""
    w = layout().size[0]
    bold = font(13, bold=True)
    small = font(12)
    letters = marks(_marked(view, names))
    rows: list[list[tuple[str, Any]]] = [[]]
    x = 12.0

    def place(item: tuple[str, Any], width: float) -> None:
        nonlocal x
        if rows[-1] and x + width > w - 12:
            rows.append([])
            x = 12.0
        rows[-1].append(item)
        x += width

    for i, inv in enumerate(view.investigators):
        label = names.get(inv.name, inv.name)
        place(("investigator", (i, label, letters[label], inv.status, inv.lead)),
              2 * INV_R + 10 + bold.getlength(label) + 18)
    by_space: dict[str, list[str]] = {}
    for m in view.monsters:
        by_space.setdefault(m.space, []).append(names.get(m.name, m.name))
    if by_space:
        rows.append([])
        x = 12.0
        for space in sorted(by_space, key=lambda s: space_name(s, lang)):
            counted = {n: by_space[space].count(n) for n in by_space[space]}
            text = space_name(space, lang) + ": " + ", ".join(n if c == 1 else f"{n} ×{c}" for n, c in counted.items())
            place(("monsters", text), 22 + small.getlength(text) + 16)
    rows.append([("symbols", None)])
    rows.append([("board", None)])
    return rows


def _legend(draw: ImageDraw.ImageDraw, rows: list[list[tuple[str, Any]]], lang: str, top: int) -> None:
    small, bold = font(12), font(13, bold=True)
    for r, row in enumerate(rows):
        y = top + r * LEGEND_ROW + LEGEND_ROW // 2
        x = 12.0
        for kind, item in row:
            if kind == "investigator":
                i, label, letters, status, lead = item
                active = status == "active"
                rgb = INVESTIGATOR_RGB[i % len(INVESTIGATOR_RGB)]
                if status == "choosing":
                    continue
                _marker(draw, x + INV_R - 4, y, rgb, letters, lead, defeated=not active, r=INV_R - 4)
                text = label if active else f"{label} ({t(lang, f'{GAME}.status.{status}').lower()})"
                draw.text((x + 2 * INV_R, y), text, font=bold, fill=TEXT if active else DIM, anchor="lm")
                x += 2 * INV_R + 10 + bold.getlength(text) + 18
            elif kind == "monsters":
                _symbol(draw, "monster", x + 8, y)
                draw.text((x + 22, y), item, font=small, fill=TEXT, anchor="lm")
                x += 22 + small.getlength(item) + 16
            else:
                keys = (("monster", "monsters"), ("clue", "clue"), ("rumor", "rumor"), ("expedition", "expedition"),
                        ("gate", "gate"), ("eldritch", "eldritch"), ("corpse", "corpse")) if kind == "symbols" else (
                        ("train", "train"), ("ship", "ship"), ("uncharted", "uncharted"), ("city", "city"),
                        ("wilderness", "wilderness"), ("sea", "sea"))
                for symbol, key in keys:
                    _symbol(draw, symbol, x + 10, y)
                    text = t(lang, f"{GAME}.img.legend.{key}")
                    draw.text((x + 26, y), text, font=small, fill=DIM, anchor="lm")
                    x += 26 + small.getlength(text) + 18


def _symbol(draw: ImageDraw.ImageDraw, kind: str, x: float, y: float) -> None:
    """The legend's small copy of a marker, route or space the map uses."""
    if kind == "monster":
        draw.rectangle((x - 9, y - 8, x + 9, y + 8), fill=MONSTER, outline=(10, 10, 10))
        draw.text((x, y), "1", font=font(12, bold=True), fill=(255, 255, 255), anchor="mm")
    elif kind == "clue":
        draw.polygon([(x - 8, y), (x, y - 8), (x + 8, y), (x, y + 8)], fill=CLUE, outline=(40, 30, 0))
    elif kind == "rumor":
        draw.regular_polygon((x, y, 9), 5, fill=RUMOR, outline=(20, 20, 20))
    elif kind == "expedition":
        draw.polygon([(x - 5, y - 9), (x - 5, y + 3), (x + 9, y - 3)], fill=(240, 220, 120))
        draw.line((x - 5, y - 9, x - 5, y + 9), fill=(200, 200, 200), width=2)
    elif kind == "gate":
        draw.ellipse((x - 9, y - 9, x + 9, y + 9), outline=OMEN_RGB["red"], width=4)
    elif kind == "eldritch":
        _count_badge(draw, x, y, 1, (30, 120, 150), r=9)
    elif kind == "corpse":
        _marker(draw, x, y, (110, 110, 110), "", defeated=True, r=9)
    elif kind in ROUTE:
        _route(draw, (x - 10, y), (x + 12, y), kind)
    else:
        draw.ellipse((x - 9, y - 9, x + 9, y + 9), fill=SPACE_FILL[kind], outline=(20, 20, 20), width=2)


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

"""The Cthulhu Wars: Duel table picture: the map with gates, units, Dark Towers and the Ice Age token,
and a side panel with each faction's Power, Doom, Elder Signs and spellbooks.

Area positions come from ``rules/cthulhu_wars_duel/data/layout/<map>.json`` (presentation only; the
engine never reads it). The parts that never change during a game (areas, names, borders) are drawn once
per map and language and reused, so a redraw only paints what moved.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import pairwise
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import t
from bot.render import font, png_bytes
from cogs.games.ui import Names
from rules.cthulhu_wars_duel.factions import GOOS, KINDS
from rules.cthulhu_wars_duel.maps import MAP_DIR, GameMap, load

GAME = "cthulhu_wars_duel"
LAYOUT_DIR = MAP_DIR.parent / "layout"  # beside data/maps/, which maps.py validates as maps
BOX_W, BOX_H = 136, 98
PANEL_W = 290
MARGIN = 14  # room at the side edges for the east-west arrows

# Okabe-Ito orange and sky blue: told apart with every common colour-vision deficiency.
FACTION_RGB = {"sleeper": (230, 159, 0), "windwalker": (86, 180, 233)}
ABANDONED = (200, 200, 200)
BG = (22, 26, 34)
LAND = (74, 64, 50)
OCEAN = (34, 56, 86)
EDGE = (120, 128, 140)
TEXT = (236, 234, 226)
DIM = (160, 164, 172)
ICE = (190, 240, 255)
BATTLE = (220, 40, 60)


@dataclass(frozen=True)
class MapLayout:
    map_id: str
    size: tuple[int, int]
    pos: dict[str, tuple[int, int]]
    wrap: frozenset[frozenset[str]]


class LayoutError(ValueError):
    pass


def check_layout(data: dict[str, Any], game_map: GameMap) -> MapLayout:
    """A layout must place exactly the map's areas, inside the picture, and its wrap pairs must be real
    borders: a layout drawn from a stale area list would hide or invent a border."""
    areas = data["areas"]
    if set(areas) != set(game_map.areas):
        raise LayoutError(f"{game_map.id}: layout areas differ from the map: "
                          f"{sorted(set(areas) ^ set(game_map.areas))}")
    w, h = data["size"]
    for a, (x, y) in areas.items():
        if not (BOX_W // 2 <= x <= w - BOX_W // 2 and BOX_H // 2 <= y <= h - BOX_H // 2):
            raise LayoutError(f"{a}: box leaves the picture")
    wrap = set()
    for a, b in data.get("wrap", []):
        if b not in game_map.adj.get(a, ()):
            raise LayoutError(f"wrap pair {a}-{b} is not a border on the map")
        wrap.add(frozenset((a, b)))
    return MapLayout(game_map.id, (w, h), {a: (int(x), int(y)) for a, (x, y) in areas.items()}, frozenset(wrap))


@cache
def layout(map_id: str) -> MapLayout:
    data = json.loads((LAYOUT_DIR / f"{map_id}.json").read_text(encoding="utf-8"))
    return check_layout(data, load(map_id))


def _fit_lines(text: str, f: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """One line if it fits, else two split at the space nearest the middle."""
    if f.getlength(text) <= width or " " not in text:
        return [text]
    spaces = [i for i, c in enumerate(text) if c == " "]
    cut = min(spaces, key=lambda i: abs(i - len(text) / 2))
    return [text[:cut], text[cut + 1:]]


def _wrap(text: str, f: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """Greedy word wrap to a pixel width."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if line and f.getlength(candidate) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    return [*lines, line] if line else lines


def _crosses_box(p: tuple[float, float], q: tuple[float, float], box: tuple[int, int], pad: int = 4) -> bool:
    """Whether the segment p-q passes through the area box centred at ``box`` (sampled every few pixels)."""
    (x1, y1), (x2, y2), (cx, cy) = p, q, box
    steps = max(2, int(abs(x2 - x1) + abs(y2 - y1)) // 4)
    for k in range(1, steps):
        x, y = x1 + (x2 - x1) * k / steps, y1 + (y2 - y1) * k / steps
        if abs(x - cx) < BOX_W / 2 + pad and abs(y - cy) < BOX_H / 2 + pad:
            return True
    return False


@cache
def border_over(map_id: str, a: str, b: str) -> bool:
    """Whether the border a-b is drawn over the area boxes: its line cannot avoid a third box."""
    lay = layout(map_id)
    path = border_path(map_id, a, b)
    others = [xy for c, xy in lay.pos.items() if c not in (a, b)]
    return any(_crosses_box(p, q, box) for p, q in pairwise(path) for box in others)


@cache
def border_path(map_id: str, a: str, b: str) -> tuple[tuple[float, float], ...]:
    """The line drawn for the border a-b: straight, unless that would run under a third area's box and make
    two areas look adjacent that are not; then bent once around the boxes in the way. A border no single
    bend can clear stays straight and is drawn over the boxes (``border_over``) so it is seen to pass by."""
    lay = layout(map_id)
    start, end = lay.pos[a], lay.pos[b]
    others = [xy for c, xy in lay.pos.items() if c not in (a, b)]

    def clear(path: list[tuple[float, float]]) -> bool:
        return not any(_crosses_box(p, q, box) for p, q in pairwise(path) for box in others)

    straight: list[tuple[float, float]] = [start, end]
    if clear(straight):
        return tuple(straight)
    (x1, y1), (x2, y2) = start, end
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    length = max(1.0, ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5)
    nx, ny = -(y2 - y1) / length, (x2 - x1) / length
    w, h = lay.size
    candidates: list[list[tuple[float, float]]] = [[start, (x1, y2), end], [start, (x2, y1), end]]
    for d in range(20, 400, 10):
        for sign in (1, -1):
            candidates.append([start, (mx + sign * d * nx, my + sign * d * ny), end])
    inside = [c for c in candidates if all(2 <= x <= w - 2 and 2 <= y <= h - 2 for x, y in c)]
    good = [c for c in inside if clear(c)]
    if not good:
        return tuple(straight)

    def total(path: list[tuple[float, float]]) -> float:
        return sum(((q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2) ** 0.5 for p, q in pairwise(path))

    shortest = min(good, key=total)
    return tuple(shortest)


@cache
def _between_boxes(p: tuple[int, int], q: tuple[int, int]) -> tuple[tuple[float, float], tuple[float, float]]:
    """The part of the segment p-q outside the two boxes it joins, so a line drawn over the boxes does not
    run across its own areas' names and units."""
    def inside(x: float, y: float, c: tuple[int, int]) -> bool:
        return abs(x - c[0]) <= BOX_W / 2 and abs(y - c[1]) <= BOX_H / 2

    steps = 400
    points = [(p[0] + (q[0] - p[0]) * k / steps, p[1] + (q[1] - p[1]) * k / steps) for k in range(steps + 1)]
    outside = [xy for xy in points if not inside(*xy, p) and not inside(*xy, q)]
    return (outside[0], outside[-1]) if outside else (points[0], points[-1])


def wrap_items(items: list[str], f: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """Comma-separated items wrapped to a pixel width, never breaking inside an item (a unit code stays on
    the line of the name it stands for)."""
    lines: list[str] = []
    line = ""
    for item in items:
        candidate = f"{line}, {item}" if line else item
        if line and f.getlength(candidate + ",") > width:
            lines.append(line + ",")
            line = item
        else:
            line = candidate
    return [*lines, line] if line else lines


def area_name(game_map: GameMap, area: str, locale: str) -> str:
    names = game_map.names[area]
    return names["ru"] if locale == "ru" else names["en"]


@cache
def _background(map_id: str, locale: str) -> Image.Image:
    """Borders, area boxes and names: everything fixed for a map in one language."""
    lay = layout(map_id)
    game_map = load(map_id)
    w, h = lay.size
    img = Image.new("RGB", (w + PANEL_W, h), BG)
    draw = ImageDraw.Draw(img)
    drawn: set[frozenset[str]] = set()
    over: list[tuple[str, str]] = []
    for a in game_map.areas:
        for b in game_map.adj[a]:
            pair = frozenset((a, b))
            if pair in drawn:
                continue
            drawn.add(pair)
            (x1, y1), (x2, y2) = lay.pos[a], lay.pos[b]
            if pair in lay.wrap:
                # Across the east-west edge: an arrow from each area out to its side of the map.
                for (x, y), other in (((x1, y1), (x2, y2)), ((x2, y2), (x1, y1))):
                    edge = 2 if x < other[0] else w - 3
                    draw.line((x, y + 30, edge, y + 30), fill=ICE, width=2)
                    tip = -1 if edge < x else 1
                    draw.polygon([(edge, y + 30), (edge - 7 * tip, y + 25), (edge - 7 * tip, y + 35)], fill=ICE)
                continue
            if border_over(map_id, a, b):
                over.append((a, b))
                continue
            draw.line(border_path(map_id, a, b), fill=EDGE, width=2, joint="curve")
    for a in game_map.areas:
        x, y = lay.pos[a]
        box = (x - BOX_W // 2, y - BOX_H // 2, x + BOX_W // 2, y + BOX_H // 2)
        draw.rounded_rectangle(box, 10, fill=OCEAN if a in game_map.ocean else LAND, outline=EDGE, width=2)
    for a, b in over:  # seen passing over the corners it grazes instead of vanishing under them
        draw.line(_between_boxes(lay.pos[a], lay.pos[b]), fill=EDGE, width=2)
    name_font = font(11, bold=True)
    for a in game_map.areas:
        x, y = lay.pos[a]
        box = (x - BOX_W // 2, y - BOX_H // 2, x + BOX_W // 2, y + BOX_H // 2)
        lines = _fit_lines(area_name(game_map, a, locale), name_font, BOX_W - 10)
        for i, line in enumerate(lines):
            draw.text((x, box[1] + 10 + 13 * i), line, font=name_font, fill=TEXT, anchor="mm")
        if a in game_map.tower_glyph:
            draw.text((box[2] - 9, box[3] - 11), "♖", font=font(12), fill=DIM, anchor="mm")
        for faction, starts in (("sleeper", game_map.sleeper_start), ("windwalker", game_map.windwalker_start)):
            if a in starts:
                start_glyph(draw, box[0] + 11, box[3] - 11, FACTION_RGB[faction])
    if game_map.reconstructed:  # the picture travels alone (DMs, reposts): it says so itself
        draw.text((w - 8, h - 6), t(locale, f"{GAME}.ui.reconstructed_short"), font=font(11), fill=DIM, anchor="rd")
    return img


def start_glyph(draw: ImageDraw.ImageDraw, x: int, y: int, colour: tuple[int, int, int]) -> None:
    """A faction's start glyph: a diamond in its colour (the Sleeper has one area, the Windwalker two)."""
    draw.polygon([(x, y - 7), (x + 7, y), (x, y + 7), (x - 7, y)], fill=colour, outline=TEXT)


@lru_cache(maxsize=256)
def unit_code(kind: str, locale: str) -> str:
    """A unit kind's short code (catalog text, cached: the board text writes one per unit group per area)."""
    return t(locale, f"{GAME}.abbr.{kind}")


def units_line(units: dict[str, int], faction: int, locale: str) -> str:
    """Counts by kind, cultists first, then monsters, then Great Old Ones (by name, each is unique)."""
    parts = []
    for kind in KINDS[faction]:
        n = units.get(kind, 0)
        if n:
            parts.append(unit_code(kind, locale) + ("" if kind in GOOS[faction] else str(n)))
    return " ".join(parts)


def _panel(draw: ImageDraw.ImageDraw, view: Any, locale: str, names: Names, x0: int, h: int) -> None:
    x = x0 + 14
    y = 12
    big, mid, small = font(15, bold=True), font(12, bold=True), font(11)
    draw.text((x, y), t(locale, f"{GAME}.ui.title_short", round=view.round), font=big, fill=TEXT)
    y += 22
    draw.text((x, y), t(locale, f"{GAME}.phase.{view.phase}"), font=small, fill=DIM)
    y += 20
    # Ritual track: the marker's box is filled.
    draw.text((x, y), t(locale, f"{GAME}.ui.ritual_short"), font=small, fill=DIM)
    y += 16
    cells = [str(v) for v in view.ritual_track] + [t(locale, f"{GAME}.ui.end_short")]
    cw = min(30, (PANEL_W - 30) // len(cells))
    for i, label in enumerate(cells):
        bx = x + i * cw
        here = i == min(view.ritual_position, len(cells) - 1)
        draw.rectangle((bx, y, bx + cw - 3, y + 20), fill=(150, 60, 60) if here else (44, 50, 62), outline=EDGE)
        draw.text((bx + (cw - 3) / 2, y + 10), label, font=font(10, bold=here), fill=TEXT, anchor="mm")
    y += 28
    draw.text((x, y), t(locale, f"{GAME}.ui.decay_bag", decay=view.decay, bag=view.elder_signs_in_bag),
              font=small, fill=TEXT)
    y += 22
    on_turn = acting_seat(view)
    other = {p.seat: q.faction for p, q in zip(view.players, reversed(view.players), strict=True)}
    for p in view.players:
        colour = FACTION_RGB[p.faction]
        top = y
        draw.text((x + 12, y), ("▶ " if p.seat == on_turn else "") + names(p.seat), font=mid, fill=colour)
        role = t(locale, f"{GAME}.faction.{p.faction}")
        tags = [t(locale, f"{GAME}.ui.first_short")] if p.seat == view.first_player else []
        if p.seat == on_turn:
            tags.append(t(locale, f"{GAME}.ui.on_turn_short"))
        draw.text((x + 12, y + 16), " · ".join([role, *tags]), font=small, fill=DIM)
        draw.text((x + 12, y + 33), t(locale, f"{GAME}.ui.power_doom", power=p.power, doom=p.doom, signs=p.elder_signs),
                  font=small, fill=TEXT)
        books = [t(locale, f"{GAME}.book.{b}") for b in p.spellbooks]
        draw.text((x + 12, y + 50), t(locale, f"{GAME}.ui.books_short", count=len(books)), font=small, fill=TEXT)
        y += 66
        for line in _wrap(", ".join(books), small, PANEL_W - 40):
            draw.text((x + 12, y), line, font=small, fill=DIM)
            y += 14
        # What lies on this faction's card but belongs to the opponent is drawn in the opponent's colour.
        held = [(f"{unit_code(k, locale)}×{n}", other[p.seat]) for k, n in sorted(p.captives.items())]
        if held:
            y = _labelled(draw, x + 12, y, t(locale, f"{GAME}.ui.captives_label"), held)
        if p.faction == "sleeper" and view.cursed_slumber:
            draw.ellipse((x + 12, y + 1, x + 23, y + 12), fill=colour)
            y = _labelled(draw, x + 28, y, t(locale, f"{GAME}.ui.slumber_short"), [])
        if p.faction == "windwalker" and view.ancient_sorcery:
            y = _labelled(draw, x + 12, y, t(locale, f"{GAME}.ui.sorcery_label"),
                          [(unit_code("serpent_man", locale), "sleeper")])
        if p.hibernating:
            draw.text((x + 12, y), t(locale, f"{GAME}.ui.hibernating_short"), font=small, fill=DIM)
            y += 14
        draw.rectangle((x, top, x + 6, y - 2), fill=colour)
        y += 12
    # Legend: unit codes and markers.
    y = max(y, h - 160)
    draw.text((x, y), t(locale, f"{GAME}.ui.legend"), font=mid, fill=TEXT)
    y += 17
    for faction in (0, 1):
        codes = [f"{unit_code(k, locale)} {t(locale, f'{GAME}.unit.{k}')}" for k in KINDS[faction]]
        for line in wrap_items(codes, small, PANEL_W - 30):
            draw.text((x, y), line, font=small, fill=FACTION_RGB[("sleeper", "windwalker")[faction]])
            y += 14
    for line in _wrap(t(locale, f"{GAME}.ui.legend_marks"), small, PANEL_W - 30):
        draw.text((x, y + 2), line, font=small, fill=DIM)
        y += 14


def _labelled(draw: ImageDraw.ImageDraw, x: int, y: int, label: str, items: list[tuple[str, str]]) -> int:
    """A dim label followed by items, each in its faction's colour; returns the next line's y."""
    small = font(11)
    draw.text((x, y), label, font=small, fill=DIM)
    cx = x + small.getlength(label + " ")
    for i, (text, faction) in enumerate(items):
        piece = text + ("," if i < len(items) - 1 else "")
        draw.text((cx, y), piece, font=small, fill=FACTION_RGB[faction])
        cx += small.getlength(piece + " ")
    return y + 14


def acting_seat(view: Any) -> str | None:
    """Whose turn it is: the turn holder in the Action and Doom phases (even while the other player answers
    a battle question), otherwise whoever is asked; nobody once the game is over."""
    if view.result is not None:
        return None
    if view.phase in ("action", "doom"):
        return view.turn
    return view.pending[0].seat if view.pending else None


def draw_map(view: Any, locale: str, names: Names) -> bytes:
    """The whole table picture as a PNG."""
    lay = layout(view.map)
    game_map = load(view.map)
    w, h = lay.size
    img = _background(view.map, "ru" if locale == "ru" else "en").copy()
    draw = ImageDraw.Draw(img)
    unit_font = font(13, bold=True)
    faction_of = {p.seat: p.faction for p in view.players}
    seats = [p.seat for p in view.players]
    for a in game_map.areas:
        x, y = lay.pos[a]
        left, top, right, bottom = x - BOX_W // 2, y - BOX_H // 2, x + BOX_W // 2, y + BOX_H // 2
        if view.battle and view.battle.get("area") == a:
            draw.rounded_rectangle((left - 3, top - 3, right + 3, bottom + 3), 12, outline=BATTLE, width=3)
        if view.ice_age == a:
            draw.rounded_rectangle((left, top, right, bottom), 10, outline=ICE, width=3)
            draw.text((left + 28, bottom - 11), "❄", font=font(13), fill=ICE, anchor="mm")
        line_y = top + 40
        for i, seat in enumerate(seats):
            here = view.units.get(seat, {}).get(a)
            if here:
                text = units_line(here, i, locale)
                draw.text((x, line_y), text, font=unit_font, fill=FACTION_RGB[faction_of[seat]], anchor="mm")
                line_y += 17
        if a in view.gates:
            owner = view.gates[a]
            colour = FACTION_RGB[faction_of[owner]] if owner is not None else ABANDONED
            gx, gy = x - 14 if a in view.towers else x, bottom - 11
            draw.ellipse((gx - 8, gy - 8, gx + 8, gy + 8), fill=colour if owner is not None else BG,
                         outline=colour, width=3)
        if a in view.towers:
            draw.text((x + 10, bottom - 11), "♜", font=font(15), fill=TEXT, anchor="mm")
    _panel(draw, view, locale, names, w, h)
    return png_bytes(img)

"""Shared drawing helpers for table pictures (Pillow)."""

from __future__ import annotations

import hashlib
import struct
import zlib
from functools import cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageFont

FONTS = Path(__file__).parent / "fonts"
MEMO_LIMIT = 4096  # text pieces kept per font; a long-lived drawing process sees far fewer distinct ones


class MemoFont(ImageFont.FreeTypeFont):
    """A FreeType font that remembers the bitmaps and widths of the texts it has drawn.

    A table picture is redrawn after nearly every move, and almost all of its text (titles, legends, area
    names, unit counts like "C2 M1") recurs from one picture to the next; laying out and rasterising each
    piece again cost a picture about as much as everything else drawn on it. Pillow's ``draw.text`` asks
    the font for each piece's bitmap (``getmask2``) and only reads it, so handing back the same bitmap
    gives the same pixels. Colour (RGBA) bitmaps are not kept: Pillow writes into those."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._masks: dict[Any, tuple[Any, tuple[int, int]]] = {}
        self._lengths: dict[Any, float] = {}

    def getmask2(self, text: str | bytes, mode: str = "", direction: str | None = None,
                 features: list[str] | None = None, language: str | None = None, stroke_width: float = 0,
                 anchor: str | None = None, ink: int = 0, start: tuple[float, float] | None = None,
                 *args: Any, **kwargs: Any) -> tuple[Any, tuple[int, int]]:
        if mode == "RGBA" or features is not None or args:
            return super().getmask2(text, mode, direction, features, language, stroke_width, anchor, ink, start,
                                    *args, **kwargs)
        key = (text, mode, direction, language, stroke_width, anchor, ink, start, tuple(sorted(kwargs.items())))
        hit = self._masks.get(key)
        if hit is None:
            if len(self._masks) >= MEMO_LIMIT:
                self._masks.clear()
            hit = self._masks[key] = super().getmask2(text, mode, direction, features, language, stroke_width,
                                                      anchor, ink, start, **kwargs)
        return hit

    def getlength(self, text: str | bytes, mode: str = "", direction: str | None = None,
                  features: list[str] | None = None, language: str | None = None) -> float:
        if features is not None:
            return super().getlength(text, mode, direction, features, language)
        key = (text, mode, direction, language)
        hit = self._lengths.get(key)
        if hit is None:
            if len(self._lengths) >= MEMO_LIMIT:
                self._lengths.clear()
            hit = self._lengths[key] = super().getlength(text, mode, direction, None, language)
        return hit


@cache
def font(size: int, bold: bool = False) -> MemoFont:
    """DejaVu Sans ships with the bot: it covers Cyrillic player names on any machine."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return MemoFont(str(FONTS / name), size)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


PNG_COLOUR_TYPES = {"L": 0, "RGB": 2, "RGBA": 6}
PNG_CHANNELS = {"L": 1, "RGB": 3, "RGBA": 4}
BAND_ROWS = 8  # rows compressed together; a table picture repeats most of its 8-row bands from earlier ones
BAND_LIMIT = 16384  # compressed bands kept (about 1 KB each)
_BANDS: dict[tuple[int, bytes], bytes] = {}


def _deflate_band(data: bytes, level: int) -> bytes:
    """One band of rows as raw deflate blocks ending on a byte boundary with a fresh dictionary after it
    (a full flush), so it decodes the same wherever it is placed in a stream: the same rows in a later
    picture reuse these bytes instead of being compressed again."""
    key = (level, hashlib.sha256(data).digest())
    hit = _BANDS.get(key)
    if hit is None:
        if len(_BANDS) >= BAND_LIMIT:
            _BANDS.clear()
        packer = zlib.compressobj(level, zlib.DEFLATED, -15)
        hit = _BANDS[key] = packer.compress(data) + packer.flush(zlib.Z_FULL_FLUSH)
    return hit


def png_bytes(img: Image.Image, level: int = 3) -> bytes:
    """``img`` as a PNG, every row unfiltered, compressed in bands of rows remembered across pictures.

    Pillow picks a PNG filter for each row by trying them all, which on a table picture (flat colours,
    text) costs more than the compression itself and buys nothing: unfiltered rows of such a drawing
    compress as small or smaller. A table is redrawn after nearly every move and most of it (the map, the
    legend, areas where nothing moved) is the same as in an earlier picture, so the image data is one
    zlib stream made of independently compressed bands, and a band seen before costs a hash instead of its
    compression. The pixels are exactly ``img``'s."""
    mode = img.mode
    if mode not in PNG_COLOUR_TYPES:
        img, mode = img.convert("RGB"), "RGB"
    w, h = img.size
    raw = img.tobytes()
    stride = w * PNG_CHANNELS[mode]
    step = stride * BAND_ROWS
    parts = [b"\x78\x01"]  # zlib header: deflate, 32 KB window (the level it names is advisory)
    check = 1
    for top in range(0, stride * h, step):
        band = b"".join(b"\x00" + raw[i:i + stride] for i in range(top, min(top + step, stride * h), stride))
        check = zlib.adler32(band, check)
        parts.append(_deflate_band(band, level))
    parts.append(b"\x03\x00")  # an empty final block closes the deflate stream
    parts.append(struct.pack(">I", check))
    header = struct.pack(">IIBBBBB", w, h, 8, PNG_COLOUR_TYPES[mode], 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", b"".join(parts))
            + _chunk(b"IEND", b""))

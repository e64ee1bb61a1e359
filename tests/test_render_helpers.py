"""The shared picture helpers are faster stand-ins for Pillow's own: they must give the very same pixels."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageDraw, ImageFont

from bot.render import BAND_ROWS, FONTS, MemoFont, font, png_bytes


@pytest.mark.parametrize("mode", ["L", "RGB", "RGBA"])
def test_png_bytes_decode_to_the_same_pixels(mode: str) -> None:
    rnd = random.Random(3)
    img = Image.new(mode, (37, 23))
    img.putdata([tuple(rnd.randrange(256) for _ in mode) if len(mode) > 1 else rnd.randrange(256)
                 for _ in range(37 * 23)])
    back = Image.open(io.BytesIO(png_bytes(img)))
    assert back.format == "PNG" and back.mode == mode and back.size == img.size
    assert back.tobytes() == img.tobytes()


def test_png_bytes_reuse_bands_of_earlier_pictures_without_mixing_them_up() -> None:
    """A second picture sharing all but one band with the first is built partly from remembered bands and
    still decodes to its own pixels (and the first one still to its own)."""
    rnd = random.Random(4)
    first = Image.new("RGB", (50, BAND_ROWS * 4 + 3), (22, 26, 34))
    first.putdata([(rnd.randrange(256), 7, 9) for _ in range(first.width * first.height)])
    second = first.copy()
    second.putpixel((3, BAND_ROWS * 2 + 1), (1, 2, 3))
    for img in (first, second, first):
        assert Image.open(io.BytesIO(png_bytes(img))).tobytes() == img.tobytes()
    assert png_bytes(second) == png_bytes(second)


def test_png_bytes_of_another_mode_is_its_rgb_picture() -> None:
    img = Image.new("P", (5, 4), 7)
    img.putpalette([i % 256 for i in range(768)])
    assert Image.open(io.BytesIO(png_bytes(img))).tobytes() == img.convert("RGB").tobytes()


def _drawn(f: ImageFont.FreeTypeFont) -> bytes:
    img = Image.new("RGB", (260, 120), (22, 26, 34))
    draw = ImageDraw.Draw(img)
    for _ in range(2):  # the second round is served from the memo
        draw.text((10, 10), "Кровь C2 M1", font=f, fill=(230, 159, 0))
        draw.text((130.5, 50.25), "Ritual ×3", font=f, fill=(86, 180, 233), anchor="mm")
        draw.text((12.75, 90), "Gate", font=f, fill=(236, 234, 226), anchor="ls")
        draw.text((200, 100), "♜", font=f, fill=(236, 234, 226), anchor="rd")
    return img.tobytes()


def test_memo_font_draws_and_measures_like_pillows_font() -> None:
    plain = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 13)
    memo = MemoFont(str(FONTS / "DejaVuSans.ttf"), 13)
    assert _drawn(memo) == _drawn(plain)
    for text in ("Кровь C2 M1", "Ritual ×3", ""):
        assert memo.getlength(text) == plain.getlength(text) == memo.getlength(text)


def test_font_is_memoising_and_shared() -> None:
    assert isinstance(font(11), MemoFont) and font(11) is font(11) and font(11, bold=True) is not font(11)

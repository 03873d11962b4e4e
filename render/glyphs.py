"""Text and symbols from what ships with the project, nothing from the machine.

Letters come from ``fonts/DejaVuSansCondensed-Latin.ttf``: every letter of the languages
the bot speaks (ä, é, ñ, ç, ã, ß...), narrow enough for words longer than English ones.
It has no suit or arrow glyphs, so those are drawn here as shapes: four times oversized,
then shrunk for smooth edges. A fresh ``pip install`` and the Docker image therefore
draw exactly the same picture.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from .palette import RGB

SUIT_SYMBOLS = "♣♦♥♠"
ARROWS = "↑↓→"
SYMBOLS = SUIT_SYMBOLS + ARROWS
_SUPER = 4  # oversampling of symbol shapes
FONT = Path(__file__).with_name("fonts") / "DejaVuSansCondensed-Latin.ttf"


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT), size)  # Pillow 10.1 takes no Path here


def _circle(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, s: float) -> None:
    draw.ellipse(((cx - r) * s, (cy - r) * s, (cx + r) * s, (cy + r) * s), fill=255)


def _polygon(draw: ImageDraw.ImageDraw, points: Sequence[tuple[float, float]], s: float) -> None:
    draw.polygon([(x * s, y * s) for x, y in points], fill=255)


def _draw_shape(draw: ImageDraw.ImageDraw, symbol: str, s: float) -> None:
    """One symbol in a unit square scaled by ``s``."""
    if symbol == "♦":
        _polygon(draw, [(0.5, 0.0), (0.9, 0.5), (0.5, 1.0), (0.1, 0.5)], s)
    elif symbol == "♥":
        _circle(draw, 0.27, 0.3, 0.25, s)
        _circle(draw, 0.73, 0.3, 0.25, s)
        _polygon(draw, [(0.035, 0.4), (0.5, 0.22), (0.965, 0.4), (0.5, 0.98)], s)
    elif symbol == "♠":  # a sharp point on top: what tells it from a club at phone size
        _circle(draw, 0.28, 0.6, 0.25, s)
        _circle(draw, 0.72, 0.6, 0.25, s)
        _polygon(draw, [(0.035, 0.58), (0.5, 0.0), (0.965, 0.58), (0.5, 0.84)], s)
        _polygon(draw, [(0.5, 0.62), (0.7, 1.0), (0.3, 1.0)], s)
    elif symbol == "♣":  # three round leaves with deep notches between them, round on top
        _circle(draw, 0.5, 0.235, 0.235, s)
        _circle(draw, 0.235, 0.62, 0.235, s)
        _circle(draw, 0.765, 0.62, 0.235, s)
        _circle(draw, 0.5, 0.5, 0.13, s)
        _polygon(draw, [(0.5, 0.45), (0.56, 0.62), (0.7, 1.0), (0.3, 1.0), (0.44, 0.62)], s)
    elif symbol == "↑":
        _polygon(draw, [(0.5, 0.0), (0.95, 0.48), (0.05, 0.48)], s)
        _polygon(draw, [(0.36, 0.46), (0.64, 0.46), (0.64, 1.0), (0.36, 1.0)], s)
    elif symbol == "↓":
        _polygon(draw, [(0.5, 1.0), (0.95, 0.52), (0.05, 0.52)], s)
        _polygon(draw, [(0.36, 0.54), (0.64, 0.54), (0.64, 0.0), (0.36, 0.0)], s)
    elif symbol == "→":
        _polygon(draw, [(1.0, 0.5), (0.52, 0.1), (0.52, 0.9)], s)
        _polygon(draw, [(0.0, 0.37), (0.54, 0.37), (0.54, 0.63), (0.0, 0.63)], s)
    else:
        raise ValueError(f"no shape for {symbol!r}")


@cache
def symbol_mask(symbol: str, size: int) -> Image.Image:
    """An antialiased "L" mask of a suit or arrow, ``size`` pixels square."""
    big = Image.new("L", (size * _SUPER, size * _SUPER), 0)
    _draw_shape(ImageDraw.Draw(big), symbol, size * _SUPER)
    return big.resize((size, size), Image.Resampling.BOX)


def symbol_width(symbol: str, size: int) -> int:
    """Horizontal room a symbol takes in a line of text (arrows are narrower than suits)."""
    return size if symbol in SUIT_SYMBOLS or symbol == "→" else round(size * 0.7)


def paint_symbol(image: Image.Image, symbol: str, xy: tuple[int, int], size: int, ink: RGB) -> None:
    """Paint a symbol onto an RGB image with its top-left corner at ``xy``."""
    mask = symbol_mask(symbol, size)
    if symbol in "↑↓":  # arrows are drawn narrower than their square
        inset = (size - symbol_width(symbol, size)) // 2
        mask = mask.crop((inset, 0, inset + symbol_width(symbol, size), size))
    image.paste(ink, (xy[0], xy[1], xy[0] + mask.width, xy[1] + mask.height), mask)


def _tokens(text: str) -> list[str]:
    """Split text into words, single spaces and single symbols."""
    tokens: list[str] = []
    word = ""
    for ch in text:
        if ch in SYMBOLS or ch == " ":
            if word:
                tokens.append(word)
                word = ""
            tokens.append(ch)
        else:
            word += ch
    if word:
        tokens.append(word)
    return tokens


@cache
def cap_height(size: int) -> int:
    """Height of a capital letter, the unit symbols are sized by."""
    box = font(size).getbbox("H", anchor="ls")
    return round(box[3] - box[1])


@lru_cache(maxsize=1024)  # words repeat, deal numbers mostly do not
def _advance(token: str, size: int, bold: bool) -> int:
    """How far the pen moves over one token (font layout is slow: each is measured once)."""
    if token in SYMBOLS:
        return symbol_width(token, _symbol_size(size)) + 2
    if token == " ":
        return round(font(size).getlength(" "))
    return round(font(size).getlength(token)) + (2 if bold else 0)


@lru_cache(maxsize=512)  # whole lines, deal numbers and move counts in them
def text_width(text: str, size: int, *, bold: bool = False) -> int:
    """Width of ``text`` as ``paint_text`` draws it."""
    return sum(_advance(token, size, bold) for token in _tokens(text))


@cache
def _symbol_size(size: int) -> int:
    return round(cap_height(size) * 1.05)


def paint_text(
    image: Image.Image,
    text: str,
    xy: tuple[int, int],
    size: int,
    ink: RGB,
    *,
    bold: bool = False,
) -> int:
    """Paint a line whose baseline starts at ``xy``; suits and arrows become shapes.

    ``bold`` thickens strokes (the built-in font has one weight). Returns the x after it.
    """
    draw = ImageDraw.Draw(image)
    f = font(size)
    sym = _symbol_size(size)
    cap = cap_height(size)
    x, baseline = xy
    stroke = 1 if bold else 0
    for token in _tokens(text):
        if token in SYMBOLS:
            paint_symbol(image, token, (x + 1, baseline - cap + (cap - sym) // 2), sym, ink)
        elif token != " ":
            draw.text(
                (x + stroke, baseline), token, font=f, fill=ink, anchor="ls",
                stroke_width=stroke, stroke_fill=ink,
            )
        x += _advance(token, size, bold)
    return x


def wrap(text: str, size: int, width: int, *, bold: bool = False) -> tuple[str, ...]:
    """``text`` broken at spaces into lines of at most ``width`` pixels (a word longer
    than that keeps a line of its own)."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and text_width(f"{lines[-1]} {word}", size, bold=bold) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return tuple(lines)


def wrap_parts(text: str, size: int, width: int, sep: str = " · ") -> tuple[str, ...]:
    """``text`` in lines of at most ``width`` pixels, broken between its parts (joined by
    ``sep``) wherever a part fits on a line of its own: "daily streak 0 (best 0)" is never
    cut in two. A part too long for any line is broken at its spaces."""
    lines: list[str] = []
    for part in text.split(sep):
        if lines and text_width(f"{lines[-1]}{sep}{part}", size) <= width:
            lines[-1] = f"{lines[-1]}{sep}{part}"
        elif text_width(part, size) <= width:
            lines.append(part)
        else:
            lines.extend(wrap(part, size, width))
    return tuple(lines)


def text_sprite(
    text: str,
    size: int,
    ink: RGB,
    ground: RGB,
    *,
    bold: bool = False,
    pad: int = 2,
) -> Image.Image:
    """An RGB image of one line of text on a solid ground, tightly sized."""
    f = font(size)
    ascent, descent = f.getmetrics()
    width = text_width(text, size, bold=bold) + 2 * pad
    height = ascent + descent + 2 * pad
    image = Image.new("RGB", (max(width, 1), height), ground)
    paint_text(image, text, (pad, pad + ascent), size, ink, bold=bold)
    return image

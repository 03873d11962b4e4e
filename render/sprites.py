"""The small pictures a board pastes: words, pile and foundation badges, banners and
card chips. Each is drawn once in RGB, mapped onto the boards' palette
and cached, so a frame only pastes them."""

from __future__ import annotations

from functools import cache, lru_cache

from PIL import Image, ImageDraw

from engine import Card

from .cards import suit_ink
from .geometry import PHONE, Box, FoundationSlot
from .glyphs import cap_height, paint_text, text_sprite, text_width, wrap
from .palette import (
    BADGE,
    BLACK,
    CARD,
    CARD_EDGE,
    FELT,
    FELT_DIM,
    FELT_TEXT,
    GOLD,
    RGB,
    WHITE,
    to_palette,
)

TEXT_SIZE = 20  # capitals 15 px high
LABEL_SIZE = 22
BANNER_LINE = 26  # a line of banner text
WORD_AT_PHONE = 9  # every word's capitals, that many pixels high on a phone at least


@cache
def least_size(width: int) -> int:
    """The smallest font size a picture ``width`` px wide draws a word in: its capitals
    WORD_AT_PHONE px high when a phone shows the picture PHONE px wide (12 at 400 px,
    17 at 554: Corner Stones' tags and counts were 6-7 px there)."""
    size = 8
    while cap_height(size) * PHONE < WORD_AT_PHONE * width:
        size += 1
    return size


@lru_cache(maxsize=256)  # labels repeat; status lines (deal, moves) mostly do not
def palette_text(text: str, size: int, ink: RGB, ground: RGB, bold: bool = False) -> Image.Image:
    return to_palette(text_sprite(text, size, ink, ground, bold=bold))


def line_height(size: int) -> int:
    return palette_text("0", size, FELT_TEXT, FELT).height


def put(frame: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    """Paste an opaque ``sprite`` of the frame's own mode at ``xy`` (clipped to the frame),
    through the imaging core: ``Image.paste``'s checks cost more than a word's copy, and a
    frame pastes dozens of words and badges."""
    x, y = xy
    frame.im.paste(sprite.im, (x, y, x + sprite.width, y + sprite.height))


def paste_line(
    frame: Image.Image, text: str, xy: tuple[int, int], size: int, ink: RGB
) -> int:
    """Paste a line of text on felt word by word, returning where it ends.

    Words are cached as sprites: a status line that changes every move ("87 moves")
    then costs a few pastes instead of a fresh text drawing.
    """
    x, y = xy
    space = text_width(" ", size)
    pad = 2  # text_sprite's margin round each word
    for word in text.split(" "):
        if word:
            put(frame, palette_text(word, size, ink, FELT), (x - pad, y))
            x += text_width(word, size)
        x += space
    return x - space


def centred(sprite: Image.Image, box: Box) -> tuple[int, int]:
    return (box.x + (box.w - sprite.width) // 2, box.y + (box.h - sprite.height) // 2)


@lru_cache(maxsize=512)  # status lines carry deal numbers: most are seen once or twice
def fit(text: str, size: int, width: int, *, bold: bool = False, least: int = 16) -> int:
    """The largest font size up to ``size`` (and at least ``least``) at which ``text`` fits."""
    while size > least and text_width(text, size, bold=bold) + 4 > width:
        size -= 1
    return size


def banner_lines(text: str, width: int, size: int = 17) -> tuple[str, ...]:
    """``text`` broken into lines of at most ``width`` pixels (bold, ``size``)."""
    return wrap(text, size, width, bold=True)


@lru_cache(maxsize=256)
def card_chip(c: int, four_colour: bool, label: str) -> Image.Image:
    """A small card face naming a card in a line of text: its ``label`` (rank and suit,
    ``Q♥``, as the player's language prints them) on white."""
    card = Card(c)
    width = text_width(label, TEXT_SIZE, bold=True) + 10
    image = Image.new("RGB", (width, 26), FELT)  # 26 high: board.CHIP_H
    ImageDraw.Draw(image).rounded_rectangle((0, 0, width - 1, 25), 4, fill=CARD, outline=CARD_EDGE)
    paint_text(image, label, (5, 20), TEXT_SIZE, suit_ink(card.suit, four_colour), bold=True)
    return to_palette(image)


@lru_cache(maxsize=64)
def banner_bar(
    lines: tuple[str, ...], width: int, height: int, ground: RGB, least: int = 16
) -> Image.Image:
    """White bold lines of text, centred on a coloured bar, ``least`` large at least."""
    image = Image.new("RGB", (width, height), FELT)
    ImageDraw.Draw(image).rounded_rectangle((0, 0, width - 1, height - 1), 7, fill=ground)
    size = min(fit(line, TEXT_SIZE, width - 12, bold=True, least=least) for line in lines)
    top = (height - len(lines) * BANNER_LINE) // 2
    for n, line in enumerate(lines):
        x = (width - text_width(line, size, bold=True)) // 2
        baseline = top + n * BANNER_LINE + (BANNER_LINE + size * 7 // 10) // 2
        paint_text(image, line, (x, baseline), size, WHITE, bold=True)
    return to_palette(image)


SOURCE, TARGET = "source", "target"  # a badge lit by the last move: where from, where to


@lru_cache(maxsize=128)
def badge(
    text: str, width: int, height: int, name: str | None, lit: str = "", *, least: int
) -> Image.Image:
    """What the player types for a pile (its number) on a dark tab, and Corner Stones'
    name for it (C1, S1) beside it, ``least`` large. The last move lights its ``TARGET``
    in gold and outlines its ``SOURCE`` in gold: the card that moved is framed where it
    went, and the card left behind is not singled out."""
    image = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(image)
    if lit == SOURCE:
        draw.rounded_rectangle((0, 0, width - 1, height - 1), 5, fill=BADGE, outline=GOLD,
                               width=2)
    else:
        draw.rounded_rectangle((0, 0, width - 1, height - 1), 5,
                               fill=GOLD if lit == TARGET else BADGE)
    ink = BLACK if lit == TARGET else GOLD if lit == SOURCE else FELT_TEXT
    named = 0 if name is None else text_width(name, least) + 2
    # Corner Stones' numbers all as large as its two-digit ones fit (digits are as wide)
    size = fit(text if name is None else "00", LABEL_SIZE + (2 if name else 0),
               width - named, bold=True)
    x = (width - text_width(text, size, bold=True) - named) // 2
    baseline = (height + size * 7 // 10) // 2
    end = paint_text(image, text, (x, baseline), size, ink, bold=True)
    if name is not None:  # Corner Stones: the number, then its name in the rules (C1, S1)
        paint_text(image, name, (end + 2, baseline), least, BLACK if lit == TARGET else FELT_DIM)
    return to_palette(image)


ARROWS = {1: "↑", -1: "↓"}  # a foundation's direction, by its step


def foundation_badge(fslot: FoundationSlot, step: int, lit: str = "") -> Image.Image:
    """``f1`` and the way it builds (``f1↑``): what a player types for the foundation, and
    what its progress line (``6/13``) leaves to the tab."""
    box = fslot.label
    return badge(f"f{fslot.index + 1}{ARROWS[step]}", box.w, box.h, None, lit, least=12)

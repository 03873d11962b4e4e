"""The picture's fixed 256-colour palette.

Every frame is a palette ("P") image: it composes by copying bytes and encodes to
PNG several times faster and smaller than RGB. Sprites are drawn once in RGB with
antialiasing, then mapped onto this palette; the palette holds each colour the
board uses plus the blends between the pairs that meet at an antialiased edge,
so smooth text and suit shapes survive the mapping.
"""

from __future__ import annotations

from functools import cache

from PIL import Image

RGB = tuple[int, int, int]

FELT: RGB = (24, 92, 58)
FELT_DARK: RGB = (15, 62, 38)
FELT_LINE: RGB = (84, 150, 112)
FELT_TEXT: RGB = (236, 243, 232)
FELT_DIM: RGB = (168, 204, 180)
BADGE: RGB = (9, 40, 24)
CARD: RGB = (253, 253, 250)
CARD_EDGE: RGB = (96, 100, 96)
BLACK: RGB = (22, 22, 26)
RED: RGB = (206, 22, 34)
GREEN: RGB = (0, 122, 44)
BLUE: RGB = (24, 78, 206)
GOLD: RGB = (255, 196, 0)
WON: RGB = (32, 120, 200)
STUCK: RGB = (176, 36, 36)
NO_WIN: RGB = (184, 96, 16)
RESIGNED: RGB = (84, 92, 108)  # slate: the player's own choice, neither red nor a win
WHITE: RGB = (255, 255, 255)

BASE_COLOURS: tuple[RGB, ...] = (
    FELT, FELT_DARK, FELT_LINE, FELT_TEXT, FELT_DIM, BADGE, CARD, CARD_EDGE,
    BLACK, RED, GREEN, BLUE, GOLD, WON, STUCK, NO_WIN, RESIGNED, WHITE,
)

# (ink, background) pairs that meet at an antialiased edge somewhere on the board or the
# stats card.
_EDGES: tuple[tuple[RGB, RGB], ...] = (
    (BLACK, CARD), (RED, CARD), (GREEN, CARD), (BLUE, CARD),
    (CARD_EDGE, CARD), (CARD_EDGE, FELT),
    (FELT_TEXT, FELT), (FELT_TEXT, FELT_DARK), (FELT_TEXT, BADGE), (FELT_DIM, FELT),
    (FELT_DIM, FELT_DARK), (FELT_LINE, FELT), (BLACK, GOLD), (GOLD, FELT), (GOLD, FELT_DARK),
    (WHITE, WON), (WHITE, STUCK), (WHITE, NO_WIN), (WHITE, RESIGNED), (BLACK, FELT_TEXT),
    (RED, FELT_TEXT), (GREEN, FELT_TEXT), (BLUE, FELT_TEXT), (BADGE, CARD), (BADGE, GOLD),
)
_STEPS = 8  # blends per edge, besides the two end colours


def _blend(a: RGB, b: RGB, t: float) -> RGB:
    return (
        round(a[0] * t + b[0] * (1 - t)),
        round(a[1] * t + b[1] * (1 - t)),
        round(a[2] * t + b[2] * (1 - t)),
    )


def colours() -> list[RGB]:
    """The palette in index order; the first entry is the felt."""
    result: list[RGB] = []
    for colour in BASE_COLOURS:
        if colour not in result:
            result.append(colour)
    for ink, ground in _EDGES:
        for step in range(1, _STEPS + 1):
            colour = _blend(ink, ground, step / (_STEPS + 1))
            if colour not in result:
                result.append(colour)
    assert len(result) <= 256, len(result)
    return result


@cache
def palette_image() -> Image.Image:
    """A 1x1 "P" image that carries the palette, for ``Image.quantize(palette=...)``."""
    flat: list[int] = []
    for colour in colours():
        flat.extend(colour)
    flat.extend(flat[:3] * (256 - len(flat) // 3))
    holder = Image.new("P", (1, 1))
    holder.putpalette(flat)
    return holder


@cache
def index(colour: RGB) -> int:
    """The palette index of a board colour, for drawing straight onto a frame."""
    return colours().index(colour)


def to_palette(image: Image.Image) -> Image.Image:
    """Map an RGB sprite onto the board palette (nearest colour, no dithering)."""
    return image.convert("RGB").quantize(palette=palette_image(), dither=Image.Dither.NONE)

"""What every frame of a game shares: felt, outlines, labels and the game's name.

Drawn once per game at the layout's resting size, each row with room for the usual
longest pile: a frame takes each row of it as tall as the position needs (felt below,
for a longer pile). Corner Stones' columns stretch each on its own, so its frames take a
background drawn for their own layout (the last few kept).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engine import RULES
from engine.lru import LRU

from .cards import CARD_H, CARD_W, RADIUS
from .geometry import MARGIN, ROW_LEAD, Box, Layout
from .glyphs import SUIT_SYMBOLS, paint_symbol, paint_text, text_width
from .layout import banner_has_a_band, layout
from .palette import FELT, FELT_DARK, FELT_LINE, FELT_TEXT, to_palette
from .sprites import badge, fit, foundation_badge, least_size

TITLE_SIZE = 28
GHOST_SIZE = 28  # the faint number or base card inside an empty pile or foundation


@lru_cache(maxsize=32)  # five games, two colourings, a few decks of letters
def background(game_id: str, four_colour: bool, ranks: tuple[str, ...]) -> Image.Image:
    """Felt, outlines, labels and the game's name: everything a game's frames share,
    at the layout's resting size (a frame cuts or lengthens its rows to what it uses).
    An empty foundation shows the letter of the rank it starts with (``ranks``)."""
    return _background(layout(game_id), ranks)


def fitted_background(lay: Layout, ranks: tuple[str, ...]) -> Image.Image:
    """A frame's background for one fitted layout, as tall as the layout: Corner Stones'
    columns stretch each on its own, so no band of a resting background can be cut and
    moved to make it. What it draws lies at the top of each pile's room, so it is kept
    by where the piles start (a position's stacks may grow and shrink under it)."""
    places = (lay.width, lay.title, lay.foundations,
              tuple((s.area.x, s.area.y, s.label) for s in lay.piles))
    key = (places, ranks)
    drawn = _FITTED.get(key)
    if drawn is None:
        drawn = _FITTED[key] = _background(lay, ranks, height=max(
            s.area.y + CARD_H for s in lay.piles) + MARGIN)
    if drawn.height == lay.height:
        return drawn
    frame = Image.new("P", (lay.width, lay.height), 0)  # colour 0: the felt
    assert drawn.palette is not None
    frame.putpalette(drawn.palette)
    frame.paste(drawn.crop((0, 0, lay.width, min(drawn.height, lay.height))), (0, 0))
    return frame


# Corner Stones' backgrounds by where its piles start: the banner shown or not, C3 and
# C4 lower or higher, a stack wrapped; a few dozen in a game (a few hundred KB each).
_FITTED: LRU[tuple[object, ...], Image.Image] = LRU(16)


def _background(lay: Layout, ranks: tuple[str, ...], height: int | None = None) -> Image.Image:
    rules = RULES[lay.game_id]
    image = Image.new("RGB", (lay.width, height or lay.height), FELT)
    draw = ImageDraw.Draw(image)
    least = least_size(lay.width)
    for slot in lay.piles:
        box = Box(slot.area.x, slot.area.y, CARD_W, CARD_H)
        _outline(draw, box)
        number = str(slot.index + 1)
        _ghost_text(image, number, box, box.y + CARD_H // 2 + 10)
        label = badge(number, slot.label.w, slot.label.h, slot.name, least=least)
        image.paste(label.convert("RGB"), (slot.label.x, slot.label.y))
    for fslot, spec in zip(lay.foundations, rules.foundations, strict=True):
        box = fslot.card
        _outline(draw, box)
        _ghost_text(image, ranks[spec.base_rank - 1], box, box.y + 34)
        symbols = SUIT_SYMBOLS if spec.suit is None else SUIT_SYMBOLS[spec.suit]
        size = 20 if spec.suit is not None else 12
        x = box.x + (CARD_W - len(symbols) * (size + 1)) // 2
        for symbol in symbols:
            paint_symbol(image, symbol, (x, box.y + 44), size, FELT_LINE)
            x += size + 1
        label = foundation_badge(fslot, spec.step)
        image.paste(label.convert("RGB"), (fslot.label.x, fslot.label.y))
    _static_text(image, draw, lay, rules.name)
    return to_palette(image)


def _outline(draw: ImageDraw.ImageDraw, box: Box) -> None:
    draw.rounded_rectangle(box.corners(), RADIUS, outline=FELT_LINE, width=2)


def _ghost_text(image: Image.Image, text: str, box: Box, baseline: int) -> None:
    x = box.x + (box.w - text_width(text, GHOST_SIZE, bold=True)) // 2
    paint_text(image, text, (x, baseline), GHOST_SIZE, FELT_LINE, bold=True)


def _static_text(image: Image.Image, draw: ImageDraw.ImageDraw, lay: Layout, name: str) -> None:
    title = lay.title
    size = fit(name, TITLE_SIZE, title.w, bold=True)
    paint_text(image, name, (title.x, title.y + size), size, FELT_TEXT, bold=True)
    if banner_has_a_band(lay):  # a rule between the top band and the columns
        y_line = lay.rows[0].y - 5
        draw.line((MARGIN, y_line, lay.width - MARGIN, y_line), fill=FELT_DARK, width=2)


def felt(full: Layout, lay: Layout, ground: Image.Image) -> Image.Image:
    """The frame's background: the game's background with each row of columns cut to
    the height this position uses (or lengthened with felt), and what lies between the
    rows moved to meet them."""
    if lay.rows == full.rows:
        return ground.copy()
    # A new image is all colour 0, the felt: only the background's pieces are copied in.
    frame = Image.new("P", (lay.width, lay.height), 0)
    assert ground.palette is not None  # a palette image (``to_palette``)
    frame.putpalette(ground.palette)
    above = full.rows[0].y - ROW_LEAD  # what is above it: the rule, or only the margin
    frame.im.paste(ground.im.crop((0, 0, lay.width, above)), (0, 0, lay.width, above))
    for band, fitted in zip(full.rows, lay.rows, strict=True):
        kept = min(band.h, fitted.h)  # a pile longer than the background's room: felt below
        top = fitted.y - (band.y - above)
        piece = ground.im.crop((0, above, lay.width, band.y + kept))  # cores: no wrappers
        frame.im.paste(piece, (0, top, lay.width, top + piece.size[1]))
        above = band.bottom
    return frame

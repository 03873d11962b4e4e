"""Card faces, drawn once per card, deck and rank letter, then pasted as palette sprites.

Every pile fans downwards, so a card's index is its rank and suit side by side along
its top edge: a buried card shows them in the strip the card above leaves uncovered.
The rank is printed as the player's language prints it (a German queen is a ``D``): each
face is drawn for, and cached by, a deck's ``ranks``, the letters of its thirteen ranks.

A phone shows a board about 400 px wide, so a card is as narrow as its index allows:
the narrower the columns, the bigger every card on the phone. A rank's ink lies
between its cap line and its baseline, all of it in the strip a buried card shows (a
J or a Q whose tail dips below the baseline is drawn shorter, not cut: a J cut at the
baseline reads as |), and a "10" is set narrower to leave its suit the room it needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from engine.cards import RANK_NAMES

from .glyphs import SUIT_SYMBOLS, cap_height, font, paint_symbol
from .palette import BLACK, BLUE, CARD, CARD_EDGE, FELT, GOLD, GREEN, RED, RGB, index, to_palette

CARD_W, CARD_H = 46, 70
RADIUS = 5
RANK_SIZE = 22  # font size of a card's index: capitals 15 px high, 17 px in bold
PAD = 3  # from the card's edge to its index
BIG_SUIT = 26


def suit_ink(suit: int, four_colour: bool) -> RGB:
    """Red and black; with ``four_colour``: clubs green, diamonds blue, hearts red, spades black."""
    if four_colour:
        return (GREEN, BLUE, RED, BLACK)[suit]
    return RED if suit in (1, 2) else BLACK


@cache
def suit_size() -> int:
    """The index's suit: a little taller than the rank's capitals, so that a club's round
    leaves and a spade's point still tell apart when a phone shows the card at 3/4 size."""
    return cap_height(RANK_SIZE) + 3


@dataclass(frozen=True)
class RankGlyph:
    """A rank's ink, ready to paste: from one pixel over the cap line to one under the
    baseline (the bold stroke), its letters one pixel apart."""

    mask: Image.Image  # "L"

    @property
    def width(self) -> int:
        return self.mask.width


def rank_room() -> int:
    """The widest a rank may be drawn: what the card leaves beside its index suit."""
    return CARD_W - PAD - 2 - suit_size() - 1


def _letter_mask(ch: str) -> Image.Image:
    """One bold character's ink from one pixel over the cap line to one under the
    baseline; a character that reaches lower is drawn shorter to end there."""
    cap = cap_height(RANK_SIZE)
    size = RANK_SIZE * 3
    probe = Image.new("L", (size, size), 0)
    baseline = 2 * RANK_SIZE
    ImageDraw.Draw(probe).text(
        (RANK_SIZE, baseline), ch, font=font(RANK_SIZE), fill=255, anchor="ls",
        stroke_width=1, stroke_fill=255,
    )
    box = probe.getbbox()
    assert box is not None
    top, bottom = min(box[1], baseline - cap - 1), max(box[3], baseline + 1)
    ink = probe.crop((box[0], top, box[2], bottom))
    if ink.height > cap + 2:
        ink = ink.resize((ink.width, cap + 2), Image.Resampling.LANCZOS)
    return ink


@cache  # a few letters per language
def rank_glyph(letter: str) -> RankGlyph:
    """A rank's ink (see ``RankGlyph``), set tight and at most ``rank_room`` wide."""
    parts = [_letter_mask(ch) for ch in letter]
    height = cap_height(RANK_SIZE) + 2
    mask = Image.new("L", (sum(p.width for p in parts) + len(parts) - 1, height), 0)
    x = 0
    for part in parts:
        mask.paste(part, (x, 0))
        x += part.width + 1
    if mask.width > rank_room():
        mask = mask.resize((rank_room(), height), Image.Resampling.LANCZOS)
    return RankGlyph(mask)


def _paint_rank(image: Image.Image, letter: str, x: int, baseline: int, ink: RGB) -> None:
    mask = rank_glyph(letter).mask
    top = baseline - cap_height(RANK_SIZE) - 1
    image.paste(ink, (x, top, x + mask.width, top + mask.height), mask)


@cache
def least_strip() -> int:
    """The least of a buried card that still shows all of its index, with a pixel to spare."""
    return PAD + cap_height(RANK_SIZE) + 2 + 1


@cache
def strip() -> int:
    """How much of a buried card shows, at ease, while its pile has room."""
    return least_strip() + 3


def frame_card(frame: Image.Image, spot: tuple[int, int], width: int) -> None:
    """Frame the card at ``spot`` on a palette ``frame`` in gold, ``width`` pixels thick:
    the card the last move put down."""
    ring = frame_mask(width)
    x, y = spot[0] - width, spot[1] - width
    frame.im.paste(index(GOLD), (x, y, x + ring.width, y + ring.height), ring.im)


@cache
def frame_mask(width: int) -> Image.Image:
    """A rounded frame ``width`` pixels thick round a card, as a two-level mask the size
    of the card and its frame: pasted through, not drawn anew on every board."""
    mask = Image.new("1", (CARD_W + 2 * width, CARD_H + 2 * width), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (0, 0, CARD_W - 1 + 2 * width, CARD_H - 1 + 2 * width), RADIUS + width, outline=1,
        width=width,
    )
    return mask


@cache
def card_mask() -> Image.Image:
    """The rounded card outline as a two-level mask, for pasting onto a palette frame."""
    mask = Image.new("1", (CARD_W, CARD_H), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, CARD_W - 1, CARD_H - 1), RADIUS, fill=1)
    return mask


def card_rgb(card: int, four_colour: bool, ranks: tuple[str, ...] = RANK_NAMES) -> Image.Image:
    """One card face in RGB (on felt, outside its rounded corners), its rank printed as
    ``ranks`` has it (by default, English)."""
    suit, letter = card % 52 // 13, ranks[card % 13]
    ink = suit_ink(suit, four_colour)
    image = Image.new("RGB", (CARD_W, CARD_H), FELT)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (0, 0, CARD_W - 1, CARD_H - 1), RADIUS, fill=CARD, outline=CARD_EDGE, width=1
    )
    cap = cap_height(RANK_SIZE)
    baseline = PAD + cap + 1
    symbol = SUIT_SYMBOLS[suit]
    small = suit_size()
    _paint_rank(image, letter, PAD, baseline, ink)
    # Its foot level with the rank's, inside the strip a buried card shows.
    paint_symbol(image, symbol, (PAD + rank_glyph(letter).width + 2, baseline + 1 - small),
                 small, ink)
    centre_y = (baseline + 4 + CARD_H) // 2
    paint_symbol(image, symbol, ((CARD_W - BIG_SUIT) // 2, centre_y - BIG_SUIT // 2),
                 BIG_SUIT, ink)
    return image


@cache  # 52 cards, two colourings, each deck of letters the languages print
def card_sprite(card: int, four_colour: bool, ranks: tuple[str, ...] = RANK_NAMES) -> Image.Image:
    """A card face as a palette sprite, on felt outside its corners (``paste_card``)."""
    return to_palette(card_rgb(card % 52, four_colour, ranks))


@cache  # heights 22 to 30: a few hundred small strips per deck of letters
def strip_core(card: int, height: int, four_colour: bool,
               ranks: tuple[str, ...] = RANK_NAMES) -> Any:
    """The top ``height`` rows of a card: what shows of a buried card, and a little more
    (the rounded corners of the card over it show what lies beneath), so a pile pastes
    a third of its buried cards' pixels. (One paste through ``strip_mask``: split as
    ``paste_card`` splits a whole card, a strip this short costs more than it saves.)"""
    return card_sprite(card % 52, four_colour, ranks).crop((0, 0, CARD_W, height)).im


@cache
def strip_mask(height: int) -> Any:
    """The imaging core of the top ``height`` rows of ``card_mask``."""
    return card_mask().crop((0, 0, CARD_W, height)).im


@cache
def _card_bands(card: int, four_colour: bool, ranks: tuple[str, ...]) -> tuple[Any, Any, Any]:
    """The imaging cores of a card's top rows (with its rounded corners), of its straight
    middle, and of its bottom rows (with the other two corners)."""
    rows = _corners()[0]
    sprite = card_sprite(card, four_colour, ranks)
    return (sprite.crop((0, 0, CARD_W, rows)).im,
            sprite.crop((0, rows, CARD_W, CARD_H - rows)).im,
            sprite.crop((0, CARD_H - rows, CARD_W, CARD_H)).im)


@cache
def _corners() -> tuple[int, Any, Any]:
    """How many rows at a card's top (and as many at its bottom) its rounded corners cut
    into, and the mask of those rows at the top and at the bottom. Only those rows are
    pasted through a mask, the middle plain: a whole card then takes 1.3 µs where one
    paste through the whole mask took 1.9."""
    mask = card_mask()
    rows = 0
    while mask.crop((0, rows, CARD_W, rows + 1)).getextrema()[0] == 0:
        rows += 1
    return (rows, mask.crop((0, 0, CARD_W, rows)).im,
            mask.crop((0, CARD_H - rows, CARD_W, CARD_H)).im)


def paste_card(core: Any, card: int, xy: tuple[int, int], four_colour: bool,
               ranks: tuple[str, ...] = RANK_NAMES) -> None:
    """Paste a whole card face onto a frame's imaging core with its top-left at ``xy``:
    what lies beneath shows outside its rounded corners."""
    rows, top_mask, bottom_mask = _corners()
    top, middle, bottom = _card_bands(card % 52, four_colour, ranks)
    x, y = xy
    low = y + CARD_H - rows
    core.paste(top, (x, y, x + CARD_W, y + rows), top_mask)
    core.paste(middle, (x, y + rows, x + CARD_W, low))
    core.paste(bottom, (x, low, x + CARD_W, y + CARD_H), bottom_mask)

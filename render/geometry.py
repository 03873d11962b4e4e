"""The shapes every layout is made of: boxes, pile and foundation slots, a layout, and
how a pile fans (wrapped into sub-columns when it must).

A picture is read on a phone, which shows it ``PHONE`` px wide: a picture of width W
shows everything at 400/W of its size. The widest a picture may be (``WIDEST``) is set by
the cards' ranks, which must read 12 px high there (``RANK_AT_PHONE``): ten columns of
cards, Corner Stones' count.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from .cards import CARD_H, CARD_W, RANK_SIZE, least_strip, strip
from .glyphs import cap_height

PHONE = 400  # how wide a phone shows a picture, in its own pixels
RANK_AT_PHONE = 12  # a card's rank, that many pixels high there at least
NARROWEST = PHONE  # no picture is narrower: a phone would show it larger than it is
WIDEST = cap_height(RANK_SIZE) * PHONE // RANK_AT_PHONE  # 566: and no picture is wider
ASPECT = (9 / 16, 2.0)  # the narrowest and the widest picture, width / height

MARGIN = 12
GAP = 7  # between neighbouring columns of cards
LABEL_H = 30  # pile numbers above the columns
ROW_GAP = 8  # between two rows of columns
ROW_LEAD = 10  # above the first row of columns: room for the rule under the top band
BANNER_H = 30  # won / stuck / no win / resigned, under the title
ROOM_CARDS = 15  # cards a column shows at ease before it grows (the longest pile Clover
# Leaf, Trefoil and Super Flower Garden can build: 3 dealt, 12 built on them); Four Leaf
# Clovers and Corner Stones can build longer ones, which wrap or make their row taller
LEAST_PER_COLUMN = 4  # a pile wrapped into sub-columns keeps at least this many in each


@dataclass(frozen=True)
class Box:
    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    def corners(self) -> tuple[int, int, int, int]:
        """``(left, top, right, bottom)`` with inclusive right and bottom, as ImageDraw wants."""
        return (self.x, self.y, self.x + self.w - 1, self.y + self.h - 1)

    def moved(self, dy: int) -> Box:
        return Box(self.x, self.y + dy, self.w, self.h)


@dataclass(frozen=True)
class PileSlot:
    index: int  # 0-based; the label is index + 1
    area: Box  # the pile's room; the bottom card sits at its top-left corner
    label: Box  # the number badge
    name: str | None = None  # Corner Stones' C1, S1...
    row: int = 0  # which row of columns
    columns: int = 1  # sub-columns its cards are wrapped into, side by side in its area


@dataclass(frozen=True)
class FoundationSlot:
    index: int  # 0-based; the label is f{index + 1}
    card: Box
    label: Box
    info: Box  # how far it has got


@dataclass(frozen=True)
class Layout:
    game_id: str
    width: int
    height: int
    piles: tuple[PileSlot, ...]
    foundations: tuple[FoundationSlot, ...]
    title: Box  # game name, deal, moves, last move
    banner: Box  # won, stuck, no win possible, resigned
    rows: tuple[Box, ...]  # each row of columns, labels included: the parts that stretch
    at_ease: bool = True  # piles fan at ease while they fit their room (see ``fan_step``)
    # Its background drawn for it alone, not cut from the game's resting one: its piles do
    # not lie where they lie at rest (Corner Stones' columns, a pile wrapped).
    own_background: bool = False


@dataclass(frozen=True)
class Fan:
    """How one pile is drawn: where each of its cards goes, bottom first, top last."""

    cards: tuple[tuple[int, int, int], ...]  # (place in the pile, x, y)

    @property
    def top(self) -> tuple[int, int] | None:
        """Where the top card (the one that moves) is drawn."""
        return (self.cards[-1][1], self.cards[-1][2]) if self.cards else None


@cache
def tight_step() -> int:
    """The least downward step that still shows a buried card's whole index."""
    return least_strip()


@cache
def fan_step(count: int, at_ease: bool = True) -> float:
    """From one card's top to the next in a column of ``count``: at ease while the column
    fits its room (ROOM_CARDS fanned tight), then closer, down to the tight step, which it
    keeps however long (its row grows taller). Not ``at_ease``: tight from the start
    (Corner Stones, whose twelve stacks need the room, and a column game whose piles are
    too long to stand at ease in ASPECT: ``columns._wrapped``)."""
    if count < 2:
        return 0.0
    if not at_ease:
        return float(tight_step())
    room = (ROOM_CARDS - 1) * tight_step()
    return max(float(tight_step()), min(float(strip()), room / (count - 1)))


def per_column(count: int, columns: int) -> int:
    """The cards in each sub-column of a pile of ``count`` wrapped into ``columns`` (the
    first ones; the last may hold fewer)."""
    return -(-count // columns)


def fan_reach(count: int, at_ease: bool = True, columns: int = 1) -> int:
    """How tall a pile of ``count`` is drawn in ``columns`` sub-columns (an empty one keeps
    a card's place)."""
    per = per_column(count, columns)
    return CARD_H + int((per - 1) * fan_step(per, at_ease)) if count else CARD_H


def span(columns: int, gap: int) -> int:
    """How wide ``columns`` columns of cards side by side are, ``gap`` apart."""
    return columns * CARD_W + (columns - 1) * gap


def fan(slot: PileSlot, count: int, at_ease: bool = True) -> Fan:
    """Where each card of a pile of ``count`` is drawn, from the top of its area; a pile
    wrapped into sub-columns fills them in turn from the left, its cards shared out evenly,
    the sub-columns spread across its area."""
    area, columns = slot.area, slot.columns
    pitch = (area.w - CARD_W) // (columns - 1) if columns > 1 else 0
    return _fan(area.x, area.y, count, at_ease, columns, pitch)


@lru_cache(maxsize=4096)  # a pile's fan by its place and length: few, and met again often
def _fan(x: int, y: int, count: int, at_ease: bool, columns: int, pitch: int) -> Fan:
    per = per_column(count, columns)
    step = fan_step(per, at_ease)
    return Fan(tuple([(i, x + i // per * pitch, y + int(i % per * step))
                      for i in range(count)]))


def fits_aspect(width: int, height: int) -> bool:
    """Whether a ``width`` x ``height`` picture is within ASPECT."""
    return height * ASPECT[0] <= width <= height * ASPECT[1]


def aspect_canvas(width: int, height: int) -> tuple[int, int]:
    """The size of a picture that holds a ``width`` x ``height`` board within ASPECT:
    felt added at the sides (too tall) or below (too wide), never taken away. (Every
    position a player can reach fits as it is drawn; this is for the others.)"""
    narrowest, widest = ASPECT
    if width < height * narrowest:
        return -(-round(height * narrowest * 1000) // 1000), height
    if width > height * widest:
        return width, -(-width // int(widest))
    return width, height

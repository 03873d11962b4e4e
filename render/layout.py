"""Where everything goes: each game's board as boxes, and how a pile fans.

Pictures are made for a phone, which shows them about 400 px wide: the fewer
columns side by side, the bigger every card. So every game lays its piles out as
columns, at most nine side by side, each fanned downwards:

* Clover Leaf, Trefoil, Super Flower Garden, Four Leaf Clovers: two rows of
  columns under a top band (the title, the foundations beside it);
* Corner Stones, eight columns wide: the corner stones C1 and C2 at the top
  corners with the title between them, the eight foundations under them, each
  side stack under a foundation of its own row (S1 under f1, S2 under f2, ...),
  and the corner stones C3 and C4 at the bottom corners, each under the side
  stack of its column (the longer side stacks between them run on beside them).
  Pile numbers read in the order RULES.md gives them: C1 C2, S1 to S8, C3 C4.

No card is ever hidden: a pile shows every card's index, whatever its length.
Each row of columns is as tall as its longest pile needs (``arrange``): a short
position gives a short picture, and a pile longer than any game usually builds
makes its row taller rather than folding its middle away.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from engine import RULES

from .cards import CARD_H, CARD_W, least_strip, strip

MARGIN = 12
GAP = 7  # between neighbouring columns of cards
SUIT_GAP = 6  # Corner Stones: more between the four suits' pairs of columns
LABEL_H = 30  # pile numbers above the columns
ROW_GAP = 8  # between the two rows of columns
ROW_LEAD = 10  # above a row of columns: room for the rule under the top band
BANNER_H = 30  # won / stuck / no win / resigned, under the title
ROOM_CARDS = 15  # cards a column shows at ease before it grows (the longest pile Clover
# Leaf, Trefoil and Super Flower Garden can build: 3 dealt, 12 built on them); Four Leaf
# Clovers and Corner Stones can build longer ones, which make their row taller
FOUNDATION_W = 64  # a foundation's column in the top band: label, card, progress
WIDE_FOUNDATION_W = 150  # Four Leaf Clovers' one foundation, whose progress says more
TITLE_H = 124  # the top band: label, card and progress of a foundation


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
    area: Box  # the column's room; the bottom card sits at its top-left corner
    label: Box  # the number badge
    name: str | None = None  # Corner Stones' C1, S1...
    row: int = 0  # which row of columns


@dataclass(frozen=True)
class FoundationSlot:
    index: int  # 0-based; the label is f{index + 1}
    card: Box
    label: Box
    info: Box  # direction and progress


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
    # For each row after the first, the piles above it that it must clear, when not all
    # of the row above: Corner Stones' C3 and C4 start below S1 and S8, the piles over
    # them, and the longer side stacks between them run on beside them.
    clears: tuple[tuple[int, ...] | None, ...] = ()
    at_ease: bool = True  # piles fan at ease while they fit their room (see ``fan_step``)


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
    """From one card's top to the next in a pile of ``count``: at ease while the pile
    fits its room, then closer, down to the tight step, which it keeps however long.
    Not ``at_ease``: tight from the start (Corner Stones, whose three rows of stacks
    make the tallest picture)."""
    if count < 2:
        return 0.0
    if not at_ease:
        return float(tight_step())
    room = (ROOM_CARDS - 1) * tight_step()
    return max(float(tight_step()), min(float(strip()), room / (count - 1)))


def fan_reach(count: int, at_ease: bool = True) -> int:
    """How tall a pile of ``count`` is drawn (an empty one keeps a card's place)."""
    return CARD_H + int((count - 1) * fan_step(count, at_ease)) if count else CARD_H


def fan(area: Box, count: int, at_ease: bool = True) -> Fan:
    """Where each card of a pile of ``count`` is drawn, from the top of its ``area``."""
    return _fan(area.x, area.y, count, at_ease)


@lru_cache(maxsize=4096)  # a pile's fan by its place and length: few, and met again often
def _fan(x: int, y: int, count: int, at_ease: bool) -> Fan:
    step = fan_step(count, at_ease)
    return Fan(tuple([(i, x, y + int(i * step)) for i in range(count)]))


def _columns_layout(game_id: str) -> Layout:
    """Clover Leaf, Trefoil, Super Flower Garden, Four Leaf Clovers: two rows of columns
    under a band with the title on the left and the foundations on the right."""
    rules = RULES[game_id]
    count = rules.tableau_size
    per_row = (count + 1) // 2
    width = 2 * MARGIN + per_row * CARD_W + (per_row - 1) * GAP
    n_found = len(rules.foundations)
    cell = FOUNDATION_W if n_found > 1 else WIDE_FOUNDATION_W
    found_x = width - MARGIN - n_found * cell
    foundations = tuple(
        FoundationSlot(
            f,
            Box(found_x + f * cell + (cell - CARD_W) // 2, MARGIN + 24, CARD_W, CARD_H),
            Box(found_x + f * cell + (cell - CARD_W) // 2, MARGIN, CARD_W, 22),
            Box(found_x + f * cell, MARGIN + 24 + CARD_H + 2, cell, TITLE_H - 24 - CARD_H - 2),
        )
        for f in range(n_found)
    )
    title = Box(MARGIN, MARGIN, found_x - MARGIN - 8, TITLE_H)
    banner = Box(MARGIN, title.bottom + 4, width - 2 * MARGIN, BANNER_H)
    room = fan_reach(ROOM_CARDS)
    rows: list[Box] = []
    piles: list[PileSlot] = []
    y = banner.bottom + ROW_LEAD
    for row in range(2):
        rows.append(Box(MARGIN, y, width - 2 * MARGIN, LABEL_H + room))
        for col in range(per_row):
            index = row * per_row + col
            if index >= count:
                break
            x = MARGIN + col * (CARD_W + GAP)
            piles.append(PileSlot(
                index, Box(x, y + LABEL_H, CARD_W, room), Box(x + 4, y, CARD_W - 8, LABEL_H - 6),
                row=row,
            ))
        y = rows[-1].bottom + ROW_GAP
    height = rows[-1].bottom + MARGIN
    return Layout(game_id, width, height, tuple(piles), foundations, title, banner,
                  tuple(rows))


def _corner_stones_layout(game_id: str) -> Layout:
    """Corner Stones in eight columns: C1 [title] C2 / f1..f8 / S1..S8 / C3 ... C4."""
    rules = RULES[game_id]
    names = rules.pile_names or ()

    def col_x(col: int) -> int:
        return MARGIN + col * (CARD_W + GAP) + col // 2 * SUIT_GAP

    width = col_x(7) + CARD_W + MARGIN
    room = fan_reach(ROOM_CARDS, at_ease=False)
    inner = width - 2 * MARGIN
    piles: list[PileSlot] = []

    def row_of(row: int, y: int, cols: Sequence[int], first: int) -> Box:
        for n, col in enumerate(cols):
            x = col_x(col)
            index = first + n
            piles.append(PileSlot(index, Box(x, y + LABEL_H, CARD_W, room),
                                  Box(x, y, CARD_W, LABEL_H - 6), names[index], row))
        return Box(MARGIN, y, inner, LABEL_H + room)

    top = row_of(0, MARGIN, (0, 7), 0)  # C1, C2
    title = Box(col_x(1), MARGIN, col_x(7) - GAP - col_x(1), TITLE_H)
    banner = Box(title.x, title.bottom + 4, title.w, 2 * BANNER_H - 4)
    y = top.bottom + ROW_GAP
    foundations = tuple(
        FoundationSlot(
            f,
            Box(col_x(f), y + 24, CARD_W, CARD_H),
            Box(col_x(f) + 4, y, CARD_W - 8, 22),
            Box(col_x(f) - 3, y + 24 + CARD_H + 2, CARD_W + 6, TITLE_H - 24 - CARD_H - 2),
        )
        for f in range(len(rules.foundations))
    )
    sides = row_of(1, y + TITLE_H + ROW_LEAD, range(8), 2)  # S1 to S8
    bottom = row_of(2, sides.bottom + ROW_GAP, (0, 7), 10)  # C3, C4
    return Layout(game_id, width, bottom.bottom + MARGIN, tuple(piles), foundations, title,
                  banner, (top, sides, bottom), clears=(None, None, (2, 9)),  # S1 and S8
                  at_ease=False)


@cache
def layout(game_id: str) -> Layout:
    """A game's layout at rest (an ``engine.GAMES`` id): every row of columns with room
    for ``ROOM_CARDS``. ``arrange`` fits it to a position."""
    if game_id not in RULES:
        raise ValueError(f"Unknown game {game_id!r}")
    shape = RULES[game_id].layout
    if shape == "rows":
        return _corner_stones_layout(game_id)
    if shape == "columns":
        return _columns_layout(game_id)
    raise ValueError(f"{game_id}: no layout called {shape!r}")


def banner_has_a_band(lay: Layout) -> bool:
    """Whether the banner lies above the rows, in a band of its own (the column games),
    rather than inside the first row (Corner Stones, between C1 and C2)."""
    return lay.banner.bottom <= lay.rows[0].y


def arrange(
    game_id: str, piles: Sequence[Sequence[object]], *, banner: bool = True
) -> tuple[Layout, tuple[Fan, ...]]:
    """The layout for one position (``piles``: each pile's cards, bottom first) and each
    pile's fan in it: every row of columns is as tall as its longest pile needs and the
    rows below move up or down, so the picture ends where the cards do. Without a
    ``banner`` to show, the rows also move up into its place."""
    counts = [len(pile) for pile in piles]
    at_ease = layout(game_id).at_ease
    fitted = _fitted(game_id, _reaches(game_id, counts), banner)
    return fitted, tuple(fan(slot.area, count, at_ease)
                         for slot, count in zip(fitted.piles, counts, strict=True))


def _reaches(game_id: str, counts: Sequence[int]) -> tuple[int, ...]:
    """How tall each pile is drawn, as far as the layout depends on it: a pile that a row
    below must clear, its own reach; any other, its row's longest. Positions whose piles
    differ only below their row's longest share a layout, and its cache entry."""
    full = layout(game_id)
    reach = [fan_reach(count, full.at_ease) for count in counts]
    longest = [max(reach[i] for i in row) for row in _row_piles(game_id)]
    cleared = _cleared(game_id)
    return tuple(reach[slot.index] if slot.index in cleared else longest[slot.row]
                 for slot in full.piles)


@cache
def _row_piles(game_id: str) -> tuple[tuple[int, ...], ...]:
    """The piles of each row of columns."""
    full = layout(game_id)
    return tuple(tuple(slot.index for slot in full.piles if slot.row == r)
                 for r in range(len(full.rows)))


@cache
def _cleared(game_id: str) -> frozenset[int]:
    """The piles a row below them must clear (Corner Stones' S1 and S8)."""
    return frozenset(i for clears in layout(game_id).clears if clears for i in clears)


@cache
def _rows_below(game_id: str) -> tuple[int, ...]:
    """For each foundation, the row of piles just below it (0: none, it is above them)."""
    full = layout(game_id)
    return tuple(next((r for r, band in enumerate(full.rows) if band.y > f.card.y), 0)
                 for f in full.foundations)


@lru_cache(maxsize=256)  # a few hundred sets of row heights: each entry holds a layout
def _fitted(game_id: str, reach: tuple[int, ...], banner: bool) -> Layout:
    """``arrange``'s layout, where only how tall the piles are drawn matters
    (``_reaches``)."""
    full = layout(game_id)
    shift = 0
    if not banner and banner_has_a_band(full):
        shift = full.title.bottom + ROW_LEAD - full.rows[0].y
    rows: list[Box] = []
    row_shift: list[int] = []
    for r, band in enumerate(full.rows):
        need = LABEL_H + max(reach[i] for i in _row_piles(game_id)[r])
        for box in (full.title, full.banner if banner else None):
            if box is not None and band.y <= box.y < band.bottom:  # the title shares the row
                need = max(need, box.bottom - band.y)
        clears = full.clears[r] if r < len(full.clears) else None
        if clears is not None:  # below some piles of the row above, beside the others
            above = rows[r - 1].y + LABEL_H + max(reach[i] for i in clears)
            shift = above + band.y - full.rows[r - 1].bottom - band.y
        row_shift.append(shift)
        rows.append(Box(band.x, band.y + shift, band.w, need))
        shift += need - band.h

    cleared = _cleared(game_id)
    slots = []
    for slot in full.piles:
        row = rows[slot.row]
        # a pile with a row below it ends where its cards do; the others run to the row's end
        room = reach[slot.index] if slot.index in cleared else row.h - LABEL_H
        label = slot.label
        slots.append(PileSlot(slot.index, Box(slot.area.x, row.y + LABEL_H, slot.area.w, room),
                              Box(label.x, row.y, label.w, label.h), slot.name, slot.row))
    # What lies between two rows (Corner Stones' foundations) moves with the row below it;
    # the title band above the rows stays where it is.
    foundations = []
    for f, below in zip(full.foundations, _rows_below(game_id), strict=True):
        dy = row_shift[below] if below else 0
        foundations.append(
            FoundationSlot(f.index, f.card.moved(dy), f.label.moved(dy), f.info.moved(dy))
            if dy else f)
    return Layout(game_id, full.width, max(row.bottom for row in rows) + MARGIN, tuple(slots),
                  tuple(foundations), full.title, full.banner, tuple(rows), full.clears,
                  full.at_ease)

"""Where everything goes: each game's board as boxes, and how a pile fans.

Pictures are made for a phone, which shows them about 400 px wide: the fewer
columns side by side, the bigger every card. So every game lays its piles out as
columns, each fanned downwards, at most nine side by side (Corner Stones: ten):

* Clover Leaf, Trefoil, Super Flower Garden, Four Leaf Clovers: two rows of
  columns under a top band (the title, the foundations beside it);
* Corner Stones, ten columns wide: the corner stones in the outer columns, C1 over
  C3 on the left and C2 over C4 on the right; between them the title, the eight
  foundations in a row, a pair for each suit, and each side stack under a
  foundation of its pair (S1 under f1, S2 under f2, ...: the two it feeds). Each
  column fans on its own, so a long corner stone never pushes the side stacks down
  (three rows of stacks one above another made a picture twice as tall as wide).
  Pile numbers read in the order RULES.md gives them: C1 C2, S1 to S8, then C3 C4,
  whose labels always lie below the side stacks' (``stones_fitted``).

No card is ever hidden: a pile shows every card's index, whatever its length.
Each row of columns is as tall as its longest pile needs (``arrange``): a short
position gives a short picture, and a pile longer than any game usually builds
makes its row taller rather than folding its middle away. A Corner Stones picture
is kept between 9:16 and 2:1 (``ASPECT``) at every position: a stack too long for
that shape wraps into sub-columns (``stones_arranged``), and should that not do, the
picture is drawn on a wider felt (render/board.py), its cards the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from engine import RULES

from .cards import CARD_H, CARD_W, least_strip, strip

MARGIN = 12
GAP = 7  # between neighbouring columns of cards
LABEL_H = 30  # pile numbers above the columns
ROW_GAP = 8  # between the two rows of columns
ROW_LEAD = 10  # above a row of columns: room for the rule under the top band
BANNER_H = 30  # won / stuck / no win / resigned, under the title
ROOM_CARDS = 15  # cards a column shows at ease before it grows (the longest pile Clover
# Leaf, Trefoil and Super Flower Garden can build: 3 dealt, 12 built on them); Four Leaf
# Clovers and Corner Stones can build longer ones, which make their row taller
CORNER_GAP = 8  # Corner Stones: between the corner stones' columns and the rest
STONES_GAP = 6  # Corner Stones: between side stacks (ten columns: every pixel counts)
STONES_SUIT_GAP = 4  # Corner Stones: and a little more between the suits' pairs
STONES_TITLE_H = 88  # Corner Stones: the title above the foundations (name, two lines)
FOUNDATION_H = 116  # Corner Stones' foundations: label, card, progress
ASPECT = (9 / 16, 2.0)  # Corner Stones: the narrowest and the widest picture, width/height
FOUNDATION_W = 50  # a foundation's column in the top band: label, card, progress
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
    """Where each card of a pile of ``count`` is drawn, from the top of its ``area``; an
    area wider than a card holds sub-columns (Corner Stones' longest stacks), filled
    in turn from the left, the cards shared out evenly."""
    columns = (area.w + STONES_GAP) // (CARD_W + STONES_GAP)
    return _fan(area.x, area.y, count, at_ease, max(1, columns))


@lru_cache(maxsize=4096)  # a pile's fan by its place and length: few, and met again often
def _fan(x: int, y: int, count: int, at_ease: bool, columns: int = 1) -> Fan:
    per = -(-count // columns)
    step = fan_step(per, at_ease)
    return Fan(tuple([(i, x + i // per * (CARD_W + STONES_GAP), y + int(i % per * step))
                      for i in range(count)]))


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


def _stones_columns(wide: Sequence[int]) -> tuple[int, ...]:
    """The x of Corner Stones' ten columns, each ``wide[col]`` sub-columns wide: C1 and
    C3 in column 0, the side stacks in 1 to 8 (a little more room between the suits'
    pairs), C2 and C4 in column 9."""
    xs = []
    x = MARGIN
    for col in range(10):
        xs.append(x)
        x += wide[col] * (CARD_W + STONES_GAP) - STONES_GAP
        if col in (0, 8):
            x += CORNER_GAP
        else:
            x += STONES_GAP + (STONES_SUIT_GAP if col % 2 == 0 else 0)
    return tuple(xs)


def _wide(wraps: Sequence[int], pile: int) -> int:
    """A stack's room across: ``wraps`` sub-columns of cards."""
    return wraps[pile] * (CARD_W + STONES_GAP) - STONES_GAP


def _corner_stones_layout(game_id: str) -> Layout:
    """Corner Stones at rest: every stack with room for ROOM_CARDS (``stones_fitted``)."""
    return stones_fitted(game_id, (ROOM_CARDS,) * 12, (1,) * 12, True)


# A stack wrapped into sub-columns keeps at least this many cards in each.
LEAST_PER_COLUMN = 8


def stones_arranged(game_id: str, counts: Sequence[int], banner: bool) -> Layout:
    """Corner Stones' layout for a position: as ``stones_fitted`` lays it out; while the
    picture is too tall for ASPECT, the longest stack is wrapped into one more
    sub-column (its cards run on at the top of the next), so that a long stack makes
    the picture wider, every card still in sight (a stack of 96 in four)."""
    wraps = [1] * len(counts)
    while True:
        lay = stones_fitted(game_id, counts, wraps, banner)
        if lay.width >= lay.height * ASPECT[0]:
            return lay
        longest = max(range(len(counts)), key=lambda p: (_per_column(counts, wraps, p), -p))
        if _per_column(counts, wraps, longest) <= LEAST_PER_COLUMN:
            return lay  # nothing left worth wrapping: the picture's felt makes up the rest
        wraps[longest] += 1


def _per_column(counts: Sequence[int], wraps: Sequence[int], pile: int) -> int:
    return -(-counts[pile] // wraps[pile])


def stones_fitted(
    game_id: str, counts: Sequence[int], wraps: Sequence[int], banner: bool
) -> Layout:
    """Corner Stones' layout for stacks of ``counts`` cards, each in ``wraps``
    sub-columns: C1 and C2 from the top of the outer columns; the title, the banner if
    ``banner``, the foundations and the side stacks down the middle (the side stacks'
    room is their longest's); C3 and C4 under C1 and C2, their labels lower than the
    side stacks' so that the numbers still read in order. Rows: C1, C2, the side
    stacks, C3, C4 (each column stretches on its own)."""
    rules = RULES[game_id]
    names = rules.pile_names or ()
    reach = [fan_reach(_per_column(counts, wraps, p), at_ease=False)
             for p in range(len(counts))]
    wide = [max(wraps[0], wraps[10]), *wraps[2:10], max(wraps[1], wraps[11])]
    xs = _stones_columns(wide)
    width = xs[9] + _wide(wide, 9) + MARGIN
    middle = xs[8] + _wide(wraps, 9) - xs[1]
    title = Box(xs[1], MARGIN, middle, STONES_TITLE_H)
    banner_box = Box(title.x, title.bottom + 4, middle, BANNER_H)
    found_y = (banner_box.bottom if banner else title.bottom) + 6
    foundations = tuple(
        FoundationSlot(
            f,
            Box(xs[f + 1], found_y + 24, CARD_W, CARD_H),
            Box(xs[f + 1] + 3, found_y, CARD_W - 6, 22),
            Box(xs[f + 1] - 3, found_y + 24 + CARD_H + 2, CARD_W + 6,
                FOUNDATION_H - 24 - CARD_H - 2),
        )
        for f in range(len(rules.foundations))
    )
    sides_y = found_y + FOUNDATION_H + ROW_LEAD
    sides_reach = max(reach[2:10])
    # C3, C4: under C1, C2, and in a row of their own, below the side stacks' labels.
    low_y = max(MARGIN + LABEL_H + max(reach[0], reach[1]) + ROW_GAP, sides_y + LABEL_H)
    places = [(0, MARGIN, 0, reach[0]), (9, MARGIN, 1, reach[1])]
    places += [(c, sides_y, 2, sides_reach) for c in range(1, 9)]
    places += [(0, low_y, 3, reach[10]), (9, low_y, 4, reach[11])]
    piles = []
    for index, (col, y, row, room) in enumerate(places):
        x = xs[col]
        piles.append(PileSlot(index, Box(x, y + LABEL_H, _wide(wraps, index), room),
                              Box(x, y, CARD_W, LABEL_H - 6), names[index], row))
    rows = (
        Box(xs[0], MARGIN, _wide(wraps, 0), LABEL_H + reach[0]),
        Box(xs[9], MARGIN, _wide(wraps, 1), LABEL_H + reach[1]),
        Box(xs[1], sides_y, middle, LABEL_H + sides_reach),
        Box(xs[0], low_y, _wide(wraps, 10), LABEL_H + reach[10]),
        Box(xs[9], low_y, _wide(wraps, 11), LABEL_H + reach[11]),
    )
    height = max(row.bottom for row in rows) + MARGIN
    return Layout(game_id, width, height, tuple(piles), foundations, title, banner_box, rows,
                  at_ease=False)


def aspect_canvas(width: int, height: int) -> tuple[int, int]:
    """The size of a picture that holds a ``width`` x ``height`` board within ASPECT:
    felt added at the sides (too tall) or below (too wide), never taken away."""
    narrowest, widest = ASPECT
    if width < height * narrowest:
        return -(-round(height * narrowest * 1000) // 1000), height
    if width > height * widest:
        return width, -(-width // int(widest))
    return width, height


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
    if RULES[game_id].layout == "rows":  # Corner Stones: each column on its own
        fitted = _stones_cached(game_id, tuple(counts), banner)
    else:
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


@lru_cache(maxsize=256)  # stack lengths by position: each entry holds a layout
def _stones_cached(game_id: str, counts: tuple[int, ...], banner: bool) -> Layout:
    return stones_arranged(game_id, counts, banner)


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

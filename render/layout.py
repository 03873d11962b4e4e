"""Where everything goes: each game's board as boxes, and how a pile fans.

Pictures are made for a phone, which shows them about 400 px wide: the fewer
columns side by side, the bigger every card. So the column games lay their
piles out in two rows under a top band (title, then foundations beside it), and
each row of columns is only as tall as its longest pile needs (``arrange``):
a short game gives a short picture, with no empty felt below the piles.
Corner Stones keeps the six rows RULES.md draws, at a fixed size.

A pile never wraps and never squeezes an index out of sight: once its room is
full, the middle of the pile gives way to an "N more" marker, and the cards
next to the top stay in view with the top card drawn whole and last.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache

from engine import RULES

from .cards import CARD_H, CARD_W, DOWN, RIGHT, least_strip, strip, widest_strip

MARGIN = 12
GAP = 7  # between neighbouring columns of cards
SPREAD = 6  # extra room per buried card while a Corner Stones stack is short
LABEL_H = 30  # pile numbers above the columns
ROW_GAP = 8  # between the two rows of columns
ROW_LEAD = 10  # above a row of columns: room for the rule under the top band
BANNER_H = 30  # won / stuck / no win, under the title
ROOM_CARDS = 15  # cards a column shows before its middle gives way (the longest pile
# Clover Leaf, Trefoil and Super Flower Garden can build: 3 dealt, 12 built on them)
FOUNDATION_W = 64  # a foundation's column in the top band: label, card, progress
WIDE_FOUNDATION_W = 150  # Four Leaf Clovers' one foundation, whose progress says more
TITLE_H = 124  # the top band: label, card and progress of a foundation
BADGE_W = 34  # Corner Stones' pile-number badges, left of each fan
CORNER_STONES_W = 792  # the least that shows every dealt stack of 8 without a marker
MORE_RIGHT_W = 36  # the "N more" marker in a fan to the right
MORE_DOWN_H = 36  # and in a column


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
    area: Box  # the fan's room; the bottom card sits at its top-left corner
    label: Box  # the number badge
    direction: str  # DOWN or RIGHT
    name: str | None = None  # Corner Stones' C1, S1...
    row: int = 0  # which row of columns (column games)


@dataclass(frozen=True)
class FoundationSlot:
    index: int  # 0-based; the label is f{index + 1}
    card: Box
    label: Box
    info: Box | None  # direction and progress; None where the label says the direction


@dataclass(frozen=True)
class Layout:
    game_id: str
    width: int
    height: int
    piles: tuple[PileSlot, ...]
    foundations: tuple[FoundationSlot, ...]
    title: Box  # game name, deal, moves, last move
    banner: Box  # won, stuck, no win possible
    board: Box  # the piles' region, where a win is announced
    rows: tuple[Box, ...] = ()  # column games: each row of columns, labels included


@dataclass(frozen=True)
class Fan:
    """How one pile is drawn: which of its cards, where, and what stands for the rest."""

    cards: tuple[tuple[int, int, int], ...]  # (place in the pile, x, y), bottom first, top last
    more: Box | None = None  # the "N more" marker, drawn after the first card
    hidden: int = 0  # cards the marker stands for

    @property
    def top(self) -> tuple[int, int] | None:
        """Where the top card (the one that moves) is drawn."""
        return (self.cards[-1][1], self.cards[-1][2]) if self.cards else None

    def reach(self, top: int) -> int:
        """How far below ``top`` (its area's top) the fan reaches: a card's height when empty."""
        return max((y for _, _, y in self.cards), default=top) + CARD_H - top


@cache
def tight_step() -> int:
    """The least downward step that still shows a buried card's whole index."""
    return least_strip(1, DOWN)


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
    room = CARD_H + (ROOM_CARDS - 1) * tight_step()
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
                index,
                Box(x, y + LABEL_H, CARD_W, room),
                Box(x + 4, y, CARD_W - 8, LABEL_H - 6),
                DOWN,
                row=row,
            ))
        y = rows[-1].bottom + ROW_GAP
    height = rows[-1].bottom + MARGIN
    board = Box(MARGIN, rows[0].y, width - 2 * MARGIN, rows[-1].bottom - rows[0].y)
    return Layout(game_id, width, height, tuple(piles), foundations, title, banner, board,
                  tuple(rows))


def _rows_layout(game_id: str) -> Layout:
    """Corner Stones: six rows; corner stones at the corners, side stacks beside the foundations."""
    rules = RULES[game_id]
    names = rules.pile_names or ()
    width = CORNER_STONES_W
    row_gap = 10
    title_gap = 14  # more room under the first row, for the title's lines
    height = MARGIN + 6 * CARD_H + 5 * row_gap + title_gap + MARGIN
    foundation_w = BADGE_W + 4 + CARD_W
    found_block = 2 * foundation_w + 12
    side_gap = 14
    side_w = (width - 2 * MARGIN - found_block - 2 * side_gap) // 2
    middle_x = MARGIN + side_w + side_gap

    def row_y(row: int) -> int:
        return MARGIN + row * (CARD_H + row_gap) + (title_gap if row else 0)

    def slot(index: int, row: int, right: bool) -> PileSlot:
        x = width - MARGIN - side_w if right else MARGIN
        return PileSlot(
            index,
            Box(x + BADGE_W + 4, row_y(row), side_w - BADGE_W - 4, CARD_H),
            Box(x, row_y(row), BADGE_W, CARD_H),
            RIGHT,
            names[index] if names else None,
        )

    # Reading order: C1 C2 / S1 S2 / ... / S7 S8 / C3 C4 are piles 1 to 12.
    rows = (0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5)
    piles = tuple(slot(i, rows[i], right=i % 2 == 1) for i in range(12))
    foundations = []
    for f in range(len(rules.foundations)):
        row = 1 + f // 2
        x = middle_x + (f % 2) * (foundation_w + 12)
        foundations.append(
            FoundationSlot(
                f,
                Box(x + BADGE_W + 4, row_y(row), CARD_W, CARD_H),
                Box(x, row_y(row), BADGE_W, CARD_H),
                None,  # the top card shows the progress, the label the direction
            )
        )
    middle = Box(middle_x - side_gap + 8, 0, found_block + 2 * side_gap - 16, 0)
    title = Box(middle.x, MARGIN, middle.w, row_y(1) - MARGIN - 2)
    banner = Box(middle.x, row_y(5), middle.w, CARD_H)  # room for two lines
    board = Box(MARGIN, MARGIN, width - 2 * MARGIN, height - 2 * MARGIN)
    return Layout(game_id, width, height, piles, tuple(foundations), title, banner, board)


@cache
def layout(game_id: str) -> Layout:
    """A game's layout at its tallest (an ``engine.GAMES`` id): every row of columns
    with room for its longest pile. ``arrange`` fits it to a position."""
    if game_id not in RULES:
        raise ValueError(f"Unknown game {game_id!r}")
    shape = RULES[game_id].layout
    if shape == "rows":
        return _rows_layout(game_id)
    if shape == "columns":
        return _columns_layout(game_id)
    raise ValueError(f"{game_id}: no layout called {shape!r}")


def arrange(
    game_id: str, piles: Sequence[Sequence[int]], *, banner: bool = True
) -> tuple[Layout, tuple[Fan, ...]]:
    """The layout for one position (``piles``: each pile's ranks, bottom first) and each
    pile's fan in it: every row of columns shrinks to its longest fan and the rows
    below move up, so the picture ends where the cards do. Without a ``banner`` to
    show, the rows also move up into its place."""
    full = layout(game_id)
    if not full.rows:
        return full, tuple(fan(slot, ranks) for slot, ranks in zip(full.piles, piles, strict=True))
    return _fitted_columns(game_id, tuple(len(ranks) for ranks in piles), banner)


@lru_cache(maxsize=64)  # recent positions: each entry holds a whole layout
def _fitted_columns(game_id: str, counts: tuple[int, ...], banner: bool
                    ) -> tuple[Layout, tuple[Fan, ...]]:
    """``arrange`` for the column games, where only the piles' lengths matter."""
    full = layout(game_id)
    fans = [_fan_down(slot.area, count) if count else Fan(())
            for slot, count in zip(full.piles, counts, strict=True)]
    shift = 0 if banner else full.title.bottom + ROW_LEAD - full.rows[0].y
    rows: list[Box] = []
    row_shift: list[int] = []
    for r, band in enumerate(full.rows):
        in_row = [i for i, slot in enumerate(full.piles) if slot.row == r]
        used = max(fans[i].reach(full.piles[i].area.y) for i in in_row)
        row_shift.append(shift)
        rows.append(Box(band.x, band.y + shift, band.w, LABEL_H + used))
        shift -= band.h - LABEL_H - used
    slots = tuple(
        replace(slot, area=Box(slot.area.x, rows[slot.row].y + LABEL_H, slot.area.w,
                               rows[slot.row].h - LABEL_H),
                label=slot.label.moved(row_shift[slot.row]))
        for slot in full.piles
    )
    moved = tuple(
        Fan(tuple((i, x, y + row_shift[slot.row]) for i, x, y in f.cards),
            None if f.more is None else f.more.moved(row_shift[slot.row]), f.hidden)
        for slot, f in zip(full.piles, fans, strict=True)
    )
    board = Box(full.board.x, rows[0].y, full.board.w, rows[-1].bottom - rows[0].y)
    fitted = replace(full, height=rows[-1].bottom + MARGIN, piles=slots, board=board,
                     rows=tuple(rows))
    return fitted, moved


def fan(slot: PileSlot, ranks: Sequence[int]) -> Fan:
    """Where each card of a pile is drawn inside its slot (the bottom card first).

    Every card drawn shows its whole index and the top card lies whole in the
    slot's area; a pile longer than the area holds shows its bottom card, an
    "N more" marker, and as many cards under the top as fit.
    """
    if not ranks:
        return Fan(())
    if slot.direction == DOWN:
        return _fan_down(slot.area, len(ranks))
    return _fan_right(slot.area, ranks)


def _fan_down(area: Box, count: int) -> Fan:
    room = area.h - CARD_H
    tight = tight_step()
    if count == 1 or (count - 1) * tight <= room:
        step = min(float(strip(1, DOWN)), room / max(count - 1, 1))
        return Fan(tuple((i, area.x, area.y + int(i * step)) for i in range(count)))
    shown = (room - MORE_DOWN_H) // tight  # buried cards that keep their strip
    hidden = count - 1 - shown
    cards = [(0, area.x, area.y)]
    more = Box(area.x, area.y + tight, CARD_W, MORE_DOWN_H)
    for j in range(shown):  # the bottom card, then the cards just under the top, then the top
        place = count - shown + j
        cards.append((place, area.x, more.bottom + j * tight))
    return Fan(tuple(cards), more, hidden)


def _fan_right(area: Box, ranks: Sequence[int]) -> Fan:
    count = len(ranks)
    natural = [float(strip(r, RIGHT)) for r in ranks[:-1]]
    least = [float(least_strip(r, RIGHT)) for r in ranks[:-1]]
    room = area.w - CARD_W
    if sum(natural) <= room:  # spread out a little while there is room
        extra = min(SPREAD, (room - sum(natural)) / max(count - 1, 1))
        widest = widest_strip()
        return _row(area, [w + min(extra, max(0, widest - w)) for w in natural])
    if sum(least) <= room:  # give up the spare pixels evenly
        t = (room - sum(least)) / (sum(natural) - sum(least))
        return _row(area, [lo + (hi - lo) * t for lo, hi in zip(least, natural, strict=True)])
    # The bottom card, the marker, then the cards under the top card, as many as fit.
    left = room - least[0] - MORE_RIGHT_W
    tail: list[int] = []
    for place in range(count - 2, 0, -1):
        if least[place] > left:
            break
        left -= least[place]
        tail.insert(0, place)
    x = area.x + int(least[0])
    more = Box(x, area.y, MORE_RIGHT_W, CARD_H)
    cards = [(0, area.x, area.y)]
    x = more.right
    for place in tail:
        cards.append((place, x, area.y))
        x += int(least[place])
    cards.append((count - 1, x, area.y))
    return Fan(tuple(cards), more, count - 2 - len(tail))


def _row(area: Box, widths: list[float]) -> Fan:
    cards = []
    x = float(area.x)
    for place in range(len(widths) + 1):
        cards.append((place, round(x), area.y))
        if place < len(widths):
            x += widths[place]
    return Fan(tuple(cards))

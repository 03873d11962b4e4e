"""Corner Stones, ten columns wide (as wide as a picture may be: WIDEST).

At rest and in most play: the corner stones in the outer columns, C1 over C3 on the
left and C2 over C4 on the right; between them the title, the eight foundations in a
row, a pair for each suit, and each side stack under a foundation of its pair (S1 under
f1, S2 under f2, ...: the two it feeds). Each column fans on its own, so a long corner
stone never pushes the side stacks down (three rows of stacks one above another made a
picture twice as tall as wide). Each stack and foundation lies in the column and row
the game gives it (``engine.PLACES``). Pile numbers read in the order RULES.md gives
them: C1 C2, S1 to S8, then C3 C4, whose labels always lie below the side stacks'
(``stones_fitted``).

A stack too long for that shape within ASPECT (a side stack of about 28 cards, or the
corner stones of a column 35 together) cannot wrap sideways: there is no eleventh
column. The stacks then run in reading order, C1 C2 S1 ... S8 C3 C4, in lines of ten
columns under the foundations, the longest wrapped into as many columns as it takes
(``stones_flowed``): the picture keeps its width and shape whatever the stacks hold.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from engine import PLACES, RULES

from .cards import CARD_H, CARD_W
from .geometry import (
    BANNER_H,
    LABEL_H,
    LEAST_PER_COLUMN,
    MARGIN,
    ROOM_CARDS,
    ROW_GAP,
    ROW_LEAD,
    Box,
    FoundationSlot,
    Layout,
    PileSlot,
    fan_reach,
    fits_aspect,
    per_column,
)

CORNER_GAP = 8  # between the corner stones' columns and the rest
STONES_GAP = 6  # between side stacks (ten columns: every pixel counts)
STONES_SUIT_GAP = 4  # and a little more between the suits' pairs
STONES_TITLE_H = 88  # the title above the foundations (name, two lines)
FOUNDATION_H = 116  # the foundations: label, card, progress
COLUMNS = PLACES["corner-stones"].columns  # 10


@cache
def column_xs() -> tuple[int, ...]:
    """The x of the ten columns: C1 and C3 in column 0, the side stacks in 1 to 8 (a
    little more room between the suits' pairs), C2 and C4 in column 9."""
    xs = []
    x = MARGIN
    for col in range(COLUMNS):
        xs.append(x)
        x += CARD_W + (CORNER_GAP if col in (0, COLUMNS - 2) else
                       STONES_GAP + (STONES_SUIT_GAP if col % 2 == 0 else 0))
    return tuple(xs)


@cache
def _pile_xs(game_id: str) -> tuple[int, ...]:
    """The x of each stack's column."""
    return tuple(column_xs()[place.column] for place in PLACES[game_id].piles)


def stones_width() -> int:
    return column_xs()[-1] + CARD_W + MARGIN


def _label(x: int, y: int, wide: int = CARD_W) -> Box:
    """A stack's label: a little wider than its card (or its ``wide`` sub-columns, when
    wrapped: they read as one stack), for its number and its name."""
    return Box(x - 2, y, wide + 4, LABEL_H - 6)


def _top(game_id: str, banner: bool) -> tuple[Box, Box, tuple[FoundationSlot, ...], int]:
    """The title, the banner, the foundations under them (over columns 1 to 8), and the
    y where the side stacks' labels start below them."""
    xs = column_xs()
    middle = xs[-2] + CARD_W - xs[1]
    title = Box(xs[1], MARGIN, middle, STONES_TITLE_H)
    banner_box = Box(title.x, title.bottom + 4, middle, BANNER_H)
    found_y = (banner_box.bottom if banner else title.bottom) + 6
    foundations = tuple(
        FoundationSlot(
            f,
            Box(xs[place.column], found_y + 24, CARD_W, CARD_H),
            Box(xs[place.column], found_y, CARD_W, 22),
            Box(xs[place.column] - 3, found_y + 24 + CARD_H + 2, CARD_W + 6,
                FOUNDATION_H - 24 - CARD_H - 2),
        )
        for f, place in enumerate(PLACES[game_id].foundations)
    )
    return title, banner_box, foundations, found_y + FOUNDATION_H + ROW_LEAD


def stones_fitted(game_id: str, counts: Sequence[int], banner: bool) -> Layout:
    """The corner stones' layout for stacks of ``counts`` cards: C1 and C2 from the top of
    the outer columns; the title, the banner if ``banner``, the foundations and the side
    stacks down the middle (the side stacks' room is their longest's); C3 and C4 under C1
    and C2, their labels lower than the side stacks' so that the numbers still read in
    order. Rows: C1, C2, the side stacks, C3, C4 (each column stretches on its own)."""
    names = RULES[game_id].pile_names or ()
    reach = [fan_reach(count, at_ease=False) for count in counts]
    xs, pile_xs = column_xs(), _pile_xs(game_id)
    title, banner_box, foundations, sides_y = _top(game_id, banner)
    top, sides, low = PLACES[game_id].piles_by_row  # C1 C2; S1-S8; C3 C4
    # C3, C4: under C1, C2, and in a row of their own, below the side stacks' labels.
    low_y = max(MARGIN + LABEL_H + max(reach[pile] for pile in top) + ROW_GAP,
                sides_y + LABEL_H)
    # Each row of the picture: a corner stone's column, or the side stacks together.
    stretches: list[tuple[tuple[int, ...], int, int, int]] = [
        ((pile,), MARGIN, pile_xs[pile], CARD_W) for pile in top]
    stretches.append((sides, sides_y, xs[1], title.w))
    stretches += [((pile,), low_y, pile_xs[pile], CARD_W) for pile in low]
    piles: list[PileSlot] = []  # row by row: in the piles' numbers (reading order)
    rows = []
    for row, (stretch, y, x, wide) in enumerate(stretches):
        room = max([reach[pile] for pile in stretch])
        rows.append(Box(x, y, wide, LABEL_H + room))
        piles += [PileSlot(pile, Box(pile_xs[pile], y + LABEL_H, CARD_W, room),
                           _label(pile_xs[pile], y), names[pile], row) for pile in stretch]
    height = max(row.bottom for row in rows) + MARGIN
    return Layout(game_id, stones_width(), height, tuple(piles), foundations, title,
                  banner_box, tuple(rows), at_ease=False, own_background=True)


def stones_flowed(
    game_id: str, counts: Sequence[int], wraps: Sequence[int], banner: bool
) -> Layout:
    """The stacks of ``counts`` cards in reading order, each ``wraps`` columns wide, in
    lines of ten columns under the title, the banner if ``banner``, and the foundations
    (where ``stones_fitted`` puts them). A stack that the line has no room left for starts
    the next; each line is as tall as its longest stack. Rows: the lines."""
    names = RULES[game_id].pile_names or ()
    xs = column_xs()
    title, banner_box, foundations, y = _top(game_id, banner)
    lines: list[list[int]] = [[]]
    for pile, wide in enumerate(wraps):
        if sum(wraps[p] for p in lines[-1]) + wide > COLUMNS:
            lines.append([])
        lines[-1].append(pile)
    piles: list[PileSlot] = []
    rows: list[Box] = []
    for row, line in enumerate(lines):
        height = LABEL_H + max(fan_reach(counts[p], False, wraps[p]) for p in line)
        rows.append(Box(xs[0], y, stones_width() - 2 * MARGIN, height))
        col = 0
        for pile in line:
            x, right = xs[col], xs[col + wraps[pile] - 1] + CARD_W
            piles.append(PileSlot(pile, Box(x, y + LABEL_H, right - x, height - LABEL_H),
                                  _label(x, y, right - x), names[pile], row, wraps[pile]))
            col += wraps[pile]
        y += height + ROW_GAP
    return Layout(game_id, stones_width(), rows[-1].bottom + MARGIN, tuple(piles), foundations,
                  title, banner_box, tuple(rows), at_ease=False, own_background=True)


def resting_layout(game_id: str) -> Layout:
    """Every stack with room for ROOM_CARDS, and the banner's band."""
    return stones_fitted(game_id, (ROOM_CARDS,) * 12, True)


@lru_cache(maxsize=256)  # stack lengths by position: each entry holds a layout
def stones_arranged(game_id: str, counts: tuple[int, ...], banner: bool) -> Layout:
    """``stones_fitted`` while it keeps within ASPECT; else the stacks in lines, while the
    picture is too tall the stack with the most cards in a column wrapped into one more
    (down to LEAST_PER_COLUMN a column), the first layout that fits (or the least tall)."""
    fitted = stones_fitted(game_id, counts, banner)
    if fits_aspect(fitted.width, fitted.height):
        return fitted
    wraps = [1] * len(counts)
    best = None
    while True:
        lay = stones_flowed(game_id, counts, wraps, banner)
        if fits_aspect(lay.width, lay.height):
            return lay
        if best is None or lay.height < best.height:
            best = lay
        wrappable = [p for p in range(len(counts))
                     if wraps[p] < COLUMNS and per_column(counts[p], wraps[p]) > LEAST_PER_COLUMN]
        if not wrappable:
            return best  # no position a player can reach comes here (tests/render)
        longest = max(wrappable, key=lambda p: (per_column(counts[p], wraps[p]), -p))
        wraps[longest] += 1

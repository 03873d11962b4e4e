"""Clover Leaf, Trefoil, Super Flower Garden, Four Leaf Clovers: two rows of columns
under a band with the title on the left and the foundations on the right, each pile and
foundation in the place the game gives it (``engine.PLACES``).

Each row is as tall as its longest pile needs. While the picture is taller than ASPECT
allows, its longest pile wraps into one more sub-column (its cards run on at the top of
the next, every card in sight), which makes its row wider: the piles after it in the row
move right, and the band's foundations with the picture's edge. A row holds at most
``most_columns`` columns of cards, which keeps the picture within WIDEST. Four Leaf
Clovers, seven columns a row, spreads them a little to make the picture NARROWEST wide.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from engine import PLACES, RULES

from .cards import CARD_H, CARD_W
from .geometry import (
    BANNER_H,
    GAP,
    LABEL_H,
    LEAST_PER_COLUMN,
    MARGIN,
    NARROWEST,
    ROOM_CARDS,
    ROW_GAP,
    ROW_LEAD,
    WIDEST,
    Box,
    FoundationSlot,
    Layout,
    PileSlot,
    fan_reach,
    fits_aspect,
    per_column,
    span,
)

FOUNDATION_W = 50  # a foundation's column in the top band: label, card, progress
WIDE_FOUNDATION_W = 150  # Four Leaf Clovers' one foundation, whose progress says more
TITLE_H = 124  # the top band: label, card and a line of progress under it


@cache
def rows_of(game_id: str) -> tuple[tuple[int, ...], ...]:
    """The piles of each row, left to right, as the game places them: the first half (the
    odd one out included), then the rest."""
    return PLACES[game_id].piles_by_row


@cache
def column_gap(game_id: str) -> int:
    """Between neighbouring columns: GAP, or more where that leaves the picture narrower
    than NARROWEST."""
    per_row = len(rows_of(game_id)[0])
    return max(GAP, -(-(NARROWEST - 2 * MARGIN - per_row * CARD_W) // (per_row - 1)))


@cache
def most_columns(game_id: str) -> int:
    """Columns of cards a row may hold, its wrapped piles' included, within WIDEST."""
    gap = column_gap(game_id)
    return (WIDEST - 2 * MARGIN + gap) // (CARD_W + gap)


def columns_layout(
    game_id: str, reach: Sequence[int], wraps: Sequence[int], banner: bool,
    at_ease: bool = True,
) -> Layout:
    """The layout for piles drawn ``reach`` tall (each row as tall as its longest), each in
    ``wraps`` sub-columns; the banner's band only if ``banner``."""
    rules = RULES[game_id]
    gap = column_gap(game_id)
    xs = [0] * rules.tableau_size
    widest = 0
    for row in rows_of(game_id):
        x = MARGIN
        for pile in row:
            xs[pile] = x
            x += span(wraps[pile], gap) + gap
        widest = max(widest, x - gap + MARGIN)
    width = max(NARROWEST, widest)
    rest_width = max(NARROWEST, 2 * MARGIN + span(len(rows_of(game_id)[0]), gap))
    places = PLACES[game_id]
    n_found = len(rules.foundations)
    # A wider picture widens Four Leaf Clovers' one foundation: its words grow with it.
    cell = FOUNDATION_W if n_found > 1 else WIDE_FOUNDATION_W + width - rest_width
    found_x = width - MARGIN - n_found * cell  # the band's last columns, a cell each
    card_y = MARGIN + 24
    cell_xs = [found_x + (place.column - places.columns + n_found) * cell
               for place in places.foundations]
    foundations = tuple(
        FoundationSlot(
            f,
            Box(x + (cell - CARD_W) // 2, card_y, CARD_W, CARD_H),
            Box(x + (cell - CARD_W) // 2, MARGIN, CARD_W, 22),
            Box(x, card_y + CARD_H + 2, cell, TITLE_H - 24 - CARD_H - 2),
        )
        for f, x in enumerate(cell_xs)
    )
    title = Box(MARGIN, MARGIN, found_x - MARGIN - 8, TITLE_H)
    banner_box = Box(MARGIN, title.bottom + 4, width - 2 * MARGIN, BANNER_H)
    y = (banner_box.bottom if banner else title.bottom) + ROW_LEAD
    rows: list[Box] = []
    piles: list[PileSlot] = []
    for r, row in enumerate(rows_of(game_id)):
        height = LABEL_H + max(reach[pile] for pile in row)
        rows.append(Box(MARGIN, y, width - 2 * MARGIN, height))
        for pile in row:
            x = xs[pile]
            wide = span(wraps[pile], gap)  # the label spans a wrapped pile's sub-columns
            piles.append(PileSlot(
                pile, Box(x, y + LABEL_H, wide, height - LABEL_H),
                Box(x + 4, y, wide - 8, LABEL_H - 6), row=r, columns=wraps[pile],
            ))
        y += height + ROW_GAP
    return Layout(game_id, width, rows[-1].bottom + MARGIN, tuple(piles), foundations,
                  title, banner_box, tuple(rows), at_ease,
                  own_background=any(w > 1 for w in wraps))


def resting_layout(game_id: str) -> Layout:
    """Every row with room for ROOM_CARDS, and the banner's band."""
    count = RULES[game_id].tableau_size
    return columns_layout(game_id, (fan_reach(ROOM_CARDS),) * count, (1,) * count, True)


def columns_arranged(game_id: str, counts: Sequence[int], banner: bool) -> Layout:
    """The layout for piles of ``counts`` cards: unwrapped while the picture keeps within
    ASPECT (positions whose rows' longest piles are as long share it, and its cache
    entry), else with its longest piles wrapped (``_wrapped``)."""
    longest = tuple(max(fan_reach(counts[pile]) for pile in row) for row in rows_of(game_id))
    plain = _plain(game_id, longest, banner)
    if fits_aspect(plain.width, plain.height):
        return plain
    return _wrapped(game_id, tuple(counts), banner)


@lru_cache(maxsize=256)  # a few hundred sets of row heights: each entry holds a layout
def _plain(game_id: str, longest: tuple[int, ...], banner: bool) -> Layout:
    reach = [0] * RULES[game_id].tableau_size
    for row, tallest in zip(rows_of(game_id), longest, strict=True):
        for pile in row:
            reach[pile] = tallest
    return columns_layout(game_id, reach, (1,) * len(reach), banner)


@lru_cache(maxsize=64)  # positions with piles too long to stand at ease: rare
def _wrapped(game_id: str, counts: tuple[int, ...], banner: bool) -> Layout:
    """Too tall at ease: the piles fanned tight; while the picture is still too tall for
    ASPECT, one pile wraps into one more sub-column (its row having room for it, down to
    LEAST_PER_COLUMN a sub-column): the one that leaves the picture least tall."""
    wraps = [1] * len(counts)
    most = most_columns(game_id)
    rows = rows_of(game_id)
    while True:
        reach = [fan_reach(count, False, wrap) for count, wrap in zip(counts, wraps, strict=True)]
        lay = columns_layout(game_id, reach, wraps, banner, at_ease=False)
        if fits_aspect(lay.width, lay.height):
            return lay
        wrappable = [pile for row in rows if sum(wraps[p] for p in row) < most for pile in row
                     if per_column(counts[pile], wraps[pile]) > LEAST_PER_COLUMN]
        if not wrappable:
            return lay  # no position a player can reach comes here (tests/render)

        wraps[min(wrappable, key=lambda p: (_rows_high(counts, wraps, reach, rows, p),
                                            -reach[p], p))] += 1


def _rows_high(
    counts: Sequence[int], wraps: Sequence[int], reach: Sequence[int],
    rows: Sequence[Sequence[int]], pile: int,
) -> int:
    """How tall the rows are drawn with ``pile`` wrapped into one more sub-column."""
    wider = fan_reach(counts[pile], False, wraps[pile] + 1)
    return sum(max(wider if p == pile else reach[p] for p in row) for row in rows)

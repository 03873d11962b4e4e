"""Where everything goes: each game's board as fixed boxes, and how a pile fans.

A game's layout never depends on the position, so the picture keeps one size
all game and its static parts (felt, outlines, labels) are drawn once. Piles
fan inside a fixed area: spread out while short, closer together as they grow,
and (in Corner Stones' rows) onto a second line before any card's index would
be covered.

Everything is drawn as small as the rules allow (card indices 15 px high):
a phone scales the picture to its width anyway, and fewer pixels encode faster.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from engine import RULES

from .cards import (
    CARD_H,
    CARD_W,
    DOWN,
    PAD,
    RANK_SIZE,
    RIGHT,
    least_strip,
    strip,
    suit_size,
    widest_strip,
)
from .glyphs import cap_height

MARGIN = 12
GAP = 7  # between neighbouring columns of cards
SPREAD = 6  # extra room per buried card while a pile is short
TOP_BAND = 132  # title block and foundations above the columns
LABEL_H = 30  # pile numbers above the columns
NOTE_LINE = 24  # one line of the rules under the board
FAN_CARDS = 15  # the longest pile Clover Leaf, Trefoil and Super Flower Garden can build
BADGE_W = 40  # Corner Stones' pile-number badges, left of each fan
FOUNDATION_W = 112  # a foundation's column in the top band: card, label and progress


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


@dataclass(frozen=True)
class PileSlot:
    index: int  # 0-based; the label is index + 1
    area: Box  # the fan's room; the bottom card sits at its top-left corner
    label: Box  # the number badge
    direction: str  # DOWN or RIGHT
    name: str | None = None  # Corner Stones' C1, S1...


@dataclass(frozen=True)
class FoundationSlot:
    index: int  # 0-based; the label is f{index + 1}
    card: Box
    label: Box
    info: Box  # suit, direction and progress


@dataclass(frozen=True)
class Layout:
    game_id: str
    width: int
    height: int
    piles: tuple[PileSlot, ...]
    foundations: tuple[FoundationSlot, ...]
    title: Box  # game name, deal, moves, last move, won/stuck
    notes: Box  # the rules in a few lines
    board: Box  # the piles' region, where a win is announced
    legend: Box | None = None  # Corner Stones: how to type a move, between the bottom corners


@cache
def tight_step() -> int:
    """The least downward step that still shows a buried card's whole index."""
    return least_strip(1, DOWN)


@cache
def line_step() -> int:
    """Vertical offset between wrapped lines of a RIGHT fan: the index (rank over suit) shows."""
    return PAD + cap_height(RANK_SIZE) + 1 + 5 + suit_size() + 4


def _column_slots(count: int, labels_y: int, fan_h: int) -> tuple[PileSlot, ...]:
    fan_y = labels_y + LABEL_H
    return tuple(
        PileSlot(
            i,
            Box(MARGIN + i * (CARD_W + GAP), fan_y, CARD_W, fan_h),
            Box(MARGIN + i * (CARD_W + GAP) + 4, labels_y, CARD_W - 8, LABEL_H - 6),
            DOWN,
        )
        for i in range(count)
    )


def _columns_layout(game_id: str) -> Layout:
    """Clover Leaf, Trefoil, Super Flower Garden: one row of columns under a top band."""
    rules = RULES[game_id]
    count = rules.tableau_size
    width = 2 * MARGIN + count * CARD_W + (count - 1) * GAP
    fan_h = CARD_H + (FAN_CARDS - 1) * tight_step()
    labels_y = MARGIN + TOP_BAND + 8
    notes_h = 3 * NOTE_LINE
    height = labels_y + LABEL_H + fan_h + 8 + notes_h + MARGIN
    piles = _column_slots(count, labels_y, fan_h)
    n_found = len(rules.foundations)
    left = width - MARGIN - n_found * FOUNDATION_W
    inset = (FOUNDATION_W - CARD_W) // 2
    foundations = tuple(
        FoundationSlot(
            f,
            Box(left + f * FOUNDATION_W + inset, MARGIN + 26, CARD_W, CARD_H),
            Box(left + f * FOUNDATION_W + inset, MARGIN, CARD_W, 22),
            Box(left + f * FOUNDATION_W, MARGIN + 26 + CARD_H + 2, FOUNDATION_W, 24),
        )
        for f in range(n_found)
    )
    title = Box(MARGIN, MARGIN, left - MARGIN - 12, TOP_BAND)
    notes = Box(MARGIN, height - MARGIN - notes_h, width - 2 * MARGIN, notes_h)
    board = Box(MARGIN, labels_y + LABEL_H, width - 2 * MARGIN, fan_h)
    return Layout(game_id, width, height, piles, foundations, title, notes, board)


def _panel_layout(game_id: str) -> Layout:
    """Four Leaf Clovers: 13 tall columns (piles grow long), title and foundation beside them."""
    rules = RULES[game_id]
    count = rules.tableau_size
    panel_w = 230
    columns_w = count * CARD_W + (count - 1) * GAP
    width = 2 * MARGIN + columns_w + 20 + panel_w
    height = 780
    fan_h = height - 2 * MARGIN - LABEL_H
    piles = _column_slots(count, MARGIN, fan_h)
    panel_x = width - MARGIN - panel_w
    title = Box(panel_x, MARGIN, panel_w, 140)
    found_y = title.bottom + 20
    card_x = panel_x + (panel_w - CARD_W) // 2
    foundations = (
        FoundationSlot(
            0,
            Box(card_x, found_y + 26, CARD_W, CARD_H),
            Box(card_x, found_y, CARD_W, 22),
            Box(panel_x, found_y + 26 + CARD_H + 2, panel_w, 24),
        ),
    )
    notes_y = foundations[0].info.bottom + 24
    notes = Box(panel_x, notes_y, panel_w, height - MARGIN - notes_y)
    board = Box(MARGIN, MARGIN + LABEL_H, columns_w, fan_h)
    return Layout(game_id, width, height, piles, foundations, title, notes, board)


def _rows_layout(game_id: str) -> Layout:
    """Corner Stones: six rows; corner stones at the corners, side stacks beside the foundations."""
    rules = RULES[game_id]
    names = rules.pile_names or ()
    width = 1160
    row_h = CARD_H + line_step()  # room for a second line of cards under the first
    row_gap = 8
    notes_h = 2 * NOTE_LINE
    rows_bottom = MARGIN + 6 * row_h + 5 * row_gap
    height = rows_bottom + 6 + notes_h + MARGIN
    foundation_w = BADGE_W + 5 + CARD_W
    found_block = 2 * foundation_w + 16
    side_gap = 18
    side_w = (width - 2 * MARGIN - found_block - 2 * side_gap) // 2
    middle_x = MARGIN + side_w + side_gap

    def row_y(row: int) -> int:
        return MARGIN + row * (row_h + row_gap)

    def slot(index: int, row: int, right: bool) -> PileSlot:
        x = width - MARGIN - side_w if right else MARGIN
        return PileSlot(
            index,
            Box(x + BADGE_W + 5, row_y(row), side_w - BADGE_W - 5, row_h),
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
        x = middle_x + (f % 2) * (foundation_w + 16)
        foundations.append(
            FoundationSlot(
                f,
                Box(x + BADGE_W + 5, row_y(row), CARD_W, CARD_H),
                Box(x, row_y(row), BADGE_W, CARD_H),
                Box(x - 4, row_y(row) + CARD_H + 2, foundation_w + 8, 24),
            )
        )
    middle = Box(middle_x - side_gap + 12, 0, found_block + 2 * side_gap - 24, row_h)
    title = Box(middle.x, row_y(0), middle.w, row_h)
    legend = Box(middle.x, row_y(5), middle.w, row_h)
    notes = Box(MARGIN, rows_bottom + 6, width - 2 * MARGIN, notes_h)
    board = Box(MARGIN, MARGIN, width - 2 * MARGIN, rows_bottom - MARGIN)
    return Layout(
        game_id, width, height, piles, tuple(foundations), title, notes, board, legend
    )


@cache
def layout(game_id: str) -> Layout:
    """The fixed layout of one game (an ``engine.GAMES`` id)."""
    if game_id not in RULES:
        raise ValueError(f"Unknown game {game_id!r}")
    shape = RULES[game_id].layout
    if shape == "rows":
        return _rows_layout(game_id)
    if shape == "panel":
        return _panel_layout(game_id)
    if shape == "columns":
        return _columns_layout(game_id)
    raise ValueError(f"{game_id}: no layout called {shape!r}")


def fan(slot: PileSlot, ranks: Sequence[int]) -> list[tuple[int, int]]:
    """Top-left corner of each card of a pile (bottom first) inside its slot.

    Every buried card keeps its whole index in view as long as the area allows;
    past that (a pile longer than play normally builds) the strips shrink evenly.
    """
    count = len(ranks)
    if count == 0:
        return []
    area = slot.area
    if slot.direction == DOWN:
        if count == 1:
            return [(area.x, area.y)]
        step = min(strip(1, DOWN) + SPREAD, (area.h - CARD_H) / (count - 1))
        return [(area.x, area.y + round(i * step)) for i in range(count)]
    return _fan_right(area, ranks)


def _fan_right(area: Box, ranks: Sequence[int]) -> list[tuple[int, int]]:
    """A fan to the right that wraps onto further lines, each line's indices showing."""
    natural = [float(strip(r, RIGHT)) for r in ranks]
    least = [float(least_strip(r, RIGHT)) for r in ranks]
    room = area.w - CARD_W
    max_lines = 1 + (area.h - CARD_H) // line_step()
    if sum(natural[:-1]) <= room:  # one line, spread out a little while there is room
        extra = min(SPREAD, (room - sum(natural[:-1])) / max(len(ranks) - 1, 1))
        widest = widest_strip()
        widths = [w + min(extra, max(0, widest - w)) for w in natural]
        return _place(area, [widths])
    for tenth in range(10, -1, -1):  # first give up the spare pixels, evenly
        t = tenth / 10
        widths = [lo + (hi - lo) * t for lo, hi in zip(least, natural, strict=True)]
        lines = _wrap(widths, room)
        if len(lines) <= max_lines:
            return _place(area, lines)
    scale = 1.0
    while True:  # then squeeze every strip alike: indices overlap, the order still reads
        scale *= 0.97
        lines = _wrap([w * scale for w in least], room)
        if len(lines) <= max_lines:
            return _place(area, lines)


def _wrap(widths: list[float], room: int) -> list[list[float]]:
    """Greedy line breaks: a card joins a line while the cards before it leave room for it."""
    lines: list[list[float]] = [[]]
    used = 0.0
    for w in widths:
        if lines[-1] and used > room:
            lines.append([])
            used = 0.0
        lines[-1].append(w)
        used += w
    return lines


def _place(area: Box, lines: list[list[float]]) -> list[tuple[int, int]]:
    positions = []
    for row, line in enumerate(lines):
        x = float(area.x)
        for w in line:
            positions.append((round(x), area.y + row * line_step()))
            x += w
    return positions

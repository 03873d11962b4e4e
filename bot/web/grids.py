"""Where the page puts each pile and foundation: the cells of a grid, as the game's table
has them (``engine.PLACES``, which the pictures draw too), and the arrangements the page may
fold that table into for a window wider than it is tall.

The page lays its table out in whichever arrangement gives the biggest cards in the window
it has: a phone held upright takes the game's own; a phone on its side, or a desktop
window, may take a folded one, where the band of foundations above the piles moves to their
right (Clover Leaf, Trefoil, Super Flower Garden, Four Leaf Clovers), or Corner Stones' lower
corner stones move out beside the upper ones, so that the table is two rows of cards high,
not three. A fold moves places, never the names the piles and foundations go by.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from engine import PLACES, RULES, Place


@dataclass(frozen=True)
class Cell:
    """A pile's or a foundation's cell on the page's grid (its JSON: ``vars``)."""

    kind: str  # "pile" or "foundation"
    index: int  # 0-based
    col: int  # 1-based grid column and row
    row: int
    rows: int = 1  # rows it spans

    @classmethod
    def at(cls, kind: str, index: int, place: Place) -> Cell:
        return cls(kind, index, place.column + 1, place.row + 1, place.rows)

    @property
    def last_row(self) -> int:
        return self.row + self.rows - 1


@dataclass(frozen=True)
class Grid:
    cols: int
    cells: tuple[Cell, ...]

    @property
    def rows(self) -> int:
        return max(c.last_row for c in self.cells)

    def json(self) -> dict[str, Any]:
        return {"cols": self.cols, "cells": [vars(c) for c in self.cells]}


def own(game_id: str) -> Grid:
    """The game's own arrangement: each place where ``engine.PLACES`` puts it."""
    places = PLACES[game_id]
    cells = [Cell.at("foundation", f, place) for f, place in enumerate(places.foundations)]
    cells += [Cell.at("pile", pile, place) for pile, place in enumerate(places.piles)]
    return Grid(places.columns, tuple(cells))


def foundations_beside(grid: Grid) -> Grid | None:
    """The band of foundations above the piles moved to their right, in as few columns as
    fit beside the rows of piles (left to right, then down); None where the top row holds
    anything but foundations."""
    band = [c for c in grid.cells if c.row == 1]
    piles = [c for c in grid.cells if c.row > 1]
    if not piles or any(c.kind != "foundation" or c.rows != 1 for c in band):
        return None
    rows = grid.rows - 1
    across = -(-len(band) // rows)  # ceiling
    moved = [replace(c, col=grid.cols + 1 + i % across, row=1 + i // across)
             for i, c in enumerate(sorted(band, key=lambda c: c.index))]
    return Grid(grid.cols + across, (*moved, *(replace(c, row=c.row - 1) for c in piles)))


def corners_beside(grid: Grid) -> Grid | None:
    """The last row's places in the outer columns moved out beside the places they lie
    under, each spanning the same rows (Corner Stones' C3 left of C1, C4 right of C2); None
    where the last row holds anything else, or a place not under one that spans rows."""
    last = grid.rows
    low = [c for c in grid.cells if c.row == last]
    if last < 2 or not low or any(c.col not in (1, grid.cols) or c.rows != 1 for c in low):
        return None
    above = {c.col: c for c in grid.cells if c.last_row == last - 1 and c.rows > 1}
    if any(c.col not in above for c in low):
        return None
    cells = [replace(c, col=c.col + 1) for c in grid.cells if c.row != last]
    for c in low:
        span = above[c.col]
        col = 1 if c.col == 1 else grid.cols + 2
        cells.append(replace(c, col=col, row=span.row, rows=span.rows))
    return Grid(grid.cols + 2, tuple(cells))


@cache
def grids(game_id: str) -> dict[str, Any]:
    """The game's arrangements for the page, its own first, and the cards dealt to each pile
    (the fans the page makes room for before play lengthens them)."""
    first = own(game_id)
    folded = [g for g in (foundations_beside(first), corners_beside(first)) if g is not None]
    return {"arrangements": [g.json() for g in (first, *folded)],
            "dealt": list(RULES[game_id].deal_sizes)}

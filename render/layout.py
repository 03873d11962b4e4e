"""Where everything goes: each game's board as boxes, fitted to a position.

Pictures are made for a phone, which shows them about 400 px wide (``PHONE``): the fewer
columns side by side, the bigger every card. So every game lays its piles out as
columns, each fanned downwards, at most ten side by side:

* Clover Leaf, Trefoil, Super Flower Garden, Four Leaf Clovers: two rows of columns
  under a top band (the title, the foundations beside it): render/columns.py;
* Corner Stones, ten columns wide: the corner stones in the outer columns, the
  foundations and the side stacks between them: render/stones.py.

Each pile and foundation lies in the column and row the game gives it (``engine.PLACES``),
which the web page's grid is made from too: the picture only says how many pixels each
column and row takes, until a pile grows too long for the shape (below).

No card is ever hidden: a pile shows every card's index, whatever its length. Each row
of columns is as tall as its longest pile needs (``arrange``): a short position gives a
short picture. At every position a player can reach, the picture is between NARROWEST
and WIDEST wide and between 9:16 and 2:1 (``ASPECT``): a pile too long for that shape
wraps into sub-columns, every card still in sight (each game's module says how).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from engine import RULES, Arrangement

from .columns import columns_arranged
from .columns import resting_layout as resting_columns
from .geometry import (
    ASPECT,
    MARGIN,
    NARROWEST,
    PHONE,
    ROOM_CARDS,
    ROW_LEAD,
    WIDEST,
    Box,
    Fan,
    FoundationSlot,
    Layout,
    PileSlot,
    aspect_canvas,
    fan,
    tight_step,
)
from .stones import resting_layout as resting_stones
from .stones import stones_arranged

__all__ = [  # the shapes are render.geometry's, and told from here as a layout's parts
    "ASPECT", "MARGIN", "NARROWEST", "PHONE", "ROOM_CARDS", "ROW_LEAD", "WIDEST", "Box", "Fan",
    "FoundationSlot", "Layout", "PileSlot", "arrange", "aspect_canvas", "banner_has_a_band",
    "layout", "tight_step",
]


@cache
def layout(game_id: str) -> Layout:
    """A game's layout at rest (an ``engine.GAMES`` id): every row of columns with room
    for ``ROOM_CARDS``. ``arrange`` fits it to a position."""
    if game_id not in RULES:
        raise ValueError(f"Unknown game {game_id!r}")
    if RULES[game_id].layout is Arrangement.ROWS:
        return resting_stones(game_id)
    return resting_columns(game_id)


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
    counts = tuple(len(pile) for pile in piles)
    if RULES[game_id].layout is Arrangement.ROWS:  # Corner Stones: each column on its own
        fitted = stones_arranged(game_id, counts, banner)
    else:
        fitted = columns_arranged(game_id, counts, banner)
    at_ease = fitted.at_ease
    return fitted, tuple(fan(slot, count, at_ease)
                         for slot, count in zip(fitted.piles, counts, strict=True))

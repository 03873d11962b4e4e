"""Where each game's piles and foundations lie on its table: each has a place on a grid
of columns and rows, and the piles read left to right, then down, in the order RULES.md
numbers them.

This is the game's own arrangement, not a drawing of it: the rules speak of it (a Corner
Stones side stack feeds the foundations it lies under). The picture (``render``) gives
each column and row its pixels and lets each row grow with its piles; the web page
(``bot.web``) puts each pile and foundation in its cell of a grid. Both are made from
``PLACES``, so the two never disagree.

* Clover Leaf, Trefoil, Super Flower Garden, Four Leaf Clovers: the piles in two rows of
  columns, the first holding the odd one out, under a band with the foundations at its
  right end (the title takes the left).
* Corner Stones, ten columns: the corner stones in the outer columns, C1 and C2 from the
  top down beside the foundations and the side stacks, C3 and C4 under them; between
  them the eight foundations in a row and each side stack under one of its pair (S1
  under f1).

>>> PLACES["corner-stones"].piles[2]  # S1: under f1, right of C1
Place(column=1, row=1, rows=1)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .rules import RULES, Arrangement, Rules


@dataclass(frozen=True)
class Place:
    """A pile's or a foundation's place: its column and row, 0-based from the top left,
    and how many rows it spans downwards."""

    column: int
    row: int
    rows: int = 1


@dataclass(frozen=True)
class Places:
    """A game's table, ``columns`` wide: the place of each pile and of each foundation, by
    their 0-based index."""

    columns: int
    piles: tuple[Place, ...]
    foundations: tuple[Place, ...]

    @cached_property
    def piles_by_row(self) -> tuple[tuple[int, ...], ...]:
        """The piles of each row that has any, top first, each row's left to right."""
        rows: dict[int, list[int]] = {}
        for pile in sorted(range(len(self.piles)),
                           key=lambda p: (self.piles[p].row, self.piles[p].column)):
            rows.setdefault(self.piles[pile].row, []).append(pile)
        return tuple(tuple(row) for row in rows.values())


def _in_columns(rules: Rules) -> Places:
    """Two rows of columns under the foundations' band, the first with the odd one out;
    the foundations at the band's right end."""
    count, found = rules.tableau_size, len(rules.foundations)
    columns = (count + 1) // 2
    return Places(columns,
                  tuple(Place(pile % columns, 1 + pile // columns) for pile in range(count)),
                  tuple(Place(columns - found + f, 0) for f in range(found)))


def _corner_stones(rules: Rules) -> Places:
    """A column of its own at each side for the corner stones, C1 and C2 spanning the
    foundations' row and the side stacks', C3 and C4 under them; the foundations between,
    each side stack under one."""
    found = len(rules.foundations)
    columns, last = found + 2, found + 1
    piles = (Place(0, 0, rows=2), Place(last, 0, rows=2),
             *(Place(1 + side, 1) for side in range(found)),
             Place(0, 2), Place(last, 2))
    assert len(piles) == rules.tableau_size, "four corner stones, a side stack a foundation"
    return Places(columns, piles, tuple(Place(1 + f, 0) for f in range(found)))


def _places(rules: Rules) -> Places:
    if rules.layout is Arrangement.ROWS:
        return _corner_stones(rules)
    return _in_columns(rules)


PLACES: dict[str, Places] = {game_id: _places(rules) for game_id, rules in RULES.items()}

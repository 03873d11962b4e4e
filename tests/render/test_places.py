"""The picture puts each pile and foundation where the game places it (``engine.PLACES``):
the page's grid is made from the same places (tests/web/test_grid.py holds it to the
picture with ``assert_drawn_in_place``), so picture and page show one table.

A pile too long for the picture's shape wraps into sub-columns (Corner Stones' stacks run
in lines then): those positions leave their places on purpose (tests/render/test_promises.py
holds them to their shape); every other one keeps them."""

from __future__ import annotations

import pytest

from engine import GAMES, PLACES, Game, Place, Places, new_game
from render.geometry import Box, FoundationSlot, Layout, PileSlot
from render.layout import arrange, layout

from . import positions


def _room(slot: PileSlot | FoundationSlot) -> tuple[int, int, int, int]:
    """What a pile or foundation takes in the picture: left, top, right, bottom (its label,
    its cards and, for a foundation, its progress)."""
    boxes: tuple[Box, ...] = ((slot.label, slot.area) if isinstance(slot, PileSlot)
                              else (slot.label, slot.card, slot.info))
    return (min(b.x for b in boxes), min(b.y for b in boxes),
            max(b.right for b in boxes), max(b.bottom for b in boxes))


def assert_drawn_in_place(lay: Layout, places: Places) -> None:
    """Each pair of piles and foundations lies in the picture as their places lie:
    side by side in a row, left to right in column order, apart; one above the other
    (rows that do not overlap), the upper one's label higher, and wholly above in the
    same column; in the same column, over one another (piles exactly: the same x); in
    the same rows, their labels level."""
    assert len(lay.piles) == len(places.piles)
    assert len(lay.foundations) == len(places.foundations)
    things: list[tuple[str, Place, PileSlot | FoundationSlot]] = [
        *((f"pile {s.index + 1}", places.piles[s.index], s) for s in lay.piles),
        *((f"f{s.index + 1}", places.foundations[s.index], s) for s in lay.foundations),
    ]
    for name_a, a, slot_a in things:
        left_a, _, right_a, bottom_a = _room(slot_a)
        for name_b, b, slot_b in things:
            if slot_a is slot_b:
                continue
            left_b, top_b, right_b, _ = _room(slot_b)
            pair = f"{name_a} at {a}, {name_b} at {b}"
            rows_meet = a.row < b.row + b.rows and b.row < a.row + a.rows
            if rows_meet and a.column < b.column:
                assert right_a <= left_b, pair
            if a.row + a.rows <= b.row:
                assert slot_a.label.y < slot_b.label.y, pair
                if a.column == b.column:
                    assert bottom_a <= top_b, pair
            if a.column == b.column:
                assert left_a < right_b and left_b < right_a, pair
                if isinstance(slot_a, PileSlot) and isinstance(slot_b, PileSlot):
                    assert slot_a.area.x == slot_b.area.x, pair
            if (a.row, a.rows) == (b.row, b.rows):
                assert slot_a.label.y == slot_b.label.y, pair


def _played(game_id: str, deal: int) -> list[Game]:
    """The deal, and where some play takes it (random moves, short of a stuck end)."""
    game = new_game(game_id, deal)
    return [game, positions.mid_game(game_id, moves=40, seed=deal)]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_resting_picture_puts_everything_in_its_place(game_id: str) -> None:
    assert_drawn_in_place(layout(game_id), PLACES[game_id])


@pytest.mark.parametrize("banner", [True, False])
@pytest.mark.parametrize("game_id", GAMES)
def test_every_deal_and_its_play_keep_their_places(game_id: str, banner: bool) -> None:
    for deal in (1, 2, 3):
        for game in _played(game_id, deal):
            lay, _ = arrange(game_id, game.tableau, banner=banner)
            assert all(slot.columns == 1 for slot in lay.piles), "no pile wrapped here"
            assert_drawn_in_place(lay, PLACES[game_id])


@pytest.mark.parametrize("game_id", GAMES)
def test_a_long_pile_that_still_fits_keeps_the_places(game_id: str) -> None:
    """A row grows with its longest pile and moves the rows under it; the places hold."""
    game = positions.long_piles(game_id, [0, 14, 0, 3, 0, 10])
    lay, _ = arrange(game_id, game.tableau)
    assert max(lay.rows, key=lambda row: row.h).h > min(row.h for row in lay.rows)
    assert_drawn_in_place(lay, PLACES[game_id])

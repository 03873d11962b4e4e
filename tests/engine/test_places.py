"""Each game's places (``engine.PLACES``): one for each pile and foundation, none shared,
the piles numbered in reading order, and Corner Stones' as its rules tell them."""

from __future__ import annotations

import pytest

from engine import GAMES, PLACES, RULES


@pytest.mark.parametrize("game_id", GAMES)
def test_every_pile_and_foundation_has_a_square_of_its_own(game_id: str) -> None:
    places, rules = PLACES[game_id], RULES[game_id]
    assert len(places.piles) == rules.tableau_size
    assert len(places.foundations) == len(rules.foundations)
    squares = [(place.column, row) for place in places.piles + places.foundations
               for row in range(place.row, place.row + place.rows)]
    assert len(squares) == len(set(squares))
    assert all(0 <= column < places.columns for column, _ in squares)


@pytest.mark.parametrize("game_id", GAMES)
def test_piles_read_left_to_right_then_down_in_their_numbers(game_id: str) -> None:
    places = PLACES[game_id]
    assert [p for row in places.piles_by_row for p in row] == list(range(len(places.piles)))


@pytest.mark.parametrize("game_id", GAMES)
def test_the_foundations_lie_in_one_row_with_every_pile_reaching_below_it(game_id: str) -> None:
    """Corner Stones' C1 and C2 start beside the foundations and run on down."""
    places = PLACES[game_id]
    (row,) = {place.row for place in places.foundations}
    assert all(place.row + place.rows - 1 > row for place in places.piles)


def test_each_side_stack_lies_under_a_foundation_it_feeds_and_the_corner_stones_at_the_sides(
) -> None:
    """RULES.md: "the corner stones C1, C2, C3, C4 in the outer columns, and the side
    stacks S1-S8, one under each foundation"; "a side stack feeds only the pair of
    foundations it lies under"."""
    places, rules = PLACES["corner-stones"], RULES["corner-stones"]
    assert rules.feeds is not None
    for pile, place in enumerate(places.piles):
        if pile in rules.refillable:  # a corner stone
            assert place.column in (0, places.columns - 1), rules.pile_name(pile)
        else:
            (above,) = [f for f, at in enumerate(places.foundations)
                        if at.column == place.column and at.row + at.rows == place.row]
            assert above in rules.feeds[pile], rules.pile_name(pile)

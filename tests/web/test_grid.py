"""The page's grid is the game's places (``engine.PLACES``), which the picture is drawn
from too: the page shows each pile and foundation where the picture does."""

from __future__ import annotations

import pytest

from bot.web.view import grid
from engine import GAMES, PLACES, Place, Places, new_game
from render.layout import arrange, layout
from tests.render.test_places import assert_drawn_in_place


def _as_places(page: dict[str, object]) -> Places:
    """The page's grid JSON read back as places (its columns and rows are 1-based)."""
    cells = page["cells"]
    assert isinstance(cells, list) and isinstance(page["cols"], int)
    assert all(set(cell) == {"kind", "index", "col", "row", "rows"} for cell in cells)

    def of(kind: str) -> tuple[Place, ...]:
        mine = sorted((c for c in cells if c["kind"] == kind), key=lambda c: c["index"])
        assert [c["index"] for c in mine] == list(range(len(mine))), kind
        return tuple(Place(c["col"] - 1, c["row"] - 1, c["rows"]) for c in mine)

    assert {c["kind"] for c in cells} == {"pile", "foundation"}
    return Places(page["cols"], of("pile"), of("foundation"))


@pytest.mark.parametrize("game_id", GAMES)
def test_the_page_puts_each_pile_and_foundation_where_the_game_places_it(game_id: str) -> None:
    assert _as_places(grid(game_id)) == PLACES[game_id]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_page_and_the_picture_show_one_table(game_id: str) -> None:
    """The page's cells lie as the picture draws the piles and foundations: at rest, and
    at each of the first three deals."""
    page = _as_places(grid(game_id))
    assert_drawn_in_place(layout(game_id), page)
    for deal in (1, 2, 3):
        assert_drawn_in_place(arrange(game_id, new_game(game_id, deal).tableau)[0], page)


@pytest.mark.parametrize("game_id", GAMES)
def test_no_two_cells_of_the_page_share_a_square(game_id: str) -> None:
    page = grid(game_id)
    taken: dict[tuple[int, int], str] = {}
    for cell in page["cells"]:
        assert 1 <= cell["col"] <= page["cols"], cell
        for row in range(cell["row"], cell["row"] + cell["rows"]):
            here = f"{cell['kind']} {cell['index']}"
            assert taken.setdefault((cell["col"], row), here) == here, (cell, taken)

"""The page's grid is the game's places (``engine.PLACES``), which the picture is drawn
from too: the page shows each pile and foundation where the picture does. The arrangements
it may fold the table into for a wide window hold the same piles and foundations, each in
a square of its own, in fewer rows."""

from __future__ import annotations

import pytest

from bot.web.grids import grids
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


def grid(game_id: str) -> dict[str, object]:
    """The game's own arrangement, the first the page is sent."""
    own: dict[str, object] = grids(game_id)["arrangements"][0]
    return own


@pytest.mark.parametrize("game_id", GAMES)
def test_the_page_puts_each_pile_and_foundation_where_the_game_places_it(game_id: str) -> None:
    assert _as_places(grid(game_id)) == PLACES[game_id]


@pytest.mark.parametrize("game_id", GAMES)
def test_each_game_has_one_folded_arrangement_for_a_wide_window_in_fewer_rows(
    game_id: str
) -> None:
    """Every game here is three rows high in its own arrangement; its folded one is two
    (the foundations beside the piles, or Corner Stones' lower corners beside the upper),
    with every pile and foundation once, and the cards dealt to each pile sent beside."""
    sent = grids(game_id)
    own, *folded = sent["arrangements"]
    assert len(folded) == 1
    rows = [max(c["row"] + c["rows"] - 1 for c in g["cells"]) for g in (own, folded[0])]
    assert rows == [3, 2]
    assert _as_places(folded[0]).piles != PLACES[game_id].piles or \
        _as_places(folded[0]).foundations != PLACES[game_id].foundations
    assert sorted((c["kind"], c["index"]) for c in folded[0]["cells"]) == \
        sorted((c["kind"], c["index"]) for c in own["cells"])
    assert sent["dealt"] == [len(p) for p in new_game(game_id, 1).tableau]


def test_corner_stones_folds_its_lower_corners_beside_the_upper_ones() -> None:
    folded = grids("corner-stones")["arrangements"][1]
    at = {(c["kind"], c["index"]): (c["col"], c["row"], c["rows"]) for c in folded["cells"]}
    assert folded["cols"] == 12
    assert at[("pile", 10)] == (1, 1, 2) and at[("pile", 0)] == (2, 1, 2)  # C3, C1
    assert at[("pile", 1)] == (11, 1, 2) and at[("pile", 11)] == (12, 1, 2)  # C2, C4
    assert at[("pile", 2)] == (3, 2, 1) and at[("foundation", 0)] == (3, 1, 1)  # S1 under f1


@pytest.mark.parametrize("game_id", GAMES)
def test_the_page_and_the_picture_show_one_table(game_id: str) -> None:
    """The page's cells lie as the picture draws the piles and foundations: at rest, and
    at each of the first three deals."""
    page = _as_places(grid(game_id))
    assert_drawn_in_place(layout(game_id), page)
    for deal in (1, 2, 3):
        assert_drawn_in_place(arrange(game_id, new_game(game_id, deal).tableau)[0], page)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("which", [0, 1])
def test_no_two_cells_of_the_page_share_a_square(game_id: str, which: int) -> None:
    page = grids(game_id)["arrangements"][which]
    taken: dict[tuple[int, int], str] = {}
    for cell in page["cells"]:
        assert 1 <= cell["col"] <= page["cols"], cell
        for row in range(cell["row"], cell["row"] + cell["rows"]):
            here = f"{cell['kind']} {cell['index']}"
            assert taken.setdefault((cell["col"], row), here) == here, (cell, taken)

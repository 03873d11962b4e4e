"""Layouts as RULES.md draws them, and fans that keep every card's index in view."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image

from engine import GAMES, RULES, parse_card
from render import layout
from render.cards import CARD_H, CARD_W, DOWN, PAD, RANK_SIZE, RIGHT, card_rgb, least_strip
from render.glyphs import cap_height
from render.layout import Box, PileSlot, fan, line_step, tight_step


def overlaps(a: Box, b: Box) -> bool:
    return a.x < b.right and b.x < a.right and a.y < b.bottom and b.y < a.bottom


def inside(inner: Box, outer: Box) -> bool:
    return (outer.x <= inner.x and outer.y <= inner.y
            and inner.right <= outer.right and inner.bottom <= outer.bottom)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_pile_and_foundation_has_its_own_room(game_id: str) -> None:
    lay = layout(game_id)
    rules = RULES[game_id]
    assert [s.index for s in lay.piles] == list(range(rules.tableau_size))
    assert [f.index for f in lay.foundations] == list(range(len(rules.foundations)))
    canvas = Box(0, 0, lay.width, lay.height)
    boxes = [lay.title, lay.notes]
    boxes += [b for s in lay.piles for b in (s.area, s.label)]
    boxes += [b for f in lay.foundations for b in (f.card, f.label, f.info)]
    if lay.legend is not None:
        boxes.append(lay.legend)
    for box in boxes:
        assert inside(box, canvas), box
    for a, b in itertools.combinations(boxes, 2):
        assert not overlaps(a, b), (a, b)


def reading_order(slots: list[Box]) -> list[int]:
    """Indices sorted top row first, left to right (boxes in a row share their top)."""
    return sorted(range(len(slots)), key=lambda i: (slots[i].y, slots[i].x))


@pytest.mark.parametrize("game_id", GAMES)
def test_piles_are_numbered_in_reading_order(game_id: str) -> None:
    lay = layout(game_id)
    assert reading_order([s.label for s in lay.piles]) == list(range(len(lay.piles)))
    assert reading_order([f.card for f in lay.foundations]) == list(range(len(lay.foundations)))


def test_corner_stones_has_six_rows_with_corners_at_the_corners() -> None:
    lay = layout("corner-stones")
    by_name = {s.name: s for s in lay.piles}
    assert list(by_name) == list(RULES["corner-stones"].pile_names or ())
    rows = sorted({s.area.y for s in lay.piles})
    assert len(rows) == 6
    left, right = min(s.label.x for s in lay.piles), max(s.label.x for s in lay.piles)
    for name, row, x in (("C1", 0, left), ("C2", 0, right), ("C3", 5, left), ("C4", 5, right)):
        assert (by_name[name].area.y, by_name[name].label.x) == (rows[row], x)
    for r in range(1, 5):  # S(2r-1) | f(2r-1) f(2r) | S(2r): a row's side stacks flank its foundations
        west, east = by_name[f"S{2 * r - 1}"], by_name[f"S{2 * r}"]
        ace, king = lay.foundations[2 * r - 2], lay.foundations[2 * r - 1]
        assert west.area.y == east.area.y == ace.card.y == king.card.y == rows[r]
        assert west.area.right < ace.label.x < king.label.x < east.label.x


def test_card_index_is_at_least_14_pixels_high() -> None:
    """Measured on the drawn card: the rank's ink, not the font's nominal size."""
    assert cap_height(RANK_SIZE) >= 14
    for code in ("AS", "10H", "QD"):
        for style in (DOWN, RIGHT):
            face = card_rgb(int(parse_card(code)), style, False)
            index = face.crop((0, 0, CARD_W // 2 + 4, PAD + cap_height(RANK_SIZE) + 4))
            ink = Image.eval(index.convert("L"), lambda v: 255 if v < 160 else 0).getbbox()
            assert ink is not None
            assert ink[3] - ink[1] >= 14, (code, style, ink)


def assert_readable(slot: PileSlot, ranks: list[int]) -> None:
    """Each buried card shows its whole index; the top card lies whole inside the pile's room."""
    spots = fan(slot, ranks)
    assert len(spots) == len(ranks)
    x, y = spots[-1]
    assert inside(Box(x, y, CARD_W, CARD_H), slot.area)
    for (ax, ay), (bx, by), rank in zip(spots, spots[1:], ranks, strict=False):
        if slot.direction == DOWN:
            assert ax == bx and by - ay >= tight_step()
        elif ay == by:
            assert bx - ax >= least_strip(rank, RIGHT)
        else:  # the next line starts under this one, below its indices
            assert by - ay >= line_step() and bx == slot.area.x


@pytest.mark.parametrize("game_id", ["clover-leaf", "trefoil", "super-flower-garden"])
def test_longest_possible_column_stays_readable(game_id: str) -> None:
    """3 dealt cards and 12 built on them: the longest pile these games allow."""
    for slot in layout(game_id).piles:
        assert_readable(slot, [10] * 15)


def test_four_leaf_clovers_columns_read_up_to_thirty_cards() -> None:
    slot = layout("four-leaf-clovers").piles[0]
    for length in (1, 4, 12, 20, 30):
        assert_readable(slot, [10] * length)


def test_corner_stones_stacks_wrap_onto_a_second_line_and_stay_readable() -> None:
    slot = layout("corner-stones").piles[2]
    ranks = [(i % 13) + 1 for i in range(32)]
    spots = fan(slot, ranks)
    assert len({y for _, y in spots}) == 2
    assert_readable(slot, ranks)
    for length in (1, 8, 15, 24):
        assert_readable(slot, [10] * length)  # "10", the widest index


def test_an_absurdly_long_pile_still_fits_its_room() -> None:
    """Beyond what can stay readable, strips shrink; nothing spills over a neighbour."""
    for game_id, count in (("corner-stones", 96), ("four-leaf-clovers", 52)):
        for slot in layout(game_id).piles:
            spots = fan(slot, [(i % 13) + 1 for i in range(count)])
            for x, y in spots:
                assert inside(Box(x, y, CARD_W, CARD_H), slot.area)

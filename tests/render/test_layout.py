"""Layouts as RULES.md draws them, and fans that keep every card's index in view
and the top card whole."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from engine import GAMES, RULES, new_game, parse_card
from render import layout
from render.cards import CARD_H, CARD_W, DOWN, PAD, RANK_SIZE, RIGHT, card_rgb, least_strip
from render.glyphs import cap_height
from render.layout import Box, Fan, PileSlot, arrange, fan, tight_step


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
    boxes = [lay.title, lay.banner]
    boxes += [b for s in lay.piles for b in (s.area, s.label)]
    boxes += [b for f in lay.foundations for b in (f.card, f.label, f.info) if b is not None]
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


def assert_readable(slot: PileSlot, ranks: list[int]) -> Fan:
    """Each card drawn shows its whole index, the cards drawn and the ones the marker stands
    for add up, and the top card is drawn last, whole, inside the pile's room."""
    spread = fan(slot, ranks)
    places = [place for place, _, _ in spread.cards]
    assert places == sorted(places) and places[-1] == len(ranks) - 1
    assert len(places) + spread.hidden == len(ranks)
    assert (spread.more is None) == (spread.hidden == 0)
    x, y = spread.cards[-1][1:]
    assert inside(Box(x, y, CARD_W, CARD_H), slot.area)
    # What shows of each card before the next one: its strip, or its strip and the marker.
    for (p, ax, ay), (_, bx, by) in itertools.pairwise(spread.cards):
        if slot.direction == DOWN:
            assert ax == bx and by - ay >= tight_step()
        else:
            assert ay == by and bx - ax >= least_strip(ranks[p], RIGHT)
    if spread.more is not None:
        first, second = spread.cards[0], spread.cards[1]
        more = spread.more
        if slot.direction == DOWN:
            assert more.y - first[2] >= tight_step() and more.bottom <= second[2]
        else:
            assert more.x - first[1] >= least_strip(ranks[0], RIGHT) and more.right <= second[1]
        assert inside(more, slot.area)
    return spread


@pytest.mark.parametrize("game_id", ["clover-leaf", "trefoil", "super-flower-garden"])
def test_longest_possible_column_shows_every_card(game_id: str) -> None:
    """3 dealt cards and 12 built on them: the longest pile these games allow."""
    for slot in layout(game_id).piles:
        assert assert_readable(slot, [10] * 15).hidden == 0


@pytest.mark.parametrize("length", [1, 4, 12, 15, 16, 20, 30, 46, 52])
def test_four_leaf_clovers_columns_read_at_any_length(length: int) -> None:
    spread = assert_readable(layout("four-leaf-clovers").piles[0], [(i % 13) + 1 for i in range(length)])
    assert (spread.hidden > 0) == (length > 15)


@pytest.mark.parametrize("length", [1, 8, 9, 12, 15, 20, 24, 32, 60, 96])
def test_corner_stones_stacks_never_wrap_and_stay_readable(length: int) -> None:
    for slot in layout("corner-stones").piles:
        for ranks in ([(i % 13) + 1 for i in range(length)], [10] * length):  # "10": the widest
            spread = assert_readable(slot, ranks)
            assert len({y for _, _, y in spread.cards}) == 1


def test_a_dealt_corner_stones_stack_needs_no_marker() -> None:
    for deal in range(1, 300):
        _, fans = arrange("corner-stones", [[c.rank for c in p] for p in
                                              new_game("corner-stones", deal).tableau])
        assert not any(spread.hidden for spread in fans), deal


def test_long_pile_keeps_the_cards_under_its_top_in_view() -> None:
    """The marker stands for the middle: the bottom card and the cards nearest the top show."""
    spread = fan(layout("four-leaf-clovers").piles[0], [(i % 13) + 1 for i in range(46)])
    places = [place for place, _, _ in spread.cards]
    assert places[0] == 0
    assert places[1:] == list(range(46 - len(places) + 1, 46))
    assert spread.hidden == 46 - len(places)


@pytest.mark.parametrize("game_id", [g for g in GAMES if g != "corner-stones"])
def test_rows_shrink_to_the_longest_pile_in_them(game_id: str) -> None:
    full = layout(game_id)
    count = len(full.piles)
    short, _ = arrange(game_id, [[5] * 3] * count)
    longer, _ = arrange(game_id, [[5] * 3] * (count - 1) + [[5] * 9])
    empty, _ = arrange(game_id, [[]] * count)
    assert empty.height < short.height < longer.height <= full.height
    assert short.rows[0].y == longer.rows[0].y  # the top band never moves
    assert longer.rows[1].y == short.rows[1].y  # the long pile is in the second row
    for lay in (short, longer, empty):
        assert lay.height == lay.rows[-1].bottom + 12
        for slot in lay.piles:
            assert inside(slot.area, lay.rows[slot.row])
            assert slot.label.y == lay.rows[slot.row].y


@pytest.mark.parametrize("game_id", [g for g in GAMES if g != "corner-stones"])
def test_arranged_fans_lie_in_their_piles(game_id: str) -> None:
    count = len(layout(game_id).piles)
    piles = [[(i + j) % 13 + 1 for j in range(i % 7 + 1)] for i in range(count)]
    lay, fans = arrange(game_id, piles)
    for slot, spread in zip(lay.piles, fans, strict=True):
        for _, x, y in spread.cards:
            assert inside(Box(x, y, CARD_W, CARD_H), slot.area)


@pytest.mark.parametrize("game_id", GAMES)
def test_card_indices_stay_readable_on_a_phone(game_id: str) -> None:
    """Shown 400 px wide, as a phone shows it, a card's rank is still 7 px high or more
    (at most nine columns side by side)."""
    lay = layout(game_id)
    assert cap_height(RANK_SIZE) * 400 / lay.width >= 7
    if lay.rows:
        assert max(sum(1 for s in lay.piles if s.row == r) for r in range(2)) <= 9


@settings(max_examples=200, deadline=None)
@given(
    game_id=st.sampled_from(sorted(GAMES)),
    pile=st.integers(0, 17),
    ranks=st.lists(st.integers(1, 13), min_size=1, max_size=104),
)
def test_any_pile_fans_readably_inside_its_room(game_id: str, pile: int, ranks: list[int]) -> None:
    slots = layout(game_id).piles
    assert_readable(slots[pile % len(slots)], ranks)

"""Layouts as RULES.md numbers them, and fans that keep every card's index in view,
however long the pile, and the top card whole."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from engine import GAMES, RULES, parse_card
from render import layout
from render.cards import CARD_H, CARD_W, PAD, RANK_SIZE, card_rgb
from render.glyphs import cap_height
from render.layout import (
    NARROWEST,
    ROOM_CARDS,
    WIDEST,
    Box,
    Fan,
    Layout,
    arrange,
    aspect_canvas,
    tight_step,
)


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
    assert_each_box_apart_on_the_canvas(lay, banner=True)


def assert_each_box_apart_on_the_canvas(lay: Layout, *, banner: bool) -> None:
    """Every box of ``lay`` (its banner's if ``banner``) on the canvas, none over another."""
    canvas = Box(0, 0, lay.width, lay.height)
    boxes = [lay.title] + ([lay.banner] if banner else [])
    boxes += [b for s in lay.piles for b in (s.area, s.label)]
    boxes += [b for f in lay.foundations for b in (f.card, f.label, f.info)]
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


def test_corner_stones_puts_its_corners_at_the_corners_and_each_side_stack_under_its_row() -> None:
    """C1 C2 at the top corners, C3 C4 at the bottom ones; each side stack right under one
    of the two foundations it feeds (S1 under f1, S2 under f2, ...), so a glance shows
    where a side stack's cards may go up."""
    lay = layout("corner-stones")
    rules = RULES["corner-stones"]
    by_name = {s.name: s for s in lay.piles}
    assert list(by_name) == list(rules.pile_names or ())
    left, right = min(s.area.x for s in lay.piles), max(s.area.x for s in lay.piles)
    top, bottom = min(s.area.y for s in lay.piles), max(s.area.y for s in lay.piles)
    for name, x, y in (("C1", left, top), ("C2", right, top), ("C3", left, bottom),
                       ("C4", right, bottom)):
        assert (by_name[name].area.x, by_name[name].area.y) == (x, y), name
    feeds = rules.feeds
    assert feeds is not None
    for n in range(1, 9):
        side = by_name[f"S{n}"]
        above = lay.foundations[n - 1]
        assert above.index in feeds[side.index]
        assert side.area.x == above.card.x and above.info.bottom < side.label.y
        assert top < side.area.y < bottom


def test_card_index_is_at_least_14_pixels_high() -> None:
    """Measured on the drawn card: the rank's ink, not the font's nominal size."""
    assert cap_height(RANK_SIZE) >= 14
    for code in ("AS", "10H", "QD"):
        face = card_rgb(int(parse_card(code)), False)
        index = face.crop((0, 0, CARD_W // 2 + 4, PAD + cap_height(RANK_SIZE) + 4))
        ink = Image.eval(index.convert("L"), lambda v: 255 if v < 160 else 0).getbbox()
        assert ink is not None
        assert ink[3] - ink[1] >= 14, (code, ink)


def assert_every_card_shows(spread: Fan, count: int, area: Box) -> None:
    """Every card of the pile is drawn, bottom first, each showing its whole index before
    the next one covers the rest, and the top card lies whole in the pile's room. A
    Corner Stones stack wrapped into sub-columns runs on at the top of the next one, to
    the right: the last card of a sub-column lies whole, nothing over it."""
    assert [place for place, _, _ in spread.cards] == list(range(count))
    for (_, ax, ay), (_, bx, by) in itertools.pairwise(spread.cards):
        if ax == bx:
            assert by - ay >= tight_step()
        else:
            assert bx >= ax + CARD_W and by == area.y
            assert inside(Box(ax, ay, CARD_W, CARD_H), area)
    if count:
        x, y = spread.cards[-1][1:]
        assert inside(Box(x, y, CARD_W, CARD_H), area)


# The longest pile each game can build (RULES.md): Clover Leaf, Trefoil and Super Flower
# Garden build a run of at most 12 on 3 dealt cards; Four Leaf Clovers' piles take any card
# one rank away, so one pile may come to hold all 52 cards, and Corner Stones' all 96 that
# are not on a foundation at the start.
LONGEST = {"clover-leaf": 15, "trefoil": 15, "super-flower-garden": 15,
           "four-leaf-clovers": 52, "corner-stones": 96}


@pytest.mark.parametrize("game_id", GAMES)
def test_the_longest_possible_pile_shows_every_card(game_id: str) -> None:
    longest = LONGEST[game_id]
    for pile in range(len(layout(game_id).piles)):
        piles: list[list[int]] = [[5] * 3 for _ in layout(game_id).piles]
        piles[pile] = [5] * longest
        lay, fans = arrange(game_id, piles)
        for slot, spread, cards in zip(lay.piles, fans, piles, strict=True):
            assert_every_card_shows(spread, len(cards), slot.area)
            assert inside(slot.area, Box(0, 0, lay.width, lay.height))
        if longest <= ROOM_CARDS:  # within the room the rows were made for
            assert lay.height <= layout(game_id).height


def test_a_20_card_corner_stones_stack_shows_every_card_in_its_own_strip() -> None:
    """Corner Stones deal 1 after 125 hinted moves has a stack of 14; random play builds 25.
    Each card of a 20-card stack gets a strip of its own, none under another's."""
    for pile in range(12):
        piles: list[list[int]] = [[7] * 8 for _ in range(12)]
        piles[pile] = [7] * 20
        lay, fans = arrange("corner-stones", piles)
        spread = fans[pile]
        assert_every_card_shows(spread, 20, lay.piles[pile].area)
        strips = [Box(x, y, CARD_W, tight_step()) for _, x, y in spread.cards]
        for a, b in itertools.combinations(strips, 2):
            assert not overlaps(a, b)


@pytest.mark.parametrize("game_id", GAMES)
def test_rows_fit_the_longest_pile_in_them(game_id: str) -> None:
    """Each row is as tall as its longest pile needs: shorter than at rest for short piles,
    taller for a pile longer than the rest room; the rows below move with it."""
    full = layout(game_id)
    count = len(full.piles)
    last = full.piles[-1].row
    short, _ = arrange(game_id, [[5] * 3] * count)
    longer, _ = arrange(game_id, [[5] * 3] * (count - 1) + [[5] * 9])
    longest, _ = arrange(game_id, [[5] * 3] * (count - 1) + [[5] * 40])
    empty, _ = arrange(game_id, [[]] * count)
    assert empty.height <= short.height < longer.height <= full.height
    # A pile too long for the picture's shape wraps, making its row wider; Corner Stones,
    # with no eleventh column, runs its stacks in lines instead, as wide as before.
    assert longest.width > full.width or (game_id == "corner-stones"
                                          and longest.width == full.width)
    assert 9 / 16 <= longest.width / longest.height <= 2
    assert short.rows[0].y == longer.rows[0].y  # the top never moves
    assert longer.rows[last].y == short.rows[last].y  # the long pile is in the last row
    for lay in (short, longer, longest, empty):
        assert lay.height == max(row.bottom for row in lay.rows) + 12
        for slot in lay.piles:
            assert inside(slot.area, lay.rows[slot.row])
            assert slot.label.y == lay.rows[slot.row].y
        for f in lay.foundations:  # Corner Stones': between the first two rows
            assert not any(overlaps(f.card, row) or overlaps(f.info, row) for row in lay.rows)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_pile_shorter_than_its_rows_longest_leaves_the_layout_as_it_is(game_id: str) -> None:
    """Layouts are cached by how tall each row is drawn: a shorter pile growing within its
    row's longest shares the layout (its own fan grows); Corner Stones' S1, which C3 sits
    under, moves C3 down even when it is not the longest of its row."""
    count = len(layout(game_id).piles)
    first, second = (2, 3) if game_id == "corner-stones" else (0, 1)  # (its side stacks)
    before = [[5] * 3 for _ in range(count)]
    before[first] = [5] * 9  # the longest of its row
    after = [list(pile) for pile in before]
    after[second] = [5] * 4  # in the same row, shorter than its longest
    (lay, fans), (same, grown) = arrange(game_id, before), arrange(game_id, after)
    assert same == lay and len(grown[second].cards) == 4 and grown[first] == fans[first]
    if game_id == "corner-stones":  # C3 (pile 10) lies under C1 (pile 0), whatever it holds
        c1, s1, c3 = 0, 2, 10
        short, longer = [list(pile) for pile in before], [list(pile) for pile in before]
        longer[c1] = [5] * 14
        assert arrange(game_id, longer)[0].piles[c3].area.y > arrange(
            game_id, short)[0].piles[c3].area.y
        side = [list(pile) for pile in short]
        side[s1] = [5] * 20  # a long side stack moves no corner stone
        assert arrange(game_id, side)[0].piles[c3].area.y == arrange(
            game_id, short)[0].piles[c3].area.y


@pytest.mark.parametrize("game_id", GAMES)
def test_arranged_fans_lie_in_their_piles(game_id: str) -> None:
    count = len(layout(game_id).piles)
    piles = [[(i + j) % 13 + 1 for j in range(i % 7 + 1)] for i in range(count)]
    lay, fans = arrange(game_id, piles)
    for slot, spread in zip(lay.piles, fans, strict=True):
        for _, x, y in spread.cards:
            assert inside(Box(x, y, CARD_W, CARD_H), slot.area)


@pytest.mark.parametrize("game_id", GAMES)
def test_card_indices_stay_readable_on_a_phone(game_id: str) -> None:
    """Shown 400 px wide, as a phone shows it, a card's rank is still 12 px high or more
    (Super Flower Garden's were 11.6, Corner Stones' 12.6 with its J cut to |): cards as
    narrow as their index, at most nine columns side by side, Corner Stones' ten
    included."""
    lay = layout(game_id)
    assert cap_height(RANK_SIZE) * 400 / lay.width >= 12
    assert cap_height(RANK_SIZE) * 400 / WIDEST >= 12, "however wide a long pile makes it"
    assert max(sum(1 for s in lay.piles if s.row == r) for r in range(len(lay.rows))) <= 9


@settings(max_examples=200, deadline=None)
@given(
    game_id=st.sampled_from(sorted(GAMES)),
    banner=st.booleans(),
    lengths=st.lists(st.integers(0, 96), min_size=18, max_size=18),
)
def test_any_position_shows_every_card_in_a_room_of_its_own(
    game_id: str, banner: bool, lengths: list[int]
) -> None:
    count = len(layout(game_id).piles)
    piles = [[1] * n for n in lengths[:count]]
    lay, fans = arrange(game_id, piles, banner=banner)
    for slot, spread, cards in zip(lay.piles, fans, piles, strict=True):
        assert_every_card_shows(spread, len(cards), slot.area)
    assert_each_box_apart_on_the_canvas(lay, banner=banner)
    assert lay.height == max(s.area.bottom for s in lay.piles) + 12


@settings(max_examples=300, deadline=None)
@given(lengths=st.lists(st.integers(0, 96), min_size=12, max_size=12), banner=st.booleans())
def test_corner_stones_stays_between_9_16_and_2_1_at_every_position(
    lengths: list[int], banner: bool
) -> None:
    """The picture of any position (96 cards at most on the stacks): a stack too long for
    the picture's shape wraps into sub-columns, every card still in sight."""
    while sum(lengths) > 96:
        lengths[lengths.index(max(lengths))] -= 1
    lay, fans = arrange("corner-stones", [[1] * n for n in lengths], banner=banner)
    width, height = aspect_canvas(lay.width, lay.height)
    assert 9 / 16 <= width / height <= 2
    assert (width, height) == (lay.width, lay.height), "the stacks wrapped: no felt added"
    assert NARROWEST <= width <= WIDEST
    for slot, spread, count in zip(lay.piles, fans, lengths, strict=True):
        assert_every_card_shows(spread, count, slot.area)
    assert_each_box_apart_on_the_canvas(lay, banner=banner)


# The cards on the piles at most: the other four (and Super Flower Garden's and Four Leaf
# Clovers' whole deck) start on, or may all go to, the foundations.
ON_PILES = {"clover-leaf": 48, "trefoil": 48, "super-flower-garden": 52, "four-leaf-clovers": 52}


@settings(max_examples=300, deadline=None)
@given(game_id=st.sampled_from(sorted(ON_PILES)), banner=st.booleans(),
       lengths=st.lists(st.integers(0, 52), min_size=18, max_size=18))
def test_the_column_games_stay_within_their_shape_at_every_position(
    game_id: str, banner: bool, lengths: list[int]
) -> None:
    """Any piles the game can build (each at most its longest, the deck's cards in all):
    a pile too long for the picture's shape wraps into sub-columns, its row wider, the
    picture still no wider than its ranks read on a phone, and no felt added."""
    lengths = [min(n, LONGEST[game_id]) for n in lengths[:len(layout(game_id).piles)]]
    while sum(lengths) > ON_PILES[game_id]:
        lengths[lengths.index(max(lengths))] -= 1
    lay, fans = arrange(game_id, [[1] * n for n in lengths], banner=banner)
    assert NARROWEST <= lay.width <= WIDEST
    assert 9 / 16 <= lay.width / lay.height <= 2, (lay.width, lay.height, lengths)
    for slot, spread, count in zip(lay.piles, fans, lengths, strict=True):
        assert_every_card_shows(spread, count, slot.area)
    assert_each_box_apart_on_the_canvas(lay, banner=banner)


def test_the_deal_of_corner_stones_is_as_wide_as_tall() -> None:
    """It was 539 x 1002: three rows of stacks one above another."""
    lay, _ = arrange("corner-stones", [[1] * 8] * 12, banner=False)
    assert 0.9 <= lay.width / lay.height <= 1.2

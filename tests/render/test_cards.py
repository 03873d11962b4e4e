"""Card faces as a phone shows them: a club is not taken for a spade."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from engine import GAMES, parse_card
from render import layout
from render.cards import (
    CARD_H,
    CARD_W,
    PAD,
    RADIUS,
    RANK_SIZE,
    card_mask,
    card_rgb,
    card_sprite,
    paste_card,
    rank_glyph,
    suit_ink,
)
from render.glyphs import cap_height
from render.layout import tight_step
from render.palette import BLACK, CARD, GOLD, index


def index_suit(code: str, four_colour: bool = False) -> Image.Image:
    """The suit of a card's index, in the strip a buried card shows."""
    card = parse_card(code)
    x = PAD + rank_glyph(code[:-1]).width + 1
    return card_rgb(int(card), four_colour).crop((x, 1, CARD_W - RADIUS - 1, tight_step()))


@pytest.mark.parametrize("rank", ["A", "6", "8", "9", "10", "Q"])
def test_clubs_and_spades_differ_at_phone_size_in_the_two_colour_deck(rank: str) -> None:
    """Scaled as the widest board is scaled to 400 px, a club's index and a spade's still
    differ clearly in eight pixels or more (the spade's point, the club's notched leaves);
    with the old shapes, in four or five."""
    widest = max(layout(g).width for g in GAMES)
    club, spade = index_suit(rank + "C").convert("L"), index_suit(rank + "S").convert("L")
    size = (round(club.width * 400 / widest), round(club.height * 400 / widest))
    small_club, small_spade = club.resize(size, Image.LANCZOS), spade.resize(size, Image.LANCZOS)
    apart = ImageChops.difference(small_club, small_spade).point(lambda v: 255 if v > 96 else 0)
    assert apart.histogram()[255] >= 8, apart.histogram()[255]


def test_the_two_colour_deck_keeps_clubs_and_spades_black() -> None:
    """The shapes tell them apart, not a colour: both are black ink on the white card."""
    assert suit_ink(0, False) == suit_ink(3, False) == BLACK
    for code in ("9C", "9S"):
        inks = {c for _, c in index_suit(code).getcolors(1 << 12) or []}
        assert BLACK in inks and CARD in inks
        assert all(max(c) - min(c) <= 8 for c in inks), inks  # greys only: no third colour


def test_the_index_suit_is_as_tall_as_the_rank_and_inside_the_strip() -> None:
    """A buried card shows its suit whole: the symbol's ink ends inside the strip."""
    for code in ("9C", "10S", "QH", "AD"):
        face = card_rgb(int(parse_card(code)), False)
        x = PAD + rank_glyph(code[:-1]).width + 1
        ink = face.crop((x, 0, CARD_W - 2, 30)).convert("L").point(
            lambda v: 255 if v < 160 else 0).getbbox()
        assert ink is not None
        assert ink[3] - ink[1] >= cap_height(RANK_SIZE) + 2
        assert ink[3] < tight_step()


@pytest.mark.parametrize("four_colour", [False, True])
def test_a_pasted_card_is_its_sprite_inside_its_outline_and_leaves_the_corners_alone(
    four_colour: bool,
) -> None:
    """``paste_card`` pastes only the corners' rows through the mask: what lies beneath
    must still show outside the rounded corners, and every pixel inside is the face's."""
    beneath = index(GOLD)
    frame = Image.new("P", (CARD_W + 10, CARD_H + 10), beneath)
    for card in (0, 25, 51):
        paste_card(frame.im, card, (4, 5), four_colour)
        drawn = frame.crop((4, 5, 4 + CARD_W, 5 + CARD_H))
        sprite = card_sprite(card, four_colour)
        mask = card_mask()
        for y in range(CARD_H):
            for x in range(CARD_W):
                expected = sprite.getpixel((x, y)) if mask.getpixel((x, y)) else beneath
                assert drawn.getpixel((x, y)) == expected, (card, x, y)
        around = frame.copy()
        around.paste(beneath, (4, 5, 4 + CARD_W, 5 + CARD_H))
        # nothing drawn outside the card's box
        assert around.getcolors() == [(around.width * around.height, beneath)]


# Every rank letter the bot's languages print (English, German B D K, French V D R, ...).
RANK_LETTERS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "B", "D",
                "V", "R", "S", "C", "W", "T"]


@pytest.mark.parametrize("letter", RANK_LETTERS)
def test_every_rank_lies_whole_in_the_strip_a_buried_card_shows(letter: str) -> None:
    """A J's hook and a Q's tail dipped under the baseline, below the strip a buried card
    shows: a J read as |, a Q as O. Every rank's ink now ends inside the strip."""
    ranks = tuple([letter] * 13)
    face = card_rgb(int(parse_card("JS")), False, ranks)
    ink = face.crop((PAD, 0, PAD + rank_glyph(letter).width, CARD_H // 2)).convert("L").point(
        lambda v: 255 if v < 160 else 0).getbbox()
    assert ink is not None and ink[3] <= tight_step() - 1, (letter, ink)
    assert rank_glyph(letter).width <= CARD_W - PAD - 2 * 2 - 16  # its suit beside it


def test_a_buried_j_shows_its_hook_on_a_phone() -> None:
    """The strip of a buried J, scaled as a phone shows the widest board (400 px): the
    bottom of its ink reaches further left than its stem, or it reads as |."""
    widest = max(layout(g).width for g in GAMES)
    face = card_rgb(int(parse_card("JS")), True)
    strip = face.crop((PAD - 1, 1, PAD + rank_glyph("J").width + 1, tight_step())).convert("L")
    scale = 400 / widest
    rank = strip.resize((round(strip.width * scale), round(strip.height * scale)),
                        Image.LANCZOS).point(lambda v: 255 if v < 128 else 0)
    box = rank.getbbox()
    assert box is not None
    rows = [rank.crop((0, y, rank.width, y + 1)).getbbox() for y in range(box[1], box[3])]
    lefts = [row[0] for row in rows if row is not None]
    third = max(1, len(lefts) // 3)
    # The hook, two pixels or more left of the stem (it was one, on the last row: "|").
    assert min(lefts[-third:]) <= min(lefts[:third]) - 2, lefts


def test_clubs_and_spades_differ_in_colour_in_the_four_colour_deck() -> None:
    """The bot's default deck: a green club and a black spade, told apart at a glance."""
    club, spade = suit_ink(0, True), suit_ink(3, True)
    assert sum(abs(a - b) for a, b in zip(club, spade, strict=True)) >= 100

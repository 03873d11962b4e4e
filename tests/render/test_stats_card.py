"""The stats picture: a bar per game whose length is the win rate, wins with hints shown
as such, readable on a phone, and the same in words."""

import io

from PIL import Image

from render.alt_text import LONGEST
from render.glyphs import cap_height, text_width, wrap_parts
from render.palette import FELT_DARK, GOLD
from render.stats_card import (
    DETAIL_SIZE,
    MARGIN,
    ROW,
    TOP,
    WIDTH,
    StatsRow,
    bar_box,
    name_and_count,
    render_stats_png,
    stats_alt_text,
)


def decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def bar_colours(image: Image.Image, row: int, part: tuple[float, float] = (0.0, 1.0)) -> dict:
    """Pixels of each colour in a share of row ``row``'s bar (inside its outline)."""
    left, top, right, bottom = bar_box(row)
    width = right - left
    crop = (left + 2 + round(width * part[0]), top + 2, left + round(width * part[1]) - 2,
            bottom - 1)
    return {colour: n for n, colour in image.crop(crop).getcolors(1 << 16) or []}


def test_bar_length_follows_the_win_rate() -> None:
    rows = [StatsRow("Trefoil", 10, 2), StatsRow("Clover Leaf", 10, 8), StatsRow("Corner Stones", 0, 0)]
    image = decode(render_stats_png("Stats for Alice", "This server", rows))
    low, high, none = (bar_colours(image, i).get(GOLD, 0) for i in range(3))
    assert none == 0
    assert 3.0 < high / low < 5.0


def test_wins_with_hints_show_as_a_striped_part_of_the_bar() -> None:
    """A player whose wins all used hints sees them: the bar is striped where those wins
    are, not empty, and the row says how many."""
    rows = [StatsRow("Trefoil", 4, 0, assisted=2), StatsRow("Clover Leaf", 4, 0),
            StatsRow("Four Leaf Clovers", 4, 2, assisted=2)]
    image = decode(render_stats_png("t", "s", rows))
    helped = bar_colours(image, 0, (0.05, 0.45))  # the first half: the two wins with hints
    assert helped.get(GOLD, 0) > 20 and helped.get(FELT_DARK, 0) > 20  # stripes, not solid
    rest = bar_colours(image, 0, (0.55, 1.0))
    assert rest.get(GOLD, 0) == 0
    assert bar_colours(image, 1).get(GOLD, 0) == 0  # no wins of any kind: an empty bar
    solid, striped = bar_colours(image, 2, (0.05, 0.45)), bar_colours(image, 2, (0.55, 0.95))
    assert solid.get(FELT_DARK, 0) == 0 and striped.get(FELT_DARK, 0) > 20
    text = stats_alt_text("t", "s", rows)
    assert "Trefoil: 0 of 4 won (0%), 2 more won with hints" in text
    assert "Clover Leaf: 0 of 4 won (0%)." in text


def test_the_card_is_a_board_wide_and_its_smallest_words_read_at_400_px() -> None:
    assert 500 <= WIDTH <= 600
    assert cap_height(DETAIL_SIZE) * 400 / WIDTH >= 9


def test_stats_picture_grows_with_rows_and_is_deterministic() -> None:
    one = render_stats_png("t", "s", [StatsRow("Trefoil", 1, 1)])
    five = render_stats_png("t", "s", [StatsRow(f"g{i}", 1, 0) for i in range(5)])
    assert Image.open(io.BytesIO(five)).size == (WIDTH, TOP + 5 * ROW + MARGIN)
    assert Image.open(io.BytesIO(one)).size == (WIDTH, TOP + ROW + MARGIN)
    assert one == render_stats_png("t", "s", [StatsRow("Trefoil", 1, 1)])
    assert Image.open(io.BytesIO(render_stats_png("t", "s", []))).width == WIDTH


def test_long_words_stay_on_the_card() -> None:
    """A name, subtitle and details about 40% longer than English ones: nothing is drawn
    in the margins."""
    long_detail = "série 12 (meilleure 34) · le moins de coups 123 · la plus rapide 1:23:45 · 12 aidées"
    rows = [StatsRow("Super Flower Garden Supérieur", 5678, 1234, long_detail, 1234)] * 6
    subtitle = ("Sur tous les serveurs et messages privés · 5678 parties · 1234 gagnées (22%) · "
                "1234 avec des indices · série quotidienne 10 (meilleure 12)")
    image = decode(render_stats_png("Bartholomew the Magnificent · bilan de solitaire",
                                    subtitle, rows))
    for row in rows:
        (name, name_size), (count, count_size) = name_and_count(row)
        width = text_width(name, name_size, bold=True) + text_width(count, count_size)
        assert width + 12 <= WIDTH - 2 * MARGIN and min(name_size, count_size) >= 14
    felt = image.getpixel((0, 0))
    for box in ((0, 0, MARGIN - 4, image.height), (WIDTH - MARGIN + 4, 0, WIDTH, image.height)):
        colours = image.crop(box).getcolors(1 << 16) or []
        assert [c for _, c in colours] == [felt], box


def test_the_alt_text_says_every_row_within_discords_limit() -> None:
    rows = [StatsRow(name, 5678, 1234, "streak 12 (best 34) · fewest 123 moves · fastest "
                     "1:23:45 · 1234 assisted", 1234)
            for name in ("Clover Leaf", "Four Leaf Clovers", "Super Flower Garden", "Trefoil",
                         "Corner Stones", "All games")]
    title = "A" * 32 + " · solitaire record"
    subtitle = ("In all servers and DMs · 5678 played · 1234 won (22%) · 1234 assisted · "
                "daily streak 100 (best 120)")
    text = stats_alt_text(title, subtitle, rows)
    assert len(text) <= LONGEST
    assert text.startswith(f"{title}. {subtitle}. Clover Leaf: 1234 of 5678 won (22%), "
                           "1234 more won with hints")
    for row in rows:
        assert f"{row.name}: 1234 of 5678 won" in text
    assert stats_alt_text("t", "s", []) == "t. s. No finished games yet."
    for markdown in ("*", "_", "`", "#", "[", "|"):
        assert markdown not in text


def test_a_subtitle_breaks_between_its_parts_not_inside_one() -> None:
    """The card broke "daily streak / 0 (best 0)" across two lines."""
    subtitle = "All servers · 12 played, 3 won · daily streak 0 (best 0)"
    for width in range(160, 700, 20):
        lines = wrap_parts(subtitle, 18, width)
        for part in subtitle.split(" · "):
            if text_width(part, 18) <= width:
                assert any(part in line for line in lines), (width, lines)
    assert wrap_parts("a · b", 18, 1000) == ("a · b",)

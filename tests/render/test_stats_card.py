"""The stats picture: a bar per game whose length is the win rate."""

import io

from PIL import Image

from render.palette import GOLD
from render.stats_card import ROW, TOP, WIDTH, StatsRow, render_stats_png


def gold_pixels_in_row(png: bytes, row: int) -> int:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    band = image.crop((0, TOP + row * ROW, WIDTH, TOP + row * ROW + 40))
    return dict((colour, n) for n, colour in band.getcolors(1 << 16) or []).get(GOLD, 0)


def test_bar_length_follows_the_win_rate() -> None:
    rows = [StatsRow("Trefoil", 10, 2), StatsRow("Clover Leaf", 10, 8), StatsRow("Corner Stones", 0, 0)]
    png = render_stats_png("Stats for Alice", "This server", rows)
    low, high, none = (gold_pixels_in_row(png, i) for i in range(3))
    assert none == 0
    assert 3.0 < high / low < 5.0


def test_stats_picture_grows_with_rows_and_is_deterministic() -> None:
    one = render_stats_png("t", "s", [StatsRow("Trefoil", 1, 1)])
    five = render_stats_png("t", "s", [StatsRow(f"g{i}", 1, 0) for i in range(5)])
    assert Image.open(io.BytesIO(five)).height > Image.open(io.BytesIO(one)).height
    assert one == render_stats_png("t", "s", [StatsRow("Trefoil", 1, 1)])
    assert Image.open(io.BytesIO(render_stats_png("t", "s", []))).width == WIDTH

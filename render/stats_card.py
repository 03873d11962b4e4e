"""A player's record as a picture: one bar of win rate per game.

Drawn in RGB, then mapped onto the boards' fixed palette, which holds every colour and
blend the card uses, and written by ``png.encode``: 5-7 ms, where choosing a palette
of its own for each card (``Image.quantize``) took 32."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from . import words
from .glyphs import font
from .palette import BADGE, FELT, FELT_DARK, FELT_DIM, FELT_LINE, FELT_TEXT, GOLD, to_palette
from .png import encode

WIDTH = 960
ROW = 72
TOP = 100
MARGIN = 32
LABEL_W = 250
BAR_W = 480


@dataclass(frozen=True)
class StatsRow:
    """One game's line: the bar shows ``won / played``; ``detail`` is printed beside it."""

    name: str
    played: int
    won: int
    detail: str = ""


def render_stats_png(title: str, subtitle: str, rows: Sequence[StatsRow]) -> bytes:
    """Title, subtitle, then a labelled win-rate bar per row."""
    height = TOP + ROW * max(1, len(rows)) + MARGIN
    image = Image.new("RGB", (WIDTH, height), FELT)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, 22), title, font=font(30), fill=FELT_TEXT)
    draw.text((MARGIN, 60), subtitle, font=font(18), fill=FELT_DIM)
    if not rows:
        draw.text((MARGIN, TOP + 16), words.NO_GAMES, font=font(22), fill=FELT_TEXT)
    for i, row in enumerate(rows):
        y = TOP + i * ROW
        draw.text((MARGIN, y + 8), row.name, font=font(22), fill=FELT_TEXT)
        x0, x1 = MARGIN + LABEL_W, MARGIN + LABEL_W + BAR_W
        draw.rounded_rectangle((x0, y + 6, x1, y + 36), radius=8, fill=FELT_DARK, outline=FELT_LINE)
        rate = row.won / row.played if row.played else 0.0
        if rate > 0:
            draw.rounded_rectangle((x0, y + 6, x0 + max(16, round(BAR_W * rate)), y + 36),
                                   radius=8, fill=GOLD)
        percent = f"{rate:.0%}" if row.played else words.NOT_PLAYED
        ink = BADGE if rate > 0.12 else FELT_TEXT
        draw.text((x0 + 10, y + 10), percent, font=font(18), fill=ink)
        if row.played:
            draw.text((x1 + 14, y + 10), words.won_of(row.won, row.played), font=font(18),
                      fill=FELT_TEXT)
        if row.detail:
            draw.text((x0 + 4, y + 42), row.detail, font=font(16), fill=FELT_DIM)
    return encode(to_palette(image))

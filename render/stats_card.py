"""A player's record as a picture, and the same in words for its alt text.

About a board's width, so that a phone shows it at three quarters of its size and its
smallest words (18 px) stay readable. One row per game: the name, the wins out of the
games played, and a bar whose solid gold is the win rate; wins that used a hint (which
count as played, not won) follow as a striped segment, and say so in words.

Drawn in RGB, then mapped onto the boards' fixed palette, which holds every colour and
blend the card uses, and written by ``png.encode``: a few milliseconds, where choosing a
palette of its own for each card (``Image.quantize``) took 32.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from .alt_text import LONGEST
from .glyphs import paint_text, text_width, wrap_parts
from .palette import FELT, FELT_DARK, FELT_DIM, FELT_LINE, FELT_TEXT, GOLD, RGB, to_palette
from .png import encode
from .sprites import fit
from .words import ENGLISH, PictureWords

WIDTH = 540  # a board's width (Corner Stones 539, Trefoil 521)
MARGIN = 20
TITLE_SIZE = 28
SUBTITLE_SIZE = 18
SUBTITLE_LINES = 3  # room for a subtitle about 40% longer than today's English ones
LINE = 24  # a line of 18-20 px text
TOP = MARGIN + TITLE_SIZE + 10 + SUBTITLE_LINES * LINE + 12  # where the first row starts
NAME_SIZE = 22
COUNT_SIZE = 20
DETAIL_SIZE = 18
BAR_H = 22
ROW = 8 + LINE + 4 + BAR_H + 6 + 2 * LINE + 14  # name and count, bar, two lines of detail
STRIPE = 8  # the assisted segment: gold stripes this far apart


@dataclass(frozen=True)
class StatsRow:
    """One game's line: ``won`` of ``played`` (wins without a hint), ``assisted`` more won
    with hints (played, not won); ``detail`` (streaks, bests) is printed under the bar."""

    name: str
    played: int
    won: int
    detail: str = ""
    assisted: int = 0


def render_stats_png(
    title: str, subtitle: str, rows: Sequence[StatsRow], words: PictureWords = ENGLISH
) -> bytes:
    """Title, subtitle, then a row per game: its count of wins and its bar (the title,
    subtitle and details are the caller's words; the counts are worded in ``words``).

    The picture is ``WIDTH`` wide and ``TOP + ROW * max(1, len(rows)) + MARGIN`` tall."""
    height = TOP + ROW * max(1, len(rows)) + MARGIN
    image = Image.new("RGB", (WIDTH, height), FELT)
    draw = ImageDraw.Draw(image)
    inner = WIDTH - 2 * MARGIN
    size = fit(title, TITLE_SIZE, inner, bold=True)
    paint_text(image, title, (MARGIN, MARGIN + TITLE_SIZE - 6), size, FELT_TEXT, bold=True)
    _lines(image, subtitle, MARGIN + TITLE_SIZE + 10, SUBTITLE_SIZE, SUBTITLE_LINES, FELT_DIM)
    if not rows:
        paint_text(image, words.no_games(), (MARGIN, TOP + LINE), COUNT_SIZE, FELT_TEXT)
    for i, row in enumerate(rows):
        _row(image, draw, row, i, words)
    return encode(to_palette(image))


def bar_box(index: int) -> tuple[int, int, int, int]:
    """Where row ``index``'s bar lies: left, top, right, bottom (inclusive); the row is
    drawn around it."""
    y = TOP + index * ROW + 8 + LINE + 4
    return (MARGIN, y, WIDTH - MARGIN, y + BAR_H)


def _row(image: Image.Image, draw: ImageDraw.ImageDraw, row: StatsRow, index: int,
         words: PictureWords) -> None:
    inner = WIDTH - 2 * MARGIN
    (name, name_size), (count, count_size) = name_and_count(row, words)
    baseline = TOP + index * ROW + 8 + LINE - 5
    paint_text(image, name, (MARGIN, baseline), name_size, FELT_TEXT, bold=True)
    count_w = text_width(count, count_size)
    paint_text(image, count, (WIDTH - MARGIN - count_w, baseline), count_size, FELT_TEXT)
    left, y, right, _bottom = bar_box(index)
    draw.rounded_rectangle((left, y, right, y + BAR_H), radius=8, fill=FELT_DARK,
                           outline=FELT_LINE)
    if row.played:
        won_end = left + round(inner * row.won / row.played)
        helped_end = left + round(inner * (row.won + row.assisted) / row.played)
        if row.won:
            draw.rounded_rectangle((left, y, max(won_end, left + 16), y + BAR_H), radius=8,
                                   fill=GOLD)
        if row.assisted:
            _stripes(draw, max(won_end, left + 1), max(helped_end, won_end + 12), y)
    _lines(image, row.detail, y + BAR_H + 6, DETAIL_SIZE, 2, FELT_DIM)


def name_and_count(
    row: StatsRow, words: PictureWords = ENGLISH
) -> tuple[tuple[str, int], tuple[str, int]]:
    """The row's name and count of wins with their sizes, side by side on one line: the
    count shrinks to half the line at most, then the name, and a name longer still is
    cut short ("…")."""
    inner = WIDTH - 2 * MARGIN
    count = words.stats_count(row.won, row.played, row.assisted)
    count_size = fit(count, COUNT_SIZE, inner // 2, least=14)
    room = inner - text_width(count, count_size) - 12
    name, name_size = row.name, fit(row.name, NAME_SIZE, room, bold=True, least=14)
    while len(name) > 1 and text_width(name, name_size, bold=True) > room:
        name = name[:-2].rstrip() + "…"
    return (name, name_size), (count, count_size)


def _stripes(draw: ImageDraw.ImageDraw, start: int, end: int, y: int) -> None:
    """The assisted segment: gold stripes across the bar's dark ground, so it reads as a
    part of the bar that is not solid gold, even in grey."""
    for x in range(start - BAR_H, end, STRIPE):
        x0, x1 = max(x, start), min(x + BAR_H, end)
        if x0 < x1:  # a 45° stripe, clipped to the segment
            draw.line((x0, y + BAR_H - (x0 - x), x1, y + BAR_H - (x1 - x)), fill=GOLD, width=3)
    draw.line((start, y, start, y + BAR_H), fill=GOLD, width=1)
    draw.line((end, y + 1, end, y + BAR_H - 1), fill=FELT_LINE, width=1)


def _lines(image: Image.Image, text: str, top: int, size: int, most: int, ink: RGB) -> None:
    """``text`` wrapped to the card's width in at most ``most`` lines (smaller if need be)."""
    if not text:
        return
    inner = WIDTH - 2 * MARGIN
    while size > 12 and len(wrap_parts(text, size, inner)) > most:
        size -= 1
    for n, line in enumerate(wrap_parts(text, size, inner)[:most]):
        paint_text(image, line, (MARGIN, top + n * LINE + size), size, ink)


def stats_alt_text(
    title: str, subtitle: str, rows: Sequence[StatsRow], words: PictureWords = ENGLISH
) -> str:
    """The card in plain sentences, at most ``LONGEST`` characters: title,
    subtitle, then each game's wins, wins with hints and details. Were it longer, the
    details go first, then the text is cut."""
    for with_detail in (True, False):
        sentences = [title, subtitle] if subtitle else [title]
        if not rows:
            sentences.append(words.no_games().rstrip("."))
        for row in rows:
            said = f"{row.name}: {words.stats_count_words(row.won, row.played, row.assisted)}"
            if with_detail and row.detail:
                said += f"; {row.detail}"
            sentences.append(said)
        text = ". ".join(s.rstrip(".") for s in sentences) + "."
        if len(text) <= LONGEST:
            return text
    return text[: LONGEST - 1] + "…"

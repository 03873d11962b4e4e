"""A game replayed as an animated GIF: a frame a move, from the deal to where it stands,
held a moment on the first frame and longer on the last, and over within a minute
whatever the game's length: a long game's moves follow one another faster (``step_ms``),
the first and last frames held as long as in a short one.

GIF rather than WebP, measured on hinted games drawn at full size: at first (Trefoil deal
1, 80 frames; Four Leaf Clovers deal 1, 153; Corner Stones deal 1, 266) GIF 1.5, 2.6 and
7.2 MB, encoded in 0.12-0.44 s; lossless WebP 1.0, 2.4 and 6.6 MB in 0.6-3.6 s; lossy WebP
(quality 80) 1.0, 1.6 and 4.4 MB in 1.5-9.7 s, with smudged card indices at 400 px. Since
the boards show every card (no folded piles) and the pictures stopped cutting the felt
per position, the same three GIFs are 0.51, 1.08 and 2.37 MB (drawn and encoded in 0.25,
0.40 and 1.09 s), lossless WebP for the 153 frames 2.15 MB. The boards are palette
pictures, so a GIF shows them exactly, Pillow writes only the part of each frame that
changed, and Discord plays it inline everywhere. A game longer than ``MOST_FRAMES`` moves
shows an even selection of them (its alt text says so).

A replay must also fit where it is sent (Discord takes 10 MiB in most places, more in some,
and a place may say less): ``fitted_replay`` draws it within a number of bytes, with fewer
moves (evenly picked) and then smaller pictures until it fits, and says what it left out.
Measured on the worst case found, Corner Stones deal 20 with 2,400 moves from pile to pile
(``tests/e2e/test_replays.py`` makes it) and the four-colour deck, 2026-11-28, with the
narrower cards of issue 35: 400 frames at full size are 3.6 MB, drawn in 1.2 s; within
2 MiB it shows 211 of its moves (1.9 MB, 1.6 s in all); within 1 MiB, 105 (1.0 MB,
1.2 s); within 300 KB, 62 at a quarter size (0.28 MB, 1.8 s). Before those cards, 400
frames were 10.2 MB.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image

from engine import Game, new_game

from .board import render_image
from .options import PLAIN, PictureOptions
from .words import ENGLISH, PictureWords

FIRST_MS = 1500  # the deal, held
STEP_MS = 350  # each move, in a game short enough to show at this pace
LAST_MS = 4000  # the end, held
LONGEST_MS = 60_000  # a whole replay at most: few watch a longer one to the end
MOST_FRAMES = 400  # moves shown at most: 3-25 KB a frame
FEWEST_FRAMES = 60  # moves shown at least at full size; below it, smaller pictures first
SMALLEST = 0.25  # the smallest share of a board's size a replay's pictures are drawn at
MARGIN = 0.9  # of the room left, what a new try aims at (a frame's bytes vary)
FITTING_TRIES = 8  # replays drawn at most to find one that fits


@dataclass(frozen=True)
class Replay:
    """A replay drawn to fit: the GIF, how many of the game's moves it shows, the share of a
    board's size its pictures are drawn at (1: as large), and whether it leaves out more
    than a replay does anyway (``MOST_FRAMES``) to fit."""

    gif: bytes
    shown: int
    scale: float
    cut_to_fit: bool = False


def fitted_replay(
    game: Game, limit: int | None, options: PictureOptions = PLAIN,
    words: PictureWords = ENGLISH,
) -> Replay | None:
    """``game``'s replay within ``limit`` bytes (None: no limit): its moves up to
    ``MOST_FRAMES`` at full size if that fits; else fewer of them, evenly picked (the
    count in proportion to the room, down to ``FEWEST_FRAMES``), then pictures half as
    large, and so on; None if even the smallest does not fit."""
    shown, scale = min(game.moves_made, MOST_FRAMES), 1.0
    for attempt in range(FITTING_TRIES):
        gif = replay_gif(game, options, words, most_frames=shown, scale=scale)
        if limit is None or len(gif) <= limit:
            return Replay(gif, shown, scale, cut_to_fit=attempt > 0)
        fits = int(shown * limit * MARGIN / len(gif))  # frames in proportion to the room
        if fits >= min(FEWEST_FRAMES, shown) or scale <= SMALLEST:
            if fits < 1 or (fits >= shown and scale <= SMALLEST):
                return None
            shown = min(fits, shown - 1)
        else:
            scale /= 2  # a picture half as large takes about a quarter of the bytes
            shown = min(shown, max(fits * 3, min(FEWEST_FRAMES, shown)))
    return None


def replay_gif(
    game: Game, options: PictureOptions = PLAIN, words: PictureWords = ENGLISH, *,
    most_frames: int | None = None, scale: float = 1.0,
) -> bytes:
    """``game``'s moves from its deal, as an animated GIF (its first frame the deal, its last
    the position now, with the banner ``options`` give it), worded in ``words``: at most
    ``most_frames`` of its moves (default ``MOST_FRAMES``), its pictures at ``scale`` of a
    board's size."""
    shown = frames_shown(game.moves_made, most_frames)
    board = new_game(game.game_id, game.deal_number, draw=game.draw_rule)
    on_the_way = PictureOptions(four_colour=options.four_colour)  # the end is told at the end
    frames = [_scaled(render_image(board, options=on_the_way, words=words), scale)]
    for number, move in enumerate(game.history, start=1):
        board.push(move)
        if number in shown:
            last = number == game.moves_made
            frames.append(_scaled(render_image(
                board, last_move=move, options=options if last else on_the_way, words=words,
            ), scale))
    width, height = max(f.width for f in frames), max(f.height for f in frames)
    canvas = [_on_canvas(f, width, height) for f in frames]
    durations = [FIRST_MS] + [step_ms(len(canvas) - 2)] * (len(canvas) - 2) + [LAST_MS]
    out = io.BytesIO()
    canvas[0].save(out, format="GIF", save_all=True, append_images=canvas[1:],
                   duration=durations[: len(canvas)] if len(canvas) > 1 else FIRST_MS,
                   loop=0, disposal=1)
    return out.getvalue()


def step_ms(steps: int) -> int:
    """How long each of ``steps`` frames between the first and the last is shown: STEP_MS,
    or less, so that the replay lasts LONGEST_MS at most; in whole hundredths of a second,
    as a GIF counts them (a 400-move replay: 130 ms a move, 57 s in all)."""
    room = LONGEST_MS - FIRST_MS - LAST_MS
    return STEP_MS if steps * STEP_MS <= room else room // steps // 10 * 10


def frames_shown(moves: int, most: int | None = None) -> set[int]:
    """Which moves get a frame: every one, or an even selection of ``most`` (default
    ``MOST_FRAMES``) with the last always among them."""
    most = MOST_FRAMES if most is None else max(1, most)
    if moves <= most:
        return set(range(1, moves + 1))
    return {round(moves * i / most) for i in range(1, most + 1)}


def _scaled(frame: Image.Image, scale: float) -> Image.Image:
    """A frame at ``scale`` of its size: averaged down, then put back in its own palette,
    so that the card indices stay legible and every frame keeps the board's colours."""
    if scale >= 1.0:
        return frame
    size = (max(1, round(frame.width * scale)), max(1, round(frame.height * scale)))
    smaller = frame.convert("RGB").resize(size, Image.Resampling.BOX)
    return smaller.quantize(palette=frame, dither=Image.Dither.NONE)


def _on_canvas(frame: Image.Image, width: int, height: int) -> Image.Image:
    """A frame on the replay's canvas (as large as its largest frame: a banner or a long
    pile makes a board taller), the felt's colour around it."""
    if frame.size == (width, height):
        return frame
    canvas = Image.new("P", (width, height), frame.getpixel((0, 0)))
    canvas.putpalette(frame.getpalette() or [])
    canvas.paste(frame, (0, 0))
    return canvas

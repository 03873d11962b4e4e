"""A game replayed as an animated GIF: a frame a move, from the deal to where it stands,
held a moment on the first frame and longer on the last.

GIF rather than WebP, measured on hinted games drawn at full size: at first (Trefoil deal
1, 80 frames; Four Leaf Clovers deal 1, 153; Corner Stones deal 1, 266) GIF 1.5, 2.6 and
7.2 MB, encoded in 0.12-0.44 s; lossless WebP 1.0, 2.4 and 6.6 MB in 0.6-3.6 s; lossy WebP
(quality 80) 1.0, 1.6 and 4.4 MB in 1.5-9.7 s, with smudged card indices at 400 px. Since
the boards show every card (no folded piles) and the pictures stopped cutting the felt
per position, the same three GIFs are 0.51, 1.08 and 2.37 MB (drawn and encoded in 0.25,
0.40 and 1.09 s), lossless WebP for the 153 frames 2.15 MB. The boards are palette
pictures, so a GIF shows them exactly, Pillow writes only the part of each frame that
changed, and Discord plays it inline everywhere. A game longer than ``MOST_FRAMES`` moves
shows an even selection of them (its alt text says so), so that a replay stays well under
Discord's 8 MB.
"""

from __future__ import annotations

import io

from PIL import Image

from engine import Game, new_game

from .board import render_image
from .words import ENGLISH, PictureWords

FIRST_MS = 1500  # the deal, held
STEP_MS = 350  # each move
LAST_MS = 4000  # the end, held
MOST_FRAMES = 400  # moves shown at most: about 9 KB a frame, so under 4 MB


def replay_gif(
    game: Game, *, four_colour: bool = False, assisted: bool = False, resigned: bool = False,
    words: PictureWords = ENGLISH,
) -> bytes:
    """``game``'s moves from its deal, as an animated GIF (its first frame the deal, its last
    the position now, with its banner), worded in ``words``."""
    shown = frames_shown(game.moves_made)
    board = new_game(game.game_id, game.deal, draw=game.draw_rule)
    frames = [render_image(board, four_colour=four_colour, words=words)]
    for number, move in enumerate(game.history, start=1):
        board.push(move)
        if number in shown:
            last = number == game.moves_made
            frames.append(render_image(
                board, last_move=move, four_colour=four_colour,
                assisted=assisted and last, resigned=resigned and last, words=words,
            ))
    width, height = max(f.width for f in frames), max(f.height for f in frames)
    canvas = [_on_canvas(f, width, height) for f in frames]
    durations = [FIRST_MS] + [STEP_MS] * (len(canvas) - 2) + [LAST_MS]
    out = io.BytesIO()
    canvas[0].save(out, format="GIF", save_all=True, append_images=canvas[1:],
                   duration=durations[: len(canvas)] if len(canvas) > 1 else FIRST_MS,
                   loop=0, disposal=1)
    return out.getvalue()


def frames_shown(moves: int) -> set[int]:
    """Which moves get a frame: every one, or an even selection of ``MOST_FRAMES`` with the
    last always among them."""
    if moves <= MOST_FRAMES:
        return set(range(1, moves + 1))
    return {round(moves * i / MOST_FRAMES) for i in range(1, MOST_FRAMES + 1)}


def _on_canvas(frame: Image.Image, width: int, height: int) -> Image.Image:
    """A frame on the replay's canvas (as large as its largest frame: a banner or a long
    pile makes a board taller), the felt's colour around it."""
    if frame.size == (width, height):
        return frame
    canvas = Image.new("P", (width, height), frame.getpixel((0, 0)))
    canvas.putpalette(frame.getpalette() or [])
    canvas.paste(frame, (0, 0))
    return canvas

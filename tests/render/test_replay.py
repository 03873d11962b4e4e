"""A replay: a frame a move from the deal, the last frame the position now with its
banner, a long game shown by an even selection of its moves."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from engine import PILE, Game, new_game
from render import PictureOptions
from render.board import render_image
from render.replay import (
    FEWEST_FRAMES,
    FIRST_MS,
    LAST_MS,
    LONGEST_MS,
    MOST_FRAMES,
    STEP_MS,
    fitted_replay,
    frames_shown,
    replay_gif,
)


def frames(gif: bytes) -> list[Image.Image]:
    image = Image.open(io.BytesIO(gif))
    out = []
    for number in range(image.n_frames):
        image.seek(number)
        out.append(image.convert("RGB"))
    return out


def same(picture: Image.Image, frame: Image.Image) -> bool:
    """Whether ``frame`` shows ``picture`` (in its top left corner: the canvas may be
    taller than a frame, felt below)."""
    cropped = frame.crop((0, 0, *picture.size))
    return ImageChops.difference(picture.convert("RGB"), cropped).getbbox() is None


def test_a_replay_shows_the_deal_each_move_and_the_end() -> None:
    game = new_game("trefoil", 42)
    for move in ("5 f3", "redeal", "1 f1"):
        try:
            game.play(move)
        except ValueError:
            game.play(game.legal_moves()[0])
    gif = replay_gif(game, options=PictureOptions(resigned=True))
    shown = frames(gif)
    assert len(shown) == game.moves_made + 1
    assert same(render_image(new_game("trefoil", 42)), shown[0]), "the deal first"
    last = render_image(game, last_move=game.last_move, options=PictureOptions(resigned=True))
    assert same(last, shown[-1]), "the position now last, with its banner"
    assert durations(gif) == [FIRST_MS, STEP_MS, STEP_MS, LAST_MS]


def durations(gif: bytes) -> list[int]:
    """How long each frame of ``gif`` is shown, in ms."""
    image = Image.open(io.BytesIO(gif))
    shown = []
    for number in range(image.n_frames):
        image.seek(number)
        shown.append(image.info["duration"])
    return shown


def test_a_long_game_replays_within_a_minute_its_moves_faster_its_end_held() -> None:
    """A 256-move Corner Stones game lasted 95 s. However long the game, the replay is over
    within a minute: its moves follow one another faster, the deal and the end are held as
    long as in a short game."""
    for moves in (200, 600):
        shown = durations(replay_gif(long_game(moves)))
        steps = shown[1:-1]
        assert len(shown) == min(moves, MOST_FRAMES) + 1
        assert sum(shown) <= LONGEST_MS, (moves, sum(shown))
        assert sum(shown) >= LONGEST_MS - 3000, "no faster than it must"
        assert (shown[0], shown[-1]) == (FIRST_MS, LAST_MS)
        assert len(set(steps)) == 1 and 100 <= steps[0] < STEP_MS, steps[0]


def test_a_long_game_shows_an_even_selection_ending_on_its_last_move() -> None:
    assert frames_shown(12) == set(range(1, 13))
    picked = frames_shown(531)
    assert len(picked) == MOST_FRAMES and max(picked) == 531 and min(picked) >= 1
    gaps = [b - a for a, b in zip(sorted(picked), sorted(picked)[1:], strict=False)]
    assert max(gaps) - min(gaps) <= 1, "evenly spread"


def long_game(moves: int) -> Game:
    game = new_game("corner-stones", 20)
    while game.moves_made < moves:
        game.play(next(m for m in game.legal_moves() if m.kind == PILE)
                  if game.moves_made % 2 else game.legal_moves()[-1])
    return game


def test_a_replay_fits_a_limit_with_fewer_moves_then_smaller_pictures() -> None:
    game = long_game(150)
    whole = fitted_replay(game, None)
    assert whole is not None and (whole.shown, whole.scale, whole.cut_to_fit) == (150, 1.0, False)
    assert fitted_replay(game, len(whole.gif)) == whole, "what fits is not cut"
    fewer = fitted_replay(game, len(whole.gif) * 2 // 3)
    assert fewer is not None and len(fewer.gif) <= len(whole.gif) * 2 // 3
    assert fewer.cut_to_fit and fewer.scale == 1.0 and FEWEST_FRAMES <= fewer.shown < 150
    assert len(frames(fewer.gif)) == fewer.shown + 1
    smaller = fitted_replay(game, len(whole.gif) // 8)
    assert smaller is not None and smaller.scale < 1 and len(smaller.gif) <= len(whole.gif) // 8
    assert Image.open(io.BytesIO(smaller.gif)).width < Image.open(io.BytesIO(whole.gif)).width
    assert fitted_replay(game, 500) is None, "not even the smallest fits in 500 bytes"

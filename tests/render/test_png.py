"""The PNG writer: what it writes decodes to exactly the picture it was given."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine import GAMES, new_game
from render import png, render_image


def _decoded(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_board_decodes_to_the_same_pixels_and_palette(game_id: str) -> None:
    game = new_game(game_id, 3)
    game.play(game.legal_moves()[0])
    picture = render_image(game, last_move=game.last_move)
    for level in range(4):
        decoded = _decoded(png.encode(picture, level))
        assert decoded.mode == "P" and decoded.size == picture.size
        assert decoded.tobytes() == picture.tobytes()
        assert decoded.getpalette() == picture.getpalette()


def test_odd_sizes_and_a_short_palette() -> None:
    for size in ((1, 1), (3, 7), (257, 2)):
        picture = Image.new("P", size)
        picture.putpalette([10, 20, 30, 200, 100, 0])
        pixels = bytes((x * 7 + x // 3) % 2 for x in range(size[0] * size[1]))
        picture.frombytes(pixels)
        decoded = _decoded(png.encode(picture))
        assert decoded.tobytes() == pixels
        assert decoded.convert("RGB").getpixel((0, 0)) == (10, 20, 30)


def test_only_opaque_palette_images() -> None:
    with pytest.raises(ValueError, match="mode RGB"):
        png.encode(Image.new("RGB", (2, 2)))
    transparent = Image.new("P", (2, 2))
    transparent.info["transparency"] = 0
    with pytest.raises(ValueError):
        png.encode(transparent)

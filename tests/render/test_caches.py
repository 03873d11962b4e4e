"""The picture's caches have a size: status lines carry deal numbers and move counts,
so a cache keyed by text would otherwise grow with every deal ever drawn."""

from __future__ import annotations

from engine import new_game
from render import board, columns, geometry, glyphs, render_png, sprites, stones

# Caches whose keys include a deal number, a move count or a position.
GROWING = (sprites.fit, sprites.palette_text, glyphs.text_width, glyphs._advance,
           columns._plain, columns._wrapped, stones.stones_arranged, geometry._fan,
           board._progress_sprite)


def test_caches_keyed_by_text_or_position_are_bounded_small() -> None:
    for cached in GROWING:
        size = cached.cache_info().maxsize
        assert size is not None and size <= 4096, f"{cached.__name__} keeps {size}"


def test_drawing_many_deals_keeps_each_cache_within_its_size() -> None:
    for deal in range(1, 41):
        render_png(new_game("trefoil", 500_000 + deal))
    for cached in GROWING:
        info = cached.cache_info()
        assert info.maxsize is not None and info.currsize <= info.maxsize

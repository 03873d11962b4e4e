"""Board pictures: an engine position in, PNG bytes out (Pillow only), and the same
board in words for the picture's alt text, in the player's language (``PictureWords``).

>>> from engine import new_game
>>> png = render_png(new_game("trefoil", 42))
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
>>> alt_text(new_game("trefoil", 42)).startswith("Trefoil, deal 42, 0 moves")
True
"""

from .alt_text import alt_text
from .board import render_image, render_png
from .layout import Layout, layout
from .options import PictureOptions
from .words import PictureWords

__all__ = [
    "Layout",
    "PictureOptions",
    "PictureWords",
    "alt_text",
    "layout",
    "render_image",
    "render_png",
]

"""Board pictures: an engine position in, PNG bytes out (Pillow only).

>>> from engine import new_game
>>> png = render_png(new_game("trefoil", 42))
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from .board import render_image, render_png
from .layout import Layout, layout

__all__ = ["Layout", "layout", "render_image", "render_png"]

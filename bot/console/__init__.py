"""The other adapter: the same core in a terminal (`python -m bot --console`)."""

from .pictures import KEEP_PICTURES
from .screen import CONSOLE_PLAYER
from .terminal import Console, run_console
from .words import plain

__all__ = ["CONSOLE_PLAYER", "KEEP_PICTURES", "Console", "plain", "run_console"]

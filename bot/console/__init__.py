"""The other adapter: the same core in a terminal (`python -m bot --console`)."""

from .pictures import KEEP_PICTURES
from .screen import CONSOLE_PLAYER, plain
from .terminal import Console, run_console

__all__ = ["CONSOLE_PLAYER", "KEEP_PICTURES", "Console", "plain", "run_console"]

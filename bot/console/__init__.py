"""The other adapter: the same core in a terminal (`python -m bot --console`)."""

from .pictures import KEEP_PICTURES
from .terminal import CONSOLE_PLAYER, Console, plain, run_console

__all__ = ["CONSOLE_PLAYER", "KEEP_PICTURES", "Console", "plain", "run_console"]

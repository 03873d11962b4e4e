"""The other adapter: the same core in a terminal (`python -m bot --console`)."""

from .terminal import CONSOLE_PLAYER, KEEP_PICTURES, Console, plain, run_console

__all__ = ["CONSOLE_PLAYER", "KEEP_PICTURES", "Console", "plain", "run_console"]

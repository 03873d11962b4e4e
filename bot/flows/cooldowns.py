"""Per-player cooldowns: the solver's core is shared, so one player cannot keep it busy.

Bounded: players are remembered in an ``LRU`` (a player forgotten there simply has no
cooldown running, which only errs in the player's favour).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from engine.lru import LRU

PLAYERS = 500  # the players most recently using it: others have no cooldown running


class Cooldown:
    """One use per ``every_s`` seconds per player, by ``clock`` (Unix seconds)."""

    def __init__(self, every_s: float, *, clock: Callable[[], float] = time.time) -> None:
        self.every_s = every_s
        self._clock = clock
        self._last: LRU[int, float] = LRU(PLAYERS)

    def wait(self, user_id: int) -> int:
        """0 and the use is counted; else the whole seconds left before the next use."""
        now = self._clock()
        last = self._last.get(user_id)
        if last is not None and now - last < self.every_s:
            return max(1, math.ceil(self.every_s - (now - last)))
        self._last[user_id] = now
        return 0

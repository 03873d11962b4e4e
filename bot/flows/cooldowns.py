"""Per-player cooldowns: what one player asks for often can load everyone (the solver's
core, the drawing processes, the statistics' connections), so each has a limit.

Kept in the database (``store/cooldowns.py``), so a limit holds across all the bot's
processes: a player gets one hint every 5 s, whichever process answers. While the database
takes no write (a read-only file, a full disk, a server gone), each process keeps the limit
in memory of its own instead: a cooldown that cannot be written never refuses what needs
no write of its own (a look at one's board).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from enum import StrEnum

from engine.lru import LRU

from ..replies import Refused
from ..store.cooldowns import CooldownStore
from ..store.database import StoreUnavailable
from ..words.language import _
from ..words.phrases import command


class Cooldown(StrEnum):
    """What is limited: the command, by its English name (the refusal names it), which is
    also the kind stored with each use (``store/cooldowns.py``)."""

    HINT = "hint"  # the Hint button and /hint together
    WINNABLE = "winnable"  # /new winnable:True: a proven deal takes the solver a while
    SHOW = "show"  # /show: a picture drawn again
    STATS = "stats"  # a picture and a query
    LEADERBOARD = "leaderboard"
    DAILY_BOARD = "daily-board"
    CHALLENGE = "challenge"  # a public message that calls a member
    REPLAY = "replay"  # an animation: a second of drawing


# Seconds between two uses, per player.
EVERY_S: dict[Cooldown, float] = {
    Cooldown.HINT: 5.0,
    Cooldown.WINNABLE: 30.0,
    Cooldown.SHOW: 3.0,
    Cooldown.STATS: 5.0,
    Cooldown.LEADERBOARD: 5.0,
    Cooldown.DAILY_BOARD: 5.0,
    Cooldown.CHALLENGE: 30.0,
    Cooldown.REPLAY: 20.0,
}
KEPT_HERE = 10_000  # uses kept in memory while the database takes none (the latest players)


class Cooldowns:
    """Every cooldown, by the flows' ``clock`` (Unix seconds). ``kept=False``: none at all
    (the console, one player at a terminal, whom no one else waits for)."""

    def __init__(
        self, store: CooldownStore, clock: Callable[[], float], *, kept: bool = True
    ) -> None:
        self._store = store
        self._clock = clock
        self._kept = kept
        self._here: LRU[tuple[int, Cooldown], float] = LRU(KEPT_HERE)  # (player, kind): last use

    async def wait(self, user_id: int, kind: Cooldown) -> int:
        """0, and the use is counted; else the whole seconds left before the next use."""
        if not self._kept:
            return 0
        now = self._clock()
        try:
            left = await self._store.take(user_id, kind, EVERY_S[kind], now)
        except StoreUnavailable:  # the outage is in the log already
            left = self._take_here(user_id, kind, now)
        return 0 if left <= 0 else max(1, math.ceil(left))

    def _take_here(self, user_id: int, kind: Cooldown, now: float) -> float:
        """``CooldownStore.take`` in this process's memory alone."""
        last = self._here.get((user_id, kind))
        if last is not None and now - last < EVERY_S[kind]:
            return EVERY_S[kind] - (now - last)
        self._here[(user_id, kind)] = now
        return 0.0

    async def check(self, user_id: int, kind: Cooldown) -> None:
        """Count the use; or, within the cooldown, refuse it, saying when to ask again."""
        wait = await self.wait(user_id, kind)
        if wait:
            raise Refused(_(
                "One {command} every {every} s, so everyone's games stay quick: ask again in "
                "{wait} s.", command=command(kind), every=round(EVERY_S[kind]), wait=wait,
            ))

    async def prune(self) -> int:
        """Forget uses too old for any cooldown to remember (a leader's job)."""
        return await self._store.prune(self._clock() - max(EVERY_S.values()))

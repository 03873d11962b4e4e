"""Per-player cooldowns: what one player asks for often can load everyone (the solver's
core, the drawing processes, the statistics' connections), so each has a limit.

Kept in the database (``store/cooldowns.py``), so a limit holds across all the bot's
processes: a player gets one hint every 5 s, whichever process answers.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..replies import Reply, refusal
from ..store.cooldowns import CooldownStore
from ..words.language import _
from ..words.phrases import command

# Seconds between two uses, per player.
EVERY_S: dict[str, float] = {
    "hint": 5.0,  # the Hint button and /hint together
    "winnable": 30.0,  # /new winnable:True: a proven deal takes the solver a while
    "show": 3.0,  # /show: a picture drawn again
    "stats": 5.0,  # a picture and a query
    "leaderboard": 5.0,
    "daily-board": 5.0,
    "challenge": 30.0,  # a public message that calls a member
    "replay": 20.0,  # an animation: a second of drawing
}


class Cooldowns:
    """Every cooldown, by the flows' ``clock`` (Unix seconds). ``kept=False``: none at all
    (the console, one player at a terminal, whom no one else waits for)."""

    def __init__(
        self, store: CooldownStore, clock: Callable[[], float], *, kept: bool = True
    ) -> None:
        self._store = store
        self._clock = clock
        self._kept = kept

    async def wait(self, user_id: int, kind: str) -> int:
        """0, and the use is counted; else the whole seconds left before the next use."""
        if not self._kept:
            return 0
        left = await self._store.take(user_id, kind, EVERY_S[kind], self._clock())
        return 0 if left <= 0 else max(1, math.ceil(left))

    async def refusal(self, user_id: int, kind: str) -> Reply | None:
        """None, and the use is counted; else the refusal that says when to ask again.
        ``kind``: the command limited, by its English name (``show``, ``daily-board``)."""
        wait = await self.wait(user_id, kind)
        if not wait:
            return None
        return refusal(_(
            "One {command} every {every} s, so everyone's games stay quick: ask again in "
            "{wait} s.", command=command(kind), every=round(EVERY_S[kind]), wait=wait,
        ))

    async def prune(self) -> int:
        """Forget uses too old for any cooldown to remember (a leader's job)."""
        return await self._store.prune(self._clock() - max(EVERY_S.values()))

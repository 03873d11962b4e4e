"""Discord's rate limits as the bot keeps them: the budget of channel-route edits that all
the bot's processes share (``CHANNEL_EDITS_PER_S``, a ``Budget`` per process, its part by
``fleet_share``), and discord.py's own line about a 429 left out of the log (``Tidy`` logs
each one with its scope)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

CHANNEL_EDITS_PER_S = 10.0  # the processes' channel-route edits: a fifth of the
# global limit, the rest left to everything else a bot asks (and to other processes' slips)


class Budget:
    """A token bucket: ``rate`` edits a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = burst
        self._clock = clock
        self._at = clock()

    def wait_s(self) -> float:
        """Take one edit's token: how long to wait first (0: at once)."""
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now
        self._tokens -= 1
        return 0.0 if self._tokens >= 0 else -self._tokens / self.rate

    async def take(self) -> None:
        delay = self.wait_s()
        if delay > 0:
            await asyncio.sleep(delay)


def fleet_share(shards: int, of: int, *, page_apart: bool) -> float:
    """A process's part of the channel edits' budget, its ``shards`` of the ``of`` that the
    fleet's processes serve between them. Where the Activity's page runs in a process of its
    own (``page_apart``: a fleet with the Activity set up), that process counts as one shard
    more (it asks with ``shards`` 1), so the parts still add up to the one budget."""
    return shards / (of + 1 if page_apart else of)


class QuietRetries(logging.Filter):
    """Leaves out discord.py's own line for a 429 it retries: ``Tidy`` logs each one, with
    its scope."""

    @classmethod
    def install(cls) -> None:
        """On discord.py's HTTP log, once however many bots are made."""
        logger = logging.getLogger("discord.http")
        if not any(isinstance(f, cls) for f in logger.filters):
            logger.addFilter(cls())

    def filter(self, record: logging.LogRecord) -> bool:
        message = str(record.msg)
        return not message.startswith(("We are being rate limited", "Global rate limit"))

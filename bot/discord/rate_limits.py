"""Discord's rate limits as the bot keeps them: the budget of channel-route edits that all
the bot's processes share (``CHANNEL_EDITS_PER_S``, a ``Budget`` per process, its part by
``fleet_share``), a channel's edits of its messages older than an hour (``OldMessages``),
and discord.py's own line about a 429 left out of the log (``Tidy`` logs each one with its
scope)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable, Iterable

from engine.lru import LRU

CHANNEL_EDITS_PER_S = 10.0  # the processes' channel-route edits: a fifth of the
# global limit, the rest left to everything else a bot asks (and to other processes' slips)
# A channel's messages older than an hour take a few edits through its route every few
# seconds, or Discord answers 429 with error 30046. It documents no number: 3 in 6 s is
# what the userdoccers measured (discord-userdoccers, Edit Message). Counted here as an edit
# is sent, and Discord counts it as it arrives, however long the way: a second more.
OLD_EDITS, OLD_EDITS_PER_S = 3, 6.0 + 1.0
OLD_MESSAGE_S = 55 * 60  # older than this, a message counts as old (Discord's clock may run
# a little ahead of ours)
DISCORD_EPOCH_S = 1_420_070_400  # a message's id holds when it was made, in ms since then
CHANNELS_KEPT = 10_000  # channels whose recent edits of old messages are remembered


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


class OldMessages:
    """This process's part of each channel's edits of its messages older than an hour
    (``OLD_EDITS`` every ``OLD_EDITS_PER_S`` for the fleet, at least one each). ``clock``:
    monotonic seconds; ``wall``: Unix seconds, for a message's age from its id."""

    def __init__(self, share: float = 1.0, *, clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time) -> None:
        self.per_window = max(1, int(OLD_EDITS * share))
        self.clock = clock
        self.wall = wall
        self._edits: LRU[int, deque[float]] = LRU(CHANNELS_KEPT)  # channel -> recent edits

    def is_old(self, message_id: int) -> bool:
        made_s = (message_id >> 22) / 1000 + DISCORD_EPOCH_S
        return self.wall() - made_s > OLD_MESSAGE_S

    def wait_s(self, channel_id: int, message_id: int) -> float:
        """How long an edit of ``message_id`` must wait for Discord to take it (0: now)."""
        edits = self._edits.get(channel_id)
        if not edits or not self.is_old(message_id):
            return 0.0
        now = self.clock()
        while edits and edits[0] <= now - OLD_EDITS_PER_S:
            edits.popleft()
        return 0.0 if len(edits) < self.per_window else edits[0] + OLD_EDITS_PER_S - now

    def took(self, channel_id: int, message_id: int) -> None:
        """An edit of ``message_id`` is sent now."""
        if self.is_old(message_id):
            edits = self._edits.get(channel_id)
            if edits is None:
                edits = self._edits[channel_id] = deque()
            edits.append(self.clock())

    def first_taken(self, edits: Iterable[tuple[int, int]]) -> tuple[int | None, float | None]:
        """Of ``edits`` waiting (message id, channel id), oldest first, the first that Discord
        takes now; else None, and how long until one may be taken (None: none waits)."""
        soonest: float | None = None
        for message_id, channel_id in edits:
            wait = self.wait_s(channel_id, message_id)
            if wait <= 0:
                return message_id, 0.0
            soonest = wait if soonest is None else min(soonest, wait)
        return None, soonest

    async def room(self, channel_id: int, message_id: int) -> None:
        """Wait until Discord takes an edit of ``message_id``, and count it as sent."""
        while (wait := self.wait_s(channel_id, message_id)) > 0:
            await asyncio.sleep(wait)
        self.took(channel_id, message_id)


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

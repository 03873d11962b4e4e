"""The deals the bot hands out: a random one, or one proven winnable (``/new winnable``,
a challenge's deal), from a pool kept in the database for all processes, refilled as
soon as a deal is taken from it rather than when a player finds it empty."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable, Iterable

from engine import GAMES

from ..store.database import NotLeading, StoreUnavailable
from ..store.pool import PoolStore
from ..workers.solver import SolverWorker

log = logging.getLogger(__name__)

RANDOM_DEAL_MAX = 999_999  # random deals stay short enough to share; any deal up to MAX_DEAL plays
WINNABLE_POOL = 10  # proven-winnable deals kept ready per game for `/new winnable`
WINNABLE_TRIES_NOW = 6  # deals tried on the spot when the pool is empty


class Deals:
    """Deals to hand out: ``random`` at once, ``winnable`` from the pool (or proven on the
    spot), and the pool kept filled (by the leader)."""

    def __init__(self, pool: PoolStore, worker: SolverWorker, *,
                 clock: Callable[[], float] = time.time,
                 deals: random.Random | None = None) -> None:
        self.pool = pool
        self.worker = worker
        self._clock = clock
        self._deals = deals or random.Random()
        self._pool_wanted = asyncio.Event()

    def random_deal(self) -> int:
        return self._deals.randint(1, RANDOM_DEAL_MAX)

    def pool_wanted(self) -> None:
        """A deal was taken from the pool, maybe by another process: top it up now."""
        self._pool_wanted.set()

    async def winnable(self, game_id: str) -> int | None:
        """A deal from the pool, or one proven on the spot; None if none is found in time."""
        deal = await self.pool.take(game_id)
        self._pool_wanted.set()  # top the pool up now, ahead of the next player
        if deal is not None:
            return deal
        return await self.proven_now(game_id)

    async def proven_now(self, game_id: str) -> int | None:
        """A deal proven winnable on the spot, for when the pool is empty; None if none of
        a few tried is proven in time."""
        for _try in range(WINNABLE_TRIES_NOW):
            candidate = self.random_deal()
            if await self.worker.is_winnable(game_id, candidate, budget_s=1.0):
                return candidate
        return None

    async def fill_pool(
        self, *, target: int = WINNABLE_POOL, games: Iterable[str] = GAMES
    ) -> int:
        """Top up each game's pool of proven-winnable deals to ``target``; deals added."""
        added = 0
        for game_id in games:
            tries = 0
            while await self.pool.count(game_id) < target and tries < 4 * target:
                tries += 1
                deal = self.random_deal()
                if await self.worker.is_winnable(game_id, deal) and await self.pool.add(
                    game_id, deal, self._clock(), target=target
                ):
                    added += 1
        return added

    async def keep_pool_filled(self, *, first_s: float = 30.0, pause_s: float = 60.0) -> None:
        """Refill the pools for as long as the bot runs (a background task); it starts after
        ``first_s`` so that a restart serves players before it searches."""
        await asyncio.sleep(first_s)
        while True:
            self._pool_wanted.clear()
            try:
                await self.fill_pool()
            except NotLeading:
                return  # the lease is lost; the leadership stops this task anyway
            except StoreUnavailable:
                pass  # the outage is in the log already; try again after the pause
            except Exception:
                log.exception("filling the pool of winnable deals failed")
            # Again after a pause, or at once when a deal is taken from the pool.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._pool_wanted.wait(), pause_s)

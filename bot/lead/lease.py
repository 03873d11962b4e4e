"""Leading: several bot processes may share one database, and one of them leads.

The leader syncs the slash commands (if they changed) and runs the background jobs (it
keeps the pool of winnable deals filled). Leadership is held like a lease (on
PostgreSQL, an advisory lock on a session of its own): a leader whose lease is lost — its
session or the server gone — hears of it at once, stops its jobs and competes again with
the others; whoever takes the lease starts that work afresh. What only the leader may
write goes through the lease's own session (``Database.as_leader``), so a leader that
has not yet heard of its loss cannot write it. Every ``CHECK_S`` the leader checks its
lease and the others ask for it. On SQLite the one process leads.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from ..store.database import StoreUnavailable
from ..store.meta import MetaStore

log = logging.getLogger(__name__)

CHECK_S = 5.0  # how often a leader checks its lease, and the others ask for it

Work = Callable[[], Awaitable[None]]
Job = Callable[[], Coroutine[Any, Any, None]]  # runs as a task while this process leads


class Leadership:
    """Competes for the lease; each time it is taken, runs ``on_lead`` once (say, sync the
    commands) and then keeps each of ``jobs`` running until the lease is lost."""

    def __init__(self, meta: MetaStore, *, check_s: float = CHECK_S) -> None:
        self._meta = meta
        self._check_s = check_s
        self.leading = False
        self._jobs: list[asyncio.Task[None]] = []
        self._watch: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    async def start(self, on_lead: Work, jobs: list[Job]) -> bool:
        """Ask for the lease now (and run ``on_lead`` if it is taken), then keep asking or
        checking in the background. Whether this process leads now."""
        await self._check(on_lead, jobs)
        self._watch = asyncio.get_running_loop().create_task(self._keep(on_lead, jobs))
        return self.leading

    async def _keep(self, on_lead: Work, jobs: list[Job]) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self._check_s)
            self._wake.clear()
            await self._check(on_lead, jobs)

    async def _check(self, on_lead: Work, jobs: list[Job]) -> None:
        try:
            holds = await self._meta.try_lead(self._lost)
        except StoreUnavailable:
            holds = False  # the outage is in the log already
        except Exception:
            log.warning("could not ask for the lead; asking again in %.0f s", self._check_s,
                        exc_info=True)
            holds = False
        if holds and not self.leading:
            self.leading = True
            log.info("this process leads now: it syncs the commands if they changed and "
                     "fills the winnable pool")
            try:
                await on_lead()
            except Exception:
                log.exception("the leader's first work failed")
            loop = asyncio.get_running_loop()
            self._jobs = [loop.create_task(job()) for job in jobs]
        elif not holds and self.leading:
            self._lost()

    def _lost(self) -> None:
        """The lease is lost (or found lost): stop the leader's work now, compete again."""
        if self.leading:
            self.leading = False
            log.warning("this process no longer leads: its background jobs stop until it "
                        "leads again")
            self._stop_jobs()
        self._wake.set()

    def _stop_jobs(self) -> None:
        for task in self._jobs:
            task.cancel()
        self._jobs = []

    async def stop(self) -> None:
        """Stop competing and stop the leader's work (the lease goes with the database)."""
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
        self._stop_jobs()
        self.leading = False

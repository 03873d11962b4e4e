"""Leading the fleet: several bot processes may share one database, and one of them leads.

The leader syncs the slash commands (if they changed) and keeps the pool of winnable
deals filled. Leadership is held like a lease: the leader checks every ``CHECK_S`` that
it still holds it (on PostgreSQL, an advisory lock on a connection of its own, lost with
that connection or the server); a leader that lost it stops its work at once and competes
again with the others, and whoever takes over starts that work afresh. On SQLite the one
process leads.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from .store.meta import MetaStore

log = logging.getLogger(__name__)

NAME = "background"  # the lease: what the leader holds
CHECK_S = 5.0  # how often a leader checks its lease, and the others ask for it

Work = Callable[[], Awaitable[None]]
Job = Callable[[], Coroutine[Any, Any, None]]  # runs as a task while this process leads


class Leadership:
    """Competes for the lease; while it holds it, runs ``on_lead`` once (say, sync the
    commands) and then keeps each of ``jobs`` running until the lease is lost."""

    def __init__(self, meta: MetaStore, *, check_s: float = CHECK_S) -> None:
        self._meta = meta
        self._check_s = check_s
        self.leading = False
        self._jobs: list[asyncio.Task[None]] = []
        self._watch: asyncio.Task[None] | None = None

    async def start(self, on_lead: Work, jobs: list[Job]) -> bool:
        """Ask for the lease now (and run ``on_lead`` if it is taken), then keep asking or
        checking in the background. Whether this process leads now."""
        await self._check(on_lead, jobs)
        self._watch = asyncio.get_running_loop().create_task(self._keep(on_lead, jobs))
        return self.leading

    async def _keep(self, on_lead: Work, jobs: list[Job]) -> None:
        while True:
            await asyncio.sleep(self._check_s)
            await self._check(on_lead, jobs)

    async def _check(self, on_lead: Work, jobs: list[Job]) -> None:
        try:
            holds = await self._meta.try_lead(NAME)
        except Exception:
            log.warning("could not ask for the lead; asking again in %.0f s", self._check_s,
                        exc_info=True)
            holds = False
        if holds and not self.leading:
            self.leading = True
            log.info("leading: syncing commands if they changed and filling the winnable pool")
            try:
                await on_lead()
            except Exception:
                log.exception("the leader's first work failed")
            loop = asyncio.get_running_loop()
            self._jobs = [loop.create_task(job()) for job in jobs]
        elif not holds and self.leading:
            self.leading = False
            log.warning("no longer leading: the pool filling stops until this process leads again")
            self._stop_jobs()

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

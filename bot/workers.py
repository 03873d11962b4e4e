"""Worker processes beside the bot: the solver's, and the ones that draw pictures.

They start fresh (``spawn``: none of the bot's threads, connections or locks is copied into
them) and leave when the bot's process is gone, even if it was killed outright. What runs in
them travels pickled, so it is plain data and functions of modules.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

log = logging.getLogger(__name__)


def process_pool(workers: int, *, start_now: bool = False) -> ProcessPoolExecutor:
    """``workers`` processes, each started at the first task that finds none idle, or all
    of them now (``start_now``), so that no first task waits for one to start."""
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_exit_with,
        initargs=(os.getpid(),),
    )
    if start_now:
        for _ in range(workers):
            pool.submit(int)  # a task for each, none idle yet: a process for each
    return pool


def _exit_with(parent: int) -> None:
    """In a worker: leave when the bot's process is gone, even if it was killed outright."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class Workers:
    """A pool of ``workers`` processes doing ``what`` (for the log) that is started again
    when one of its processes dies (killed, out of memory): the task that found the pool
    broken is tried once more, so a death costs one retry, not every task until the bot
    restarts."""

    def __init__(self, what: str, workers: int, *, start_now: bool = False) -> None:
        self.what = what
        self.workers = workers
        self.start_now = start_now
        self.pool = process_pool(workers, start_now=start_now)

    async def run(self, work: Any, *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        pool = self.pool
        try:
            return await loop.run_in_executor(pool, work, *args)
        except BrokenProcessPool:
            if self.pool is pool:  # the first to find it broken starts a new one
                log.error("a %s process died; starting the %s processes again",
                          self.what, self.what)
                pool.shutdown(wait=False, cancel_futures=True)
                self.pool = process_pool(self.workers, start_now=self.start_now)
            return await loop.run_in_executor(self.pool, work, *args)

    def shutdown(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)

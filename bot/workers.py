"""Worker processes beside the bot: the solver's, and the ones that draw pictures.

They start fresh (``spawn``: none of the bot's threads, connections or locks is copied into
them) and leave when the bot's process is gone, even if it was killed outright. What runs in
them travels pickled, so it is plain data and functions of modules.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor


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

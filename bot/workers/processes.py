"""Worker processes beside the bot: the solver's, and the ones that draw pictures.

Each is a fresh ``python -m bot.workers.child`` (none of the bot's threads, connections,
locks or imports is copied into it: a drawing process holds Pillow and the engine, not
discord.py) that takes tasks over a pipe and answers them one after another. The event
loop writes the tasks and reads the answers itself: no thread, queue or lock stands
between them, so a picture costs the bot's process little more than pickling its game. A
worker leaves when the bot's process is gone, even if it was killed outright (its standard
input ends). What runs in them travels pickled, so it is plain data and functions of
modules.

Why not ``concurrent.futures.ProcessPoolExecutor`` (forkserver, ``max_tasks_per_child``):
``python -m benchmarks.workers_vs_pool``, 2026-11-28, medians of 5 rounds, one process. A
board's picture is back in 0.68 ms here and 0.99 there, and costs the bot's process 0.11 ms
of CPU against 0.26 (the pool's manager and feeder threads; a move costs the bot 2.1-2.6 ms
in all); a bare round trip takes 0.05 ms against 0.22. A worker killed mid-task breaks that
pool whole: every task waiting fails with BrokenProcessPool, and so does every later one
until a new pool is made (0.24 s to the next answer, 0.05 here). Its worker outlives a bot
killed outright (still there 10 s on, 35 MB), and its forkserver and resource tracker hold
27 MB more. ``max_tasks_per_child`` deadlocks on Python 3.11 (CPython gh-115634: every round
hung, in three runs), and the solver's process must not be recycled anyway: it remembers the
winning lines its hints found (``solver.py`` forks a copy for a long search instead).
Neither stops a task that runs: a search is bounded by its own budget.
"""

from __future__ import annotations

import asyncio
import logging
import os
import pickle
import subprocess
import sys
from collections import deque
from typing import Any

from .child import LENGTH, framed

log = logging.getLogger(__name__)

AHEAD = 2  # tasks a process holds at once: the one it works on, and the next


class WorkerDied(RuntimeError):
    """The worker process ended before it answered."""


class _Process:
    """One worker process. The event loop watches its answers' pipe and reads what comes
    (``_readable``); a task is written to its other pipe whole, which never waits (a pipe
    holds far more than the few small tasks sent ahead). Answers come back in the order
    the tasks went, each to the future waiting for it."""

    def __init__(self, nice: int = 0) -> None:
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "bot.workers.child", *(["--nice", str(nice)] if nice else [])],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        assert self.popen.stdin is not None and self.popen.stdout is not None
        self._tasks = self.popen.stdin
        self._answers = self.popen.stdout.fileno()
        os.set_blocking(self._answers, False)
        self._received = bytearray()
        # The tasks sent and not yet answered, oldest first. A caller that stopped waiting
        # leaves its future cancelled here: its answer is still read, and dropped.
        self._waiting: deque[asyncio.Future[bytes]] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None  # watching the answers
        self._ended = False

    @property
    def pid(self) -> int:
        return self.popen.pid

    def send(self, task: bytes) -> asyncio.Future[bytes]:
        """Send one pickled task; the future of its pickled answer, which fails with
        WorkerDied if the process ends first. Nothing here waits: no task of its own."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[bytes] = loop.create_future()
        if self._ended:
            answer.set_exception(WorkerDied())
            return answer
        if self._loop is None:
            self._loop = loop
            loop.add_reader(self._answers, self._readable)
        try:
            self._tasks.write(framed(task))
            self._tasks.flush()
        except (OSError, ValueError) as exc:  # a broken or closed pipe: the process is gone
            died = WorkerDied()
            died.__cause__ = exc
            answer.set_exception(died)
            return answer
        self._waiting.append(answer)
        return answer

    def _readable(self) -> None:
        try:
            chunk = os.read(self._answers, 1 << 16)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:  # the process has ended
            self._end()
            return
        self._received += chunk
        while len(self._received) >= LENGTH.size:
            (size,) = LENGTH.unpack_from(self._received)
            if len(self._received) < LENGTH.size + size:
                return
            answer = bytes(self._received[LENGTH.size : LENGTH.size + size])
            del self._received[: LENGTH.size + size]
            if self._waiting:
                waiting = self._waiting.popleft()
                if not waiting.done():
                    waiting.set_result(answer)

    def _end(self) -> None:
        """No more answers: stop watching, and fail the tasks waiting for one."""
        self._ended = True
        if self._loop is not None and not self._loop.is_closed():
            self._loop.remove_reader(self._answers)
        while self._waiting:
            waiting = self._waiting.popleft()
            if not waiting.done():
                waiting.set_exception(WorkerDied())

    def stop(self) -> None:
        """End the process now and close its pipes."""
        self._end()
        if self.popen.poll() is None:
            self.popen.kill()
        self.popen.wait()
        for pipe in (self.popen.stdin, self.popen.stdout):
            if pipe is not None and not pipe.closed:
                pipe.close()


class Workers:
    """Up to ``workers`` processes doing ``what`` (for the log). A task goes to an idle
    process, or starts one, or else is sent ahead to the least busy process, up to
    ``AHEAD`` tasks a process: a process then starts its next task the moment it answers,
    instead of waiting for the event loop to hand it one (under load, a turn of the loop
    takes longer than a picture). Beyond that a task waits. A process starts when a task
    finds none idle, or all of them at once (``start_now``). A process that dies (killed,
    out of memory) is started again, and each task that found it dead is tried once more:
    a death costs one retry, not every task until the bot restarts."""

    def __init__(
        self, what: str, workers: int, *, start_now: bool = False, nice: int = 0
    ) -> None:
        self.what = what
        self.workers = workers
        self.nice = nice  # how much lower the processes' priority is than the bot's
        self._processes: list[_Process] = []
        self._busy: dict[_Process, int] = {}  # a process's tasks not yet answered
        self._free = asyncio.Semaphore(workers * AHEAD)
        self._closed = False
        if start_now:
            for _ in range(workers):
                self._start()

    def _start(self) -> _Process:
        process = _Process(self.nice)
        self._processes.append(process)
        self._busy[process] = 0
        return process

    def pids(self) -> list[int]:
        """The process ids of the workers running now."""
        return [process.pid for process in self._processes]

    async def run(self, work: Any, *args: Any) -> Any:
        """``work(*args)`` in a worker process: its result, or the exception it raised."""
        task = pickle.dumps((work, args), protocol=pickle.HIGHEST_PROTOCOL)
        try:
            ok, value = await self._once(task)
        except WorkerDied:
            ok, value = await self._once(task)
        if not ok:
            raise value
        return value

    async def _once(self, task: bytes) -> tuple[bool, Any]:
        if self._closed:
            raise RuntimeError(f"the {self.what} processes are shut down")
        await self._free.acquire()
        if self._closed:
            self._free.release()
            raise RuntimeError(f"the {self.what} processes are shut down")
        process = self._pick()
        self._busy[process] += 1
        answer = process.send(task)
        if answer.done():  # not even sent (the process is gone): its place is free now, so
            self._release(process, answer)  # that trying again picks a live process
        else:  # the place is taken until the answer is read, even if the caller stopped
            # waiting for it (a cancelled task): the answer still comes, in its turn.
            answer.add_done_callback(lambda done: self._release(process, done))
        result: tuple[bool, Any] = pickle.loads(await asyncio.shield(answer))
        return result

    def _pick(self) -> _Process:
        """An idle process; else a new one, while there may be more; else the least busy
        (the semaphore keeps each to ``AHEAD``)."""
        for process in self._processes:
            if not self._busy[process]:
                return process
        if len(self._processes) < self.workers:
            return self._start()
        return min(self._processes, key=self._busy.__getitem__)

    def _release(self, process: _Process, done: asyncio.Future[Any]) -> None:
        self._free.release()
        if process not in self._busy:  # replaced already, after another task found it dead
            return
        self._busy[process] -= 1
        died = not done.cancelled() and isinstance(done.exception(), WorkerDied)
        if self._closed or not died:
            return
        log.error("a %s process died; starting it again", self.what)
        self._processes.remove(process)
        del self._busy[process]
        process.stop()
        self._start()

    def shutdown(self) -> None:
        self._closed = True
        for process in self._processes:
            process.stop()

"""Worker processes beside the bot: the solver's, and the ones that draw pictures.

Each is a fresh ``python -m bot.worker_process`` (none of the bot's threads, connections,
locks or imports is copied into it: a drawing process holds Pillow and the engine, not
discord.py) that takes one task at a time over a pipe. The event loop writes the task and
reads the answer itself: no thread, queue or lock stands between them, so a picture costs
the bot's process little more than pickling its game. A worker leaves when the bot's
process is gone, even if it was killed outright (its standard input ends). What runs in
them travels pickled, so it is plain data and functions of modules.
"""

from __future__ import annotations

import asyncio
import logging
import os
import pickle
import subprocess
import sys
from typing import Any

from .worker_process import LENGTH, framed

log = logging.getLogger(__name__)


class WorkerDied(RuntimeError):
    """The worker process ended before it answered."""


class _Process:
    """One worker process. The event loop watches its answers' pipe and reads what comes
    (``_readable``); a task is written to its other pipe whole, which never waits: the
    process reads it at once, having nothing else to do."""

    def __init__(self) -> None:
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "bot.worker_process"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        assert self.popen.stdin is not None and self.popen.stdout is not None
        self._tasks = self.popen.stdin
        self._answers = self.popen.stdout.fileno()
        os.set_blocking(self._answers, False)
        self._received = bytearray()
        self._answer: asyncio.Future[bytes] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None  # watching the answers
        self._ended = False

    @property
    def pid(self) -> int:
        return self.popen.pid

    async def exchange(self, task: bytes) -> tuple[bool, Any]:
        """Send one pickled task; its unpickled answer, ``(True, result)`` or ``(False,
        exception)``. Raises WorkerDied if the process ends first."""
        if self._ended:
            raise WorkerDied
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
            self._loop.add_reader(self._answers, self._readable)
        self._answer = self._loop.create_future()
        try:
            self._tasks.write(framed(task))
            self._tasks.flush()
        except (OSError, ValueError) as exc:  # a broken or closed pipe: the process is gone
            raise WorkerDied from exc
        answer: tuple[bool, Any] = pickle.loads(await self._answer)
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
        if len(self._received) < LENGTH.size:
            return
        (size,) = LENGTH.unpack_from(self._received)
        if len(self._received) >= LENGTH.size + size:
            answer = bytes(self._received[LENGTH.size : LENGTH.size + size])
            del self._received[: LENGTH.size + size]
            if self._answer is not None and not self._answer.done():
                self._answer.set_result(answer)

    def _end(self) -> None:
        """No more answers: stop watching, and fail the task waiting for one."""
        self._ended = True
        if self._loop is not None and not self._loop.is_closed():
            self._loop.remove_reader(self._answers)
        if self._answer is not None and not self._answer.done():
            self._answer.set_exception(WorkerDied())

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
    """Up to ``workers`` processes doing ``what`` (for the log), one task each at a time;
    a task waits for one to be free. A process starts when a task finds none free, or all
    of them at once (``start_now``), so that no first task waits for one to start. A process
    that dies (killed, out of memory) is started again and the task that found it dead is
    tried once more: a death costs one retry, not every task until the bot restarts."""

    def __init__(self, what: str, workers: int, *, start_now: bool = False) -> None:
        self.what = what
        self.workers = workers
        self._processes: list[_Process] = []
        self._idle: asyncio.Queue[_Process] = asyncio.Queue()
        self._closed = False
        if start_now:
            for _ in range(workers):
                self._start()

    def _start(self) -> None:
        process = _Process()
        self._processes.append(process)
        self._idle.put_nowait(process)

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
        if self._idle.empty() and len(self._processes) < self.workers:
            self._start()
        process = await self._idle.get()
        exchange = asyncio.ensure_future(process.exchange(task))
        # The process is free again once its answer is read, even if the caller stopped
        # waiting for it (a cancelled task): the next task must not read this answer.
        exchange.add_done_callback(lambda done: self._release(process, done))
        return await asyncio.shield(exchange)

    def _release(self, process: _Process, done: asyncio.Future[Any]) -> None:
        died = not done.cancelled() and isinstance(done.exception(), WorkerDied)
        if self._closed:  # shut down while it worked: nothing to start again
            return
        if died:
            log.error("a %s process died; starting it again", self.what)
            self._processes.remove(process)
            process.stop()
            self._start()
        else:
            self._idle.put_nowait(process)

    def shutdown(self) -> None:
        self._closed = True
        for process in self._processes:
            process.stop()

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
import pickle
import subprocess
import sys
from typing import Any

from .worker_process import LENGTH, framed

log = logging.getLogger(__name__)


class WorkerDied(RuntimeError):
    """The worker process ended before it answered."""


class _Process:
    """One worker process, and the event loop's ends of its pipes (connected at its first
    task, inside the running loop)."""

    def __init__(self) -> None:
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "bot.worker_process"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.WriteTransport | None = None
        self._reading: asyncio.BaseTransport | None = None

    @property
    def pid(self) -> int:
        return self.popen.pid

    async def _connect(self) -> tuple[asyncio.StreamReader, asyncio.WriteTransport]:
        if self._reader is None or self._writer is None:
            loop = asyncio.get_running_loop()
            assert self.popen.stdin is not None and self.popen.stdout is not None
            reader = asyncio.StreamReader(limit=2**26)
            self._reading, _ = await loop.connect_read_pipe(
                lambda: asyncio.StreamReaderProtocol(reader), self.popen.stdout
            )
            self._writer, _ = await loop.connect_write_pipe(
                asyncio.BaseProtocol, self.popen.stdin
            )
            self._reader = reader
        return self._reader, self._writer

    async def exchange(self, task: bytes) -> tuple[bool, Any]:
        """Send one pickled task; its unpickled answer, ``(True, result)`` or ``(False,
        exception)``. Raises WorkerDied if the process ends first."""
        try:
            reader, writer = await self._connect()
            if writer.is_closing():
                raise WorkerDied
            writer.write(framed(task))
            (size,) = LENGTH.unpack(await reader.readexactly(LENGTH.size))
            answer: tuple[bool, Any] = pickle.loads(await reader.readexactly(size))
        except (asyncio.IncompleteReadError, ConnectionError) as exc:
            raise WorkerDied from exc
        return answer

    def stop(self) -> None:
        """End the process now and close its pipes."""
        for transport in (self._writer, self._reading):
            if transport is not None:
                transport.close()
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

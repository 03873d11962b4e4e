"""The page's server for a benchmark: ``python -m bot --web --dev`` in its own process.

    async with dev_page() as (url, folder, pid):
        ...

It starts on a free loopback port with a new SQLite file in a temporary folder, is waited
for until it answers, and is stopped (and the folder removed) when the block ends.
``cpu_seconds(pid)`` is the CPU time the server and its children (the drawing process) have
used so far.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import sys
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def wait_up(url: str) -> None:
    async with aiohttp.ClientSession() as http:
        for _ in range(200):
            with contextlib.suppress(aiohttp.ClientError):
                async with http.get(url):
                    return
            await asyncio.sleep(0.05)
    raise RuntimeError("the page's server did not start")


@contextlib.asynccontextmanager
async def dev_page() -> AsyncIterator[tuple[str, Path, int]]:
    """The running server's address (ending in ``/``), the folder it runs in and its
    process id."""
    port = free_port()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        env = {**os.environ, "DATABASE_PATH": str(folder / "bench.db"),
               "WEB_PORT": str(port), "LOG_LEVEL": "WARNING"}
        server = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "--web", "--dev", cwd=folder, env=env)
        url = f"http://127.0.0.1:{port}/"
        try:
            await wait_up(url)
            yield url, folder, server.pid
        finally:
            server.terminate()
            await server.wait()


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` and its children so far (Linux /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(stat.parent.name) == pid or int(fields[1]) == pid:  # (its parent's id)
                total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks

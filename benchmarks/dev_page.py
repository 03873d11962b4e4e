"""The page's server for a benchmark: ``python -m bot --web --dev`` in its own process.

    async with dev_page() as (url, folder):
        ...

It starts on a free loopback port with a new SQLite file in a temporary folder, is waited
for until it answers, and is stopped (and the folder removed) when the block ends.
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
async def dev_page() -> AsyncIterator[tuple[str, Path]]:
    """The running server's address (ending in ``/``) and the folder it runs in."""
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
            yield url, folder
        finally:
            server.terminate()
            await server.wait()

"""Where the bot's CPU goes: py-spy samples of its process, added up by the code they are in.

``bench_bot --profile FILE`` records the bot's process with ``py-spy record --gil`` (only the
samples where a thread holds Python's lock, which the bot's one event loop shares with its
threads) while the many players play, keeps the raw samples in FILE and prints each part's
share. py-spy is not a dependency of the project: ``pip install py-spy``.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import signal
import sys
from collections import Counter
from pathlib import Path

# The first of these found in a sample's stack, from its innermost frame out, names its part.
PARTS = (
    ("render/", "drawing (render, Pillow)"),
    ("PIL/", "drawing (render, Pillow)"),
    ("engine/", "engine (legal moves, play)"),
    ("bot/store/", "store (SQLite, aiosqlite)"),
    ("aiosqlite/", "store (SQLite, aiosqlite)"),
    ("bot/", "bot: flow, boards, sending"),
    ("tests/e2e/", "bot: flow, boards, sending"),
    ("discord/webhook/", "discord.py: HTTP requests"),
    ("discord/http.py", "discord.py: HTTP requests"),
    ("discord/", "discord.py: gateway, interactions, views"),
    ("aiohttp/", "aiohttp (HTTP, websocket)"),
    ("yarl/", "aiohttp (HTTP, websocket)"),
    ("multidict/", "aiohttp (HTTP, websocket)"),
    ("multiprocessing/", "worker processes (sending work, results)"),
    ("concurrent/futures/process", "worker processes (sending work, results)"),
    ("asyncio/", "asyncio event loop"),
)
_FILE = re.compile(r"\(([^():]+):\d+\)")


def py_spy() -> str | None:
    """The py-spy program: beside this Python, or on the PATH."""
    beside = Path(sys.executable).with_name("py-spy")
    return str(beside) if beside.exists() else shutil.which("py-spy")


class Recording:
    """``py-spy record`` of one process, from ``start`` until ``stop``."""

    def __init__(self, pid: int, raw: Path) -> None:
        self.pid = pid
        self.raw = raw
        self._proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        program = py_spy()
        if program is None:
            raise SystemExit("--profile needs py-spy: pip install py-spy")
        self._proc = await asyncio.create_subprocess_exec(
            program, "record", "--pid", str(self.pid), "--gil", "--nonblocking",
            "--rate", "200", "--format", "raw", "--output", str(self.raw),
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
        )
        await asyncio.sleep(0.5)  # attached before the run starts

    async def stop(self) -> None:
        assert self._proc is not None
        self._proc.send_signal(signal.SIGINT)  # py-spy writes its samples and exits
        await self._proc.wait()


def part_of(stack: str) -> str:
    for frame in reversed(stack.split(";")):
        match = _FILE.search(frame)
        path = match.group(1) if match else frame
        for marker, part in PARTS:
            if marker in path:
                return part
    return "other"


def breakdown(raw: Path) -> tuple[int, list[tuple[str, float]]]:
    """Samples in all, and each part's share of them, largest first."""
    counts: Counter[str] = Counter()
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if count.isdigit():
            counts[part_of(stack)] += int(count)
    total = sum(counts.values())
    return total, [(part, n / total) for part, n in counts.most_common()] if total else []

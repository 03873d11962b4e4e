"""``python -m benchmarks.workers_vs_pool``: the project's worker processes
(``bot.workers.processes.Workers``) against the standard library's
``concurrent.futures.ProcessPoolExecutor`` (forkserver, ``max_tasks_per_child``), on what the
bot asks of them. Not a test: it prints figures, each the median of ``--repeat`` rounds with
the lowest and highest beside it (a shared two-core machine is noisy). The contenders:
``workers``; ``pool``, the executor wrapped as the bot would need it (a pool broken by a dead
worker is replaced and the task tried once more, as ``Workers`` does); ``pool-100``, the same
with ``max_tasks_per_child=100``. A part of a round not over in 30 s is counted as hung, and
the rest of that contender's round left out.

* **latency**: one task at a time, each awaited: a trivial call (the round trip alone), a
  board's picture (``bot.workers.pictures._board``, a Trefoil board a few moves in) and a tiny
  solver verdict (``_verdict_work``, 1 ms of search). Wall ms per task, and the bot's own CPU
  per task (this process, all its threads: the pool's manager and feeder threads included).
* **throughput**: ``--burst`` pictures asked for at once, in one process (the bot's default on
  two cores) and in two.
* **deadline**: a task that runs 1 s, which its caller stops waiting for after 0.1 s; how long
  until a small task sent next answers. Neither can stop a running task (a cancelled future
  only drops the answer), so the search's own budget is what bounds it.
* **crash**: a worker killed (SIGKILL) while it works, with more tasks waiting: how many of
  them still get their answer, and how long the first one after it takes.
* **orphans**: the bot's process killed outright: whether its workers leave.
* **memory**: an idle worker's resident size, once it has drawn a picture, and that of the
  processes that serve the pool (the forkserver and its resource tracker).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import multiprocessing
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.workers.pictures import _board
from bot.workers.processes import Workers
from bot.workers.solver import _verdict_work
from engine import Game, new_game
from render import PictureOptions, render_png


def board_game() -> Game:
    game = new_game("trefoil", 7)
    for _ in range(6):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(moves[0])
    return game


GAME = board_game()
PICTURE = functools.partial(_board, render_png, "en", GAME, PictureOptions())
VERDICT = functools.partial(_verdict_work, new_game("trefoil", 1).to_dict(), 0.001, False)


def spin(seconds: float) -> float:
    """CPU-bound work for ``seconds`` (a search that runs on)."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass
    return seconds


# -- the two contenders, behind one face ---------------------------------------------------


class Ours:
    def __init__(self, processes: int) -> None:
        self.workers = Workers("bench", processes, start_now=True)

    async def run(self, work: Callable[..., Any], *args: Any) -> Any:
        return await self.workers.run(work, *args)

    def pids(self) -> list[int]:
        return self.workers.pids()

    def helpers(self) -> list[int]:
        return []  # the bot's process talks to its workers itself

    def close(self) -> None:
        self.workers.shutdown()

    abandon = close


class Pool:
    """``ProcessPoolExecutor`` as the bot would have to use it: a broken pool (a worker
    died) is replaced, and a task it broke is tried once more, as ``Workers`` does."""

    def __init__(self, processes: int, max_tasks_per_child: int | None = None) -> None:
        self.processes = processes
        self.max_tasks = max_tasks_per_child
        self.executor = self._new()

    def _new(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(self.processes,
                                   mp_context=multiprocessing.get_context("forkserver"),
                                   max_tasks_per_child=self.max_tasks)

    async def run(self, work: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        executor = self.executor
        try:
            return await loop.run_in_executor(executor, work, *args)
        except BrokenProcessPool:
            if self.executor is executor:
                self.executor = self._new()
                executor.shutdown(wait=False, cancel_futures=True)
            return await loop.run_in_executor(self.executor, work, *args)

    def pids(self) -> list[int]:
        return list(self.executor._processes)  # private: the library names no pids

    def helpers(self) -> list[int]:
        """The processes that serve the pool: the forkserver and the resource tracker."""
        from multiprocessing import forkserver, resource_tracker

        found = [forkserver._forkserver._forkserver_pid,  # type: ignore[attr-defined]
                 resource_tracker._resource_tracker._pid]  # type: ignore[attr-defined]
        return [pid for pid in found if pid]

    def close(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)

    def abandon(self) -> None:
        """A stuck pool: its processes killed, nothing waited for."""
        for pid in self.pids():
            os.kill(pid, signal.SIGKILL)
        self.executor.shutdown(wait=False, cancel_futures=True)


Contender = Ours | Pool
MAKERS: dict[str, Callable[[int], Contender]] = {
    "workers": Ours,
    "pool": Pool,
    "pool-100": functools.partial(Pool, max_tasks_per_child=100),
}


async def warm(contender: Contender, processes: int) -> None:
    """Every process started and its imports done (a picture drawn in each)."""
    await asyncio.gather(*(contender.run(PICTURE) for _ in range(processes * 2)))
    await asyncio.gather(*(contender.run(VERDICT) for _ in range(processes * 2)))


async def timed(tasks: int, make: Callable[[], Awaitable[Any]]) -> tuple[float, float]:
    """Wall and bot-CPU ms per task, ``tasks`` awaited one after another."""
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(tasks):
        await make()
    return ((time.perf_counter() - wall) * 1e3 / tasks,
            (time.process_time() - cpu) * 1e3 / tasks)


async def latency(contender: Contender, tasks: int) -> dict[str, float]:
    figures: dict[str, float] = {}
    works: tuple[tuple[str, Callable[[], object]], ...] = (
        ("trivial", functools.partial(pow, 2, 10)), ("picture", PICTURE), ("verdict", VERDICT))
    for label, work in works:
        wall, cpu = await timed(tasks, functools.partial(contender.run, work))
        figures[f"{label} ms"], figures[f"{label} bot-CPU ms"] = wall, cpu
    return figures


async def throughput(contender: Contender, burst: int) -> dict[str, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(contender.run(PICTURE) for _ in range(burst)))
    took = time.perf_counter() - wall
    return {"pictures/s": burst / took,
            "bot-CPU ms/picture": (time.process_time() - cpu) * 1e3 / burst}


async def deadline(contender: Contender) -> dict[str, float]:
    """A 1 s task given up after 0.1 s; then a small one: when does it answer?"""
    long = asyncio.ensure_future(contender.run(spin, 1.0))
    await asyncio.sleep(0.05)  # it has started
    started = time.perf_counter()
    try:
        await asyncio.wait_for(asyncio.shield(long), 0.1)
    except TimeoutError:
        long.cancel()
    await contender.run(pow, 2, 3)
    waited = time.perf_counter() - started
    # The same, now stopping the search by killing its process: the next task's wait.
    await asyncio.sleep(1.0)
    long = asyncio.ensure_future(contender.run(spin, 1.0))
    await asyncio.sleep(0.05)
    started = time.perf_counter()
    for pid in contender.pids():
        os.kill(pid, signal.SIGKILL)
    long.cancel()
    await contender.run(pow, 2, 3)
    return {"next task after a given-up 1 s task, s": waited,
            "next task after killing it, s": time.perf_counter() - started}


async def crash(contender: Contender, processes: int) -> dict[str, float]:
    """A worker killed mid-task while ``3 * processes`` tasks wait: answers that came."""
    held = [asyncio.ensure_future(contender.run(spin, 0.3))]
    held += [asyncio.ensure_future(contender.run(pow, 2, n)) for n in range(3 * processes)]
    await asyncio.sleep(0.1)
    started = time.perf_counter()
    os.kill(contender.pids()[0], signal.SIGKILL)
    answers = await asyncio.gather(*held, return_exceptions=True)
    took = time.perf_counter() - started
    lost = sum(isinstance(a, BaseException) for a in answers)
    first = time.perf_counter()
    await contender.run(pow, 2, 3)
    return {"tasks lost of those waiting": lost, "all answered after the kill, s": took,
            "next task after, ms": (time.perf_counter() - first) * 1e3}


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


ORPHAN = """
import asyncio, os, signal, sys
import discord  # the bot's process holds discord.py; a worker need not
from benchmarks.workers_vs_pool import MAKERS, PICTURE
async def main():
    contender = MAKERS[sys.argv[1]](1)
    await contender.run(PICTURE)
    print(*contender.pids(), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
asyncio.run(main())
"""


def orphans(kind: str) -> dict[str, float]:
    """Kill a bot-like process outright; count its workers alive 10 s later."""
    # Into a file: a worker left behind would hold a pipe open, and the wait for its end.
    with tempfile.TemporaryFile("w+") as out:
        subprocess.run([sys.executable, "-c", ORPHAN, kind], stdout=out, timeout=120)
        out.seek(0)
        pids = [int(p) for p in out.read().split()]
    time.sleep(10)
    alive = []
    for pid in pids:
        try:
            os.kill(pid, 0)
            alive.append(pid)
        except ProcessLookupError:
            pass
    rss = [rss_mb(pid) for pid in alive]
    for pid in alive:
        os.kill(pid, signal.SIGKILL)
    return {"workers alive 10 s after the bot was killed": len(alive),
            "their resident MB": sum(rss)}


async def memory(contender: Contender) -> dict[str, float]:
    await contender.run(PICTURE)
    return {"idle worker resident MB": statistics.mean(rss_mb(p) for p in contender.pids()),
            "helper processes' resident MB": sum(rss_mb(p) for p in contender.helpers())}


HUNG_S = 30.0  # a phase not over by then is reported as hung (and its pool abandoned)


async def phase(name: str, work: Awaitable[dict[str, float]]) -> dict[str, float]:
    print(f"  {name}", end="", file=sys.stderr, flush=True)
    try:
        return await asyncio.wait_for(work, HUNG_S)
    except TimeoutError:
        print(f" hung ({HUNG_S:.0f} s)", end="", file=sys.stderr, flush=True)
        return {f"{name}: hung": 1.0}


async def one_round(kind: str, args: argparse.Namespace) -> dict[str, float]:
    print(kind, end="", file=sys.stderr, flush=True)
    figures: dict[str, float] = {}
    contender = MAKERS[kind](1)
    await warm(contender, 1)
    phases: list[tuple[str, Callable[[], Awaitable[dict[str, float]]]]] = [
        ("latency", lambda: latency(contender, args.tasks)),
        ("memory", lambda: memory(contender)),
        ("throughput", lambda: throughput(contender, args.burst)),
        ("deadline", lambda: deadline(contender)),
        ("crash", lambda: crash(contender, 1)),
    ]
    for name, work in phases:
        got = await phase(name, work())
        figures |= {(f"1 process: {k}" if name == "throughput" else k): v
                    for k, v in got.items()}
        if f"{name}: hung" in got:  # the pool is stuck: the rest of the round is left out
            contender.abandon()
            print(file=sys.stderr, flush=True)
            return figures
    contender.close()
    contender = MAKERS[kind](2)
    try:
        await warm(contender, 2)
        two = await phase("throughput", throughput(contender, args.burst))
        figures |= {f"2 processes: {k}": v for k, v in two.items()}
    finally:
        contender.close()
    print(file=sys.stderr, flush=True)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--tasks", type=int, default=100, help="tasks per latency figure")
    parser.add_argument("--burst", type=int, default=200, help="pictures asked at once")
    parser.add_argument("--only", choices=list(MAKERS), action="append")
    args = parser.parse_args()
    kinds = args.only or list(MAKERS)
    rounds: dict[str, list[dict[str, float]]] = {kind: [] for kind in kinds}
    for _ in range(args.repeat):  # interleaved, so that a noisy minute hits every contender
        for kind in kinds:
            rounds[kind].append(asyncio.run(one_round(kind, args)))
    for kind in kinds:
        print(f"\n{kind}: median [min-max] of {args.repeat} rounds")
        for key in dict.fromkeys(k for r in rounds[kind] for k in r):
            values = [r[key] for r in rounds[kind] if key in r]
            if key.endswith("hung"):
                print(f"  {key:<48} {len(values)} of {args.repeat} rounds")
                continue
            print(f"  {key:<48} {statistics.median(values):9.2f}  "
                  f"[{min(values):.2f}-{max(values):.2f}]")
        for key, value in orphans(kind).items():
            print(f"  {key:<48} {value:9.2f}")
    sys.stdout.flush()
    # Without waiting for a stuck pool's manager thread, which the interpreter would join.
    os._exit(0)


if __name__ == "__main__":
    # Run as the module the tasks name (``spin``), not as ``__main__``, which the workers
    # could not import.
    from benchmarks.workers_vs_pool import main as run

    run()

"""Worker processes (bot/workers.py): a task's answer or its exception comes back to its
caller, a process holds at most its next task besides the one it works on, and nothing a
task does can garble the next task's answer."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator

import pytest

from bot.workers.child import forked
from bot.workers.processes import AHEAD, Workers


@pytest.fixture
async def one() -> AsyncIterator[Workers]:
    workers = Workers("test", 1)
    try:
        yield workers
    finally:
        workers.shutdown()


async def test_a_task_answers_with_its_result(one: Workers) -> None:
    assert await one.run(pow, 2, 10) == 1024
    assert await one.run(sorted, "cab") == ["a", "b", "c"]


async def test_a_task_that_raises_raises_in_the_caller(one: Workers) -> None:
    with pytest.raises(ValueError, match="invalid literal"):
        await one.run(int, "not a number")
    assert await one.run(pow, 3, 2) == 9  # the process goes on


async def test_a_print_in_a_task_does_not_reach_the_answers(one: Workers) -> None:
    assert await one.run(print, "a stray line") is None
    assert await one.run(pow, 2, 3) == 8


async def test_an_answer_nobody_waits_for_is_not_read_by_the_next_task(one: Workers) -> None:
    slow = asyncio.ensure_future(one.run(time.sleep, 0.3))
    await asyncio.sleep(0.05)
    slow.cancel()
    assert await one.run(pow, 2, 5) == 32  # waits for the process, then gets its own answer


async def test_tasks_share_the_processes_and_wait_for_a_free_one() -> None:
    workers = Workers("test", 2, start_now=True)
    try:
        assert len(workers.pids()) == 2
        started = time.perf_counter()
        await asyncio.gather(*(workers.run(time.sleep, 0.2) for _ in range(4)))
        assert time.perf_counter() - started >= 0.4  # two at a time, not four
    finally:
        workers.shutdown()


async def test_processes_start_when_a_task_needs_one() -> None:
    workers = Workers("test", 2)
    try:
        assert workers.pids() == []
        assert await workers.run(abs, -4) == 4
        assert len(workers.pids()) == 1
    finally:
        workers.shutdown()


def test_forked_work_answers_from_a_copy_of_the_process() -> None:
    assert forked(pow, 2, 8) == 256
    assert forked(os.getpid) != os.getpid()  # it ran elsewhere
    with pytest.raises(ValueError, match="invalid literal"):
        forked(int, "not a number")
    with pytest.raises(ChildProcessError):
        forked(os._exit, 3)  # a copy that dies (killed, out of memory) says so


async def test_a_busy_process_holds_its_next_task_and_no_more(one: Workers) -> None:
    first = asyncio.ensure_future(one.run(time.sleep, 0.3))
    rest = [asyncio.ensure_future(one.run(pow, 2, n)) for n in (3, 4)]
    await asyncio.sleep(0.1)
    [process] = one._processes
    # It works on the first; the second waits in its pipe, the third for a place.
    assert one._busy[process] == AHEAD == 2
    assert await asyncio.gather(first, *rest) == [None, 8, 16]
    assert one._busy[process] == 0


async def test_every_task_a_dead_process_held_is_tried_again(one: Workers) -> None:
    import signal

    held = [asyncio.ensure_future(one.run(time.sleep, 0.5)),
            asyncio.ensure_future(one.run(pow, 2, 6))]
    await asyncio.sleep(0.1)
    [pid] = one.pids()
    os.kill(pid, signal.SIGKILL)
    assert await asyncio.gather(*held) == [None, 64]
    assert one.pids() and pid not in one.pids()


def test_a_worker_whose_bot_is_gone_leaves_quietly_with_tasks_still_waiting() -> None:
    import pickle
    import subprocess
    import sys

    from bot.workers.child import framed

    worker = subprocess.Popen(
        [sys.executable, "-m", "bot.workers.child"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert worker.stdin is not None and worker.stdout is not None
    for task in ((time.sleep, (0.3,)), (pow, (2, 3))):
        worker.stdin.write(framed(pickle.dumps(task)))
    worker.stdin.flush()
    worker.stdout.close()  # the bot is gone: nobody reads the answers any more
    _, errors = worker.communicate(timeout=10)
    assert worker.returncode == 0 and errors == b"", errors.decode()

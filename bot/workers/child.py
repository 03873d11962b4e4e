"""One worker process: ``python -m bot.workers.child``, started by ``processes.Workers``.

It reads tasks from its standard input and writes each answer to its standard output, one
after another: a task is a pickled ``(function, arguments)``, an answer a pickled ``(True,
result)`` or ``(False, exception)``, each preceded by its length (4 bytes, big-endian).
It imports only what the tasks it is given need (unpickling a function imports its
module), and it leaves when its standard input ends: when the bot closes it, or when the
bot's process is gone, even if it was killed outright; quietly too when an answer finds
the bot gone while tasks it sent ahead were still waiting.

Nothing else may write to the answers' stream, so the process's own standard output goes
to its standard error instead (a stray ``print`` lands in the log, not in an answer).
"""

from __future__ import annotations

import os
import pickle
import struct
import sys
from collections.abc import Callable
from typing import Any, BinaryIO, TypeVar

LENGTH = struct.Struct(">I")
T = TypeVar("T")
_answers: BinaryIO | None = None  # this worker's answers' stream, once main() runs


def read_message(stream: BinaryIO) -> bytes | None:
    """The next length-prefixed message, or None at the end of the stream."""
    head = stream.read(LENGTH.size)
    if len(head) < LENGTH.size:
        return None
    (size,) = LENGTH.unpack(head)
    body = stream.read(size)
    return body if len(body) == size else None


def framed(body: bytes) -> bytes:
    """``body`` with its length in front."""
    return LENGTH.pack(len(body)) + body


def run_task(task: bytes) -> bytes:
    """Run one pickled task; its pickled answer."""
    try:
        work, args = pickle.loads(task)
        result: tuple[bool, Any] = (True, work(*args))
    except Exception as exc:  # the caller gets it, as it would from a function call
        result = (False, exc)
    try:
        return pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:  # an answer that cannot travel: say what it was
        return pickle.dumps((False, RuntimeError(f"unpicklable answer: {exc!r}")))


def forked(work: Callable[..., T], *args: Any) -> T:
    """``work(*args)`` run in a forked copy of this worker, which ends with it: whatever
    the work allocates goes back to the system at once. (Python keeps the memory a big
    search used: a few objects that outlive it pin whole blocks of it.) Only for a worker
    process, which runs no thread (the workers need Unix anyway: pipes and ``fork``).

    Raises what the work raised, or ChildProcessError if the copy ended without an answer
    (killed, out of memory).
    """
    readable, writable = os.pipe()
    pid = os.fork()
    if pid == 0:  # the copy: answer, then leave without running the parent's cleanup
        try:
            os.close(readable)
            if _answers is not None:  # the bot sees the worker end when the worker does
                os.close(_answers.fileno())
            with os.fdopen(writable, "wb") as out:
                out.write(run_task(pickle.dumps((work, args), protocol=pickle.HIGHEST_PROTOCOL)))
        finally:
            os._exit(0)
    os.close(writable)
    with os.fdopen(readable, "rb") as answers:
        data = answers.read()
    _, status = os.waitpid(pid, 0)
    if not data:
        raise ChildProcessError(f"a forked copy ended without an answer (wait status {status})")
    ok, value = pickle.loads(data)
    if not ok:
        raise value
    result: T = value
    return result


def main() -> None:
    """Serve tasks until standard input ends. ``--nice N``: at a lower priority, so that
    the system serves the bot and its other workers first (long work, such as a replay)."""
    global _answers
    if sys.argv[1:2] == ["--nice"]:
        os.nice(int(sys.argv[2]))
    tasks = sys.stdin.buffer
    answers = _answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    while (task := read_message(tasks)) is not None:
        try:
            answers.write(framed(run_task(task)))
            answers.flush()
        except BrokenPipeError:  # the bot is gone (killed) while tasks it sent were waiting
            os._exit(0)  # nobody to answer, nothing to clean up; no flush at exit to fail


if __name__ == "__main__":
    # Run as the module the tasks import (``python -m`` loads this file once more as
    # ``__main__``), so that ``forked`` sees what ``main`` set.
    from bot.workers.child import main as serve

    serve()

"""One worker process: ``python -m bot.worker_process``, started by ``workers.Workers``.

It reads tasks from its standard input and writes each answer to its standard output, one
after another: a task is a pickled ``(function, arguments)``, an answer a pickled ``(True,
result)`` or ``(False, exception)``, each preceded by its length (4 bytes, big-endian).
It imports only what the tasks it is given need (unpickling a function imports its
module), and it leaves when its standard input ends: when the bot closes it, or when the
bot's process is gone, even if it was killed outright.

Nothing else may write to the answers' stream, so the process's own standard output goes
to its standard error instead (a stray ``print`` lands in the log, not in an answer).
"""

from __future__ import annotations

import os
import pickle
import struct
import sys
from typing import Any, BinaryIO

LENGTH = struct.Struct(">I")


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


def answer(task: bytes) -> bytes:
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


def main() -> None:
    tasks = sys.stdin.buffer
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    while (task := read_message(tasks)) is not None:
        answers.write(framed(answer(task)))
        answers.flush()


if __name__ == "__main__":
    main()

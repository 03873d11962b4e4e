"""Solving many deals, on one core or several: the loop every command of the tool shares."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from multiprocessing import Pool
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def each_in_turn(
    work: Callable[[T], R],
    items: Iterable[T],
    *,
    jobs: int = 1,
    progress: Callable[[R], None] | None = None,
    chunksize: int = 4,
) -> tuple[R, ...]:
    """``work`` on every item, in order, in ``jobs`` processes (one: this one); each result
    goes to ``progress`` as it comes. ``work`` must be a function of a module (it travels
    to the processes by name)."""
    if jobs <= 1:
        return _collect(map(work, items), progress)
    with Pool(jobs) as pool:
        return _collect(pool.imap(work, items, chunksize=chunksize), progress)


def _collect(results: Iterable[R], progress: Callable[[R], None] | None) -> tuple[R, ...]:
    kept: list[R] = []
    for result in results:
        kept.append(result)
        if progress:
            progress(result)
    return tuple(kept)

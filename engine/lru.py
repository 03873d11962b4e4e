"""A dictionary with a size: the least recently used entry goes first when it is full.

The solver keeps its caches in these (it runs in one long-lived process), and so does the
bot for what it keeps per player, board or position: memory then never grows with the
number of deals or players seen. This is for what a caller stores, looks up and drops
itself; a pure function's results are kept by ``functools`` (``lru_cache`` with a
``maxsize``, or ``cache`` where its arguments are few by nature, as the pictures' card
faces are). Compiled with the solver by mypyc where the machine can (setup.py), so the
solver's calls of it stay in C.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from typing import Final, Generic, TypeVar, cast

K = TypeVar("K")
V = TypeVar("V")
_MISSING: Final = object()  # what no caller can have stored: a miss, told apart from None


class LRU(Generic[K, V]):
    """At most ``maxsize`` entries; a new one beyond that drops the least recently used.

    ``get`` and ``lru[key] = value`` count as a use; ``in``, ``len`` and iteration do not.
    A stored ``None`` is a value like any other: ``key in lru`` tells it from a miss.
    """

    def __init__(self, maxsize: int) -> None:
        if maxsize < 1:
            raise ValueError("an LRU cache holds at least one entry")
        self.maxsize = maxsize
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K, default: V | None = None) -> V | None:
        items = self._items
        value = items.get(key, _MISSING)
        if value is _MISSING:
            return default
        items.move_to_end(key)
        return cast(V, value)

    def __setitem__(self, key: K, value: V) -> None:
        items = self._items
        items[key] = value
        items.move_to_end(key)
        if len(items) > self.maxsize:
            items.popitem(last=False)

    def pop(self, key: K, default: V | None = None) -> V | None:
        return self._items.pop(key, default)

    def clear(self) -> None:
        self._items.clear()

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[K]:
        """The keys, least recently used first."""
        return iter(self._items)

"""A dict with a size: the least recently used entry goes first when it is full.

Anything a long-running bot keeps per player or per game lives in one of these (or in
the database), so memory does not grow with the number of players.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LRU(Generic[K, V]):
    def __init__(self, maxsize: int) -> None:
        if maxsize < 1:
            raise ValueError("an LRU cache holds at least one entry")
        self.maxsize = maxsize
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K, default: V | None = None) -> V | None:
        try:
            value = self._items[key]
        except KeyError:
            return default
        self._items.move_to_end(key)
        return value

    def __setitem__(self, key: K, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.maxsize:
            self._items.popitem(last=False)

    def pop(self, key: K, default: V | None = None) -> V | None:
        return self._items.pop(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[K]:
        """The keys, least recently used first."""
        return iter(self._items)

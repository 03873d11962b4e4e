"""The one kind of cache the solver keeps: a dictionary with a fixed size.

The bot runs the solver in one long-lived worker process, so anything kept between
calls must not grow with the number of deals or players it has seen.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LruCache(Generic[K, V]):
    """At most ``limit`` entries; a new one beyond that drops the least recently used."""

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError("a cache holds at least one entry")
        self.limit = limit
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        items = self._items
        items[key] = value
        items.move_to_end(key)
        if len(items) > self.limit:
            items.popitem(last=False)

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items

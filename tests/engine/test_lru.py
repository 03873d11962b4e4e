"""The one bounded cache: a dictionary with a size, dropping the least recently used."""

import pytest

from engine.lru import LRU


def test_a_cache_drops_its_least_recently_used_entry_beyond_its_size() -> None:
    cache: LRU[str, int] = LRU(2)
    cache["a"] = 1
    cache["b"] = 2
    assert cache.get("a") == 1  # "b" is now the least recently used
    cache["c"] = 3
    assert len(cache) == 2
    assert "b" not in cache and cache.get("a") == 1 and cache.get("c") == 3
    assert list(cache) == ["a", "c"]  # least recently used first


def test_a_stored_none_is_told_from_a_miss() -> None:
    cache: LRU[str, int | None] = LRU(2)
    cache["a"] = None
    assert "a" in cache and cache.get("a", 7) is None
    assert "b" not in cache and cache.get("b", 7) == 7


def test_pop_and_clear_forget_entries() -> None:
    cache: LRU[str, int] = LRU(3)
    cache["a"] = 1
    cache["b"] = 2
    assert cache.pop("a") == 1 and cache.pop("a") is None
    cache.clear()
    assert len(cache) == 0 and "b" not in cache


def test_a_cache_of_no_entries_is_refused() -> None:
    with pytest.raises(ValueError):
        LRU(0)

"""The project's own, documented shuffle: deals must be the same forever.

Python's ``random`` makes no promise across versions, so deals come from this
module alone. Changing anything here changes every deal ever shared: don't.

1. Seed: the first 8 bytes (big-endian) of SHA-256 over the UTF-8 text
   ``"{game_id}/{deal}/{round}"``; round 0 is the deal, round 1 the first
   redeal, and so on.
2. Generator: SplitMix64 from that seed.
3. Bounded integers ``below(n)``: rejection sampling on the 64-bit output
   (draw ``x``; reject while ``x >= 2**64 - 2**64 % n``; return ``x % n``).
4. Shuffle: Fisher-Yates from the end: for ``i`` from ``len - 1`` down to 1,
   swap item ``i`` with item ``below(i + 1)``.
"""

from __future__ import annotations

import hashlib
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


def seed_for(game_id: str, deal: int, round_: int) -> int:
    digest = hashlib.sha256(f"{game_id}/{deal}/{round_}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class SplitMix64:
    """A tiny, well-known 64-bit generator (Steele, Lea and Flood, 2014)."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        limit = (1 << 64) - (1 << 64) % n
        while True:
            x = self.next()
            if x < limit:
                return x % n


def shuffled(items: list[T], game_id: str, deal: int, round_: int) -> list[T]:
    """A new list: ``items`` shuffled for (game, deal, round)."""
    out = list(items)
    rng = SplitMix64(seed_for(game_id, deal, round_))
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out

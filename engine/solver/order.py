"""Move order: which move the search tries first. It decides speed, never correctness.

Moves to a foundation come first. Other moves are scored by what they do for the cards
the foundations will want soon: a card's *distance* is how many cards its foundation
takes before it (0: it can go up now), and a pile's *urgency* is the least
distance + depth of its cards (a wanted card two deep is urgent; a pile of high cards
is not). A good move lets a card go up next, uncovers an urgent pile, or parks a card
on a pile that needs nothing soon.
"""

from __future__ import annotations

import random
from typing import Final

from ..lru import LRU
from .model import Model, Position, RawMove

FAR: Final = 40  # distance of a card no foundation can take
SHUFFLE: Final = 25  # score noise on restarts: reorders close calls, never inverts clear ones


# Distances by foundation heights (about 600 bytes each): most searches meet a few
# hundred height combinations.
DISTANCES_KEPT = 512
_DISTANCES: LRU[tuple[Model, bytes], list[int]] = LRU(DISTANCES_KEPT)


def distances(model: Model, heights: list[int]) -> list[int]:
    """Per card: how many cards go up before it can (FAR if none can ever)."""
    key = (model, bytes(heights))
    known = _DISTANCES.get(key)
    if known is not None:
        return known
    out = [FAR] * 52
    _DISTANCES[key] = out
    for c, places in enumerate(model.goes_up):
        best = FAR
        for f, h in places:
            d = h - heights[f]
            if 0 <= d < best:
                best = d
        out[c] = best
    return out


def order_moves(
    model: Model,
    pos: Position,
    up: list[RawMove],
    across: list[RawMove],
    shuffle: random.Random | None = None,
) -> list[RawMove]:
    if len(across) < 2:
        return up + across
    piles = pos.piles
    dist = distances(model, pos.heights)

    feeds = model.feeds
    goes_up = model.goes_up
    heights = pos.heights
    refillable = model.refillable
    scored = []
    seen_empty: set[tuple[int, tuple[bool, ...]]] = set()
    for move in across:
        _, src, dst = move
        pile = piles[src]
        card = pile[-1]
        target = piles[dst]
        score = 0
        if not target:
            # Empty refillable piles of one class are alike: one of them is enough.
            cls = (src, feeds[dst])
            if cls in seen_empty:
                continue
            seen_empty.add(cls)
            score -= 30
        if dist[card] == 0:
            for f, h in goes_up[card]:
                if heights[f] == h and feeds[dst][f]:
                    score += 60  # it goes up from there next
                    break
        if len(pile) > 1:
            below = pile[-2]
            if dist[below] == 0:
                score += 50 if any(
                    heights[f] == h and feeds[src][f] for f, h in goes_up[below]
                ) else 15
            score += max(0, 12 - _urgency(pile, dist)) * 3
        else:
            score += 20 if src in refillable else 4
        if target:
            score -= max(0, 12 - _urgency(target, dist)) * 2
        if shuffle is not None:
            score += shuffle.randrange(SHUFFLE)
        scored.append((-score, move))
    scored.sort()
    return up + [move for _, move in scored]


def _urgency(pile: bytes, dist: list[int]) -> int:
    """The least distance + depth of the pile's cards (a pile holds a few cards: computed
    each time, which costs less than remembering it)."""
    n = len(pile) - 1
    u = FAR
    for i in range(n + 1):
        v = dist[pile[i]] + n - i
        if v < u:
            u = v
    return u


__all__ = ["distances", "order_moves"]

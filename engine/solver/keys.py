"""Position keys: when two positions are one and the same for the search.

The transposition table stores a key per position; two positions may share a key only
if each can reach the other (then they win or lose together). ``Model.key`` gives the
exact position, with piles that play alike sorted. Clover Leaf has a coarser key, below.
"""

from __future__ import annotations

from collections.abc import Callable

from .model import Model, Position

KeyFunction = Callable[[Position], bytes]


def key_function(model: Model, root: Position) -> KeyFunction:
    if model.id == "clover-leaf" and not root.redeals_left:
        return _clover_leaf_key(root)
    if model.id == "four-leaf-clovers":
        return _rank_only_key
    return model.key


_RANKS = bytes(c % 13 for c in range(256))


def _rank_only_key(pos: Position) -> bytes:
    """Four Leaf Clovers never looks at suits: its foundation takes any suit and its
    tableau builds regardless of suit. Cards of one rank are interchangeable, so a
    position is its piles as ranks (in any order: no pile is special) and the height."""
    return b"\xff".join(sorted([pile.translate(_RANKS) for pile in pos.piles])) + bytes(
        pos.heights
    )


def _clover_leaf_key(root: Position) -> KeyFunction:
    """Clover Leaf builds ±1 in suit, one deck, no wrap, no refill.

    Every card that has left its place in ``root`` and is not up lies in a run on top
    of some pile: the cards placed above the pile's remaining root cards, each one rank
    from the card below, of one suit and all different — so the run climbs or falls
    steadily from the pile's top root card. Given which root cards remain in each pile
    (the longest common prefix with ``root``) and the foundation heights, the loose
    cards are fixed; what may differ is where a stretch of loose cards between two
    anchors of its suit is split between them (anchor a carrying a+1..j upward, anchor
    b carrying b-1..j+1 downward). With each run's direction fixed, any two splits
    with both runs non-empty are joined by legal moves (j onto j+1, j+1 onto j: the
    two run tops are always adjacent), so the key keeps only (remaining root cards,
    run direction) per pile and the heights.
    """
    roots = list(root.piles)

    def key(pos: Position) -> bytes:
        out = bytearray()
        for cur, base in zip(pos.piles, roots, strict=True):
            if cur == base:
                out.append(len(base) * 3)
                continue
            k = 0
            limit = min(len(cur), len(base))
            while k < limit and cur[k] == base[k]:
                k += 1
            if len(cur) == k:
                out.append(k * 3)
            else:
                out.append(k * 3 + (1 if cur[k] > cur[k - 1] else 2))
        out.extend(pos.heights)
        return bytes(out)

    return key

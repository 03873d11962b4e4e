"""Prunings that never lose a win: safe moves to a foundation, and dead positions.

Both are argued per game below, because the arguments differ. Neither applies while a
redeal is left in a game that searches through redeals: a redeal shuffles whatever
cards are still on the tableau, in pile order, so a position with one more card up is
not "at least as good" — its redeals deal differently. (Within one deal, as the hint
plans, they hold: see ``Search``.)
"""

from __future__ import annotations

from collections.abc import Callable

from ..moves import FOUNDATION
from .model import Model, Position, RawMove

# -- safe moves to a foundation ---------------------------------------------------------
#
# A move of card c to a foundation is safe when any win from the position before it can
# be replayed from the position after it. The proof for the suited one-deck games: let X
# be the cards the second game has already put up while the first still holds them
# (at first X = {c}). If every card that could ever be placed on a card of X is itself
# already up, or is the foundation's next card after X, then the first game's moves can
# be mirrored — moves of X cards are skipped, a card placed on an X card goes up
# instead (X grows by one, still a run from the foundation) — and the second game is
# never behind. So c is safe when nothing but its own foundation successors can land
# on it.


def _always(model: Model, pos: Position, src: int, f: int) -> bool:
    """Clover Leaf: c (♦/♥ building up) takes only c±1 of its suit; c-1 is up, c+1 is
    the foundation's next card — the run argument holds. Kings down: mirror image.
    Trefoil (no redeal left): only c-1 of its suit lands on c, and it is already up."""
    return True


def _all_lower_up(model: Model, pos: Position, src: int, f: int) -> bool:
    """Super Flower Garden: any card one rank lower lands on c. Safe once all four of
    them are up (a suit's foundation height is the rank of its top card)."""
    rank = pos.heights[f] + 1
    return min(pos.heights) >= rank - 1


def _last_cycle(model: Model, pos: Position, src: int, f: int) -> bool:
    """Four Leaf Clovers: in the last cycle (40+ cards up) one card of each rank is left,
    and c±1 are the foundation's previous (up) and next cards, wrap included. At exactly
    39 up the one King left could still land on the Ace: not safe."""
    return pos.heights[0] >= 40


SAFE_RULES: dict[str, Callable[[Model, Position, int, int], bool]] = {
    "clover-leaf": _always,
    "trefoil": _always,
    "super-flower-garden": _all_lower_up,
    "four-leaf-clovers": _last_cycle,
    # Corner Stones: none. Any card a rank away lands on c, with two of each card and two
    # foundations per suit; no argument above carries over, so nothing is forced.
}


def safe_move(model: Model, pos: Position) -> RawMove | None:
    """A move to a foundation that can never hurt, or None.

    The caller makes sure no redeal is left (or that the search stays in this deal)
    and no draw is available (a draw can bury an X card again, breaking the argument).
    """
    rule = SAFE_RULES.get(model.id)
    if rule is None:
        return None
    heights = pos.heights
    goes_up = model.goes_up
    feeds = model.feeds
    for src, pile in enumerate(pos.piles):
        if pile:
            for f, h in goes_up[pile[-1]]:
                if heights[f] == h and feeds[src][f] and rule(model, pos, src, f):
                    return (FOUNDATION, src, f)
    return None


# -- dead positions ---------------------------------------------------------------------
#
# "Lifted" means a card leaves the place it has now. Every card must be lifted to win.
# A card can be lifted only after every card now above it was lifted, and only to
#   - its foundation, after every card its foundation needs first went up (each of
#     those was lifted before), or
#   - a card it may be placed on, which is then a top: either that card was lifted
#     before (and moved), or every card now above it was lifted before.
# Ordering the lifts of any real game by time shows each lifted card meets these
# conditions through cards lifted earlier, so every card ever lifted is in the least
# fixed point computed below. A card outside it can never move: the position is lost.
# Only for one-deck games whose cards each have one foundation (Clover Leaf, Trefoil,
# Super Flower Garden), with no redeal and no draw left, and no refillable pile.

DEAD_CHECKED = frozenset({"clover-leaf", "trefoil", "super-flower-garden"})


def is_dead(model: Model, pos: Position) -> bool:
    """True when some card can provably never move again (see above)."""
    piles = pos.piles
    heights = pos.heights
    goes_up = model.goes_up
    tops_for = model.tops_for
    wants = model.wants
    pile_of = [-1] * 52  # card -> its pile (one deck: each card once)
    depth = [0] * 52  # card -> cards above it
    total = 0
    for p, pile in enumerate(piles):
        n = len(pile)
        total += n
        for i, c in enumerate(pile):
            pile_of[c] = p
            depth[c] = n - 1 - i
    lifted = bytearray(52)
    free_top = [0] * len(piles)  # cards lifted from the top of each pile
    # ready[f]: the height up to which foundation f's cards are all up or lifted.
    ready = []
    for f, h in enumerate(heights):
        per_height = wants[f]
        while h < len(per_height) - 1 and per_height[h] and lifted[per_height[h][0]]:
            h += 1
        ready.append(h)
    count = 0
    changed = True
    while changed:
        changed = False
        for p, pile in enumerate(piles):
            i = len(pile) - 1 - free_top[p]
            while i >= 0:
                c = pile[i]
                f, h = goes_up[c][0]
                if h > ready[f]:
                    for t in tops_for[c]:
                        q = pile_of[t]
                        if q >= 0 and (lifted[t] or depth[t] <= free_top[q]):
                            break
                    else:
                        break  # neither route: stop this pile for this pass
                lifted[c] = 1
                count += 1
                free_top[p] += 1
                changed = True
                i -= 1
                if h == ready[f]:  # c completes its foundation's next run of lifted cards
                    per_height = wants[f]
                    h += 1
                    while h < len(per_height) - 1 and lifted[per_height[h][0]]:
                        h += 1
                    ready[f] = h
    return count != total

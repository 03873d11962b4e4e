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
# Two facts about any real game, for the one-deck games whose cards each have one
# foundation (Clover Leaf, Trefoil, Super Flower Garden), once no redeal and no draw is
# left (no pile there is ever refilled):
#
# "lifted": a card leaves the place it has now. That needs every card now above it
#   lifted first, and a destination: its foundation (every card that foundation takes
#   before it is up first), or a card it may be placed on, then a top — a card lifted
#   before, or one whose cards now above it were all lifted before.
# "up": a card reaches its foundation. That needs the foundation's earlier cards up
#   first, and either
#   - it goes up from the place it has now: no earlier card of its foundation is under
#     it in its pile (that one could never go up first), and all cards above it were
#     lifted before; or
#   - it was lifted, and its last place before going up was on a card it may be placed
#     on that is not an earlier card of its foundation (such a card, covered by it,
#     could not go up first): that card was a top then, lifted before or uncovered.
#
# Ordering a real game's events by time shows each one meets these conditions through
# earlier events, so every card lifted / put up in any real game is in the least fixed
# point computed below. A win puts every card up: if some card is not "up" in the
# fixed point, the position is lost. Example: a King over a lower card of its suit in
# Clover Leaf can be lifted (onto the Queen), but never goes up — its only parking, the
# Queen, goes up before it.

DEAD_CHECKED = frozenset({"clover-leaf", "trefoil", "super-flower-garden"})

_FINAL_TARGETS: dict[str, tuple[tuple[int, ...], ...]] = {}


def _final_targets(model: Model) -> tuple[tuple[int, ...], ...]:
    """Per card: the cards it may rest on just before going up (not its foundation's
    earlier cards)."""
    table = _FINAL_TARGETS.get(model.id)
    if table is None:
        def earlier(t: int, c: int) -> bool:
            if not model.goes_up[t] or not model.goes_up[c]:
                return True  # a base card: always on its foundation, never a resting place
            (ft, ht), (fc, hc) = model.goes_up[t][0], model.goes_up[c][0]
            return ft == fc and ht < hc

        table = tuple(
            tuple(t for t in model.tops_for[c] if not earlier(t, c)) for c in range(52)
        )
        _FINAL_TARGETS[model.id] = table
    return table


def is_dead(model: Model, pos: Position) -> bool:
    """True when some card can provably never go up (see above)."""
    piles = pos.piles
    heights = pos.heights
    goes_up = model.goes_up
    tops_for = model.tops_for
    final_targets = _final_targets(model)
    wants = model.wants
    pile_of = [-1] * 52  # card -> its pile (one deck: each card once)
    depth = [0] * 52  # card -> cards above it
    pred_under = bytearray(52)  # 1: an earlier card of its foundation is under it
    for p, pile in enumerate(piles):
        n = len(pile)
        lowest: dict[int, int] = {}  # foundation -> lowest height seen so far, going up
        for i, c in enumerate(pile):
            pile_of[c] = p
            depth[c] = n - 1 - i
            f, h = goes_up[c][0]
            below = lowest.get(f)
            if below is None or h < below:
                lowest[f] = h
            elif below < h:
                pred_under[c] = 1
    lifted = bytearray(52)
    free_top = [0] * len(piles)  # cards lifted from the top of each pile
    up = list(heights)  # per foundation: every card below this height can go up
    sizes = model.foundation_sizes
    changed = True
    while changed:
        changed = False
        for p, pile in enumerate(piles):
            i = len(pile) - 1 - free_top[p]
            while i >= 0:
                c = pile[i]
                f, h = goes_up[c][0]
                if h > up[f]:  # not straight up: needs a card to go on
                    for t in tops_for[c]:
                        q = pile_of[t]
                        if q >= 0 and (lifted[t] or depth[t] <= free_top[q]):
                            break
                    else:
                        break  # no way off yet: the rest of this pile waits
                lifted[c] = 1
                free_top[p] += 1
                changed = True
                i -= 1
        for f, h in enumerate(up):
            while h < sizes[f]:
                c = wants[f][h][0]
                p = pile_of[c]
                if not (
                    (not pred_under[c] and depth[c] <= free_top[p])
                    or (
                        lifted[c]
                        and any(
                            pile_of[t] >= 0
                            and (lifted[t] or depth[t] <= free_top[pile_of[t]])
                            for t in final_targets[c]
                        )
                    )
                ):
                    break
                h += 1
                changed = True
            up[f] = h
    return any(pile_of[wants[f][h][0]] >= 0 for f, h in enumerate(up) if h < sizes[f])

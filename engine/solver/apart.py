"""Foundations that play apart: a loss proven on fewer cards is a loss.

In some games a card only ever meets cards of its own foundation: it is placed only on
them, only they are placed on it, and it goes up only on that foundation (Clover Leaf:
building follows suit, and each suit has its foundation). Cards of other foundations
touch it in one way only: lying above it in a pile, in its way.

Take such a position and lift every card of some foundations straight onto them (the
foundations are then full). Any win from the position is still a win there, played with
the moves of the cards that are left, in the same order: each of those cards is the top
of its pile exactly when it was before (only cards of the removed foundations are gone
from above it), each card it lands on is of its own foundation and so still there and
still the top, and its foundation's height is what it was. Moves of removed cards change
nothing that is left. So when the smaller position is lost, the whole one is lost too.

That needs: each card goes up on one foundation only, a card lands only on cards of its
own foundation, no card moves to an empty pile, and no redeal or draw is to come (they
would deal or lift the cards in another order). ``apart_classes`` reads this off the
game's tables, so a change of rule switches it off rather than making it wrong.

A small position is far cheaper to search: Clover Leaf deals whose full search runs for
minutes are often lost on one or two suits alone, in milliseconds.
"""

from __future__ import annotations

from itertools import combinations

from ..lru import LRU
from .model import Model, Position

_APART: LRU[Model, bool] = LRU(16)  # a few models: one per rule set


def apart_classes(model: Model) -> bool:
    """Whether the argument above holds for this game's positions."""
    found = _APART.get(model)
    if found is None:
        found = _derive(model)
        _APART[model] = found
    return found


def _derive(model: Model) -> bool:
    rules = model.rules
    if rules.refillable or rules.redeals or rules.has_draw_option:
        return False
    goes_up = model.goes_up
    on_foundations = {int(c) for c in rules.prefilled_cards()}  # never in a pile
    cards = [c for c in range(52) if c not in on_foundations]
    if any(len(goes_up[c]) != 1 for c in cards):
        return False
    return all(
        goes_up[t][0][0] == goes_up[c][0][0]
        for c in cards
        for t in model.tops_for[c]
        if t not in on_foundations
    )


def reductions(model: Model, pos: Position) -> list[frozenset[int]]:
    """The sets of foundations to keep, fewest first: every proper subset of those with
    cards still in the piles (keeping all is the position itself); none where the
    argument above does not hold."""
    if not apart_classes(model):
        return []
    live = live_foundations(model, pos)
    return [
        frozenset(keep)
        for size in range(1, len(live))
        for keep in combinations(live, size)
    ]


def live_foundations(model: Model, pos: Position) -> list[int]:
    """The foundations with cards still in the piles (of a game where each card has one)."""
    goes_up = model.goes_up
    return sorted({goes_up[c][0][0] for pile in pos.piles for c in pile})


def reduced(model: Model, pos: Position, keep: frozenset[int]) -> Position:
    """``pos`` with every card of the other foundations lifted onto them."""
    goes_up = model.goes_up
    piles = [bytes(c for c in pile if goes_up[c][0][0] in keep) for pile in pos.piles]
    heights = [
        h if f in keep else size
        for f, (h, size) in enumerate(zip(pos.heights, model.foundation_sizes, strict=True))
    ]
    return Position(piles, heights, pos.redeals_left, pos.draw_used)


__all__ = ["apart_classes", "live_foundations", "reduced", "reductions"]

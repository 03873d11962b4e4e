"""Prunings that never lose a win: safe moves to a foundation, dead positions, and the
last card's place.

Each is argued below for the rule values it needs, and ``shortcuts_for`` switches it on
only where a game's ``Rules`` have them. None applies while a redeal is left in a game
that searches through redeals: a redeal shuffles whatever cards are still on the
tableau, in pile order, so a position with one more card up is not "at least as good"
— its redeals deal differently. (Within one deal, as the hint plans, safe moves hold:
see ``Search``.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .. import moves as kinds
from ..lru import LRU
from ..rules import Rules
from .model import Model, Position, RawMove

# Final: mypyc keeps these in C variables instead of looking them up at every use.
FOUNDATION: Final = int(kinds.FOUNDATION)
NO_CARD: Final = 255  # an empty slot in the byte tables below

# -- which arguments hold for a game ----------------------------------------------------
#
# Each argument below was made for certain rules. ``shortcuts_for`` reads them off the
# game's ``Rules`` (through the Model's tables), so an edited rule changes or switches
# off a shortcut instead of silently corrupting a verdict. Safe moves and the dead
# check also need piles that are never refilled and feed every foundation (the mirror
# argument below puts a card up from wherever it lies).


@dataclass(frozen=True)
class Shortcuts:
    """What prune.py may do for one game, derived from its rules.

    ``safe_needs``: per card, the (foundation, height) slots that must be filled before
    moving the card up is safe (see below); None: the safe-move argument does not hold.
    ``one_slot``: every card has one foundation slot for good (the dead check applies).
    ``last_cycle``: a single any-suit foundation cycling through the whole deck: from
    this height on one card of each rank is left, one slot each (the dead check and
    safe moves apply from there); None otherwise.
    ``last_cards``: a single foundation that takes every card, and no pile is refilled:
    the cards it may take last (see ``last_card_buried``); None otherwise.
    """

    safe_needs: tuple[tuple[tuple[int, int], ...] | None, ...] | None
    one_slot: bool
    last_cycle: int | None
    slots: tuple[bytes, bytes, bytes] | None  # see _static_slots
    last_cards: frozenset[int] | None = None

    @property
    def dead_checked(self) -> bool:
        """The dead check may apply in some positions of this game."""
        return self.one_slot or self.last_cycle is not None


def plain_piles(rules: Rules) -> bool:
    """No pile is refilled and every pile feeds every foundation."""
    return not rules.refillable and rules.feeds is None


def one_cycle_foundation(rules: Rules) -> int | None:
    """Four Leaf Clovers' shape: one deck, one foundation of any suit that wraps and takes
    the whole deck, and a tableau where only cards a rank apart land on each other.
    Returns the height from which one card of each rank is left (the last cycle)."""
    if len(rules.foundations) != 1 or rules.decks != 1 or not plain_piles(rules):
        return None
    spec = rules.foundations[0]
    if spec.suit is not None or not spec.wrap or spec.size != rules.card_count:
        return None
    if abs(spec.step) != 1 or any(abs(step) != 1 for step in rules.steps):
        return None
    return rules.card_count - 13


def _derive(model: Model) -> Shortcuts:
    rules = model.rules
    last_cycle = one_cycle_foundation(rules)
    static = _static_slots(model)
    last_cards = None
    if len(rules.foundations) == 1 and not rules.refillable:
        size = rules.foundations[0].size
        if size == rules.card_count:
            last_cards = frozenset(model.wants[0][size - 1])
    if static is None or not plain_piles(rules):
        return Shortcuts(None, False, last_cycle, static, last_cards)
    return Shortcuts(_safe_needs(model, static), True, last_cycle, static, last_cards)


# Final: mypyc keeps them in C variables (a plain module global is a dict lookup at
# every use, and a search asks for its model's shortcuts several times a position).
_SHORTCUTS: Final[LRU[Model, Shortcuts]] = LRU(16)  # one per rule set
_LAST: Final[list[tuple[Model, Shortcuts]]] = []  # the last model asked for


def shortcuts_for(model: Model) -> Shortcuts:
    if _LAST and _LAST[0][0] is model:
        return _LAST[0][1]
    found = _SHORTCUTS.get(model)
    if found is None:
        found = _derive(model)
        _SHORTCUTS[model] = found
    _LAST[:] = [(model, found)]
    return found


# -- safe moves to a foundation ---------------------------------------------------------
#
# A move of card c to a foundation is safe when any win from the position before it can
# be replayed from the position after it. The proof, for games where each card has one
# foundation slot: let X be the cards the second game has already put up while the
# first still holds them (at first X = {c}). If every card that could ever be placed on
# a card of X is already up, or is the foundation's next card after X, then the first
# game's moves can be mirrored — moves of X cards are skipped, a card placed on an X
# card goes up instead (X grows by one, still a run from the foundation) — and the
# second game is never behind.
#
# So, per card c, the cards that may be placed on it ("landers") are sorted out once:
# earlier cards of c's foundation are up whenever c goes up; c's successor on its
# foundation is harmless if, in turn, every lander of the successor is earlier or its
# own harmless successor (Clover Leaf's runs up to the King); every other lander must
# be up already — its slot filled — for the move to be safe (Super Flower Garden: the
# four cards a rank lower). A lander that never goes up at all makes c never safe.
#
# Four Leaf Clovers' last cycle is the same argument: one card of each rank is left,
# and c's landers (a rank either side, wrap included) are the foundation's previous
# card (up) and next card. Exactly at the cycle's start the one King left could still
# land on the Ace: not safe there.


def _safe_needs(
    model: Model, static: tuple[bytes, bytes, bytes]
) -> tuple[tuple[tuple[int, int], ...] | None, ...]:
    found_f, found_h, slot = static
    rules = model.rules
    on_foundations = {int(c) for c in rules.prefilled_cards()}
    has_slot = [bool(places) for places in model.goes_up]
    landers = [[m for m in range(52) if c in model.tops_for[m]] for c in range(52)]

    def successor(c: int) -> int:
        f, h = found_f[c], found_h[c]
        return slot[f * 64 + h + 1] if h + 1 < model.foundation_sizes[f] else NO_CARD

    harmless: dict[int, bool] = {}

    def is_harmless(c: int) -> bool:
        """c's landers are all earlier cards of its foundation or harmless successors."""
        if c not in harmless:
            harmless[c] = False  # a chain that comes back to c proves nothing
            harmless[c] = all(
                m in on_foundations
                or (has_slot[m] and found_f[m] == found_f[c] and found_h[m] < found_h[c])
                or (m == successor(c) and is_harmless(m))
                for m in landers[c]
            )
        return harmless[c]

    def needs(c: int) -> tuple[tuple[int, int], ...] | None:
        if not has_slot[c]:
            return None
        required = []
        for m in landers[c]:
            if m in on_foundations:
                continue
            if not has_slot[m]:
                return None  # it lands on c and never goes up: c is never safe
            f, h = found_f[m], found_h[m]
            earlier = f == found_f[c] and h < found_h[c]
            if not earlier and not (m == successor(c) and is_harmless(m)):
                required.append((f, h))
        return tuple(required)

    return tuple(needs(c) for c in range(52))


def safe_move(model: Model, pos: Position) -> RawMove | None:
    """A move to a foundation that can never hurt, or None.

    The caller makes sure no redeal is left (or that the search stays in this deal)
    and no draw is available (a draw can bury an X card again, breaking the argument).
    """
    cuts = shortcuts_for(model)
    heights = pos.heights
    goes_up = model.goes_up
    feeds = model.feeds
    needs = cuts.safe_needs
    if needs is not None and cuts.slots is not None:  # one slot a card: read off the bytes
        found_f, found_h, _ = cuts.slots
        for src, pile in enumerate(pos.piles):
            if pile:
                c = pile[-1]
                f = found_f[c]
                if found_h[c] == heights[f] and feeds[src][f]:
                    wanted = needs[c]
                    if wanted is None:  # never safe, or no slot at all
                        continue
                    for g, k in wanted:
                        if heights[g] <= k:
                            break
                    else:
                        return (FOUNDATION, src, f)
        return None
    if cuts.last_cycle is not None and heights[0] > cuts.last_cycle:
        for src, pile in enumerate(pos.piles):
            if pile:
                for f, h in goes_up[pile[-1]]:
                    if heights[f] == h:
                        return (FOUNDATION, src, f)
    return None


# -- dead positions ---------------------------------------------------------------------
#
# Facts about any real game in which every card left has one foundation slot — the
# one-deck games whose cards each have one foundation (Clover Leaf, Trefoil, Super Flower
# Garden) and Four Leaf Clovers in its last cycle (one card of each rank left) — once no
# redeal and no draw is left, in a game where no pile is ever refilled. A card's
# *earlier cards* are those its foundation takes before it; they must all be up before it.
#
# "lifted": a card leaves the place it has now. That needs every card now above it
#   lifted first, and a destination: its foundation (its earlier cards all up), or a
#   card it may be placed on, then a top — a card lifted before, or one whose cards now
#   above it were all lifted before.
# "up": a card reaches its foundation, after its earlier cards, and either
#   - straight from the place it has now: no earlier card is under it there, and all
#     cards above it were lifted before; or
#   - it was lifted, and when it goes up it lies on a stack of cards still on the
#     tableau — so none of them, nor the pile under the stack, holds an earlier card.
#     The card under it was a top when it came: lifted before, or uncovered. Walking
#     down that stack: each card either was lifted and lies on a card it may be placed
#     on, or lies where it is now, uncovered, with no earlier card under it.
#
# Ordering a real game's events by time shows each one meets these conditions through
# earlier events, so every card lifted / put up in any real game is in the least fixed
# point computed below: the cards "up" there bound what any line can put up. For lines
# that win there is one more fact: a card with nowhere to rest before going up (a Clover
# Leaf King on ♦/♥, whose only neighbour, the Queen, goes up first) leaves its place only
# by going up — lifted onto a card, it could never go up. With it, if some card is not
# "up" in the fixed point, no line wins: the position is lost.


# -- the last card ----------------------------------------------------------------------
#
# With one foundation that takes every card, the game's last move puts up one of the
# cards it takes last (Four Leaf Clovers: a King), and then that card is alone on the
# tableau. It can never have been placed on a card: wherever it last landed, the card
# under it would have had to go up first, from under it. And no card moves to an empty
# pile. So it never moves until it goes up, and nothing lies under it where it is: it
# lies at the bottom of its pile now. If no such card does, no line wins. (Not with a
# redeal or a draw to come: those move cards under it or from under it; the caller
# checks.)


def last_card_buried(model: Model, pos: Position) -> bool:
    """Every card the foundation may take last has a card under it: lost (see above)."""
    last = shortcuts_for(model).last_cards
    if last is None:
        return False
    piles = pos.piles
    if sum(map(len, piles)) + pos.heights[0] != model.foundation_sizes[0]:
        return False  # a made-up position without the last card on the tableau
    return not any(pile and pile[0] in last for pile in piles)


def dead_check_applies(model: Model, pos: Position) -> bool:
    """Every card left has one foundation slot (foundation, height) it can go up at."""
    cuts = shortcuts_for(model)
    if cuts.one_slot:
        return True
    return cuts.last_cycle is not None and pos.heights[0] >= cuts.last_cycle


def is_dead(model: Model, pos: Position) -> bool:
    """True when some card can provably never go up (see above)."""
    up = _fixed_point(model, pos, to_win=True)[0]
    sizes = model.foundation_sizes
    for f in range(len(sizes)):  # noqa: SIM110 (a generator costs more on this hot path)
        if up[f] < sizes[f]:
            return True
    return False


def most_cards_up(model: Model, pos: Position) -> int:
    """An upper bound on the cards on the foundations after any continuation (no redeal,
    no draw): those up now, and the tableau cards "up" in the fixed point above — taken
    without the rule for cards with nowhere to rest, which holds only for lines that win
    (a line that gives up on such a card may still lift it to free what lies under it)."""
    up, found_f, found_h = _fixed_point(model, pos, to_win=False)
    return sum(pos.heights) + sum(
        1 for pile in pos.piles for c in pile if found_h[c] < up[found_f[c]]
    )


def _static_slots(model: Model) -> tuple[bytes, bytes, bytes] | None:
    """(foundation, height) of each card and the card of each slot (foundation * 64 +
    height, NO_CARD if none), for games where every card has one slot for good; None
    otherwise. Bytes: the compiled fixed point reads them without boxing an int."""
    if model.rules.decks != 1 or any(len(places) > 1 for places in model.goes_up):
        return None
    found_f, found_h = [0] * 52, [0] * 52
    slot = [NO_CARD] * (64 * len(model.foundation_sizes))
    for c, places in enumerate(model.goes_up):
        if places:
            (f, h), = places
            found_f[c], found_h[c] = f, h
            slot[f * 64 + h] = c
    return bytes(found_f), bytes(found_h), bytes(slot)


def _fixed_point(
    model: Model, pos: Position, *, to_win: bool
) -> tuple[list[int], bytes, bytes]:
    """Per foundation, the height below which every card can go up (it stops at a card
    that cannot; at the size when all can); and each tableau card's slot. ``to_win``:
    facts about lines that win, with cards that have nowhere to rest kept in place."""
    return _FixedPoint(model, pos).run(to_win)


class _FixedPoint:
    """The fixed point's working tables for one position (a class rather than closures:
    mypyc compiles its fields and methods to plain C, see setup.py)."""

    def __init__(self, model: Model, pos: Position) -> None:
        piles = pos.piles
        heights = pos.heights
        self.piles = piles
        self.heights = heights
        self.tops_for = model.tops_for
        self.sizes = model.foundation_sizes
        pile_of = [-1] * 52  # card -> its pile; -1: not in a pile
        under = [0] * 52  # card -> the cards under it in its pile
        # card -> every card above it is lifted (so far: the piles' tops); a lifted card
        # was uncovered first
        uncovered = [False] * 52
        active: list[int] = []  # piles with cards
        for p, pile in enumerate(piles):
            if pile:
                active.append(p)
                uncovered[pile[-1]] = True
            for i in range(len(pile)):
                c = pile[i]
                pile_of[c] = p
                under[c] = i
        self.pile_of = pile_of
        self.under = under
        self.uncovered = uncovered
        self.active = active
        static = shortcuts_for(model).slots
        if static is not None:
            found_f, found_h, slot = static
        else:  # several slots per card (Four Leaf Clovers): each card's first one still open
            open_f, open_h = [0] * 52, [0] * 52
            open_slot = [NO_CARD] * (64 * len(heights))
            goes_up = model.goes_up
            for pile in piles:
                for c in pile:
                    for f, h in goes_up[c]:
                        if h >= heights[f]:
                            open_f[c], open_h[c] = f, h
                            open_slot[f * 64 + h] = c
                            break
            found_f, found_h, slot = bytes(open_f), bytes(open_h), bytes(open_slot)
        self.found_f = found_f
        self.found_h = found_h
        self.slot = slot
        self.lifted = [False] * 52
        self.left = [len(pile) for pile in piles]  # per pile: cards not lifted (the lowest)
        # can_rest's marks: the number of the call that last reached each card (cheaper
        # than a set per call)
        self.reached = [0] * 52
        self.calls = 0

    def clear_under(self, t: int, f: int, h: int) -> bool:
        """No card under t (where it lies now) goes up on f before height h."""
        pile = self.piles[self.pile_of[t]]
        found_f = self.found_f
        found_h = self.found_h
        for i in range(self.under[t]):
            c = pile[i]
            if found_f[c] == f and found_h[c] < h:
                return False
        return True

    def holds(self, t: int, f: int, h: int) -> bool:
        """t may hold a card going up at height h of foundation f: t is on the tableau
        and does not go up before it."""
        return self.pile_of[t] >= 0 and (self.found_f[t] != f or self.found_h[t] > h)

    def rests(self, c: int) -> bool:
        """Some card c may lie on when it goes up: on the tableau, not earlier than c."""
        found_f = self.found_f
        found_h = self.found_h
        pile_of = self.pile_of
        f = found_f[c]
        h = found_h[c]
        for t in self.tops_for[c]:  # holds(t, f, h), written out: the hottest call
            if pile_of[t] >= 0 and (found_f[t] != f or found_h[t] > h):
                return True
        return False

    def can_rest(self, c: int, f: int, h: int) -> bool:
        """A stack for c (going up at height h of foundation f) to lie on, see above."""
        tops_for = self.tops_for
        reached = self.reached
        self.calls += 1
        call = self.calls
        todo: list[int] = []
        for t in tops_for[c]:
            if self.holds(t, f, h):
                reached[t] = call
                todo.append(t)
        k = 0
        while k < len(todo):  # in the order reached (an index: list.pop costs more)
            t = todo[k]
            k += 1
            if self.uncovered[t] and self.clear_under(t, f, h):
                return True
            if self.lifted[t]:
                for t2 in tops_for[t]:
                    if reached[t2] != call and self.holds(t2, f, h):
                        reached[t2] = call
                        todo.append(t2)
        return False

    def run(self, to_win: bool) -> tuple[list[int], bytes, bytes]:
        piles = self.piles
        tops_for = self.tops_for
        sizes = self.sizes
        pile_of = self.pile_of
        uncovered = self.uncovered
        found_f = self.found_f
        found_h = self.found_h
        slot = self.slot
        lifted = self.lifted
        left = self.left
        active = self.active
        up = list(self.heights)  # per foundation: every card below this height can go up
        changed = True
        while changed:
            changed = False
            still: list[int] = []
            for p in active:
                pile = piles[p]
                i = left[p] - 1
                while i >= 0:
                    c = pile[i]
                    if found_h[c] > up[found_f[c]]:  # not straight up: needs a place, a future
                        for t in tops_for[c]:
                            if uncovered[t]:
                                break
                        else:
                            break  # no way off yet: the rest of this pile waits
                        if to_win and not self.rests(c):
                            break  # nowhere to rest, ever: it may only go straight up
                    lifted[c] = True
                    changed = True
                    if i > 0:
                        uncovered[pile[i - 1]] = True
                    i -= 1
                left[p] = i + 1
                if i >= 0:
                    still.append(p)
            active = still
            for f in range(len(sizes)):
                h = up[f]
                size = sizes[f]
                while h < size:
                    c = slot[f * 64 + h]
                    if (
                        c != NO_CARD
                        and pile_of[c] >= 0
                        and not (
                            (uncovered[c] and self.clear_under(c, f, h))
                            or (lifted[c] and self.can_rest(c, f, h))
                        )
                    ):
                        break
                    h += 1
                    changed = True
                up[f] = h
        return up, found_f, found_h

"""A compact position and move generator for the search, derived from ``engine.RULES``.

The engine's ``Game`` is built for players (checks, messages, history); the search
needs millions of cheap positions. Here a position is a list of ``bytes`` piles (one
byte per card, bottom to top), a list of foundation heights, the redeals left and
whether the draw is used. Every rule comes from the game's ``Rules`` description —
``tops_for``, ``FoundationSpec.next_cards``, ``may_feed``, ``refillable`` — so the
rules stay written once; ``tests/solver`` checks this generator against
``Game.legal_moves()`` on many random positions of every game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from .. import moves as kinds
from ..cards import CARDS, Card
from ..game import Game
from ..lru import LRU
from ..moves import Move
from ..moves import RawMove as RawMove  # the search's moves, named for its modules
from ..rules import RULES, Rules
from ..shuffle import shuffled

# Shuffles kept per game: a deal's redeals need a few dozen (one per round and number of
# cards left), so this holds the deals of the last few searches.
PERMUTATIONS_KEPT = 256

# Final: mypyc keeps these in C variables instead of looking them up at every use; plain
# ints, which it compares in C (an enum's member it would compare as an object).
FOUNDATION: Final = int(kinds.FOUNDATION)
PILE: Final = int(kinds.PILE)
REDEAL: Final = int(kinds.REDEAL)
DRAW: Final = int(kinds.DRAW)
ONE: Final = tuple(bytes((c,)) for c in range(256))  # single-card piles, shared
REDEAL_RAW: RawMove = (REDEAL, -1, -1)


@dataclass
class Position:
    """A mutable search position; ``Model.position(game)`` makes one from a Game."""

    piles: list[bytes]
    heights: list[int]
    redeals_left: int
    draw_used: bool

    def copy(self) -> Position:
        return Position(list(self.piles), list(self.heights), self.redeals_left, self.draw_used)


class Model:
    """One game's rules as lookup tables for the search."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.id = rules.id
        self.pile_count = rules.tableau_size
        self.card_count = rules.card_count
        # Cards a card may be placed on, as ints.
        self.tops_for: tuple[tuple[int, ...], ...] = tuple(
            tuple(int(t) for t in rules.tops_for[c]) for c in range(52)
        )
        # Foundation f at height h takes exactly the cards wants[f][h] (heights decide it:
        # a suited foundation's cards are fixed, and an any-suit one goes rank by rank).
        self.wants: list[list[tuple[int, ...]]] = []
        for spec in rules.foundations:
            representative: list[Card] = list(spec.base_cards()[:1]) if spec.prefilled else []
            start = len(representative)
            while len(representative) < spec.size:
                representative.append(spec.next_cards(representative)[0])
            per_height: list[tuple[int, ...]] = [()] * (spec.size + 1)
            for h in range(start, spec.size + 1):
                per_height[h] = tuple(int(c) for c in spec.next_cards(representative[:h]))
            self.wants.append(per_height)
        self.foundation_sizes = tuple(spec.size for spec in rules.foundations)
        # card -> ((foundation, height), ...): where and when the card can go up.
        goes_up: list[list[tuple[int, int]]] = [[] for _ in range(52)]
        for f, per_height in enumerate(self.wants):
            for h, cards in enumerate(per_height):
                for c in cards:
                    goes_up[c].append((f, h))
        self.goes_up: tuple[tuple[tuple[int, int], ...], ...] = tuple(map(tuple, goes_up))
        self.feeds: tuple[tuple[bool, ...], ...] = tuple(
            tuple(rules.may_feed(p, f) for f in range(len(rules.foundations)))
            for p in range(self.pile_count)
        )
        self.refillable = rules.refillable
        # One deck and no refill: a card tops at most one pile, and moves go onto tops only.
        self.one_top_each = rules.decks == 1 and not rules.refillable
        # Piles that play exactly alike (same feeds, same refill rule) may be reordered
        # in a position's key when no redeal is left to gather them in order.
        classes: dict[tuple[object, ...], list[int]] = {}
        for p in range(self.pile_count):
            signature = (self.feeds[p], p in rules.refillable)
            classes.setdefault(signature, []).append(p)
        self.pile_classes: tuple[tuple[int, ...], ...] = tuple(map(tuple, classes.values()))
        self.one_class = len(self.pile_classes) == 1
        self._permutations: LRU[tuple[int, int, int], tuple[int, ...]] = LRU(
            PERMUTATIONS_KEPT
        )

    # -- positions ------------------------------------------------------------------

    def position(self, game: Game) -> Position:
        if game.rules.id != self.id:
            raise ValueError(f"this model is for {self.id}, not {game.rules.id}")
        return Position(
            [bytes(map(int, pile)) for pile in game.tableau],
            [len(f) for f in game.foundations],
            game.redeals_left,
            game.draw_used,
        )

    def on_foundations(self, pos: Position) -> int:
        return sum(pos.heights)

    # -- moves ------------------------------------------------------------------------

    def foundation_moves(self, pos: Position) -> list[RawMove]:
        """Every legal move to a foundation, by source pile then foundation."""
        heights = pos.heights
        feeds = self.feeds
        goes_up = self.goes_up
        out: list[RawMove] = []
        for src, pile in enumerate(pos.piles):
            if pile:
                for f, h in goes_up[pile[-1]]:
                    if heights[f] == h and feeds[src][f]:
                        out.append((FOUNDATION, src, f))
        return out

    def pile_moves(self, pos: Position) -> list[RawMove]:
        """Every legal move onto another pile (refilled corners included)."""
        piles = pos.piles
        if self.one_top_each:
            return self._moves_onto_tops(piles)
        by_top: dict[int, list[int]] = {}
        empty_refillable: list[int] = []
        refillable = self.refillable
        for i, pile in enumerate(piles):
            if pile:
                top = pile[-1]
                if top in by_top:
                    by_top[top].append(i)
                else:
                    by_top[top] = [i]
            elif i in refillable:
                empty_refillable.append(i)
        tops_for = self.tops_for
        out: list[RawMove] = []
        for src, pile in enumerate(piles):
            if not pile:
                continue
            for target in tops_for[pile[-1]]:
                dsts = by_top.get(target)
                if dsts:
                    for dst in dsts:
                        if dst != src:
                            out.append((PILE, src, dst))
            if empty_refillable and not (src in refillable and len(pile) == 1):
                for dst in empty_refillable:
                    out.append((PILE, src, dst))
        return out

    def _moves_onto_tops(self, piles: list[bytes]) -> list[RawMove]:
        """pile_moves where each card tops at most one pile (the same moves in the same
        order, with the piles found by a list of cards rather than a dict of lists)."""
        top_pile = [-1] * 52
        for i, pile in enumerate(piles):
            if pile:
                top_pile[pile[-1]] = i
        tops_for = self.tops_for
        out: list[RawMove] = []
        for src, pile in enumerate(piles):
            if pile:
                for target in tops_for[pile[-1]]:
                    dst = top_pile[target]
                    if dst >= 0 and dst != src:
                        out.append((PILE, src, dst))
        return out

    def draw_moves(self, pos: Position) -> list[RawMove]:
        return [(DRAW, -1, c) for pile in pos.piles for c in pile[:-1]]

    def legal_moves(self, pos: Position, *, draw_rule: bool = False) -> list[RawMove]:
        """All legal moves, as a set the engine's ``legal_moves()`` also gives."""
        if not any(pos.piles):
            return []
        moves = self.foundation_moves(pos) + self.pile_moves(pos)
        if pos.redeals_left:
            moves.append(REDEAL_RAW)
        if draw_rule and not pos.draw_used and not pos.redeals_left:
            moves.extend(self.draw_moves(pos))
        return moves

    # -- applying -------------------------------------------------------------------

    def redealt(self, pos: Position, deal: int) -> list[bytes]:
        """The piles after a redeal, exactly as ``Game._redealt`` deals them."""
        flat = b"".join(pos.piles)
        n = len(flat)
        round_ = self.rules.redeals - pos.redeals_left + 1
        perm = self._permutation(deal, round_, n)
        cards = bytes(flat[i] for i in perm)
        size = self.rules.redeal_pile_size
        piles = [cards[i : i + size] for i in range(0, n, size)]
        piles += [b""] * (self.pile_count - len(piles))
        return piles

    def _permutation(self, deal: int, round_: int, n: int) -> tuple[int, ...]:
        """The shuffle of n cards depends only on (game, deal, round, n): compute it once."""
        key = (deal, round_, n)
        perm = self._permutations.get(key)
        if perm is None:
            perm = tuple(shuffled(list(range(n)), self.id, deal, round_))
            self._permutations[key] = perm
        return perm

    def apply(self, pos: Position, move: RawMove, deal: int) -> Any:
        """Play ``move`` on ``pos`` in place; returns what ``undo`` needs."""
        kind, src, dst = move
        piles = pos.piles
        if kind == FOUNDATION:
            old = piles[src]
            piles[src] = old[:-1]
            pos.heights[dst] += 1
            return old
        if kind == PILE:
            old_src, old_dst = piles[src], piles[dst]
            piles[src] = old_src[:-1]
            piles[dst] = old_dst + ONE[old_src[-1]]
            return (old_src, old_dst)
        if kind == REDEAL:
            old_piles = list(piles)
            pos.piles = self.redealt(pos, deal)
            pos.redeals_left -= 1
            return old_piles
        for i, pile in enumerate(piles):  # DRAW: lift card dst to the top of its pile
            at = pile.find(dst)
            if at >= 0:
                piles[i] = pile[:at] + pile[at + 1 :] + ONE[dst]
                pos.draw_used = True
                return (i, pile)
        raise ValueError(f"card {CARDS[dst]} is not in a pile")

    def undo(self, pos: Position, move: RawMove, saved: Any) -> None:
        kind, src, dst = move
        if kind == FOUNDATION:
            pos.piles[src] = saved
            pos.heights[dst] -= 1
        elif kind == PILE:
            pos.piles[src], pos.piles[dst] = saved
        elif kind == REDEAL:
            pos.piles = saved
            pos.redeals_left += 1
        else:
            i, pile = saved
            pos.piles[i] = pile
            pos.draw_used = False

    # -- keys -------------------------------------------------------------------------

    @staticmethod
    def exact_key(pos: Position) -> bytes:
        """The position exactly, pile order included (what a move's pile numbers refer to)."""
        tail = bytes(pos.heights) + bytes((pos.redeals_left, pos.draw_used))
        return b"\xff".join(pos.piles) + b"\xfe" + tail

    def key(self, pos: Position) -> bytes:
        """A compact hashable key; piles that play alike are sorted once no redeal is left."""
        piles = pos.piles
        tail = bytes(pos.heights) + bytes((pos.redeals_left, pos.draw_used))
        if pos.redeals_left:
            return b"\xff".join(piles) + b"\xfe" + tail
        if self.one_class:
            return b"\xff".join(sorted(piles)) + b"\xfe" + tail
        parts = []
        for group in self.pile_classes:
            parts.append(b"\xff".join(sorted([piles[i] for i in group])))
        return b"\xfd".join(parts) + b"\xfe" + tail


def move_text(move: RawMove) -> str:
    return str(Move.from_raw(move))


_MODELS: LRU[int, Model] = LRU(16)  # by the id of its Rules: the five, and a few


def model_for(game_id: str) -> Model:
    """The shared Model of a game (its tables are built once)."""
    return model_for_rules(RULES[game_id])


def model_for_rules(rules: Rules) -> Model:
    """The shared Model of a rule set (a game's, or an edited one in a test)."""
    model = _MODELS.get(id(rules))
    if model is None or model.rules is not rules:
        model = Model(rules)
        _MODELS[id(rules)] = model
    return model

"""Winning lines: made shorter (a depth-first search wanders before it wins), and
remembered, so that hint after hint follows one line to the win, knowing how many moves
it has left.
"""

from __future__ import annotations

import hashlib
from typing import NamedTuple

from ..lru import LRU
from .budget import Budget
from .model import Model, Position, RawMove

# Positions of remembered winning lines (each about 300 bytes with its move): a line
# holds tens to a few hundred positions, so this keeps the lines of the last few dozen
# games a player asked a hint in (a line forgotten is planned again, consistently).
PLAN_POSITIONS = 5_000


def without_cycles(
    model: Model, start: Position, line: list[RawMove], deal: int
) -> list[RawMove]:
    """The same win with every loop cut out: wherever the line comes back to a position
    (exactly, pile order included), the moves between its two visits go. A card put
    straight back where it came from is such a loop. ``start`` is left as it was."""
    pos = start.copy()
    out: list[RawMove] = []
    at: dict[bytes, int] = {model.exact_key(pos): 0}  # position -> moves of out before it
    for move in line:
        model.apply(pos, move, deal)
        out.append(move)
        key = model.exact_key(pos)
        back = at.get(key)
        if back is not None:
            del out[back:]
            at = {k: i for k, i in at.items() if i <= back}
        else:
            at[key] = len(out)
    return out


def shorten(
    model: Model,
    start: Position,
    line: list[RawMove],
    deal: int,
    *,
    draw_rule: bool,
    budget: Budget | None = None,
) -> list[RawMove]:
    """The same win with detours cut: from each position of the line, jump to the latest
    position of the line that one legal move reaches, so no position comes twice.
    ``start`` is left as it was. Each move tried is a position charged to ``budget``;
    once it is spent (or would be by the next step's moves) the rest of the line is kept
    as it is (it may then still come back to a position)."""
    pos = start.copy()
    last: dict[bytes, int] = {model.exact_key(pos): 0}
    for i, move in enumerate(line, 1):
        model.apply(pos, move, deal)
        last[model.exact_key(pos)] = i
    pos = start.copy()
    out: list[RawMove] = []
    at = last[model.exact_key(pos)]
    if at:  # the line comes back to its start: begin from its last visit
        return shorten(model, start, line[at:], deal, draw_rule=draw_rule, budget=budget)
    while at < len(line):
        moves = model.legal_moves(pos, draw_rule=draw_rule)
        if budget is not None:
            if budget.spent or budget.left() < len(moves):
                return out + line[at:]
            budget.charge(len(moves))
        best, best_move = at + 1, line[at]
        for move in moves:
            saved = model.apply(pos, move, deal)
            reached = last.get(model.exact_key(pos), -1)
            if reached > best:
                best, best_move = reached, move
            model.undo(pos, move, saved)
        model.apply(pos, best_move, deal)
        out.append(best_move)
        at = best
    return out


class Step(NamedTuple):
    """A remembered line's move from a position, and the moves it has left from there
    (this one included)."""

    move: RawMove
    moves_left: int


class Plans:
    """Winning lines by the positions they pass: position -> the line's move from there.

    A hint asked on a position of a remembered line gives that line's next move, so a
    player who follows the hints walks one line to its end. A line is stored without its
    loops (it never comes back to a position), and a newer line takes over the positions
    it shares with older ones. Positions are exact (pile order included) and carry the
    game, deal and draw rule, since a redeal's shuffle depends on the deal.
    """

    def __init__(self, limit: int = PLAN_POSITIONS) -> None:
        self.positions: LRU[bytes, int] = LRU(limit)  # key -> _packed(move, moves left)

    @staticmethod
    def key(model: Model, pos: Position, deal: int, draw_rule: bool) -> bytes:
        """The position with its game, deal and draw rule, as a 128-bit digest: a third
        of the bytes (a chance collision among the remembered positions is as likely as
        none in 10^30)."""
        exact = f"{model.id}/{deal}/{int(draw_rule)}/".encode() + model.exact_key(pos)
        return hashlib.blake2b(exact, digest_size=16).digest()

    def next_step(self, model: Model, pos: Position, deal: int, draw_rule: bool) -> Step | None:
        packed = self.positions.get(self.key(model, pos, deal, draw_rule))
        return None if packed is None else _unpacked(packed)

    def remember(
        self,
        model: Model,
        start: Position,
        line: list[RawMove],
        deal: int,
        draw_rule: bool,
        *,
        then: int = 0,
    ) -> None:
        """Store a winning ``line`` from ``start`` (left as it was), its loops cut out.
        ``then``: the moves a remembered line has left where this one ends (0: it wins)."""
        pos = start.copy()
        line = without_cycles(model, start, line, deal)
        for i, move in enumerate(line):
            key = self.key(model, pos, deal, draw_rule)
            self.positions[key] = _packed(move, len(line) - i + then)
            model.apply(pos, move, deal)

    def clear(self) -> None:
        self.positions.clear()


def _packed(move: RawMove, moves_left: int) -> int:
    """A step as one int (a third of a tuple's bytes): the move's numbers are below 1,023
    and at least -1 (a redeal's), the moves left go above them."""
    kind, src, dst = move
    return (moves_left << 30) | (kind << 20) | ((src + 1) << 10) | (dst + 1)


def _unpacked(packed: int) -> Step:
    move = ((packed >> 20) & 0x3FF, ((packed >> 10) & 0x3FF) - 1, (packed & 0x3FF) - 1)
    return Step(move, packed >> 30)


PLANS = Plans()

"""Winning lines made shorter: a depth-first search wanders before it wins."""

from __future__ import annotations

import time

from .model import Model, Position, RawMove


def _exact(pos: Position) -> tuple[object, ...]:
    return (tuple(pos.piles), tuple(pos.heights), pos.redeals_left, pos.draw_used)


def shorten(
    model: Model,
    start: Position,
    line: list[RawMove],
    deal: int,
    *,
    draw_rule: bool,
    deadline: float | None = None,
) -> list[RawMove]:
    """The same win with detours cut: from each position of the line, jump to the latest
    position of the line that one legal move reaches. ``start`` is left as it was.
    Past ``deadline`` (perf_counter) the rest of the line is kept as it is."""
    pos = start.copy()
    index: dict[tuple[object, ...], int] = {_exact(pos): 0}
    for i, move in enumerate(line, 1):
        model.apply(pos, move, deal)
        index.setdefault(_exact(pos), i)
    pos = start.copy()
    out: list[RawMove] = []
    at = 0
    while at < len(line):
        if deadline is not None and len(out) % 64 == 0 and time.perf_counter() > deadline:
            return out + line[at:]
        best, best_move = at + 1, line[at]
        for move in model.legal_moves(pos, draw_rule=draw_rule):
            saved = model.apply(pos, move, deal)
            reached = index.get(_exact(pos), -1)
            if reached > best:
                best, best_move = reached, move
            model.undo(pos, move, saved)
        model.apply(pos, best_move, deal)
        out.append(best_move)
        at = best
    return out

"""Move order: which move the search tries first. It decides speed, never correctness."""

from __future__ import annotations

from .model import Model, Position, RawMove


def order_moves(
    model: Model, pos: Position, up: list[RawMove], across: list[RawMove]
) -> list[RawMove]:
    return up + across

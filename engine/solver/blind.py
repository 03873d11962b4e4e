"""How a player who never undoes a redeal plays: the next shuffle is unknown to them.

The policy, stated so that anyone can reproduce the figure:

1. While redeals are left: if the current deal can be won without redealing, win it.
   Otherwise play the line that puts the most cards on the foundations in this deal
   (the first such line the solver finds), then redeal.
2. After the last redeal nothing is hidden: win if any line wins.

Undo is never used to look at a shuffle. ``solve`` (perfect play) knows every shuffle,
so its odds are an upper bound on these. ``play_out`` plays the policy from any search
position with any shuffles: the hints sample it over shuffles a player cannot know
(sampled.py), and ``python -m tools.solver blind`` measures its odds over many deals
(tools/solver/blind_odds.py).
"""

from __future__ import annotations

from typing import NamedTuple

from .budget import Budget
from .model import REDEAL_RAW, Model, Position
from .search import Search
from .verdict import Verdict


class PlayedOut(NamedTuple):
    won: bool
    cards_up: int  # the most cards on the foundations
    exact: bool  # every search finished: the policy was followed exactly
    positions: int  # searched


def play_out(
    model: Model,
    pos: Position,
    deal: int,
    *,
    draw_rule: bool = False,
    budget_s: float = 1.0,
    positions: int | None = None,
) -> PlayedOut:
    """Play ``pos`` (changed: it ends where the policy ends) by the policy above, each
    redeal shuffled for ``deal``; each search within ``budget_s`` or ``positions``."""
    exact = True
    searched = 0
    while pos.redeals_left:
        budget = Budget(budget_s, positions)
        run = Search(model, pos, deal=deal, deadline=budget.deadline, positions=positions,
                     within_deal=True)
        status = run.run()
        searched += run.positions
        if status == Verdict.WON:
            return PlayedOut(True, model.card_count, exact, searched)
        exact = exact and status == Verdict.EXHAUSTED
        for move in run.best_line:
            model.apply(pos, move, deal)
        model.apply(pos, REDEAL_RAW, deal)
    budget = Budget(budget_s, positions)
    final = Search(model, pos, deal=deal, draw_rule=draw_rule, deadline=budget.deadline,
                   positions=positions)
    status = final.run()
    return PlayedOut(status == Verdict.WON, final.best_count,
                     exact and status in (Verdict.WON, Verdict.LOST), searched + final.positions)

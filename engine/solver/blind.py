"""Odds for a player who never undoes a redeal: the next shuffle is unknown to them.

The policy, stated so that anyone can reproduce the figure:

1. While redeals are left: if the current deal can be won without redealing, win it.
   Otherwise play the line that puts the most cards on the foundations in this deal
   (the first such line the solver finds), then redeal.
2. After the last redeal nothing is hidden: win if any line wins.

Undo is never used to look at a shuffle. ``solve`` (perfect play) knows every shuffle,
so its odds are an upper bound on these. ``play_out`` plays the policy from any search
position with any shuffles: the hints sample it over shuffles a player cannot know
(sampled.py).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import NamedTuple

from ..game import new_game
from .budget import Budget
from .jobs import each_in_turn
from .model import REDEAL_RAW, Model, Position, model_for
from .search import EXHAUSTED, LOST, WON, Search


@dataclass(frozen=True)
class BlindGame:
    deal: int
    won: bool
    cards_up: int
    exact: bool  # every search of the game finished: the policy was followed exactly


def play_blind(
    game_id: str, deal: int, budget_s: float = 1.0, positions: int | None = None
) -> BlindGame:
    """Play ``deal`` by the policy above; ``budget_s`` per search, or ``positions``
    (then whatever the time: the same games on every machine)."""
    game = new_game(game_id, deal)
    model = model_for(game_id)
    played = play_out(model, model.position(game), deal, budget_s=budget_s, positions=positions)
    return BlindGame(deal, played.won, played.cards_up, played.exact)


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
        if status == WON:
            return PlayedOut(True, model.card_count, exact, searched)
        exact = exact and status == EXHAUSTED
        for move in run.best_line:
            model.apply(pos, move, deal)
        model.apply(pos, REDEAL_RAW, deal)
    budget = Budget(budget_s, positions)
    final = Search(model, pos, deal=deal, draw_rule=draw_rule, deadline=budget.deadline,
                   positions=positions)
    status = final.run()
    return PlayedOut(status == WON, final.best_count, exact and status in (WON, LOST),
                     searched + final.positions)


def wilson_interval(won: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval for a share of ``won`` in ``games``."""
    if games == 0:
        return 0.0, 1.0
    p = won / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class BlindOdds:
    game_id: str
    games: tuple[BlindGame, ...]
    seconds: float
    player: str = "a player who never undoes a redeal"
    inexact: str = "Games where a search ran out of time (played with the best line found)"

    @property
    def won(self) -> int:
        return sum(g.won for g in self.games)

    def text(self) -> str:
        n = len(self.games)
        low, high = wilson_interval(self.won, n)
        inexact = sum(not g.exact for g in self.games)
        deals = f"{self.games[0].deal}-{self.games[-1].deal}" if n else "none"
        return (
            f"{self.game_id}, {self.player}: won {self.won} of {n} "
            f"(deals {deals}): {100 * self.won / max(n, 1):.1f}%, 95% interval "
            f"{100 * low:.1f}-{100 * high:.1f}%. {self.inexact}: {inexact}. "
            f"{self.seconds:.0f} s."
        )


def _play(args: tuple[str, int, float, int | None]) -> BlindGame:
    return play_blind(*args)


def blind_odds(
    game_id: str,
    deals: Iterable[int],
    budget_s: float = 1.0,
    *,
    positions: int | None = None,
    jobs: int = 1,
    progress: Callable[[BlindGame], None] | None = None,
) -> BlindOdds:
    started = time.perf_counter()
    work = [(game_id, d, budget_s, positions) for d in deals]
    results = each_in_turn(_play, work, jobs=jobs, progress=progress, chunksize=8)
    return BlindOdds(game_id, results, time.perf_counter() - started)

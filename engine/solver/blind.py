"""Odds for a player who never undoes a redeal: the next shuffle is unknown to them.

The policy, stated so that anyone can reproduce the figure:

1. While redeals are left: if the current deal can be won without redealing, win it.
   Otherwise play the line that puts the most cards on the foundations in this deal
   (the first such line the solver finds), then redeal.
2. After the last redeal nothing is hidden: win if any line wins.

Undo is never used to look at a shuffle. ``solve`` (perfect play) knows every shuffle,
so its odds are an upper bound on these.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..game import new_game
from ..moves import Move
from . import plan, solve
from .budget import Budget
from .jobs import each_in_turn
from .model import model_for
from .search import EXHAUSTED, LOST, WON


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
    exact = True
    while game.redeals_left:
        outcome = plan.search(model, game, Budget(budget_s, positions), within_deal=True)
        if outcome.status == WON:
            return BlindGame(deal, True, game.rules.card_count, exact)
        exact = exact and outcome.status == EXHAUSTED
        for move in outcome.best_line:
            game.push(Move(*move))
        game.play("redeal")
    final = solve(game, budget_s=budget_s, positions=positions)
    exact = exact and final.status in (WON, LOST)
    return BlindGame(deal, final.status == WON, final.cards_up, exact)


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

    @property
    def won(self) -> int:
        return sum(g.won for g in self.games)

    def text(self) -> str:
        n = len(self.games)
        low, high = wilson_interval(self.won, n)
        inexact = sum(not g.exact for g in self.games)
        deals = f"{self.games[0].deal}-{self.games[-1].deal}" if n else "none"
        return (
            f"{self.game_id}, a player who never undoes a redeal: won {self.won} of {n} "
            f"(deals {deals}): {100 * self.won / max(n, 1):.1f}%, 95% interval "
            f"{100 * low:.1f}-{100 * high:.1f}%. Games where a search ran out of time "
            f"(played with the best line found): {inexact}. {self.seconds:.0f} s."
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

"""Odds for a player who never undoes a redeal, over many deals: each deal played by the
policy stated in engine/solver/blind.py, and the share won with its 95% Wilson interval.

``python -m tools.solver blind trefoil --games 2000``; hinted.py measures the player who
follows every hint the same way.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine import new_game
from engine.solver.blind import play_out
from engine.solver.model import model_for

from .jobs import each_in_turn


@dataclass(frozen=True)
class BlindGame:
    deal: int
    won: bool
    cards_up: int
    exact: bool  # every search of the game finished: the policy was followed exactly


def play_blind(
    game_id: str, deal: int, budget_s: float = 1.0, positions: int | None = None
) -> BlindGame:
    """Play ``deal`` by the policy (engine/solver/blind.py); ``budget_s`` per search, or
    ``positions`` (then whatever the time: the same games on every machine)."""
    game = new_game(game_id, deal)
    model = model_for(game_id)
    played = play_out(model, model.position(game), deal, budget_s=budget_s, positions=positions)
    return BlindGame(deal, played.won, played.cards_up, played.exact)


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

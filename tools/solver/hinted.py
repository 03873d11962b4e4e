"""Odds for a player who follows every hint from the deal and never undoes: how often the
hint line wins, beside the blind policy's odds (blind_odds.py).

``python -m tools.solver hinted trefoil --games 300``: deals 1 to 300, each played by
asking a hint and playing its move (an action's first move: the hint after it goes on)
until the game is won or no move is left. Each hint is asked as the bot asks it, with
``positions`` for its searches instead of seconds, so the figure is the same on every
machine; before the last redeal a hint samples shuffles with counts of its own
(engine/solver/sampled.py), after it the hint knows everything there is to know.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from engine import new_game
from engine.solver import hint

from .blind_odds import BlindGame, BlindOdds
from .jobs import each_in_turn

HINT_POSITIONS = 100_000  # a hint's searches after the last redeal (the bot: 2 s, more)
MOST_MOVES = 2_000  # a game still going after this many hinted moves is a loss (none was)


def play_hinted(game_id: str, deal: int, positions: int = HINT_POSITIONS) -> BlindGame:
    """Play ``deal`` by its hints; ``exact``: it ended won or with no hint to play."""
    game = new_game(game_id, deal)
    for _ in range(MOST_MOVES):
        if game.is_won or game.is_stuck:
            break
        advice = hint(game, positions=positions)
        if advice.move is None:
            break
        game.play(advice.move)
    else:
        return BlindGame(deal, False, game.cards_on_foundations, False)
    return BlindGame(deal, game.is_won, game.cards_on_foundations, True)


def _play(args: tuple[str, int, int]) -> BlindGame:
    return play_hinted(*args)


def hinted_odds(
    game_id: str,
    deals: Iterable[int],
    *,
    positions: int = HINT_POSITIONS,
    jobs: int = 1,
    progress: Callable[[BlindGame], None] | None = None,
) -> BlindOdds:
    started = time.perf_counter()
    work = [(game_id, d, positions) for d in deals]
    results = each_in_turn(_play, work, jobs=jobs, progress=progress, chunksize=4)
    return BlindOdds(game_id, results, time.perf_counter() - started,
                     player="a player who follows every hint",
                     inexact=f"Games cut short after {MOST_MOVES:,} moves")

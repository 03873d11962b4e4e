"""A solver for the five games: exact answers for hints, winnable deals and odds.

>>> from engine import new_game
>>> solution = solve(new_game("trefoil", 1), budget_s=2.0)
>>> solution.status in ("won", "lost", "unknown")
True

``solve`` searches from the game's current position, redeals included (a redeal's
shuffle is fixed by the deal number, so a deal's outcome is well defined). ``hint``
plans like a player who cannot see future shuffles: in a game with redeals left it
searches only the current deal. Neither changes the game it is given.

For the bot:

- Hint button, ``/hint``: ``hint(game)`` — ``move`` to play (or None), ``note`` to show,
  ``winning`` (part of a proven win), ``lost`` (proven: no win from here).
- Winnable deals: ``solve(new_game(game_id, deal)).status == "won"``.
- "No win is possible from here": ``solve(game, budget_s=...).status == "lost"``.
- Auto-finish: a "won" ``Solution.moves`` replays with ``game.play`` to the win.

Both are pure CPU work that holds the GIL for the whole budget: run them in a process
pool (or at least a thread) so the event loop keeps answering. "unknown" means the
budget ran out; a larger budget may still decide.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..game import Game
from . import plan
from .model import model_for, move_text
from .search import EXHAUSTED, LOST, UNKNOWN, WON

__all__ = ["Hint", "Solution", "hint", "solve"]


@dataclass(frozen=True)
class Solution:
    """What the search found from one position.

    ``status``: "won" (``moves`` replays to a win with ``Game.play``), "lost" (proven:
    no sequence of legal moves wins) or "unknown" (the budget ran out first).
    """

    status: str
    moves: list[str] = field(default_factory=list)
    positions: int = 0
    seconds: float = 0.0
    cards_up: int = 0  # most cards on the foundations along any line searched
    best_moves: list[str] = field(default_factory=list)  # a line reaching cards_up

    @property
    def decided(self) -> bool:
        return self.status != UNKNOWN


@dataclass(frozen=True)
class Hint:
    """The next move to suggest, and how much to trust it.

    ``move`` is move text for ``Game.play`` (None when the game is over). ``winning``:
    the move starts a line proven to win. ``lost``: no win is possible from here
    (proven). ``note`` says so in a player's words.
    """

    move: str | None
    winning: bool
    lost: bool
    note: str
    positions: int = 0
    cards_up: int = 0

    @property
    def is_redeal(self) -> bool:
        return self.move == "redeal"


def solve(game: Game, *, budget_s: float = 2.0) -> Solution:
    """Search for a win from ``game``'s position, through redeals; never changes ``game``."""
    started = time.perf_counter()
    if game.is_won:
        return Solution(WON, cards_up=game.cards_on_foundations)
    outcome = plan.search(model_for(game.game_id), game, budget_s)
    return Solution(
        outcome.status,
        moves=[move_text(m) for m in outcome.line] if outcome.status == WON else [],
        positions=outcome.positions,
        seconds=time.perf_counter() - started,
        cards_up=outcome.best_count,
        best_moves=[move_text(m) for m in outcome.best_line],
    )


def hint(game: Game, *, budget_s: float = 1.0) -> Hint:
    """The best next move the solver can justify within ``budget_s``; never changes ``game``.

    In a game with redeals left, the hint plans within the current deal only (it may
    not know the next shuffle): it wins the deal if it can, else clears the most cards,
    and says "redeal" once nothing more can be cleared.
    """
    total = game.rules.card_count
    if game.is_won:
        return Hint(None, False, False, "The game is won.", cards_up=total)
    if game.is_stuck:
        return Hint(
            None, False, True, "No legal move is left: this game can't be won.",
            cards_up=game.cards_on_foundations,
        )
    within_deal = game.redeals_left > 0
    outcome = plan.search(model_for(game.game_id), game, budget_s, within_deal=within_deal)
    status = outcome.status
    up = outcome.best_count
    found = outcome.positions
    if status == WON:
        return Hint(
            move_text(outcome.line[0]), True, False,
            "This move is part of a winning line.", found, total,
        )
    improves = up > game.cards_on_foundations and outcome.best_line
    if within_deal:
        if improves:
            where = "in this deal" if status == EXHAUSTED else "in this deal within the time"
            return Hint(
                move_text(outcome.best_line[0]), False, False,
                f"No win found {where}; this move starts the line that puts the most cards "
                f"on the foundations ({up} of {total}) before a redeal.",
                found, up,
            )
        if status == EXHAUSTED:
            note = "Redeal now: nothing more can be cleared in this deal."
        else:
            note = "No move found that clears more cards in this deal: redealing looks best."
        return Hint("redeal", False, False, note, found, up)
    lost = status == LOST
    if improves:
        move = move_text(outcome.best_line[0])
        what = f"this move leads to the most cards on the foundations found ({up} of {total})."
    else:
        first = outcome.first_moves
        move = move_text(first[0]) if first else str(game.legal_moves()[0])
        what = "no line found puts more cards up; this is the solver's first choice."
    lead = "No win is possible from here" if lost else "No win found within the time"
    return Hint(move, False, lost, f"{lead}; {what}", found, up)

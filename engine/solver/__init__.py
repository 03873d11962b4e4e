"""A solver for the five games: exact answers for hints, winnable deals and odds.

>>> from engine import new_game
>>> solution = solve(new_game("trefoil", 1), budget_s=2.0)
>>> solution.status in ("won", "lost", "unknown")
True

``solve`` searches from the game's current position, redeals included, knowing every
future shuffle (each is fixed by the game, deal number and redeal index). A hint does
not: a player sees a redeal's shuffle only once it is dealt, so while a redeal is to come
a hint plans as a player would (sampled.py): a win in the deal on the table if there is
one, else the step that wins most often over sampled shuffles, with how often. The deal
number plays no part in it. After the last redeal nothing is hidden and a hint knows
what ``solve`` knows. Neither changes the game it is given.

A winning hint is the next step of one winning line, tidied as an expert would play it
and remembered (a bounded cache in this process) while the player follows it: playing
the hints one after another plays that line to the win and never comes back to a
position. A player who leaves the line gets a new one, planned to keep away from the
positions of the game's history. hints.py says what a hint can say.

For the bot:

- Hint button, ``/hint``: ``hint(game)`` — ``move`` to play (or None), ``note`` to show
  (plain text), ``winning`` (part of a proven win), ``lost`` (proven: no win from here),
  ``action`` ("auto-finish" or "to-foundations": one action plays the step),
  ``moves_left`` and ``undo_to_win``; before a redeal, ``shuffles_won`` of ``shuffles``.
  Call it in one long-lived process so the remembered lines carry from hint to hint.
- Winnable deals: ``solve(new_game(game_id, deal)).status == Verdict.WON``.
- The daily deal: ``daily.winnable_daily_deal(game_id, day, secret)``, proven winnable and the
  same in every process (decided by positions).
- "No win is possible from here": ``solve(game, budget_s=...).status == Verdict.LOST``.
- Auto-finish: a "won" ``Solution.moves`` replays with ``game.play`` to the win.

Both are pure CPU work that holds the GIL for the whole budget: run them in a process
pool (or at least a thread) so the event loop keeps answering. "unknown" means the
budget ran out; a larger budget may still decide.

The budget is ``budget_s`` seconds of wall-clock time, or, with ``positions=N``, N
positions searched and no clock: the answer is then the same on every machine, fast or
slow, compiled or not (budget.py). Tests, and anything that must decide alike
everywhere, give positions.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..game import Game
from . import plan, sampled
from . import search as _search
from .budget import Budget
from .hints import AUTO_FINISH, TO_FOUNDATIONS, Hint, followed, hint, remember
from .model import model_for_rules, move_text
from .verdict import Verdict

__all__ = [
    "AUTO_FINISH", "TO_FOUNDATIONS", "Hint", "Solution", "Verdict", "compiled", "followed", "hint",
    "remember", "sampled", "solve",
]


@dataclass(frozen=True)
class Solution:
    """What the search found from one position.

    ``status``: ``Verdict.WON`` (``moves`` replays to a win with ``Game.play``), ``LOST``
    (proven: no sequence of legal moves wins) or ``UNKNOWN`` (the budget ran out first).
    ``positions``: the positions searched, never more than a positions budget (which
    the shortening of a won line draws on too).
    """

    status: Verdict
    moves: list[str] = field(default_factory=list)
    positions: int = 0
    seconds: float = 0.0
    cards_up: int = 0  # most cards on the foundations along any line searched
    best_moves: list[str] = field(default_factory=list)  # a line reaching cards_up

    @property
    def decided(self) -> bool:
        return self.status != Verdict.UNKNOWN


def compiled() -> bool:
    """Whether the search runs as C built by mypyc (see setup.py) or as plain Python:
    the same answers either way, about three times sooner compiled."""
    return not _search.__file__.endswith(".py")


def solve(game: Game, *, budget_s: float = 2.0, positions: int | None = None) -> Solution:
    """Search for a win from ``game``'s position, through redeals; never changes ``game``.

    Within ``budget_s`` seconds, or, when ``positions`` is given, that many positions
    searched whatever the time (the same answer on every machine)."""
    started = time.perf_counter()
    if game.is_won:
        return Solution(Verdict.WON, cards_up=game.cards_on_foundations)
    outcome = plan.search(model_for_rules(game.rules), game, Budget(budget_s, positions))
    return Solution(
        outcome.status,
        moves=[move_text(m) for m in outcome.line] if outcome.status == Verdict.WON else [],
        positions=outcome.positions,
        seconds=time.perf_counter() - started,
        cards_up=outcome.best_count,
        best_moves=[move_text(m) for m in outcome.best_line],
    )

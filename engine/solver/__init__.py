"""A solver for the five games: exact answers for hints, winnable deals and odds.

>>> from engine import new_game
>>> solution = solve(new_game("trefoil", 1), budget_s=2.0)
>>> solution.status in ("won", "lost", "unknown")
True

``solve`` searches from the game's current position, redeals included. ``hint`` knows
what ``solve`` knows: the whole position and every future shuffle. A redeal's shuffle
is fixed by (game, deal number, redeal index), and a player sees it anyway by redealing,
undoing and redealing again, so a hint plans through the redeals as a player who
peeked would. Only when no win is found (or none exists) does a redeal game's hint fall
back to clearing the most cards in the current deal before redealing. Neither changes
the game it is given.

A winning hint is the next move of one winning line, remembered (a bounded cache in
this process) while the player follows it: playing the hints one after another plays
that line to the win and never comes back to a position. A player who leaves the line
gets a new one, planned to keep away from the positions of the game's history.

For the bot:

- Hint button, ``/hint``: ``hint(game)`` — ``move`` to play (or None), ``note`` to show
  (plain text), ``winning`` (part of a proven win), ``lost`` (proven: no win from here).
  Call it in one long-lived process so the remembered lines carry from hint to hint.
- Winnable deals: ``solve(new_game(game_id, deal)).status == "won"``.
- "No win is possible from here": ``solve(game, budget_s=...).status == "lost"``.
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
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..game import Game
from . import plan
from . import search as _search
from .budget import Budget
from .keys import key_function
from .lines import PLANS
from .model import Model, RawMove, model_for_rules, move_text
from .search import EXHAUSTED, LOST, UNKNOWN, WON

__all__ = ["Hint", "Solution", "compiled", "hint", "remember", "solve"]


@dataclass(frozen=True)
class Solution:
    """What the search found from one position.

    ``status``: "won" (``moves`` replays to a win with ``Game.play``), "lost" (proven:
    no sequence of legal moves wins) or "unknown" (the budget ran out first).
    ``positions``: the positions searched, never more than a positions budget (which
    the shortening of a won line draws on too).
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
    # The winning line this hint planned, when it planned one (not when it followed a
    # remembered line): for ``remember`` in another process than the one that searched.
    line: tuple[RawMove, ...] = ()

    @property
    def is_redeal(self) -> bool:
        return self.move == "redeal"


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
        return Solution(WON, cards_up=game.cards_on_foundations)
    outcome = plan.search(model_for_rules(game.rules), game, Budget(budget_s, positions))
    return Solution(
        outcome.status,
        moves=[move_text(m) for m in outcome.line] if outcome.status == WON else [],
        positions=outcome.positions,
        seconds=time.perf_counter() - started,
        cards_up=outcome.best_count,
        best_moves=[move_text(m) for m in outcome.best_line],
    )


def hint(game: Game, *, budget_s: float = 1.0, positions: int | None = None) -> Hint:
    """The best next move the solver can justify within ``budget_s`` seconds, or within
    ``positions`` searched when given (then whatever the time); never changes ``game``.

    A winning hint is the next move of one remembered winning line (see
    ``lines.Plans``): following the hints plays that line to the win. A new line is
    planned only when the player has left the remembered ones, and it never passes a
    position of the game's history if another win exists, so it never leads back.
    """
    total = game.rules.card_count
    if game.is_won:
        return Hint(None, False, False, "The game is won.", cards_up=total)
    if game.is_stuck:
        return Hint(
            None, False, True, "No legal move is left: this game can't be won.",
            cards_up=game.cards_on_foundations,
        )
    model = model_for_rules(game.rules)
    start = model.position(game)
    planned = PLANS.next_step(model, start, game.deal, game.draw_rule)
    if planned is not None:
        return Hint(move_text(planned.move), True, False, WINNING_NOTE, cards_up=total)
    budget = Budget(budget_s, positions)
    redeals = game.redeals_left > 0
    # With redeals left, keep some of the budget to plan within this deal if no win is found.
    outcome = _find_win(model, game, budget.keeping(WITHIN_DEAL_SHARE) if redeals else budget)
    found = outcome.positions
    if outcome.status == WON:
        PLANS.remember(model, start, outcome.line, game.deal, game.draw_rule)
        return Hint(
            move_text(outcome.line[0]), True, False, WINNING_NOTE, found, total,
            tuple(outcome.line),
        )
    lost = outcome.status == LOST
    lead = "No win is possible from here" if lost else "No win found within the time"
    if redeals:
        within = budget.rest(WITHIN_DEAL_SHARE / 2)
        return _within_deal(model, game, within, lead, lost, found)
    up = outcome.best_count
    if up > game.cards_on_foundations and outcome.best_line:
        move = move_text(outcome.best_line[0])
        what = f"this move leads to the most cards on the foundations found ({up} of {total})."
    else:
        first = outcome.first_moves
        move = move_text(first[0]) if first else str(game.legal_moves()[0])
        what = "no line found puts more cards up; this is the solver's first choice."
    return Hint(move, False, lost, f"{lead}; {what}", found, up)


def remember(game: Game, line: Sequence[RawMove]) -> None:
    """Remember a winning ``line`` from ``game``'s position that a hint planned elsewhere
    (``Hint.line``; a forked copy of this process, say), so that the hints asked here
    follow it as they follow the lines planned here."""
    model = model_for_rules(game.rules)
    PLANS.remember(model, model.position(game), list(line), game.deal, game.draw_rule)


WINNING_NOTE = "This move is part of a winning line."
# Of a redeal game's hint budget, kept for the within-deal plan: the same share of
# seconds or of positions, since that plan costs about what the search through the
# redeals costs per position (Super Flower Garden, measured: 260k and 230k a second).
WITHIN_DEAL_SHARE = 0.3
PATH_KEPT = 500  # positions of a game's history that a new winning line keeps away from


def _find_win(model: Model, game: Game, budget: Budget) -> plan.Outcome:
    """Search for a win that keeps away from the game's history; if there is none, one
    that may go back (the player may have left the only way to win)."""
    avoid = _path_keys(model, game)
    outcome = plan.search(model, game, budget, avoid=avoid)
    if outcome.status == LOST and avoid:  # lost only while keeping away from the path
        again = plan.search(model, game, budget)
        again.positions += outcome.positions
        return again
    return outcome


def _path_keys(model: Model, game: Game) -> frozenset[bytes]:
    """Search keys of the positions the game passed before this one (the latest few)."""
    key = key_function(model, model.position(game))
    back = game.copy()
    keys = set()
    for _ in range(min(PATH_KEPT, back.moves_made)):
        back.pop()
        keys.add(key(model.position(back)))
    keys.discard(key(model.position(game)))
    return frozenset(keys)


def _within_deal(
    model: Model, game: Game, budget: Budget, lead: str, lost: bool, found: int
) -> Hint:
    """No win known through the redeals: clear the most cards in this deal, then redeal."""
    total = game.rules.card_count
    outcome = plan.search(model, game, budget, within_deal=True)
    found += outcome.positions
    up = outcome.best_count
    if outcome.status == WON:  # a win inside this deal, found now that the time allowed
        PLANS.remember(model, model.position(game), outcome.line, game.deal, game.draw_rule)
        return Hint(move_text(outcome.line[0]), True, False, WINNING_NOTE, found, total)
    if up > game.cards_on_foundations and outcome.best_line:
        where = "in this deal" if outcome.status == EXHAUSTED else "in this deal within the time"
        return Hint(
            move_text(outcome.best_line[0]), False, lost,
            f"{lead}; this move starts the line that puts the most cards on the "
            f"foundations {where} ({up} of {total}) before a redeal.",
            found, up,
        )
    if outcome.status == EXHAUSTED:
        what = "redeal now: nothing more can be cleared in this deal."
    else:
        what = "no move found that clears more cards in this deal: redealing looks best."
    return Hint("redeal", False, lost, f"{lead}; {what}", found, up)

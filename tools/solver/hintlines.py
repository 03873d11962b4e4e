"""How long a player who follows the hints plays, from the deal to the win.

``python -m tools.solver hintlines GAME --count 100 --positions 100000``: the first
``count`` deals the solver wins within the budget, and for each

- *before*: the moves of the search's own line, its loops cut: the line every hint
  followed before lines were tidied (hints then remembered exactly that line);
- *after*: the moves of following today's hints to the win, and the hints it took (an
  action, "Auto-finish" or "To foundations", is one hint for all its moves).

Every hint is checked: it wins, and it never leads back to a position of the game.
Budgets are positions, so the figures are the same on every machine.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from engine import GAMES, new_game
from engine.solver import hint
from engine.solver.budget import Budget
from engine.solver.lines import PLANS, without_cycles
from engine.solver.model import model_for
from engine.solver.plan import search
from engine.solver.verdict import Verdict

from .jobs import each_in_turn

MOST_HINTS = 2_000  # a hinted game still not won after this many hints is a failure


@dataclass(frozen=True)
class HintedLine:
    deal: int
    before: int  # moves of the search's own line, loops cut
    moves: int  # moves played following the hints (0: they did not win)
    hints: int  # hints asked
    seconds: float


def searched_line(game_id: str, deal: int, positions: int) -> int | None:
    """The moves of the line hints followed before tidying, or None if the budget finds
    no win from the deal."""
    game = new_game(game_id, deal)
    model = model_for(game_id)
    outcome = search(model, game, Budget(0.0, positions))
    if outcome.status != Verdict.WON:
        return None
    return len(without_cycles(model, model.position(game), outcome.line, deal))


def follow(args: tuple[str, int, int, int]) -> HintedLine:
    """Play the hints of one deal to the win, each with ``positions``."""
    game_id, deal, positions, before = args
    started = time.perf_counter()
    PLANS.clear()  # as a player new to this deal: no line planned yet
    game = new_game(game_id, deal)
    seen = {game.key()}
    for hints in range(MOST_HINTS):
        if game.is_won:
            return HintedLine(deal, before, game.moves_made, hints,
                              time.perf_counter() - started)
        advice = hint(game, positions=positions)
        if not advice.winning or advice.move is None:
            break
        if advice.action is not None:  # one hint, every card that can go up
            played = game.play_to_foundations()
            if str(played[0]) != advice.move:
                break
        else:
            game.play(advice.move)
        if game.key() in seen:
            break
        seen.add(game.key())
    return HintedLine(deal, before, 0, 0, time.perf_counter() - started)


def winnable(game_id: str, count: int, positions: int) -> Iterator[tuple[int, int]]:
    """(deal, moves of its searched line) for the first ``count`` deals won within the
    budget, from deal 1 on."""
    found = 0
    deal = 0
    while found < count:
        deal += 1
        before = searched_line(game_id, deal, positions)
        if before is not None:
            found += 1
            yield deal, before


def run(
    game_id: str,
    count: int,
    positions: int,
    *,
    jobs: int = 1,
    progress: Callable[[HintedLine], None] | None = None,
) -> tuple[HintedLine, ...]:
    work = [(game_id, deal, positions, before) for deal, before in
            winnable(game_id, count, positions)]
    return each_in_turn(follow, work, jobs=jobs, progress=progress, chunksize=1)


def text(game_id: str, lines: tuple[HintedLine, ...], positions: int) -> str:
    won = [line for line in lines if line.moves]
    before = sum(line.before for line in lines)
    after = sum(line.moves for line in won)
    failed = [line.deal for line in lines if not line.moves]
    deals = f"{lines[0].deal}-{lines[-1].deal}" if lines else "none"
    out = [
        f"{game_id}: {len(lines)} deals won within {positions:,} positions (from deals "
        f"{deals}), {positions:,} positions a hint",
        f"  before: {before:,} moves (median {_median(lines, 'before')} a deal, "
        f"most {_most(lines, 'before')}), one hint a move",
        f"  after:  {after:,} moves (median {_median(won, 'moves')}, most "
        f"{_most(won, 'moves')}), "
        f"{100 * (before - after) / max(1, before):.1f}% shorter; "
        f"{sum(line.hints for line in won):,} hints (median {_median(won, 'hints')})",
        f"  time: {sum(line.seconds for line in lines):.1f} s",
    ]
    if failed:
        out.append(f"  hints did not win, or led back: deals {', '.join(map(str, failed))}")
    return "\n".join(out)


def markdown_table(results: dict[str, tuple[HintedLine, ...]]) -> str:
    rows = [
        "| Game | Deals | Moves before (median, most) | Moves after (median, most) | Shorter "
        "| Hints after (median) |",
        "|---|---|---|---|---|---|",
    ]
    for game_id, lines in results.items():
        before = sum(line.before for line in lines)
        after = sum(line.moves for line in lines)
        rows.append(
            f"| {GAMES[game_id]} | {len(lines)} | {before:,} ({_median(lines, 'before')}, "
            f"{_most(lines, 'before')}) | {after:,} ({_median(lines, 'moves')}, "
            f"{_most(lines, 'moves')}) | "
            f"{100 * (before - after) / max(1, before):.1f}% | "
            f"{sum(line.hints for line in lines):,} ({_median(lines, 'hints')}) |"
        )
    return "\n".join(rows)


def _median(lines: list[HintedLine] | tuple[HintedLine, ...], field: str) -> str:
    values = [getattr(line, field) for line in lines]
    return f"{statistics.median(values):g}" if values else "-"


def _most(lines: list[HintedLine] | tuple[HintedLine, ...], field: str) -> str:
    return str(max((getattr(line, field) for line in lines), default="-"))

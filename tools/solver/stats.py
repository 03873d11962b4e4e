"""Winnability figures: solve a range of deals and count won / lost / unknown."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine import GAMES, new_game
from engine.solver import Verdict, solve

from .jobs import each_in_turn


@dataclass(frozen=True)
class PerDeal:
    """Each deal's budget: ``seconds``, or ``positions`` when given (then the verdicts
    are the same on every machine)."""

    seconds: float
    positions: int | None = None

    def __str__(self) -> str:
        return f"{self.seconds:g} s" if self.positions is None else f"{self.positions:,} positions"


@dataclass(frozen=True)
class DealResult:
    deal: int
    status: Verdict
    seconds: float
    positions: int
    moves: int


@dataclass(frozen=True)
class Summary:
    """Verdicts for a range of deals. ``first_pass``: every deal with ``budget`` (the
    times and the share decided within it come from there); ``results``: the same, with
    the deals it left undecided solved again with ``retry`` where that was asked
    (``retried_from`` is then the first pass)."""

    game_id: str
    results: tuple[DealResult, ...]
    budget: PerDeal
    retried_from: tuple[DealResult, ...] = ()  # the first pass, when there was a retry
    retry: PerDeal | None = None

    @property
    def first_pass(self) -> tuple[DealResult, ...]:
        return self.retried_from or self.results

    def count(self, status: Verdict) -> int:
        return sum(1 for r in self.results if r.status == status)

    @property
    def decided_in_budget(self) -> int:
        return sum(1 for r in self.first_pass if r.status != Verdict.UNKNOWN)

    def percentile(self, q: float) -> float:
        times = sorted(r.seconds for r in self.first_pass)
        return times[min(len(times) - 1, int(q * len(times)))]

    @property
    def median(self) -> float:
        return statistics.median(r.seconds for r in self.first_pass)

    def text(self) -> str:
        n = len(self.results)
        deals = f"{self.results[0].deal}-{self.results[-1].deal}" if n else "none"
        lines = [f"{self.game_id}: {n} deals ({deals}), budget {self.budget} per deal"]
        lines.append(
            "  ".join(
                f"{s} {self.count(s)} ({100 * self.count(s) / n:.1f}%)"
                for s in (Verdict.WON, Verdict.LOST, Verdict.UNKNOWN)
            )
        )
        lines.append(
            f"time per deal: median {1000 * self.median:.1f} ms, "
            f"p95 {1000 * self.percentile(0.95):.1f} ms, "
            f"max {1000 * max(r.seconds for r in self.first_pass):.1f} ms; "
            f"decided within {self.budget}: {self.decided_in_budget} "
            f"({100 * self.decided_in_budget / n:.1f}%)"
        )
        if self.retry is not None:
            retried = n - self.decided_in_budget
            lines.append(f"the {retried} undecided then solved again with {self.retry} each")
        undecided = [r.deal for r in self.results if r.status == Verdict.UNKNOWN]
        if undecided:
            shown = ", ".join(map(str, undecided[:30])) + (" ..." if len(undecided) > 30 else "")
            lines.append(f"undecided deals: {shown}")
        return "\n".join(lines)


def solve_deal(args: tuple[str, int, PerDeal]) -> DealResult:
    game_id, deal, budget = args
    game = new_game(game_id, deal)
    started = time.perf_counter()
    solution = solve(game, budget_s=budget.seconds, positions=budget.positions)
    elapsed = time.perf_counter() - started
    return DealResult(deal, solution.status, elapsed, solution.positions, len(solution.moves))


def run(
    game_id: str,
    deals: Iterable[int],
    budget: PerDeal,
    *,
    jobs: int = 1,
    progress: Callable[[DealResult], None] | None = None,
    retry: PerDeal | None = None,
) -> Summary:
    """Solve each deal with ``budget`` (one core per job; times are per solve), then
    the ones left undecided again with ``retry``, if given."""
    first = each_in_turn(solve_deal, [(game_id, d, budget) for d in deals], jobs=jobs,
                         progress=progress)
    if retry is None:
        return Summary(game_id, first, budget)
    again = [(game_id, r.deal, retry) for r in first if r.status == Verdict.UNKNOWN]
    retried = {r.deal: r for r in each_in_turn(solve_deal, again, jobs=jobs, progress=progress)}
    results = tuple(retried.get(r.deal, r) for r in first)
    return Summary(game_id, results, budget, first, retry)


def markdown_table(summaries: list[Summary]) -> str:
    """One row per game: counts, shares and time per deal."""
    lines = [
        "| Game | Deals | Won | Lost | Undecided | Decided within budget | Median time "
        "| p95 time |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for summary in summaries:
        n = len(summary.results)
        first, last = summary.results[0].deal, summary.results[-1].deal
        cells = [
            GAMES[summary.game_id],
            f"{first}-{last}",
            *(
                f"{summary.count(s)} ({100 * summary.count(s) / n:.1f}%)"
                for s in (Verdict.WON, Verdict.LOST, Verdict.UNKNOWN)
            ),
            f"{100 * summary.decided_in_budget / n:.1f}% within {summary.budget}",
            f"{1000 * summary.median:.1f} ms",
            f"{1000 * summary.percentile(0.95):.0f} ms",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)

"""Winnability figures: solve a range of deals and count won / lost / unknown."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from multiprocessing import Pool

from ..game import new_game
from ..rules import GAMES
from . import solve


@dataclass(frozen=True)
class DealResult:
    deal: int
    status: str
    seconds: float
    positions: int
    moves: int


@dataclass(frozen=True)
class Summary:
    game_id: str
    results: tuple[DealResult, ...]
    budget_s: float

    def count(self, status: str) -> int:
        return sum(1 for r in self.results if r.status == status)

    def percentile(self, q: float) -> float:
        times = sorted(r.seconds for r in self.results)
        return times[min(len(times) - 1, int(q * len(times)))]

    @property
    def median(self) -> float:
        return statistics.median(r.seconds for r in self.results)

    def text(self) -> str:
        n = len(self.results)
        deals = f"{self.results[0].deal}-{self.results[-1].deal}" if n else "none"
        lines = [f"{self.game_id}: {n} deals ({deals}), budget {self.budget_s:g} s per deal"]
        lines.append(
            "  ".join(
                f"{s} {self.count(s)} ({100 * self.count(s) / n:.1f}%)"
                for s in ("won", "lost", "unknown")
            )
        )
        lines.append(
            f"time per deal: median {1000 * self.median:.1f} ms, "
            f"p95 {1000 * self.percentile(0.95):.1f} ms, "
            f"max {1000 * max(r.seconds for r in self.results):.1f} ms"
        )
        undecided = [r.deal for r in self.results if r.status == "unknown"]
        if undecided:
            shown = ", ".join(map(str, undecided[:30])) + (" ..." if len(undecided) > 30 else "")
            lines.append(f"undecided deals: {shown}")
        return "\n".join(lines)


def solve_deal(args: tuple[str, int, float]) -> DealResult:
    game_id, deal, budget_s = args
    game = new_game(game_id, deal)
    started = time.perf_counter()
    solution = solve(game, budget_s=budget_s)
    elapsed = time.perf_counter() - started
    return DealResult(deal, solution.status, elapsed, solution.positions, len(solution.moves))


def run(
    game_id: str,
    deals: Iterable[int],
    budget_s: float,
    *,
    jobs: int = 1,
    progress: Callable[[DealResult], None] | None = None,
) -> Summary:
    """Solve each deal with ``budget_s`` (one core per job; times are per solve)."""
    work = [(game_id, d, budget_s) for d in deals]
    results: list[DealResult] = []
    if jobs <= 1:
        for item in work:
            result = solve_deal(item)
            results.append(result)
            if progress:
                progress(result)
    else:
        with Pool(jobs) as pool:
            for result in pool.imap(solve_deal, work, chunksize=4):
                results.append(result)
                if progress:
                    progress(result)
    return Summary(game_id, tuple(results), budget_s)


def markdown_table(summaries: list[Summary]) -> str:
    """One row per game: counts, shares and time per deal."""
    lines = [
        "| Game | Deals | Won | Lost | Undecided | Median time | p95 time |",
        "|---|---|---|---|---|---|---|",
    ]
    for summary in summaries:
        n = len(summary.results)
        first, last = summary.results[0].deal, summary.results[-1].deal
        cells = [
            GAMES[summary.game_id],
            f"{first}-{last}",
            *(
                f"{summary.count(s)} ({100 * summary.count(s) / n:.1f}%)"
                for s in ("won", "lost", "unknown")
            ),
            f"{1000 * summary.median:.1f} ms",
            f"{1000 * summary.percentile(0.95):.0f} ms",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)

"""``python -m benchmarks.solver_memory``: the solver's memory over many deals.

Solves (and asks a hint at the start of) distinct deals of the redeal games in one
process, as the bot's solver worker does for days, and prints the resident memory
after the first 100 deals and after the last. Every cache in the solver has a fixed
bound, so the two should stay close (the goal: within 50 MB).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

from engine import new_game
from engine.solver import hint, solve

GAMES = ("super-flower-garden", "trefoil")
FIRST_DEAL = 1_000_000  # away from the deals tests and odds use, so nothing is warm


def rss_mb() -> float:
    """The process's resident memory now (Linux), else its peak."""
    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[1])
        return pages * resource.getpagesize() / 2**20
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.solver_memory")
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--budget", type=float, default=0.3, help="seconds per solve and hint")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    marks = {min(100, args.deals), args.deals}
    after: dict[int, float] = {}
    print(f"start: {rss_mb():.1f} MB", flush=True)
    for n in range(1, args.deals + 1):
        game = new_game(GAMES[n % len(GAMES)], FIRST_DEAL + n)
        solve(game, budget_s=args.budget)
        hint(game, budget_s=args.budget)
        if n in marks:
            after[n] = rss_mb()
            print(
                f"after {n} deals: {after[n]:.1f} MB "
                f"({time.perf_counter() - started:.0f} s)",
                flush=True,
            )
    first, last = min(after), max(after)
    print(f"growth from {first} to {last} deals: {after[last] - after[first]:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())

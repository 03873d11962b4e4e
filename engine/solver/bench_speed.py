"""``python -m engine.solver.bench_speed``: positions searched per second of CPU, per game.

Solves a fixed set of deals per game with a small budget and divides the positions the
search expanded by the process's CPU time (CPU, not wall time: the machine is shared).
Uses only ``engine.solver.solve``, so the same script measures an older tree as well.
"""

from __future__ import annotations

import argparse
import sys
import time

from engine import new_game
from engine.solver import solve

DEALS = {
    "clover-leaf": range(1, 201),
    "four-leaf-clovers": range(1, 21),
    "super-flower-garden": range(1, 101),
    "trefoil": range(1, 101),
    "corner-stones": range(1, 51),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.solver.bench_speed")
    parser.add_argument("--budget", type=float, default=0.5, help="seconds per deal")
    parser.add_argument("games", nargs="*", default=list(DEALS))
    args = parser.parse_args(argv)
    for game_id in args.games:
        deals = DEALS[game_id]
        positions = 0
        decided = 0
        started = time.process_time()
        for deal in deals:
            solution = solve(new_game(game_id, deal), budget_s=args.budget)
            positions += solution.positions
            decided += solution.status != "unknown"
        cpu = time.process_time() - started
        print(
            f"{game_id}: deals {deals.start}-{deals.stop - 1}, {decided} decided, "
            f"{positions} positions in {cpu:.1f} s of CPU: {positions / cpu:,.0f} positions/s",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

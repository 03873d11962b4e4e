"""``python -m benchmarks.solver_speed``: CPU time and positions to decide fixed deals.

Solves a fixed set of deals per game, each of which the solver decides well within the
budget, and prints the process's CPU time (CPU, not wall time: the machine is shared),
the positions searched and positions per CPU second. Compare trees by CPU time for the
same deals: a change that prunes cheap positions lowers positions/s and still wins.
Uses only ``engine.solver.solve``, so the same file run as a script measures an older
tree as well (``PYTHONPATH=old-tree python benchmarks/solver_speed.py``).
"""

from __future__ import annotations

import argparse
import sys
import time

import engine.solver
from engine import new_game
from engine.solver import solve

DEALS: dict[str, list[int]] = {
    "clover-leaf": [*range(1, 101), 74, 153, 162],  # the last three take seconds
    "four-leaf-clovers": [1, 3, 4, 6, 7, 8],  # won: decided by older trees too
    "super-flower-garden": list(range(1, 51)),
    "trefoil": list(range(1, 51)),
    "corner-stones": list(range(1, 31)),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.solver_speed")
    parser.add_argument("--budget", type=float, default=20.0, help="seconds per deal")
    parser.add_argument("games", nargs="*", default=list(DEALS))
    args = parser.parse_args(argv)
    compiled = getattr(engine.solver, "compiled", lambda: False)()  # older trees: Python
    print("solver: " + ("compiled (mypyc, see setup.py)" if compiled else "plain Python"))
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
            f"{game_id}: {len(deals)} deals, {decided} decided, {positions} positions "
            f"in {cpu:.2f} s of CPU: {positions / cpu:,.0f} positions/s",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``python -m benchmarks.first_hints``: how long a player waits for the first hint of a
deal, as the bot gives it (the README's "about 0.4 s in Trefoil and 1 s in Super Flower
Garden").

Each deal's first hint is asked of the bot's own ``SolverWorker``, in the solver's
process the bot would start (a search longer than a moment runs in a forked copy of it),
and timed from the asking to the answer: wall time, what the player waits, so run it on
an idle machine. Run it from the checkout as the README's commands are run: it says which
solver the process imported (compiled by the install, or plain Python).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time

from bot.workers.solver import SolverWorker
from engine import new_game

GAMES = ("trefoil", "super-flower-garden")


async def first_hints(game_id: str, deals: range) -> list[float]:
    """The seconds each deal's first hint took, a fresh solver process for the game."""
    worker = SolverWorker()
    try:
        build = await worker.say_which()
        print(f"{game_id}: solver {'compiled' if build.compiled else 'plain Python'}",
              flush=True)
        seconds = []
        for deal in deals:
            started = time.perf_counter()
            await worker.hint(new_game(game_id, deal))
            seconds.append(time.perf_counter() - started)
        return seconds
    finally:
        worker.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.first_hints")
    parser.add_argument("--deals", type=int, default=40, help="deals 1 to this, per game")
    parser.add_argument("games", nargs="*", default=list(GAMES))
    args = parser.parse_args(argv)
    for game_id in args.games:
        seconds = asyncio.run(first_hints(game_id, range(1, args.deals + 1)))
        slowest = max(range(len(seconds)), key=seconds.__getitem__)
        print(f"{game_id}: first hint of deals 1-{args.deals}: median "
              f"{statistics.median(seconds):.2f} s, at most {seconds[slowest]:.2f} s "
              f"(deal {slowest + 1})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

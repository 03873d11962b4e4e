"""``python -m benchmarks.sqlite_saves``: the CPU of a move's save on SQLite (``GameStore.save``),
its one statement run on the event loop as the store runs it, against the same statement
sent through aiosqlite's thread as it was until issue 34's last stop. Not a test: it prints
figures, each the median of ``--repeat`` rounds with the lowest and highest beside it.

``--players`` games are started in a fresh file, then ``--moves`` moves are played in turn
across them, each saved; the CPU counted is the whole process's (the thread's too), over the
saves alone (playing the move is outside the clock).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bot.store import Stores
from engine import new_game


async def save_us(moves: int, players: int, *, through_thread: bool) -> float:
    with tempfile.TemporaryDirectory(prefix="sqlite-saves-") as tmp:
        stores = await Stores.open(Path(tmp) / "bench.db")
        try:
            if through_thread:  # the writer's lone statements as they ran before
                stores.db._write_here = stores.db._write  # type: ignore[attr-defined]
            for user in range(players):
                await stores.games.start(user, 1, new_game("trefoil", user + 1), 1.0)
            spent = 0.0
            for n in range(moves):
                saved = stores.games.cached(n % players)
                assert saved is not None
                moves_now = saved.game.legal_moves()
                if moves_now:
                    saved.game.play(moves_now[0])
                else:
                    saved.game.undo()
                started = time.process_time()
                await stores.games.save(saved)
                spent += time.process_time() - started
            return spent / moves * 1e6
        finally:
            await stores.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--moves", type=int, default=5_000)
    parser.add_argument("--players", type=int, default=100)
    args = parser.parse_args()
    rounds: dict[str, list[float]] = {"on the event loop (the store now)": [],
                                      "through aiosqlite's thread": []}
    for _ in range(args.repeat):  # interleaved, so that both see the machine alike
        for name, thread in (("on the event loop (the store now)", False),
                             ("through aiosqlite's thread", True)):
            rounds[name].append(asyncio.run(
                save_us(args.moves, args.players, through_thread=thread)))
    print(f"CPU µs per save, median [min-max] of {args.repeat} rounds of {args.moves}:")
    for name, values in rounds.items():
        print(f"  {name:<36} {statistics.median(values):7.1f}  "
              f"[{min(values):.1f}-{max(values):.1f}]")


if __name__ == "__main__":
    main()

"""How long a process takes to stop under load, per signal, and whether it lost a move: a
shard's and the page's, ``.venv/bin/python -m tests.e2e.bench_stop --rounds 3``.

Each round starts a process on a fresh SQLite file against the fake Discord (a shard's:
moves by slash command; the page's: moves over HTTP, each player's socket open), has
``PLAYERS`` players move and undo as fast as it answers, sends the signal once each has
a few moves acknowledged, and times the signal to the process's exit. Then it reads every
player's game from the database: a move acknowledged and not there is lost."""

from __future__ import annotations

import argparse
import asyncio
import itertools
import signal
import statistics
import tempfile
from pathlib import Path

from .test_stopping import stop_under_load

SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


async def one_round(sig: signal.Signals, workdir: Path,
                    page: bool) -> tuple[float, int, int, int]:
    """(seconds from the signal to the exit, exit code, moves acknowledged, moves lost)."""
    stopped = await stop_under_load(sig, workdir, moves=20, page=page)
    lost = sum((stopped.saved[name] or 0) < answered
               for name, answered in stopped.acknowledged.items())
    return stopped.seconds, stopped.code, sum(stopped.acknowledged.values()), lost


async def main(rounds: int) -> None:
    for page, sig in itertools.product((False, True), SIGNALS):
        times, codes, moves, lost = [], set(), 0, 0
        for _ in range(rounds):
            with tempfile.TemporaryDirectory() as workdir:
                took, code, acked, gone = await one_round(sig, Path(workdir), page)
            times.append(took)
            codes.add(code)
            moves += acked
            lost += gone
        print(f"{'page' if page else 'shard'}, {sig.name}: stopped in {statistics.median(times):.2f} s median, "
              f"{max(times):.2f} s at most, over {rounds} rounds; exit codes {sorted(codes)}; "
              f"{moves} revisions acknowledged, {lost} players with a move lost")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    asyncio.run(main(parser.parse_args().rounds))

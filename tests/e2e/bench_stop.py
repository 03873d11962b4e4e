"""How long a bot process takes to stop under load, per signal, and whether it lost a move:
``.venv/bin/python -m tests.e2e.bench_stop --rounds 3``.

Each round starts a bot process on a fresh SQLite file against the fake Discord, has
``PLAYERS`` players move and undo as fast as it answers, sends the signal once each has
a few moves acknowledged, and times the signal to the process's exit. Then it reads every
player's game from the database: a move acknowledged and not there is lost."""

from __future__ import annotations

import argparse
import asyncio
import signal
import statistics
import tempfile
import time
from pathlib import Path

from bot.store import Stores

from .fake_discord import FakeDiscord
from .harness import BotProcess
from .test_stopping import PLAYERS, keep_moving

SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


async def one_round(sig: signal.Signals, workdir: Path) -> tuple[float, int, int, int]:
    """(seconds from the signal to the exit, exit code, moves acknowledged, moves lost)."""
    fake = await FakeDiscord().start()
    database = workdir / "solitaire.db"
    bot = BotProcess(fake, database, workdir)
    stopping = asyncio.Event()
    acknowledged: dict[str, int] = {}
    try:
        await bot.start()
        for name in PLAYERS:
            await fake.command(name, "new", {"game": "trefoil", "deal": 5})
        players = [asyncio.create_task(keep_moving(fake, name, stopping, acknowledged))
                   for name in PLAYERS]
        while len(acknowledged) < len(PLAYERS) or min(acknowledged.values()) < 20:
            await asyncio.sleep(0.05)
        stopping.set()
        began = time.perf_counter()
        code = await bot.stop(sig=sig, timeout=60)
        took = time.perf_counter() - began
        await asyncio.gather(*players)
    finally:
        await fake.close()
    stores = await Stores.open(database)
    lost = 0
    try:
        for name in PLAYERS:
            saved = await stores.games.load(fake.users[name].id)
            lost += saved is None or saved.revision < acknowledged[name]
    finally:
        await stores.close()
    return took, code, sum(acknowledged.values()), lost


async def main(rounds: int) -> None:
    for sig in SIGNALS:
        times, codes, moves, lost = [], set(), 0, 0
        for _ in range(rounds):
            with tempfile.TemporaryDirectory() as workdir:
                took, code, acked, gone = await one_round(sig, Path(workdir))
            times.append(took)
            codes.add(code)
            moves += acked
            lost += gone
        print(f"{sig.name}: stopped in {statistics.median(times):.2f} s median, "
              f"{max(times):.2f} s at most, over {rounds} rounds; exit codes {sorted(codes)}; "
              f"{moves} revisions acknowledged, {lost} players with a move lost")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    asyncio.run(main(parser.parse_args().rounds))

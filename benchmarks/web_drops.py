"""How fast the Activity's page is answered: players dropping cards, each a move a second.

    python -m benchmarks.web_drops                  # 100 players, 20 drops each
    python -m benchmarks.web_drops --players 200 --drops 10

The page's server runs as its own process, exactly as ``python -m bot --web --dev`` starts
it (a new SQLite file, pictures drawn in its drawing process), and this process plays every
player: a dev session each, a Trefoil deal each, then drops, each a legal move from the
board the last answer showed (an undo when none is left), spaced about a second apart per
player. It prints the drops answered, their latency (median, p99, worst) as the player's
browser would wait for it, and the page's compressed size.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import random
import statistics
import time
from pathlib import Path
from typing import Any

import aiohttp

from .dev_page import dev_page

STATIC = Path(__file__).resolve().parents[1] / "bot" / "web" / "static"


async def player(http: aiohttp.ClientSession, url: str, number: int, drops: int,
                 latencies: list[float]) -> None:
    async def call(path: str, body: dict[str, Any], session: str = "") -> Any:
        async with http.post(url + path, json=body,
                             headers={"Authorization": f"Bearer {session}"}) as response:
            response.raise_for_status()
            return await response.json()

    signed = await call("api/dev/signin", {"user": str(10**17 + number)})
    session = signed["session"]
    board = (await call("api/new", {"game": "trefoil", "deal": number + 1}, session))["board"]
    rng = random.Random(number)
    await asyncio.sleep(rng.random())  # players start apart, as they would
    for _ in range(drops):
        moves = [m for m in board["moves"] if m != "redeal"]
        body: dict[str, Any] = ({"action": "move", "move": rng.choice(moves)} if moves
                                else {"action": "undo"})
        started = time.perf_counter()
        reply = await call("api/act", {**body, "seen": board["ref"]}, session)
        latencies.append(time.perf_counter() - started)
        board = reply["board"] or board
        await asyncio.sleep(0.5 + rng.random())


async def run(players: int, drops: int) -> None:
    latencies: list[float] = []
    async with dev_page() as (url, _, _), aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=players)) as http:
        started = time.perf_counter()
        await asyncio.gather(*(player(http, url, n, drops, latencies)
                               for n in range(players)))
        took = time.perf_counter() - started
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    print(f"{len(ordered)} drops by {players} players in {took:.1f} s "
          f"({len(ordered) / took:.0f} a second)")
    print(f"latency: median {statistics.median(ordered) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms,"
          f" worst {ordered[-1] * 1000:.1f} ms")
    size = sum(len(gzip.compress((STATIC / name).read_bytes(), 9))
               for name in ("index.html", "app.css", "app.js"))
    print(f"the page: {size / 1024:.1f} KB compressed (HTML, stylesheet, script with the SDK)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.web_drops")
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--drops", type=int, default=20)
    args = parser.parse_args(argv)
    asyncio.run(run(args.players, args.drops))


if __name__ == "__main__":
    main()

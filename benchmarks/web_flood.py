"""One client flooding the Activity's page server beside 100 players: how much slower are
the players' drops answered?

    python -m benchmarks.web_flood                     # 100 players, 20 drops each
    python -m benchmarks.web_flood --connections 16 --drops 30

The server is started as ``benchmarks.web_drops`` starts it (``python -m bot --web --dev``
on a new SQLite file), twice: once for the players alone, once with one flooding client
beside them. The players are ``web_drops``'s (a drop about a second apart each, from this
process); the flood is a process of its own, as an attacker's machine would be: one session,
``--connections`` requests at a time, each sent as soon as the last one is answered
(polls and undos in turn), never waiting out a 429's ``Retry-After``. It prints the players'
drop latency each time, the ratio of the two p99s (issue 42's goal: at most 1.5), and the
flood's requests answered a second, served and refused.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp

from .dev_page import dev_page
from .web_drops import player

FLOODER = 10**17 - 1  # the flooding client's dev user: no player's


async def flood(url: str, connections: int, seconds: float) -> dict[str, Any]:
    """The flood itself (in a process of its own): its answers by status."""
    answered: Counter[int] = Counter()
    async with aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=connections)) as http:
        async with http.post(url + "api/dev/signin", json={"user": str(FLOODER)}) as signed:
            session = (await signed.json())["session"]
        headers = {"Authorization": f"Bearer {session}"}
        async with http.post(url + "api/new", json={"game": "trefoil", "deal": 1},
                             headers=headers) as dealt:
            ref = (await dealt.json())["board"]["ref"]
        have = f"api/board?have={ref[0]}.{ref[1]}"
        deadline = time.perf_counter() + seconds

        async def one_connection(number: int) -> None:
            poll = number % 2 == 0
            while time.perf_counter() < deadline:
                if poll:
                    request = http.get(url + have, headers=headers)
                else:
                    request = http.post(url + "api/act", json={"action": "undo"},
                                        headers=headers)
                async with request as response:
                    await response.read()
                    answered[response.status] += 1
                poll = not poll

        started = time.perf_counter()
        await asyncio.gather(*(one_connection(n) for n in range(connections)))
        took = time.perf_counter() - started
    return {"seconds": took, "answered": {str(k): v for k, v in answered.items()}}


async def run_players(players: int, drops: int, flood_connections: int) -> dict[str, Any]:
    """One server, ``players`` dropping cards, and a flood beside them if asked."""
    latencies: list[float] = []
    flooded: dict[str, Any] | None = None
    async with dev_page() as (url, _, _), aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=players)) as http:
        flooder = None
        if flood_connections:
            seconds = drops * 1.0 + 3  # about as long as the players play
            flooder = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "benchmarks.web_flood", "--flood", url,
                "--connections", str(flood_connections), "--seconds", str(seconds),
                stdout=asyncio.subprocess.PIPE, cwd=Path(__file__).parents[1])
            await asyncio.sleep(1.0)  # the flood under way before the players start
        await asyncio.gather(*(player(http, url, n, drops, latencies)
                               for n in range(players)))
        if flooder is not None:
            out, _ = await flooder.communicate()
            flooded = json.loads(out)
    ordered = sorted(latencies)
    return {"median": statistics.median(ordered),
            "p99": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))],
            "worst": ordered[-1], "drops": len(ordered), "flood": flooded}


def said(name: str, result: dict[str, Any]) -> str:
    return (f"{name}: {result['drops']} drops, median {result['median'] * 1000:.1f} ms, "
            f"p99 {result['p99'] * 1000:.1f} ms, worst {result['worst'] * 1000:.1f} ms")


async def run(players: int, drops: int, connections: int) -> None:
    alone = await run_players(players, drops, 0)
    print(said(f"{players} players alone", alone))
    flooded = await run_players(players, drops, connections)
    print(said(f"{players} players beside a flood", flooded))
    print(f"p99 beside the flood / alone: {flooded['p99'] / alone['p99']:.2f} (goal: at most 1.5)")
    flood_said = flooded["flood"]
    answered = Counter({int(k): v for k, v in flood_said["answered"].items()})
    seconds = flood_said["seconds"]
    print(f"the flood ({connections} connections, one session): "
          f"{sum(answered.values()) / seconds:.0f} requests answered a second, "
          f"{answered[200] / seconds:.1f} served, {answered[429] / seconds:.0f} refused 429"
          + "".join(f", {n / seconds:.1f} answered {status}" for status, n in
                    sorted(answered.items()) if status not in (200, 429)))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.web_flood")
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--drops", type=int, default=20)
    parser.add_argument("--connections", type=int, default=8,
                        help="the flood's requests at a time (default 8)")
    parser.add_argument("--flood", metavar="URL", help=argparse.SUPPRESS)  # the flood's process
    parser.add_argument("--seconds", type=float, default=20.0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.flood:
        print(json.dumps(asyncio.run(flood(args.flood, args.connections, args.seconds))))
        return
    asyncio.run(run(args.players, args.drops, args.connections))


if __name__ == "__main__":
    main()

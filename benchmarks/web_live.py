"""What following the game live costs and how soon a move reaches the pages that follow it.

    python -m benchmarks.web_live idle                 # 1,000 pages, each with its socket
    python -m benchmarks.web_live idle --poll          # the same pages asking every 3 s
    python -m benchmarks.web_live moves                # 100 players moving, each followed
    python -m benchmarks.web_live table                # 100 racers and 100 watchers at a table
    python -m benchmarks.web_live table --apart        # the same, each on a deal of their own

The page's server runs as its own process, exactly as ``python -m bot --web --dev`` starts
it (a new SQLite file), and this process plays every page: a dev session and a Trefoil deal
each.

``idle``: every page then sits still for ``--seconds`` while the server's CPU time (its own
and its drawing process's) is read before and after: with its socket open (``api/live``),
as the page does now, or with ``--poll``, asking ``api/board?have=...`` every 3 s, as the
page did before it had a socket.

``moves``: each player has two pages, one following the game on its socket and the other
moving (about a move a second, as ``web_drops`` drops); it prints how long a move took to
be answered (the drop) and how long from sending it until the other page was pushed the
board it made.

``table``: ``--racers`` players at one Activity's table racing one deal (the first starts
the race, the others join it, and all wait out its countdown), each moving about once a
second, and ``--watchers`` more at the same table, each watching one racer's game on a
socket of its own: how long a move took to be answered, to reach the page watching it, and
to show in the table's list of players (on a sample of the pages there; every page is sent
the list), and the server's CPU meanwhile. ``--apart``: no race, each player on a deal of
their own.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import random
import re
import statistics
import time
from collections.abc import Callable
from typing import Any

import aiohttp

from .dev_page import cpu_seconds, dev_page

POLL_S = 3.0  # how often the page asked before it had a socket


async def signed_in(http: aiohttp.ClientSession, url: str, number: int) -> tuple[str, Any]:
    """A dev session for player ``number`` and the board of their new deal."""
    async with http.post(url + "api/dev/signin", json={"user": str(10**17 + number)}) as r:
        r.raise_for_status()
        session = (await r.json())["session"]
    async with http.post(url + "api/new", json={"game": "trefoil", "deal": number + 1},
                         headers={"Authorization": f"Bearer {session}"}) as r:
        r.raise_for_status()
        return session, (await r.json())["board"]


async def follow(http: aiohttp.ClientSession, url: str, session: str, board: Any,
                 page: str) -> aiohttp.ClientWebSocketResponse:
    """The page's socket, saying it shows ``board``."""
    ws = await http.ws_connect(url + "api/live")
    await ws.send_json({"session": session, "page": page, "have": board["ref"],
                        "lost": board["lost"], "fourColour": board["fourColour"]})
    return ws


async def move(http: aiohttp.ClientSession, url: str, board: Any, rng: random.Random,
               headers: dict[str, str], sending: Callable[[float], None] = lambda at: None,
               ) -> tuple[Any, float]:
    """A legal move from ``board`` (an undo when none is left), as a page drops a card; the
    board it made, and how long it took to be answered. ``sending``: told when it is sent."""
    legal = [m for m in board["moves"] if m != "redeal"]
    body: dict[str, Any] = ({"action": "move", "move": rng.choice(legal)} if legal
                            else {"action": "undo"})
    started = time.perf_counter()
    sending(started)
    async with http.post(url + "api/act", json={**body, "seen": board["ref"]},
                         headers=headers) as r:
        r.raise_for_status()
        reply = await r.json()
    return reply["board"] or board, time.perf_counter() - started


async def racing(http: aiohttp.ClientSession, url: str, instance: str,
                 racers: list[tuple[str, Any]], race: dict[str, Any]) -> list[tuple[str, Any]]:
    """The first racer starts a Trefoil race at the table and the others join it; once its
    countdown is over and its deal dealt, each racer's session and new board."""
    async def post(path: str, body: dict[str, Any], session: str) -> Any:
        async with http.post(url + path, json=body,
                             headers={"Authorization": f"Bearer {session}"}) as r:
            r.raise_for_status()
            return await r.json()

    await post("api/race", {"instance": instance, "game": "trefoil"}, racers[0][0])
    while race.get("status") != "counting":
        await asyncio.sleep(0.1)
    await asyncio.gather(*(post("api/race/join", {"instance": instance, "race": race["id"]},
                                session) for session, _ in racers[1:]))
    while race.get("status") != "running" or len(race["racers"]) < len(racers):
        await asyncio.sleep(0.2)
    await asyncio.sleep(1)  # every racer dealt

    async def board(session: str) -> tuple[str, Any]:
        async with http.get(url + "api/board",
                            headers={"Authorization": f"Bearer {session}"}) as r:
            r.raise_for_status()
            return session, (await r.json())["board"]

    dealt = await asyncio.gather(*(board(session) for session, _ in racers))
    assert len({json.dumps(b["piles"]) for _, b in dealt}) == 1, "one deal for every racer"
    return list(dealt)


def moves_of(board: Any) -> int:
    """The moves made in ``board``'s game, as its headline says them ("· 12 moves ·")."""
    headline = "".join(str(p.get("text", "")) for p in (board["text"] or [[]])[0])
    found = re.search(r"(\d+) moves?\b", headline)
    return int(found.group(1)) if found else 0


def percentiles(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (f"median {statistics.median(ordered) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
            f"worst {ordered[-1] * 1000:.1f} ms")


async def idle(pages: int, seconds: float, poll: bool) -> None:
    async with dev_page() as (url, _, pid), aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0)) as http:
        players = []
        for first in range(0, pages, 50):  # signing in 50 at a time
            players += await asyncio.gather(*(signed_in(http, url, n)
                                              for n in range(first, min(pages, first + 50))))
        sockets: list[aiohttp.ClientWebSocketResponse] = []
        asked = 0

        async def asking(session: str, board: Any, number: int) -> None:
            nonlocal asked
            have = f"{board['ref'][0]}.{board['ref'][1]}"
            await asyncio.sleep(POLL_S * number / pages)  # spread over the 3 s, as pages are
            while True:
                async with http.get(url + f"api/board?have={have}",
                                    headers={"Authorization": f"Bearer {session}"}) as r:
                    r.raise_for_status()
                    await r.read()
                asked += 1
                await asyncio.sleep(POLL_S)

        tasks = []
        if poll:
            tasks = [asyncio.create_task(asking(s, b, n)) for n, (s, b) in enumerate(players)]
        else:
            for first in range(0, pages, 50):
                sockets += await asyncio.gather(*(follow(http, url, s, b, f"page-{n:08d}")
                                                  for n, (s, b) in enumerate(
                                                      players[first:first + 50], first)))
        await asyncio.sleep(POLL_S + 1)  # settled: every socket told, every poll begun
        asked, before, started = 0, cpu_seconds(pid), time.perf_counter()
        await asyncio.sleep(seconds)
        used, took = cpu_seconds(pid) - before, time.perf_counter() - started
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        open_now = sum(1 for ws in sockets if not ws.closed)
        await asyncio.gather(*(ws.close() for ws in sockets))
    how = f"asking every {POLL_S:.0f} s ({asked / took:.0f} requests a second)" if poll \
        else f"each with its socket open ({open_now} still open at the end)"
    print(f"{pages} idle pages {how}: the server used {used:.2f} s of CPU in {took:.0f} s, "
          f"{used / took * 100:.2f}% of a core")


async def moves(players: int, count: int) -> None:
    answered: list[float] = []
    pushed: list[float] = []

    async def player(http: aiohttp.ClientSession, url: str, number: int) -> None:
        session, board = await signed_in(http, url, number)
        ws = await follow(http, url, session, board, f"watching-{number:08d}")
        rng = random.Random(number)
        headers = {"Authorization": f"Bearer {session}", "X-Page": f"playing-{number:08d}"}
        await asyncio.sleep(rng.random())
        try:
            for _ in range(count):
                started = time.perf_counter()
                board, took = await move(http, url, board, rng, headers)
                answered.append(took)
                while True:  # the following page is pushed the board the move made
                    message = await ws.receive_json(timeout=10)
                    if message.get("board", {}).get("ref") == board["ref"]:
                        break
                pushed.append(time.perf_counter() - started)
                await asyncio.sleep(0.5 + rng.random())
        finally:
            await ws.close()

    async with dev_page() as (url, _, _), aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0)) as http:
        started = time.perf_counter()
        await asyncio.gather(*(player(http, url, n) for n in range(players)))
        took = time.perf_counter() - started
    print(f"{len(answered)} moves by {players} players in {took:.1f} s, each followed on "
          f"another page's socket")
    print(f"the move answered: {percentiles(answered)}")
    print(f"the following page pushed its board, from the move sent: {percentiles(pushed)}")


async def table(racers: int, watchers: int, count: int, apart: bool) -> None:
    answered: list[float] = []
    race: dict[str, Any] = {}  # the table's race, as the first page was last sent it
    watched: list[float] = []
    listed: list[float] = []
    sent: dict[tuple[int, int], float] = {}  # (racer, revision) -> when its move was sent
    shown: dict[tuple[int, int], float] = {}  # (racer, moves made) -> when its move was sent
    instance = "bench-table"
    sample = set(range(0, racers + watchers, max(1, (racers + watchers) // 10)))

    async def listening(ws: aiohttp.ClientWebSocketResponse, number: int, stop: asyncio.Event,
                        ) -> None:
        seen: dict[int, int] = {}
        while not stop.is_set():
            try:
                message = await ws.receive(timeout=1)
            except TimeoutError:
                continue
            if message.type is not aiohttp.WSMsgType.TEXT:
                return
            if number not in sample:
                continue  # (read, as a page reads it, but not looked into)
            now = time.perf_counter()
            pushed = json.loads(message.data).get("table", {})
            if number == 0 and pushed.get("race"):
                race.update(pushed["race"])
            for p in pushed.get("players", []):
                racer, moves = int(p["id"]) - 10**17, p["moves"]
                if racer < racers and moves > seen.get(racer, 0):
                    seen[racer] = moves
                    at = shown.get((racer, moves))
                    if at is not None:
                        listed.append(now - at)

    async def racer(http: aiohttp.ClientSession, url: str, number: int, session: str,
                    board: Any) -> None:
        rng = random.Random(number)
        headers = {"Authorization": f"Bearer {session}", "X-Page": f"table-{number:08d}"}
        await asyncio.sleep(rng.random())
        for _ in range(count):
            board, took = await move(http, url, board, rng, headers, functools.partial(
                sent.__setitem__, (number, board["ref"][1] + 1)))
            answered.append(took)
            # The list shows moves made, which an undo takes back: keyed by them, not by
            # the revision, when the answer says how many there are now.
            shown[(number, moves_of(board))] = time.perf_counter() - took
            await asyncio.sleep(0.5 + rng.random())

    async def watcher(ws: aiohttp.ClientWebSocketResponse, of: int) -> None:
        while True:
            message = await ws.receive()
            if message.type is not aiohttp.WSMsgType.TEXT:
                return
            ref = json.loads(message.data)["board"]["ref"]
            at = sent.get((of, ref[1]))
            if at is not None:
                watched.append(time.perf_counter() - at)

    async with dev_page() as (url, _, pid), aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0)) as http:
        players = []
        for first in range(0, racers + watchers, 50):
            players += await asyncio.gather(*(signed_in(http, url, n) for n in range(
                first, min(racers + watchers, first + 50))))
        stop = asyncio.Event()
        sockets = []
        for n, (session, board) in enumerate(players):
            ws = await http.ws_connect(url + "api/live")
            await ws.send_json({"session": session, "page": f"table-{n:08d}",
                                "have": board["ref"], "lost": board["lost"],
                                "fourColour": board["fourColour"], "instance": instance})
            sockets.append(ws)
        listeners = [asyncio.create_task(listening(ws, n, stop)) for n, ws in enumerate(sockets)]
        await asyncio.sleep(2)  # every page seated
        if not apart:
            players[:racers] = await racing(http, url, instance, players[:racers], race)
        watching = []
        for w in range(watchers):
            session, _ = players[racers + w]
            ws = await http.ws_connect(url + "api/live")
            await ws.send_json({"session": session, "page": f"watch-{w:08d}",
                                "instance": instance, "watch": str(10**17 + w % racers)})
            first = await ws.receive_json(timeout=10)  # the racer's board as it is
            assert "board" in first, first
            watching.append((ws, asyncio.create_task(watcher(ws, w % racers))))
        before, started = cpu_seconds(pid), time.perf_counter()
        await asyncio.gather(*(racer(http, url, n, players[n][0], players[n][1])
                               for n in range(racers)))
        await asyncio.sleep(1)  # the last pushes
        used, took = cpu_seconds(pid) - before, time.perf_counter() - started
        stop.set()
        for ws, task in watching:
            task.cancel()
            await ws.close()
        for ws in sockets:
            await ws.close()
        await asyncio.gather(*listeners, return_exceptions=True)
    print(f"{len(answered)} moves by {racers} racers at one table in {took:.1f} s, "
          f"{watchers} more there watching them; the server used {used / took * 100:.0f}% "
          "of a core")
    print(f"the move answered: {percentiles(answered)}")
    print(f"the page watching it pushed the board: {percentiles(watched)} "
          f"({len(watched)} pushes)")
    print(f"the table's list showing it ({len(sample)} pages sampled): {percentiles(listed)}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.web_live")
    modes = parser.add_subparsers(dest="mode", required=True)
    idle_mode = modes.add_parser("idle", help="the server's CPU with idle pages")
    idle_mode.add_argument("--pages", type=int, default=1000)
    idle_mode.add_argument("--seconds", type=float, default=60)
    idle_mode.add_argument("--poll", action="store_true",
                           help="the pages ask every 3 s instead of holding a socket")
    moves_mode = modes.add_parser("moves", help="how soon a move reaches a following page")
    moves_mode.add_argument("--players", type=int, default=100)
    moves_mode.add_argument("--moves", type=int, default=20)
    table_mode = modes.add_parser("table", help="racers and watchers at one table")
    table_mode.add_argument("--racers", type=int, default=100)
    table_mode.add_argument("--watchers", type=int, default=100)
    table_mode.add_argument("--moves", type=int, default=20)
    table_mode.add_argument("--apart", action="store_true",
                            help="no race: each player on a deal of their own")
    args = parser.parse_args(argv)
    if args.mode == "idle":
        asyncio.run(idle(args.pages, args.seconds, args.poll))
    elif args.mode == "moves":
        asyncio.run(moves(args.players, args.moves))
    else:
        asyncio.run(table(args.racers, args.watchers, args.moves, args.apart))


if __name__ == "__main__":
    main()

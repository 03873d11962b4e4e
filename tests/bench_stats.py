"""Benchmark (not a test): statistics queries over a large results table.

    .venv/bin/python -m tests.bench_stats                 # SQLite, and PostgreSQL if installed
    .venv/bin/python -m tests.bench_stats --rows 200000   # smaller
    .venv/bin/python -m tests.bench_stats --postgres-url postgresql://user@host/db

Fills 1,000,000 results, 200,000 of them in one server of 5,000 players (one of whom has
finished 5,000 games), the rest spread over 2,000 servers and DMs, across a year and in
random order; then times each
statistics read the bot makes (median of 5 after one warm-up) beside the old way of
loading the whole server. Goal: at most 300 ms per read.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.store import Scope, Stores
from tests.bot.reference import all_results

BIG_SERVER = 1_000_000_000_000_000_001
HEAVY_PLAYER = 2_000_000_000_000_000_000
START = datetime(2025, 11, 23, tzinfo=UTC).timestamp()
YEAR = 365 * 86400.0
GAME_IDS = ("clover-leaf", "four-leaf-clovers", "super-flower-garden", "trefoil", "corner-stones")
OUTCOMES = ("won", "won", "lost", "resigned", "abandoned")
COLUMNS = (
    "game_row", "user_id", "guild_id", "game", "deal", "outcome", "moves", "undos", "hints",
    "redeals_used", "seconds_played", "finished_at", "daily",
)


def history(
    total: int,
    in_big: int,
    seed: int = 1,
    *,
    server: int = BIG_SERVER,
    heavy: int = HEAVY_PLAYER,
    first_game_row: int = 1,
) -> list[tuple[Any, ...]]:
    """``total`` results, ``in_big`` of them in ``server``, the first 5,000 by ``heavy``.
    Their ``game_row``s count from ``first_game_row``: far from the bot's own games' rows
    when a bot plays on the filled database (a finished game adds its row)."""
    rng = random.Random(seed)
    rows = []
    for n in range(total):
        if n < 5_000:
            user, guild = heavy, server
        elif n < in_big:
            user, guild = heavy + 1 + rng.randrange(5_000), server
        else:
            guild = None if rng.random() < 0.05 else server + 1 + rng.randrange(2_000)
            user = heavy + 10_000 + rng.randrange(200_000)
        at = START + rng.random() * YEAR
        day = datetime.fromtimestamp(at, UTC).date().isoformat() if rng.random() < 0.1 else None
        rows.append((
            first_game_row + n, user, guild, rng.choice(GAME_IDS), rng.randrange(1, 1_000_000),
            rng.choice(OUTCOMES), rng.randrange(40, 300), rng.randrange(5),
            0 if rng.random() < 0.9 else 1, rng.randrange(3), rng.random() * 900, at, day,
        ))
    rng.shuffle(rows)  # servers' results interleave on disk, as they do when played
    return rows


async def fill_sqlite(path: Path, rows: list[tuple[Any, ...]]) -> None:
    import sqlite3

    store = await Stores.open(path)
    await store.close()
    con = sqlite3.connect(path)
    con.execute("PRAGMA cache_size = -500000")  # 500 MB: the indexes fill in memory
    with con:
        con.executemany(
            f"INSERT INTO results ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * 13)})", rows
        )
    con.execute("ANALYZE")
    con.close()


async def fill_postgres(url: str, rows: list[tuple[Any, ...]]) -> None:
    import asyncpg

    store = await Stores.open(url)
    await store.close()
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("TRUNCATE results")
        await conn.copy_records_to_table("results", records=rows, columns=list(COLUMNS))
        await conn.execute("VACUUM (FREEZE, ANALYZE) results")
    finally:
        await conn.close()


async def timed(call: Callable[[], Awaitable[Any]], runs: int = 5) -> tuple[float, float]:
    """(first, median of the next ``runs``) in milliseconds."""
    times = []
    for _ in range(runs + 1):
        began = time.perf_counter()
        await call()
        times.append((time.perf_counter() - began) * 1000)
    return times[0], statistics.median(times[1:])


async def measure(target: Path | str, label: str) -> None:
    store = await Stores.open(target)
    week_ago = START + YEAR - 7 * 86400
    busy_day = datetime.fromtimestamp(START + YEAR / 2, UTC).date().isoformat()
    reads: list[tuple[str, Callable[[], Awaitable[Any]]]] = [
        ("leaderboard, big server, all games, all time",
         lambda: store.results.leaderboard(Scope(guild_id=BIG_SERVER), top=10,
                                           viewer=HEAVY_PLAYER + 7)),
        ("leaderboard, big server, trefoil, last week",
         lambda: store.results.leaderboard(
             Scope(guild_id=BIG_SERVER, game="trefoil", since=week_ago), top=10,
             viewer=HEAVY_PLAYER + 7)),
        ("/stats, 5,000-game player, everywhere",
         lambda: store.results.records(Scope(user_id=HEAVY_PLAYER))),
        ("/stats, 5,000-game player, big server",
         lambda: store.results.records(Scope(user_id=HEAVY_PLAYER, guild_id=BIG_SERVER))),
        ("/stats, 40-game player, big server",
         lambda: store.results.records(Scope(user_id=HEAVY_PLAYER + 7, guild_id=BIG_SERVER))),
        ("daily streak days, 5,000-game player",
         lambda: store.results.won_daily_days(Scope(user_id=HEAVY_PLAYER, guild_id=BIG_SERVER))),
        ("daily board, big server, one day",
         lambda: store.results.daily_ranking(
             Scope(game="trefoil", daily=busy_day, guild_id=BIG_SERVER), limit=10)),
        ("(before) every result row of the big server",
         lambda: all_results(store, guild_id=BIG_SERVER)),
    ]
    print(f"\n{label}: first / median of 5, ms")
    try:
        for name, call in reads:
            first, median = await timed(call)
            print(f"  {name:<48} {first:8.1f} {median:8.1f}")
    finally:
        await store.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--postgres-url", help="an empty database to fill (its results go)")
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args()
    in_big = args.rows // 5
    began = time.perf_counter()
    rows = history(args.rows, in_big)
    print(f"{args.rows:,} results ({in_big:,} in one server) made in "
          f"{time.perf_counter() - began:.1f} s")

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        began = time.perf_counter()
        await fill_sqlite(path, rows)
        print(f"SQLite filled in {time.perf_counter() - began:.1f} s")
        await measure(path, "SQLite")

    if args.no_postgres:
        return
    server = None
    url = args.postgres_url
    if url is None:
        from tests.pg_server import PostgresServer, unavailable

        reason = unavailable()
        if reason is not None:
            print(f"\nPostgreSQL skipped: {reason}")
            return
        server = PostgresServer()
        server.start()
        url = server.create_database()
    try:
        began = time.perf_counter()
        await fill_postgres(url, rows)
        print(f"\nPostgreSQL filled in {time.perf_counter() - began:.1f} s")
        await measure(url, "PostgreSQL")
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    asyncio.run(main())

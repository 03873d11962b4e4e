"""Whether statistics reads hold up moves, on a database with a long history (not a test).

    python -m tests.e2e.bench_reads [--rows 1000000] [--players 100] [--per-player 10]
                                    [--rate 4 | --rate 0 --readers 2 | --burst 100]
                                    [--quiet-reads 10] [--postgres]

Fills the bot's database with ``--rows`` results (``tests.bench_stats``' history), a fifth
of them in the fake's server "Solitaire Club" among 5,000 players, alice's 5,000 games
among them; then starts the bot on it in its own process, as ``bench_bot`` does. First
the bot answers ``--quiet-reads`` of each read one at a time, with nothing else to do; then
the ``--players`` each play ``2 x --per-player`` moves: the first half alone, the second half
beside statistics reads (alice's ``/stats`` in this server and the server's all-time
``/leaderboard``, by turns, asked by members in turn): ``--rate`` reads a second, started on
the clock whether or not the earlier ones were answered, as members come and ask (enough of
them that none asks within a read's cooldown); or, with ``--rate 0``, ``--readers`` members
each asking again as soon as answered (a stress: the cooldowns refuse most of it); or, with
``--burst N``, one member sending N ``/stats`` at once, every second (the cooldown answers
one, and refuses the rest). Prints each read's latency alone and beside the moves, the reads
refused, and /move's latency in both halves. Goals (issues 11 and 22): a read answers within
300 ms, and /move's p99 beside the reads is at most twice its p99 alone. The players keep
the bot saturated, so a read beside them waits its turns on the event loop and the cores as
a move does.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import logging
import os
import sys
import tempfile
import time
from pathlib import Path

from bot.flows.cooldowns import EVERY_S
from tests.bench_stats import fill_postgres, fill_sqlite, history

from .bench_bot import percentile, plans, postgres_url, running_bot, start_game, summary, timed_move
from .fake_discord import FakeDiscord, FakeUser

# Each reader asks for these in turn: (command, options). alice has 5,000 games here.
READS = (("stats", {"user": "alice"}), ("leaderboard", {}))
READERS = ("alice", "bob", "carol", "dana", "olga")
REFUSED = "refused"  # the reads a cooldown answered


async def moves(
    fake: FakeDiscord, users: list[FakeUser], lines: list[list[str]]
) -> tuple[list[float], float]:
    """Each user plays their line, all at once: every move's latency, and the wall time."""

    async def run(user: FakeUser, line: list[str]) -> list[float]:
        return [await timed_move(fake, user, move) for move in line]

    started = time.perf_counter()
    results = await asyncio.gather(*(run(u, line) for u, line in zip(users, lines, strict=True)))
    return [x for r in results for x in r], time.perf_counter() - started


async def one_read(
    fake: FakeDiscord, who: str, name: str, options: dict[str, str],
    times: dict[str, list[float]],
) -> None:
    reply = await fake.command(who, name, options, timeout=30)
    if "so everyone's games stay quick" in reply.text:
        times[REFUSED].append(reply.latency_s)
        return
    if reply.ephemeral or not reply.text:
        raise RuntimeError(f"/{name} by {who} was refused: {reply.text!r}")
    times[name].append(reply.latency_s)


async def reads_at_rate(
    fake: FakeDiscord, rate: float, readers: list[str], stop: asyncio.Event,
    times: dict[str, list[float]],
) -> None:
    """``rate`` reads a second, each by the next of ``readers``, started on the clock
    whether or not the earlier ones have been answered, until ``stop`` is set."""
    started = []
    for n in itertools.count():
        name, options = READS[n % len(READS)]
        who = readers[n // len(READS) % len(readers)]
        started.append(asyncio.create_task(one_read(fake, who, name, options, times)))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 1 / rate)
        if stop.is_set():
            break
    await asyncio.gather(*started)


async def reads_back_to_back(
    fake: FakeDiscord, who: str, stop: asyncio.Event, times: dict[str, list[float]]
) -> None:
    """Reads by ``who``, each as soon as the one before was answered, until ``stop``."""
    for name, options in itertools.cycle(READS):
        if stop.is_set():
            return
        await one_read(fake, who, name, options, times)


async def bursts(
    fake: FakeDiscord, size: int, stop: asyncio.Event, times: dict[str, list[float]]
) -> None:
    """``size`` /stats at once by one member, every second, until ``stop`` is set."""
    started = []
    while not stop.is_set():
        started += [asyncio.create_task(one_read(fake, "dana", *READS[0], times))
                    for _ in range(size)]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 1.0)
    await asyncio.gather(*started)


def read_summary(label: str, latencies: list[float]) -> str:
    if not latencies:
        return f"{label}: no read finished"
    ms = [x * 1000 for x in latencies]
    return (f"{label}: {len(ms)} reads, p50 {percentile(ms, 50):.1f} ms, max {max(ms):.1f} ms"
            "   (goal: <= 300 ms)")


async def bench(args: argparse.Namespace) -> int:
    if args.rate < 0 or not 1 <= args.readers <= len(READERS):
        raise SystemExit(f"--rate is 0 or more, --readers 1 to {len(READERS)}")
    with tempfile.TemporaryDirectory(prefix="bench-reads-") as tmp, postgres_url(
        args.postgres
    ) as database_url:
        fake = FakeDiscord()
        players = fake.add_members(args.players)
        # Enough members reading (quietly, or on the clock) that none asks again within
        # a cooldown.
        needed = int(args.rate * max(EVERY_S["stats"], EVERY_S["leaderboard"])) + 2
        readers = [u.name for u in fake.add_members(max(needed, args.quiet_reads),
                                                    prefix="reader")]
        in_server = args.rows // 5
        began = time.perf_counter()
        rows = history(args.rows, in_server, server=fake.guild.id,
                       heavy=fake.users["alice"].id, first_game_row=10**12)
        if database_url:
            await fill_postgres(database_url, rows)
        else:
            await fill_sqlite(Path(tmp) / "bench.db", rows)
        del rows
        print(f"{args.rows:,} results, {in_server:,} in the bot's server, written to "
              f"{'PostgreSQL' if database_url else 'SQLite'} in {time.perf_counter() - began:.0f} s")
        source = plans(seed=70_000, at_least=2 * args.per_player)
        assigned = [next(source) for _ in players]
        first = [p.moves[: args.per_player] for p in assigned]
        second = [p.moves[args.per_player : 2 * args.per_player] for p in assigned]
        await fake.start()
        try:
            async with running_bot(fake, Path(tmp), False, 1, database_url):
                await asyncio.gather(*(start_game(fake, u, p)
                                       for u, p in zip(players, assigned, strict=True)))
                for name, options in READS:  # warm: the first read of each pays for its pages
                    await fake.command("alice", name, options, timeout=30)
                quiet: dict[str, list[float]] = {name: [] for name, _ in READS}
                quiet[REFUSED] = []
                for n in range(args.quiet_reads):
                    for name, options in READS:
                        await one_read(fake, readers[n], name, options, quiet)
                alone, wall_alone = await moves(fake, players, first)
                times: dict[str, list[float]] = {name: [] for name, _ in READS}
                times[REFUSED] = []
                stop = asyncio.Event()
                if args.burst:
                    reading = [asyncio.create_task(bursts(fake, args.burst, stop, times))]
                elif args.rate:
                    reading = [asyncio.create_task(
                        reads_at_rate(fake, args.rate, readers, stop, times))]
                else:
                    reading = [asyncio.create_task(reads_back_to_back(fake, who, stop, times))
                               for who in READERS[: args.readers]]
                beside, wall_beside = await moves(fake, players, second)
                stop.set()
                await asyncio.gather(*reading)
        finally:
            await fake.close()
        for name, latencies in quiet.items():
            if name != REFUSED:
                print(read_summary(f"/{name} alone", latencies))
        print(summary(f"{args.players} players alone", alone)
              + f", {len(alone) / wall_alone:.0f} moves/s")
        reading = (f"one member's bursts of {args.burst} /stats a second" if args.burst
                   else f"{args.rate:g} reads a second" if args.rate
                   else f"{args.readers} members reading back to back")
        print(summary(f"{args.players} players beside {reading}", beside)
              + f", {len(beside) / wall_beside:.0f} moves/s")
        for name, latencies in times.items():
            if name != REFUSED:
                print(read_summary(f"/{name} beside the moves", latencies))
        print(f"reads refused by a cooldown: {len(times[REFUSED])}")
        ratio = percentile(beside, 99) / percentile(alone, 99)
        print(f"/move p99 beside the reads / alone: {ratio:.2f}   (goal: <= 2)")
        if fake.problems:
            print("the fake Discord refused:", *fake.problems, sep="\n  ")
            return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.e2e.bench_reads",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--rows", type=int, default=1_000_000, help="results in the database")
    parser.add_argument("--players", type=int, default=100, help="players moving at once")
    parser.add_argument("--per-player", type=int, default=10, help="moves of each, in each half")
    parser.add_argument("--rate", type=float, default=4.0,
                        help="statistics reads a second beside the moves (0: --readers)")
    parser.add_argument("--readers", type=int, default=2,
                        help="with --rate 0: members reading back to back")
    parser.add_argument("--burst", type=int, default=0,
                        help="one member's /stats at once, every second, instead of --rate")
    parser.add_argument("--quiet-reads", type=int, default=10,
                        help="reads of each kind before the moves, one at a time")
    parser.add_argument("--postgres", action="store_true", help="the database in PostgreSQL")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("discord").setLevel(logging.ERROR)
    print(f"{os.cpu_count()} CPUs; Python {sys.version.split()[0]}")
    return asyncio.run(bench(args))


if __name__ == "__main__":
    sys.exit(main())

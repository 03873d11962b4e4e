"""A tidy channel at a fleet's load, within Discord's rate limits (not a test: it prints
figures). ``python -m tests.e2e.bench_tidy``:

    python -m tests.e2e.bench_tidy                                  # 60 players, 12 tables
    python -m tests.e2e.bench_tidy --players 600 --tables 120 --processes 2   # ten times that

Players sit at tables (a channel each, ``--players / --tables`` to a table) and each makes a
``/move`` every ``--every`` seconds for ``--seconds`` (waiting for the board before the next,
as a player does), each move posting a new board that replaces the player's previous one.
The fake Discord keeps Discord's limits (50 requests a second with the bot's token, a
channel's messages 5 edits in 5 s, tests/e2e/rate_limits.py), so it prints what the issue
asks of them: the 429 answers (goal 0), the requests bound by the global limit per move
(goal <= 0.05), every earlier board collapsed within 5 s of the board after it, the boards
still whole 15 s after the last move (goal 0) and /move's latency (goal p99 <= 1 s).
``--processes 2`` runs two bot processes (a shard each) on PostgreSQL, the tables split
between a server on each shard.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import logging
import sys
import tempfile
import time
from pathlib import Path

from bot.discord.send import COLLAPSED

from .bench_bot import HOME, percentile, plans, postgres_url, running_bot
from .fake_discord import FakeChannel, FakeDiscord, FakeUser, InteractionFailed
from .play import move_options

COLLAPSE_WITHIN_S = 5.0
SETTLE_S = 15.0


async def bench(args: argparse.Namespace) -> int:
    processes = args.processes
    with tempfile.TemporaryDirectory(prefix="bench-tidy-") as tmp, postgres_url(
        processes > 1 or args.postgres
    ) as database_url:
        fake = FakeDiscord(shard_count=processes)
        players = fake.add_members(args.players)
        guilds = [fake.guild, fake.other_guild][:processes]
        tables: list[FakeChannel] = []
        for number in range(args.tables):
            guild = guilds[number % len(guilds)]
            channel = FakeChannel(fake.snowflakes.next(), f"table-{number + 1}", guild.id)
            guild.channels.append(channel)
            tables.append(channel)
        seat: dict[int, FakeChannel] = {}
        for number, user in enumerate(players):
            table = tables[number % len(tables)]
            seat[user.id] = table
            home = next(g for g in guilds if g.id == table.guild_id)
            HOME[user.id] = home
            if user not in home.members:
                home.members.append(user)
        await fake.start()
        try:
            async with running_bot(fake, Path(tmp), False, processes, database_url):
                store = "PostgreSQL" if database_url else "SQLite"
                print(f"{args.players} players at {args.tables} tables, a /move each every "
                      f"{args.every:g} s for {args.seconds:g} s; bot in {processes} "
                      f"process(es) on {store}; Discord's limits kept by the fake")
                return await play(fake, players, seat, args)
        finally:
            await fake.close()


async def play(fake: FakeDiscord, players: list[FakeUser], seat: dict[int, FakeChannel],
               args: argparse.Namespace) -> int:
    moves_each = int(args.seconds / args.every) + 1
    source = plans(seed=70_000, at_least=moves_each)
    assigned = {user.id: next(source) for user in players}
    posted: dict[int, list[tuple[int, float]]] = {}  # player -> (board, when it went up)

    dealing = asyncio.Semaphore(20)  # the games are dealt before the clock, 20 at a time

    async def start(user: FakeUser) -> None:
        plan = assigned[user.id]
        async with dealing:
            reply = await fake.command(user, "new", {"game": plan.game_id, "deal": plan.deal},
                                       guild=HOME[user.id], channel=seat[user.id], timeout=60)
        posted[user.id] = [(reply.message_id, time.monotonic())]

    await asyncio.gather(*(start(user) for user in players))
    limited_before = len(fake.rate_limited)
    global_before = fake.rate_limiter.global_requests
    latencies: list[float] = []
    began = time.monotonic()

    failed: list[str] = []  # moves Discord would show as "This interaction failed"
    refused = 0  # moves answered without a board (a move after a failed one may be illegal)

    async def player(user: FakeUser, offset: float) -> None:
        nonlocal refused
        plan = assigned[user.id]
        for number, move in enumerate(plan.moves[:moves_each]):
            due = began + offset + number * args.every
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            try:
                reply = await fake.command(user, "move", move_options(move),
                                           guild=HOME[user.id], channel=seat[user.id],
                                           timeout=60)
            except (InteractionFailed, TimeoutError) as failure:  # the machine is overloaded
                failed.append(str(failure))
                continue
            if len(reply.pngs) != 1:
                refused += 1
                continue
            latencies.append(reply.latency_s)
            posted[user.id].append((reply.message_id, time.monotonic()))

    await asyncio.gather(*(player(user, args.every * n / len(players))
                           for n, user in enumerate(players)))
    wall = time.monotonic() - began
    await asyncio.sleep(SETTLE_S)
    late, whole = 0, 0
    for boards in posted.values():
        for (message_id, _at), (_next, replaced_at) in itertools.pairwise(boards):
            collapsed_at = fake.message(message_id).changed_at(COLLAPSED)
            if collapsed_at is None:
                whole += 1
            elif collapsed_at - replaced_at > COLLAPSE_WITHIN_S:
                late += 1
    earlier = sum(len(boards) - 1 for boards in posted.values())
    limited = fake.rate_limited[limited_before:]
    global_requests = fake.rate_limiter.global_requests - global_before
    moves = max(1, len(latencies))
    print(f"moves: {len(latencies)} in {wall:.1f} s ({moves / wall:.0f} moves/s; asked "
          f"{len(players) / args.every:.0f}/s)")
    print(f"429 answers: {len(limited)} (global {sum(x.scope == 'global' for x in limited)}, "
          f"per route {sum(x.scope != 'global' for x in limited)})   (goal: 0)")
    print(f"requests bound by the global limit: {global_requests} "
          f"({global_requests / moves:.3f} a move)   (goal: <= 0.05 a move)")
    print(f"earlier boards: {earlier}; collapsed later than {COLLAPSE_WITHIN_S:g} s after the "
          f"next: {late}; still whole {SETTLE_S:g} s after the last move: {whole}   (goal: 0, 0)")
    ms = [x * 1000 for x in latencies] or [0.0]
    print(f"/move answered with its board: p50 {percentile(ms, 50):.0f} ms, p99 "
          f"{percentile(ms, 99):.0f} ms, max {max(ms):.0f} ms   (goal: p99 <= 1000 ms)")
    print(f"invalid requests (401, 403, 429) the fake counted: {fake.rate_limiter.invalid}")
    if failed or refused:
        print(f"moves not answered in time ('This interaction failed'): {len(failed)}; "
              f"answered without a board: {refused} (more moves asked than this machine "
              f"answers)")
    others = [p for p in fake.problems  # an overloaded machine answers late, or not at all
              if "not acknowledged within" not in p and "after the 3.0 s deadline" not in p]
    if others:
        print("the fake Discord refused:", *others, sep="\n  ")
        return 1
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.e2e.bench_tidy", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--tables", type=int, default=12, help="channels the players share")
    parser.add_argument("--every", type=float, default=1.0, help="seconds between moves")
    parser.add_argument("--seconds", type=float, default=12.0, help="how long they play")
    parser.add_argument("--processes", type=int, default=1,
                        help="bot processes, a shard each (PostgreSQL)")
    parser.add_argument("--postgres", action="store_true", help="the database in PostgreSQL")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("discord").setLevel(logging.ERROR)
    return asyncio.run(bench(args))


if __name__ == "__main__":
    sys.exit(main())

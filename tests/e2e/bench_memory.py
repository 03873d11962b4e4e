"""How the bot's memory grows with the number of players (not a test).

    python -m tests.e2e.bench_memory [--players 2300] [--warm 300] [--batch 20] [--every 250]

The bot runs in its own process through its normal entry point, against the fake Discord.
Each new player deals a game with /new, plays one move, and presses Hint now and then;
after ``--warm`` players the resident memory of the bot and its worker processes is read,
and again after all of them. Goal (issue 11): at most 5 KB more per new player.
``--every N`` also prints both processes' memory after every N players: a cache still
filling shows as growth that stops, a leak as growth that does not.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from engine import REDEAL

from .bench_bot import children, process_rss_mb
from .fake_discord import FakeDiscord, FakeUser
from .harness import BotProcess
from .play import Mirror, move_options

HINT_EVERY = 25  # every 25th player also asks for a hint (the solver's caches grow too)


async def new_player(fake: FakeDiscord, user: FakeUser, n: int) -> None:
    deal = 100_000 + n
    game = ("trefoil", "clover-leaf", "super-flower-garden", "four-leaf-clovers",
            "corner-stones")[n % 5]
    board = await fake.command(user, "new", {"game": game, "deal": deal})
    if not board.pngs:
        raise RuntimeError(f"/new answered without a board: {board.text}")
    # Its first move. A few deals have none (Corner Stones 107,169 and 110,119): that
    # player deals, and that is all.
    move = next((str(m) for m in Mirror(game, deal).game.legal_moves() if m.kind != REDEAL),
                None)
    if move is None:
        return
    moved = await fake.command(user, "move", move_options(move))
    if not moved.pngs:
        raise RuntimeError(f"/move {move} answered without a board: {moved.text}")
    if n % HINT_EVERY == 0:
        await fake.press(user, moved, label="Hint", timeout=30)


def sizes(bot: BotProcess) -> tuple[float, list[float]]:
    """RSS in MB of the bot's own process, and of each of its worker processes.

    A worker's own children are left out: the solver's forked searches, each of which
    lives for one search (at most its budget, 0.4 to 2 s) and then gives back all its
    memory. Counted, they would make a reading depend on whether one was running."""
    assert bot.proc is not None
    found = [process_rss_mb(pid) for pid in [bot.proc.pid, *children(bot.proc.pid)]]
    own, *workers = [mb for mb in found if mb is not None]  # a worker may be being replaced
    return own, workers


def split(bot: BotProcess) -> tuple[float, float]:
    """RSS in MB of the bot's own process, and of its worker processes together."""
    own, each = sizes(bot)
    return own, sum(each)


async def players(
    fake: FakeDiscord,
    users: list[FakeUser],
    first: int,
    batch: int,
    every: int = 0,
    bot: BotProcess | None = None,
) -> None:
    for start in range(0, len(users), batch):
        chunk = users[start : start + batch]
        await asyncio.gather(*(new_player(fake, u, first + start + i) for i, u in enumerate(chunk)))
        done = first + start + len(chunk)
        if every and bot is not None and done % every < batch:
            print_sizes(bot, f"{done:5d} players")


def print_sizes(bot: BotProcess, when: str) -> None:
    own, each = sizes(bot)
    workers = ", ".join(f"{mb:.1f}" for mb in each)
    print(f"  after {when}: bot {own:6.1f} MB, workers {sum(each):6.1f} MB ({workers})",
          flush=True)


async def bench(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as tmp:
        fake = FakeDiscord()
        users = fake.add_members(args.players)
        await fake.start()
        bot = BotProcess(fake, Path(tmp) / "bench.db", Path(tmp), name="bench-memory")
        try:
            await bot.start()
            start_mb = sum(split(bot))
            await players(fake, users[: args.warm], 0, args.batch, args.every, bot)
            warm_split = split(bot)
            warm_mb = sum(warm_split)
            await players(fake, users[args.warm :], args.warm, args.batch, args.every, bot)
            await asyncio.sleep(2)  # let the last verdict checks finish
            if args.every:
                print_sizes(bot, f"{args.players} players, 2 s later")
            end_split = split(bot)
            end_mb = sum(end_split)
        finally:
            await bot.stop()
            await fake.close()
        more = args.players - args.warm
        per_player_kb = (end_mb - warm_mb) * 1024 / more
        print(f"RSS of the bot and its workers: {start_mb:.1f} MB at start, {warm_mb:.1f} MB "
              f"after {args.warm} players, {end_mb:.1f} MB after {args.players}")
        print(f"growth: {per_player_kb:.2f} KB per new player over the last {more}   "
              "(goal: <= 5 KB)")
        print(f"of which the bot's own process: "
              f"{(end_split[0] - warm_split[0]) * 1024 / more:.2f} KB, its workers: "
              f"{(end_split[1] - warm_split[1]) * 1024 / more:.2f} KB")
        if fake.problems:
            print("the fake Discord refused:", *fake.problems, sep="\n  ")
            return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.e2e.bench_memory", description=__doc__)
    parser.add_argument("--players", type=int, default=2300, help="new players in all")
    parser.add_argument("--warm", type=int, default=300, help="players before the first reading")
    parser.add_argument("--batch", type=int, default=20, help="players at once")
    parser.add_argument("--every", type=int, default=0,
                        help="print each process's memory after every N players (0: never)")
    return asyncio.run(bench(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())

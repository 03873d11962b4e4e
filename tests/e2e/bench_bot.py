"""How fast the bot answers `/move` with its picture, over the loopback fake Discord.

    python -m tests.e2e.bench_bot [--moves 200] [--players 100] [--per-player 10] [--in-process]
                                  [--postgres] [--processes 2] [--ceiling] [--compare]
                                  [--replays N]
                                  [--profile FILE]

Latency is measured from the moment the fake sends INTERACTION_CREATE on the gateway to the
moment the bot's answer to `/move` (the board with its PNG) has arrived at the fake. Two runs:

* one player making ``--moves`` moves, one after another;
* ``--players`` players at once, each making ``--per-player`` moves as fast as the answers
  come back; moves per second = all those moves / the wall time of the run.

By default the bot runs in its own process through its normal entry point (as it would in
production, the fake standing in for Discord on the other side of a socket); the fake, the
players and the clock are in this process. ``--in-process`` runs the bot in this process
instead. ``--postgres`` puts the database in a PostgreSQL server started for the run (in a
temporary folder, on loopback); ``--processes 2`` runs two bot processes, serving shards 0
and 1 of 2, with the players split between a server on each shard (PostgreSQL implied).
Besides latency it prints the CPU a move costs and the memory (RSS) of the bot's processes
and their worker processes. ``--ceiling`` runs, in place of the bot, a minimal discord.py bot
(``ceiling_bot.py``) that answers every ``/new`` and ``/move`` with one fixed board-sized PNG
and no game: what discord.py, the fake and the players allow here, the most the bot could
reach. ``--compare`` runs the bot, then the minimal bot drawing the same boards
(``CEILING_DRAWS=1``: each player's game in memory, each position drawn as the bot draws it,
nothing else), then the same drawing bot collapsing each player's earlier board as the bot
does (``CEILING_COLLAPSES=1``: the collapse's own price, apart from the rest of the bot),
then the minimal bot with its fixed picture, and prints the ratio of the bot's moves a second
to each, and the machine's CPU a move of each (every process, forked searches included; goal
of issue 34: >= 0.9 of the drawing bot). ``--replays N`` adds N members who, while the crowd plays, each ask for a
``/replay`` of a game of about 150 moves they played before the clock started: the crowd's
latency beside replays being drawn. ``--profile FILE`` records the bot's process with py-spy during the run with many
players and prints where its CPU goes (``cpu_profile.py``). Goals (issue 4): one player p50 <= 20 ms and p99 <= 100 ms; >= 200 moves/s with
100 players. Not a test: it prints figures, it asserts only that every move was answered
with a picture.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import engine
from engine import REDEAL

from .cpu_profile import Recording, breakdown
from .fake_discord import FakeDiscord, FakeUser
from .harness import BotProcess, bot_in_process
from .play import move_options

GAME_IDS = list(engine.GAMES)


def greedy_line(game_id: str, deal: int, limit: int) -> list[str]:
    """Up to ``limit`` legal moves a player could make from this deal: the first that reaches
    a new position, or a redeal when nothing else does. Computed before the clock starts."""
    game = engine.new_game(game_id, deal)
    seen = {game.key()}
    line: list[str] = []
    while len(line) < limit and not game.is_won:
        moves = game.legal_moves()
        pick = None
        for move in (m for m in moves if m.kind != REDEAL):
            game.push(move)
            fresh = game.key() not in seen
            game.pop()
            if fresh:
                pick = move
                break
        if pick is None:
            pick = next((m for m in moves if m.kind == REDEAL), None)
        if pick is None:
            break
        game.play(pick)
        seen.add(game.key())
        line.append(str(pick))
    return line


@dataclass
class Plan:
    game_id: str
    deal: int
    moves: list[str]


def plans(seed: int, at_least: int) -> Iterator[Plan]:
    """Deals, cycling through the five games, whose greedy line is at least this long."""
    deal = seed
    while True:
        for game_id in GAME_IDS:
            deal += 1
            line = greedy_line(game_id, deal, max(at_least, 60))
            if len(line) >= at_least:
                yield Plan(game_id, deal, line)


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(p / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


HOME: dict[int, Any] = {}  # player -> the server they play in (a shard each, with --processes)


async def start_game(fake: FakeDiscord, user: FakeUser, plan: Plan) -> None:
    options = {"game": plan.game_id, "deal": plan.deal}
    reply = await fake.command(user, "new", options, guild=HOME.get(user.id, fake.guild))
    if not reply.pngs:
        raise RuntimeError(f"/new answered without a board: {reply!r}")


async def timed_move(fake: FakeDiscord, user: FakeUser, move: str) -> float:
    reply = await fake.command(
        user, "move", move_options(move), timeout=30, guild=HOME.get(user.id, fake.guild)
    )
    if reply.ephemeral or len(reply.pngs) != 1:
        raise RuntimeError(f"/move {move} was not answered with a board: {reply!r}")
    return reply.latency_s


async def one_player(
    fake: FakeDiscord, user: FakeUser, moves: int, warmup: int, *, resign: bool = True
) -> list[float]:
    latencies: list[float] = []
    source = plans(seed=10_000, at_least=20)
    while len(latencies) < moves + warmup:
        plan = next(source)
        await start_game(fake, user, plan)
        for move in plan.moves[: moves + warmup - len(latencies)]:
            latencies.append(await timed_move(fake, user, move))
        if resign:  # so that the next /new deals at once instead of asking first
            await fake.press(user, await fake.command(user, "resign"), label="Resign")
    return latencies[warmup:]


async def many_players(
    fake: FakeDiscord, users: list[FakeUser], per_player: int,
    replayers: list[FakeUser] | None = None,
) -> tuple[list[float], float]:
    source = plans(seed=50_000, at_least=per_player)
    assigned = [next(source) for _ in users]
    await asyncio.gather(*(start_game(fake, u, p) for u, p in zip(users, assigned, strict=True)))
    replayers = replayers or []
    await asyncio.gather(*(long_game(fake, u) for u in replayers))

    async def run(user: FakeUser, plan: Plan) -> list[float]:
        return [await timed_move(fake, user, move) for move in plan.moves[:per_player]]

    started = time.perf_counter()
    results, replays = await asyncio.gather(
        asyncio.gather(*(run(u, p) for u, p in zip(users, assigned, strict=True))),
        asyncio.gather(*(timed_replay(fake, u) for u in replayers)),
    )
    wall = time.perf_counter() - started
    if replays:
        print(summary(f"{len(replays)} replays drawn meanwhile", replays).replace("moves", "GIFs"))
    return [x for r in results for x in r], wall


REPLAY_MOVES = 150


async def long_game(fake: FakeDiscord, user: FakeUser) -> None:
    """A game of about ``REPLAY_MOVES`` moves (fewer if its line is shorter), to replay."""
    plan = next(plans(seed=90_000 + user.id % 1000, at_least=60))
    line = greedy_line(plan.game_id, plan.deal, REPLAY_MOVES)
    await start_game(fake, user, plan)
    for move in line:
        await timed_move(fake, user, move)


async def timed_replay(fake: FakeDiscord, user: FakeUser) -> float:
    reply = await fake.command(user, "replay", timeout=60, guild=HOME.get(user.id, fake.guild))
    attachments = fake.message(reply).state().attachments
    if reply.ephemeral or len(attachments) != 1:
        raise RuntimeError(f"/replay was not answered with an animation: {reply!r}")
    return reply.latency_s


@contextlib.asynccontextmanager
async def running_bot(
    fake: FakeDiscord,
    workdir: Path,
    in_process: bool,
    processes: int,
    database_url: str | None,
    ceiling: bool = False,
    draws: bool = False,
    collapses: bool = False,
) -> AsyncIterator[list[Any]]:
    """The bot: in this process, or ``processes`` processes (one per shard); ``ceiling``:
    the minimal bot instead, in its own process (``draws``: drawing its boards;
    ``collapses``: and collapsing each player's earlier one)."""
    database = workdir / "bench.db"
    if ceiling:
        env = {"CEILING_DRAWS": "1"} if draws else {}
        if collapses:
            env["CEILING_COLLAPSES"] = "1"
        process = BotProcess(fake, database, workdir, name="ceiling-bot",
                             module="tests.e2e.ceiling_bot", env=env)
        await process.start()
        try:
            yield [process]
        finally:
            await process.stop()
        return
    if in_process:
        async with bot_in_process(fake, database) as bot:
            yield [bot]
        return
    env = {"DATABASE_URL": database_url} if database_url else {}
    started = []
    try:
        for shard in range(processes):
            shards = {"SHARD_COUNT": str(processes), "SHARD_IDS": str(shard)} if processes > 1 else {}
            process = BotProcess(
                fake, database, workdir, name=f"bench-bot-{shard}", env=env | shards
            )
            await process.start()
            started.append(process)
        yield started
    finally:
        for process in started:
            await process.stop()


@contextlib.contextmanager
def postgres_url(wanted: bool) -> Iterator[str | None]:
    """A PostgreSQL database for the run, if wanted (started here, gone after)."""
    if not wanted:
        yield None
        return
    from tests.pg_server import PostgresServer, unavailable

    reason = unavailable()
    if reason is not None:
        raise SystemExit(f"--postgres needs a PostgreSQL server: {reason}")
    server = PostgresServer()
    server.start()
    try:
        yield server.create_database()
    finally:
        server.stop()


def rss_mb(bots: list[Any]) -> float:
    """Resident memory of the bot processes and their workers, in MB."""
    total = 0.0
    for bot in bots:
        if isinstance(bot, BotProcess) and bot.proc is not None:
            total += sum(process_rss_mb(pid) or 0.0 for pid in _process_tree(bot.proc.pid))
    return total


def process_rss_mb(pid: int) -> float | None:
    """One process's resident memory in MB; None if it has ended meanwhile."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    return int(status.split("VmRSS:")[1].split()[0]) / 1024


def children(pid: int) -> list[int]:
    """The live processes that ``pid`` started."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found += [int(c) for c in (task / "children").read_text().split()]
    return found


def _process_tree(pid: int) -> list[int]:
    """The process and its live descendants (the bot's solver or render workers)."""
    pids, todo = [], [pid]
    while todo:
        current = todo.pop()
        pids.append(current)
        todo += children(current)
    return pids


def _cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # utime + stime, and those of its children that ended (the solver's forked searches)
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def bot_cpu_seconds(bots: list[Any]) -> dict[int, tuple[bool, float]]:
    """CPU time so far of the bot processes (True) and of each of their workers (False)."""
    seconds: dict[int, tuple[bool, float]] = {}
    for bot in bots:
        if isinstance(bot, BotProcess) and bot.proc is not None:
            for pid in _process_tree(bot.proc.pid):
                seconds[pid] = (pid == bot.proc.pid, _cpu_seconds(pid))
    return seconds


def cpu_used(
    before: dict[int, tuple[bool, float]], after: dict[int, tuple[bool, float]]
) -> tuple[float, list[float]]:
    """CPU seconds between two readings: the bot processes', and each of their worker
    processes' (in the order they started)."""
    used = {pid: (main, s - before.get(pid, (main, 0.0))[1]) for pid, (main, s) in after.items()}
    return (
        sum(s for main, s in used.values() if main),
        [s for _, (main, s) in sorted(used.items()) if not main],
    )


def summary(label: str, latencies: list[float]) -> str:
    ms = [x * 1000 for x in latencies]
    return (
        f"{label}: {len(ms)} moves, p50 {percentile(ms, 50):.1f} ms, "
        f"p99 {percentile(ms, 99):.1f} ms, mean {statistics.fmean(ms):.1f} ms, "
        f"max {max(ms):.1f} ms"
    )


@dataclass
class Run:
    """What a run with many players measured: moves a second, and the machine's CPU a
    move (every process: the bot's, its workers' and their forked searches', the fake's
    and the players')."""

    rate: float
    p99_ms: float
    cpu_ms: float


async def bench(args: argparse.Namespace) -> int:
    if args.ceiling and (args.in_process or args.postgres or args.processes > 1):
        raise SystemExit("--ceiling runs the minimal bot alone, in one process")
    if args.compare and (args.ceiling or args.in_process):
        raise SystemExit("--compare runs the bot in its own processes, then the minimal bot")
    ours = await run(args, ceiling=args.ceiling)
    if ours is None:
        return 1
    if not args.compare:
        return 0
    print()
    drawing = await run(args, ceiling=True, draws=True)
    print()
    collapsing = await run(args, ceiling=True, draws=True, collapses=True)
    print()
    trivial = await run(args, ceiling=True)
    if drawing is None or collapsing is None or trivial is None:
        return 1
    print()
    for other, name, goal in ((drawing, "the bot that only draws and sends", " (goal: >= 0.9)"),
                              (collapsing, "the bot that draws, sends and collapses", ""),
                              (trivial, "the trivial bot (nothing drawn)", "")):
        print(
            f"the bot against {name}, in this run: {ours.rate:.0f} / {other.rate:.0f} "
            f"moves/s = {ours.rate / other.rate:.2f}{goal}; machine CPU a move "
            f"{ours.cpu_ms:.2f} ms against {other.cpu_ms:.2f} ms; /move p99 "
            f"{ours.p99_ms:.0f} ms against {other.p99_ms:.0f} ms"
        )
    return 0


async def run(args: argparse.Namespace, *, ceiling: bool, draws: bool = False,
              collapses: bool = False) -> Run | None:
    """One run: one player, then many; None if the fake Discord refused a request.
    ``ceiling``: the minimal bot instead; ``draws``: the minimal bot that draws its boards;
    ``collapses``: and collapses the earlier ones."""
    processes = 1 if args.in_process or ceiling else args.processes
    with tempfile.TemporaryDirectory(prefix="bench-bot-") as tmp, postgres_url(
        not ceiling and (args.postgres or processes > 1)
    ) as database_url:
        fake = FakeDiscord(shard_count=processes)
        players = fake.add_members(args.players)
        replayers = fake.add_members(args.replays) if args.replays else []
        if processes > 1:  # every other player plays in the server on the other shard
            for user in players[1::2]:
                fake.other_guild.members.append(user)
                HOME[user.id] = fake.other_guild
        await fake.start()
        try:
            async with running_bot(
                fake, Path(tmp), args.in_process, processes, database_url, ceiling, draws,
                collapses,
            ) as bot:
                where = (
                    "(the minimal bot that draws, sends and collapses the boards) in its own "
                    "process" if collapses
                    else "(the minimal bot that draws and sends the boards) in its own process"
                    if draws
                    else "(the minimal ceiling bot, no game) in its own process" if ceiling
                    else "in this process" if args.in_process
                    else f"in {processes} processes (a shard each)" if processes > 1
                    else "in its own process"
                )
                store = "no database" if ceiling else "PostgreSQL" if database_url else "SQLite"
                print(
                    f"bot {where} on {store}; fake Discord and players in this process; "
                    f"{os.cpu_count()} CPUs; Python {sys.version.split()[0]}"
                )
                single = await one_player(
                    fake, fake.users["alice"], args.moves, args.warmup, resign=not ceiling
                )
                print(summary("one player", single) + "   (goal: p50 <= 20 ms, p99 <= 100 ms)")
                recording = None
                if args.profile is not None and isinstance(bot[0], BotProcess):
                    assert bot[0].proc is not None
                    recording = Recording(bot[0].proc.pid, args.profile)
                    await recording.start()
                bot_cpu_before, fake_cpu = bot_cpu_seconds(bot), time.process_time()
                crowd, wall = await many_players(fake, players, args.per_player, replayers)
                bot_cpu, each_worker = cpu_used(bot_cpu_before, bot_cpu_seconds(bot))
                workers_cpu = sum(each_worker)
                if recording is not None:
                    await recording.stop()
                fake_cpu = time.process_time() - fake_cpu
                rate = len(crowd) / wall
                print(summary(f"{len(players)} players at once", crowd))
                print(
                    f"{len(players)} players at once: {rate:.0f} moves/s "
                    f"({len(crowd)} moves in {wall:.2f} s)   (goal: >= 200 moves/s)"
                )
                machine_ms = (bot_cpu + workers_cpu + fake_cpu) / len(crowd) * 1000
                result = Run(rate, percentile([x * 1000 for x in crowd], 99), machine_ms)
                if not args.in_process:
                    print(
                        f"CPU in that run: bot {bot_cpu:.2f} s "
                        f"({bot_cpu / len(crowd) * 1000:.1f} ms a move), its worker processes "
                        f"{workers_cpu:.2f} s "
                        f"({workers_cpu / len(crowd) * 1000:.1f} ms a move"
                        + "".join(f"{', ' if i else ': '}{s / len(crowd) * 1000:.1f}"
                                  for i, s in enumerate(each_worker))
                        + (" in each" if each_worker else "")
                        + f"), fake Discord and players {fake_cpu:.2f} s, wall {wall:.2f} s; "
                        f"the machine's CPU a move, every process: {machine_ms:.2f} ms"
                    )
                    print(f"memory after: bot and worker processes {rss_mb(bot):.0f} MB RSS")
                if recording is not None:
                    samples, parts = breakdown(args.profile)
                    print(f"where the bot's process holds Python's lock ({samples} py-spy samples, "
                          f"raw in {args.profile}):")
                    for part, share in parts:
                        print(f"  {100 * share:5.1f}%  {part}")
        finally:
            await fake.close()
        if fake.problems:
            print("the fake Discord refused:", *fake.problems, sep="\n  ")
            return None
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.e2e.bench_bot",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--moves", type=int, default=200, help="moves of the single player")
    parser.add_argument("--warmup", type=int, default=20, help="unmeasured first moves")
    parser.add_argument("--players", type=int, default=100, help="players at once")
    parser.add_argument("--per-player", type=int, default=10, help="moves of each of them")
    parser.add_argument("--in-process", action="store_true", help="run the bot in this process")
    parser.add_argument("--postgres", action="store_true", help="the database in PostgreSQL")
    parser.add_argument(
        "--processes", type=int, default=1, help="bot processes, a shard each (PostgreSQL)"
    )
    parser.add_argument(
        "--ceiling", action="store_true", help="a minimal discord.py bot instead (no game)"
    )
    parser.add_argument(
        "--compare", action="store_true",
        help="then the minimal bots in the same run, and the ratios (issue 34)",
    )
    parser.add_argument(
        "--replays", type=int, default=0,
        help="members asking for a /replay of a long game while the crowd plays",
    )
    parser.add_argument(
        "--profile", type=Path, metavar="FILE",
        help="py-spy the bot's process in the run with many players; raw samples to FILE",
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("discord").setLevel(logging.ERROR)
    return asyncio.run(bench(args))


if __name__ == "__main__":
    sys.exit(main())

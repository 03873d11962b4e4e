"""``python -m tests.bench_flow``: the CPU a move costs the game flow and its store alone.

One process, SQLite in a temporary folder, ``--players`` players each making ``--moves``
moves of the greedy lines ``bench_bot`` plays, one player after another, through
``Core.act`` (load or held copy, engine, settings, save, the board's text, buttons and
menu). The picture is a fixed one (no drawing) and nothing goes to Discord: what is left
is the flow's own cost, as a share of what ``bench_bot`` measures for the whole bot.
``--profile`` prints where it goes (cProfile, which slows it down several times).
Not a test: it prints figures.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import random
import tempfile
import time
from pathlib import Path

from bot.core import Core
from bot.replies import Action, Player
from bot.store import Stores
from engine import Game
from tests.bot.presenting import answer
from tests.e2e.bench_bot import plans

PICTURE = b"\x89PNG" + bytes(30_000)  # about a board's size; never decoded


def fixed_picture(game: Game, **_options: object) -> bytes:
    return PICTURE


async def measure(players: int, moves: int, profile: bool) -> float:
    """CPU milliseconds a move, all of this process's threads."""
    with tempfile.TemporaryDirectory() as folder:
        stores = await Stores.open(Path(folder) / "bench.db")
        core = Core(stores, renderer=fixed_picture, deals=random.Random(1))
        try:
            source = plans(seed=50_000, at_least=moves)
            crowd = [(Player(user_id=1_000 + n, guild_id=5), next(source))
                     for n in range(players)]
            for player, plan in crowd:
                await core.game.new_game(player, plan.game_id, plan.deal)
            profiler = cProfile.Profile() if profile else None
            started = time.process_time()
            if profiler:
                profiler.enable()
            for step in range(moves):
                for player, plan in crowd:
                    reply = await answer(core.act, player, Action.MOVE, plan.moves[step])
                    if reply.board is None or reply.refused:
                        raise RuntimeError(f"move {plan.moves[step]} not played: {reply!r}")
            if profiler:
                profiler.disable()
                pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)
            return (time.process_time() - started) * 1000 / (players * moves)
        finally:
            await core.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--moves", type=int, default=30, help="moves of each player")
    parser.add_argument("--profile", action="store_true", help="print cProfile's figures")
    args = parser.parse_args()
    cpu = asyncio.run(measure(args.players, args.moves, args.profile))
    print(f"{args.players} players x {args.moves} moves: {cpu:.3f} ms of CPU a move "
          "(flow and store; no picture drawn, nothing sent)")


if __name__ == "__main__":
    main()

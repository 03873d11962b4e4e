"""The bot's writes in a process of its own, for the backup's test: players playing
Trefoil on the SQLite file through the bot's store, as the game flow saves a move (a game
that ends is recorded, and the player starts another). Each change is printed once the
store has acknowledged it, ``user game revision`` (its game row and the revision saved).
It plays until it is stopped.

    python -m tests.ops.backup_writer DATABASE PLAYERS
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

from bot.store import LOST, WON, SavedGame, Stores
from engine import new_game

GUILD = 900


def acknowledged(saved: SavedGame) -> None:
    print(saved.user_id, saved.id, saved.revision, flush=True)


async def play(path: Path, players: int) -> None:
    stores = await Stores.open(path)
    moves = random.Random(48)
    deals = iter(range(1, 1_000_000))
    games = {}
    for user in range(1, players + 1):
        games[user] = await stores.games.start(user, GUILD, new_game("trefoil", next(deals)), 1.0)
        acknowledged(games[user])
    now = 1.0
    while True:
        for user, saved in games.items():
            now += 1.0
            game = saved.game
            if game.is_won or game.is_stuck:  # recorded: won as it was saved, or lost now
                saved = await stores.games.start(user, GUILD, new_game("trefoil", next(deals)),
                                                 now, replacing=saved, left_as=LOST)
                games[user] = saved
            else:
                game.play(moves.choice(game.legal_moves()))
                saved.updated_at = now
                if game.is_won:
                    saved.status, saved.finished_at = WON, now
                await stores.games.save(saved)
            acknowledged(saved)


if __name__ == "__main__":
    asyncio.run(play(Path(sys.argv[1]), int(sys.argv[2])))

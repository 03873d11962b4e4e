"""Each player's last finished game in each place (a server, or outside servers), kept
whole so that ``/replay`` can show it move by move; written by ``games.py`` as the game
ends, one row a player and place."""

from __future__ import annotations

import json
from dataclasses import dataclass

from engine import Game

from .database import Database
from .statuses import GameStatus

OUTSIDE_SERVERS = 0  # the place of games played in DMs and the console


@dataclass(frozen=True)
class Finished:
    game: Game
    outcome: GameStatus
    hints: int
    finished_at: float


class ReplayStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def last(self, user_id: int, guild_id: int | None) -> Finished | None:
        """The player's last finished game there, or None."""
        async with self._db.reading() as conn:
            row = await conn.fetchrow(
                "SELECT state, outcome, hints, finished_at FROM replays "
                "WHERE user_id = $1 AND place = $2",
                user_id, guild_id or OUTSIDE_SERVERS,
            )
        if row is None:
            return None
        game = Game.from_dict(json.loads(str(row["state"])))
        return Finished(game, GameStatus(row["outcome"]), int(row["hints"]),
                        float(row["finished_at"]))

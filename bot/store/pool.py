"""Deals the solver proved winnable, waiting to be handed out by `/new winnable:True`."""

from __future__ import annotations

from .database import Database


class PoolStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def add(self, game_id: str, deal: int, now: float) -> None:
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO winnable_deals (game, deal, found_at) VALUES ($1, $2, $3) "
                "ON CONFLICT DO NOTHING",
                game_id, deal, float(now),
            )

    async def count(self, game_id: str) -> int:
        async with self._db.writer() as conn:
            row = await conn.fetchrow(
                "SELECT COUNT(*) AS n FROM winnable_deals WHERE game = $1", game_id
            )
        assert row is not None
        return int(row["n"])

    async def take(self, game_id: str) -> int | None:
        """Hand out (and remove) the oldest winnable deal of a game, if there is one; a
        deal is handed out once, however many processes ask at once."""
        async with self._db.transaction() as conn:
            row = await conn.fetchrow(self._db.take_winnable_sql, game_id)
        return None if row is None else int(row["deal"])

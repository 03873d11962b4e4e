"""Deals the solver proved winnable, waiting to be handed out by `/new winnable:True`.

Only the leader fills the pool, through its lease's own session: two processes
never fill it at once, and a pool never holds more than it was asked to.
"""

from __future__ import annotations

from .database import Connection, Database, Notice
from .meta import LEASE


class PoolStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def add(self, game_id: str, deal: int, now: float, *, target: int) -> bool:
        """Pool a deal while the game's pool holds fewer than ``target``; whether it was.
        Raises NotLeading, writing nothing, unless this process leads."""
        async with self._db.as_leader(LEASE) as conn:
            added = await conn.execute(
                "INSERT INTO winnable_deals (game, deal, found_at) SELECT $1, $2, $3 "
                "WHERE (SELECT COUNT(*) FROM winnable_deals WHERE game = $1) < $4 "
                "ON CONFLICT DO NOTHING",
                game_id, deal, float(now), target,
            )
        return added == 1

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
            return await take_pooled(self._db, conn, game_id)


async def take_pooled(db: Database, conn: Connection, game_id: str) -> int | None:
    """Take the oldest winnable deal of a game in the transaction under way on ``conn`` (of
    ``db``), if there is one: it is gone only if that transaction commits. The leader is
    told to top the pool up."""
    row = await conn.fetchrow(db.take_winnable_sql, game_id)
    if row is None:
        return None
    await conn.notify(Notice.POOL)
    return int(row["deal"])

"""Each day's daily deal of each game, once chosen: the same for every process, and kept,
so that a day's deal never changes once it has been played; and the secret the days'
candidates are keyed by, made once by the schema (``meta``'s ``daily_secret``)."""

from __future__ import annotations

from .database import Database


class DailyStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def secret(self) -> str:
        """The daily deal's secret: the same for every process on this database, for good."""
        async with self._db.writer() as conn:
            row = await conn.fetchrow("SELECT value FROM meta WHERE key = 'daily_secret'")
        if row is None:  # the schema makes it: a database without one is not this schema
            raise LookupError("the database keeps no daily secret (meta.daily_secret)")
        return str(row["value"])

    async def deal(self, game: str, day: str) -> int | None:
        """The deal chosen for ``game`` on ``day`` (``YYYY-MM-DD``), or None if none yet."""
        async with self._db.writer() as conn:
            row = await conn.fetchrow(
                "SELECT deal FROM daily_deals WHERE game = $1 AND day = $2", game, day
            )
        return None if row is None else int(row["deal"])

    async def played(self, game: str, day: str) -> int | None:
        """The deal a scored attempt of that day was played with, if any was (a day played
        before its deal was kept here keeps the deal it was played with)."""
        async with self._db.writer() as conn:
            row = await conn.fetchrow(
                "SELECT deal FROM results WHERE game = $1 AND daily = $2 "
                "UNION ALL SELECT deal FROM games WHERE game = $1 AND daily = $2 LIMIT 1",
                game, day,
            )
        return None if row is None else int(row["deal"])

    async def keep(self, game: str, day: str, deal: int) -> int:
        """Keep ``deal`` as that day's, unless a deal was kept first; the day's deal."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO daily_deals (game, day, deal) VALUES ($1, $2, $3) "
                "ON CONFLICT (game, day) DO NOTHING",
                game, day, deal,
            )
            row = await conn.fetchrow(
                "SELECT deal FROM daily_deals WHERE game = $1 AND day = $2", game, day
            )
        assert row is not None
        return int(row["deal"])

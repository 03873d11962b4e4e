"""Facts about the bot itself: the schema's version, the hash of the last command sync,
and which process leads the fleet."""

from __future__ import annotations

from .database import Database


class MetaStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, key: str) -> str | None:
        async with self._db.writer() as conn:
            row = await conn.fetchrow("SELECT value FROM meta WHERE key = $1", key)
        return None if row is None else str(row["value"])

    async def set(self, key: str, value: str) -> None:
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES ($1, $2) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                key, value,
            )

    async def schema_version(self) -> int:
        return await self._db.schema_version()

    @property
    def schema_target(self) -> int:
        """The schema version this bot writes (each backend counts its own migrations)."""
        return self._db.schema_target

    async def try_lead(self, name: str) -> bool:
        """Whether this process leads ``name``: true for exactly one process at a time on
        PostgreSQL while it keeps the database open, always true on SQLite. Ask again
        later: a leader that dies is replaced."""
        return await self._db.try_lead(name)

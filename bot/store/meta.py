"""Facts about the bot itself: the schema's version, the hash of the last command sync,
and which process leads."""

from __future__ import annotations

from collections.abc import Callable

from .database import Database

LEASE = "background"  # the one lease: its holder syncs commands, fills the pool


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

    async def try_lead(self, on_lost: Callable[[], None]) -> bool:
        """Whether this process holds the lease: true for exactly one process at a
        time on PostgreSQL, always true on SQLite. While it does, ``on_lost`` is called as
        soon as the lease is seen lost. Ask again later: a leader that dies is replaced."""
        return await self._db.try_lead(LEASE, on_lost)

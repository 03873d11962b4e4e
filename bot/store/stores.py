"""The rooms of the store over one database: opened and closed together, and a player
forgotten in every one of them at once."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .boards import BoardStore
from .database import Database
from .games import GameStore
from .meta import MetaStore
from .pool import PoolStore
from .postgres import PostgresDatabase, is_postgres_url
from .results import ResultStore
from .settings import SettingsStore
from .sqlite import SqliteDatabase

# Every table that holds a player's rows, by user id.
PLAYER_TABLES = ("games", "results", "daily_attempts", "player_settings", "board_messages")


@dataclass(frozen=True)
class Stores:
    """One room per kind of data. A flow is handed the rooms it needs, nothing more."""

    db: Database
    games: GameStore
    results: ResultStore
    settings: SettingsStore
    boards: BoardStore
    pool: PoolStore
    meta: MetaStore

    @classmethod
    async def open(cls, target: Path | str) -> Stores:
        """Open and migrate the database: a ``postgresql://`` URL, else a SQLite file path
        (created if needed)."""
        if isinstance(target, str) and is_postgres_url(target):
            db: Database = await PostgresDatabase.open(target)
        else:
            db = await SqliteDatabase.open(Path(target))
        return cls(db, GameStore(db), ResultStore(db), SettingsStore(db), BoardStore(db),
                   PoolStore(db), MetaStore(db))

    @property
    def where(self) -> str:
        """The file or the server, for messages (never a password)."""
        return self.db.where

    async def forget_player(self, user_id: int) -> tuple[int, int]:
        """Delete everything kept about a player, in every server, in one transaction: their
        current game, results, daily attempts, settings and board messages; then push the
        deleted rows out of the database's log. (games, results) deleted."""
        live = self.boards.live
        live.forget(user_id)
        # After any write of live boards already under way, so none brings a row back.
        async with live.lock, self.db.transaction() as conn:
            deleted = {
                table: await conn.execute(f"DELETE FROM {table} WHERE user_id = $1", user_id)
                for table in PLAYER_TABLES
            }
        await self.db.after_forget()
        return deleted["games"], deleted["results"]

    async def close(self) -> None:
        """Write the live boards still in memory, then close the database; closing again
        does nothing."""
        await self.boards.close()
        await self.db.close()

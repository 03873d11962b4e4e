"""The stores over one database: opened and closed together, a player
forgotten in every one of them at once, and the processes' notices heard."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from .boards import BoardStore
from .challenges import GONE, ChallengeStore
from .cooldowns import CooldownStore
from .daily import DailyStore
from .database import Database, Listener, Notice
from .games import GameStore
from .meta import MetaStore
from .pool import PoolStore
from .postgres import PostgresDatabase, is_postgres_url
from .races import RaceStore
from .replays import ReplayStore
from .results import ResultStore
from .seats import SeatStore
from .settings import SettingsStore
from .sqlite import SqliteDatabase
from .statuses import CANCELLED, OPEN

# Every table that holds a player's rows, by user id (and daily_attempts, but the day's).
PLAYER_TABLES = (
    "games", "results", "player_settings", "board_messages", "cooldowns", "replays", "seats",
    "racers",
)


class Forgotten(NamedTuple):
    """What forgetting a player deleted: their current game (0 or 1), their results; and
    the challenges they were in, now without them (their messages to be reworded)."""

    games: int
    results: int
    challenges: tuple[int, ...] = ()


@dataclass(frozen=True)
class Stores:
    """One store per kind of data. A flow is handed the stores it needs, nothing more."""

    db: Database
    games: GameStore
    results: ResultStore
    settings: SettingsStore
    boards: BoardStore
    pool: PoolStore
    meta: MetaStore
    cooldowns: CooldownStore
    challenges: ChallengeStore
    replays: ReplayStore
    daily: DailyStore
    seats: SeatStore
    races: RaceStore

    @classmethod
    async def open(cls, target: Path | str) -> Stores:
        """Open and migrate the database: a ``postgresql://`` URL, else a SQLite file path
        (created if needed)."""
        if isinstance(target, str) and is_postgres_url(target):
            db: Database = await PostgresDatabase.open(target)
        else:
            db = await SqliteDatabase.open(Path(target))
        return cls(db, GameStore(db), ResultStore(db), SettingsStore(db), BoardStore(db),
                   PoolStore(db), MetaStore(db), CooldownStore(db), ChallengeStore(db),
                   ReplayStore(db), DailyStore(db), SeatStore(db), RaceStore(db))

    @property
    def where(self) -> str:
        """The file or the server, for messages (never a password)."""
        return self.db.where

    async def forget_player(self, user_id: int, *, today: str) -> Forgotten:
        """Delete everything kept about a player, in every server, in one transaction: their
        current game, results, settings, board messages, cooldowns and daily attempts but
        ``today``'s (``YYYY-MM-DD``, UTC: kept to the day's end, so that forgetting buys no
        second scored attempt); call off the challenges waiting for an answer they are in,
        and leave their side of the others anonymous; tell every process to drop what it
        keeps of them; then push the deleted rows out of the database's log."""
        live = self.boards.live
        live.forget(user_id)
        # After any write of live boards already under way, so none brings a row back.
        async with live.lock, self.db.transaction() as conn:
            deleted = {
                table: await conn.execute(f"DELETE FROM {table} WHERE user_id = $1", user_id)
                for table in PLAYER_TABLES
            }
            await conn.execute(
                "DELETE FROM daily_attempts WHERE user_id = $1 AND day <> $2", user_id, today
            )
            await conn.execute(  # nobody is left to answer it, or to be answered
                "UPDATE challenges SET status = $2 WHERE status = $3 "
                "AND (challenger_id = $1 OR challenged_id = $1)", user_id, CANCELLED, OPEN,
            )
            touched: set[int] = set()
            for side in ("challenger_id", "challenged_id"):  # the other side keeps its record
                rows = await conn.fetch(
                    f"UPDATE challenges SET {side} = $2 WHERE {side} = $1 RETURNING id",
                    user_id, GONE,
                )
                touched |= {int(r["id"]) for r in rows}
            await conn.execute(  # their races go on without them, or are over
                "UPDATE races SET started_by = $2 WHERE started_by = $1", user_id, GONE)
            await conn.notify(Notice.FORGET, user_id)
        await self.db.after_forget()
        return Forgotten(deleted["games"], deleted["results"], tuple(sorted(touched)))

    async def forget_past_daily_attempts(self, today: str) -> int:
        """Delete the daily attempts of the days before ``today`` (``YYYY-MM-DD``, UTC),
        everyone's: an attempt only stops a second scored try on its own day. A forgotten
        player's attempt of their last day goes with them here. How many were deleted."""
        async with self.db.transaction() as conn:
            deleted = await conn.execute("DELETE FROM daily_attempts WHERE day < $1", today)
        if deleted:
            await self.db.after_forget()
        return deleted

    def listen(self, listener: Listener) -> None:
        """Call ``listener(notice, user_id)`` with each notice from the bot's processes
        (``user_id`` None when it names nobody), and with ``(Notice.MISSED, None)`` when
        notices may have been missed: then nothing cached is sure."""
        self.db.listen(listener)

    async def close(self) -> None:
        """Write the live boards still in memory, then close the database; closing again
        does nothing."""
        await self.boards.close()
        await self.db.close()

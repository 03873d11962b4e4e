"""Who is at each Activity's table now: a seat per page connected to it, in whichever
process serves that page. A process keeps its own seats fresh (``keep``) and, doing so,
clears every seat no process has kept for ``STALE_S`` (its process is gone: killed, or
cut off from the database), so a table never lists a player long after they left.

Each change to a table's seats is a notice (``Notice.TABLE``) naming the table's key: the
pages at that table, in any process, look again at who is there.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from dataclasses import dataclass

from .database import Database, Notice

STALE_S = 60.0  # a seat not kept this long is cleared (its process keeps its seats each 20 s)
SEATS_PER_QUERY = 500  # seats kept in one statement (SQLite allows 32,766 parameters)


def table_key(instance: str) -> int:
    """The table's key for ``instance``: a number a notice can carry (under 2**56)."""
    return int.from_bytes(hashlib.sha256(instance.encode()).digest()[:7], "big")


@dataclass(frozen=True)
class Seat:
    """One page's place at a table: whose, and their name and avatar as signing in gave."""

    seat: str
    instance: str
    user_id: int
    name: str
    avatar: str | None = None


@dataclass(frozen=True)
class Seated:
    """A player at a table (however many of their pages are): as they first sat down."""

    user_id: int
    name: str
    avatar: str | None
    sat_at: float


class SeatStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def sit(self, seat: Seat, now: float) -> None:
        """Seat a page at its table (again, if its id is already seated: it moved)."""
        tab = table_key(seat.instance)
        async with self._db.writer() as conn:
            await conn.execute(
                "INSERT INTO seats (seat, tab, instance, user_id, name, avatar, sat_at, seen_at) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $7) ON CONFLICT (seat) DO UPDATE SET "
                "tab = excluded.tab, instance = excluded.instance, user_id = excluded.user_id, "
                "name = excluded.name, avatar = excluded.avatar, seen_at = excluded.seen_at",
                seat.seat, tab, seat.instance, seat.user_id, seat.name, seat.avatar, float(now))
            await conn.notify(Notice.TABLE, tab)

    async def leave(self, seat: Seat) -> None:
        """The page left its table (its socket closed)."""
        tab = table_key(seat.instance)
        async with self._db.writer() as conn:
            if await conn.execute("DELETE FROM seats WHERE seat = $1", seat.seat):
                await conn.notify(Notice.TABLE, tab)

    async def keep(self, seats: Collection[str], now: float) -> int:
        """Keep these seats (this process's) fresh, and clear every seat not kept for
        ``STALE_S``, telling their tables; how many were cleared."""
        ids = list(seats)
        async with self._db.writer() as conn:
            for start in range(0, len(ids), SEATS_PER_QUERY):
                some = ids[start:start + SEATS_PER_QUERY]
                places = ", ".join(f"${i}" for i in range(2, len(some) + 2))
                await conn.execute(f"UPDATE seats SET seen_at = $1 WHERE seat IN ({places})",
                                   float(now), *some)
            gone = await conn.fetch("DELETE FROM seats WHERE seen_at < $1 RETURNING tab",
                                    float(now - STALE_S))
            for tab in {int(row["tab"]) for row in gone}:
                await conn.notify(Notice.TABLE, tab)
        return len(gone)

    async def at(self, instance: str, now: float) -> list[Seated]:
        """Everyone at the table now, each once, in the order they sat down."""
        async with self._db.reading() as conn:
            rows = await conn.fetch(
                "SELECT user_id, name, avatar, sat_at FROM seats "
                "WHERE tab = $1 AND instance = $2 AND seen_at >= $3 ORDER BY sat_at, seat",
                table_key(instance), instance, float(now - STALE_S))
        seated: dict[int, Seated] = {}
        for row in rows:
            user_id = int(row["user_id"])
            if user_id not in seated:
                seated[user_id] = Seated(user_id, str(row["name"]), row["avatar"],
                                         float(row["sat_at"]))
        return list(seated.values())

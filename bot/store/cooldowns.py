"""When each player last used what has a cooldown (a hint, a winnable deal, /stats ...),
kept in the database so that a limit holds across every bot process."""

from __future__ import annotations

from .database import Database


class CooldownStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def take(self, user_id: int, kind: str, every_s: float, now: float) -> float:
        """Count a use of ``kind`` at ``now`` if the last one was ``every_s`` or longer
        ago, and return 0; else count nothing and return the seconds left to wait. Two
        processes asking at once: one use is counted, the other waits."""
        async with self._db.writer() as conn:
            taken = await conn.fetchrow(
                "INSERT INTO cooldowns (user_id, kind, used_at) VALUES ($1, $2, $3) "
                "ON CONFLICT (user_id, kind) DO UPDATE SET used_at = excluded.used_at "
                "WHERE cooldowns.used_at <= $4 RETURNING used_at",
                user_id, kind, float(now), float(now - every_s),
            )
            if taken is not None:
                return 0.0
            row = await conn.fetchrow(
                "SELECT used_at FROM cooldowns WHERE user_id = $1 AND kind = $2",
                user_id, kind,
            )
        if row is None:  # forgotten between the two statements: nothing to wait for
            return 0.0
        return min(every_s, max(0.0, every_s - (now - float(row["used_at"]))))

    async def prune(self, before: float) -> int:
        """Forget uses older than ``before``, which no cooldown remembers; how many."""
        async with self._db.transaction() as conn:
            return await conn.execute("DELETE FROM cooldowns WHERE used_at < $1", float(before))

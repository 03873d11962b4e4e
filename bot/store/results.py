"""Finished games and the statistics read from them: records, leaderboards, daily boards.

One result row per finished game, written by ``games.py`` with the game's last change;
this store only reads them (and clears a server's on request). The database does the
counting: a big server's thousands of rows never cross to Python one at a time (each row
a turn at Python's lock, taken from the thread that serves the moves). Statistics read
on the database's reading connections, beside the writers.

A win that used a hint is *assisted*: it counts as played but not as won in records,
streaks, the leaderboard and the daily board; a record counts it apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from .database import Database

WILSON_Z = 1.96  # the leaderboard's confidence: the lower end of a 95% Wilson interval


@dataclass(frozen=True)
class Record:
    """A player's record in one game (or in all games together)."""

    played: int
    won: int
    current_streak: int
    best_streak: int
    fewest_moves: int | None
    fastest_seconds: float | None
    assisted: int = 0  # wins that used a hint: played, not won

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0


NO_RECORD = Record(played=0, won=0, current_streak=0, best_streak=0, fewest_moves=None,
                   fastest_seconds=None, assisted=0)


@dataclass(frozen=True)
class PlayerRecords:
    """A player's record in each game they finished one of, and in all together."""

    per_game: dict[str, Record]  # game id -> record, only games with results
    total: Record


@dataclass(frozen=True)
class Standing:
    """A player's place on a leaderboard: ranked by ``score``, the lower end of the
    Wilson interval on their unaided win rate."""

    rank: int
    user_id: int
    played: int
    won: int
    score: float


@dataclass(frozen=True)
class DailyEntry:
    rank: int
    user_id: int
    moves: int
    seconds: float


@dataclass(frozen=True)
class DailyRanking:
    """A day's daily deal of one game in one place."""

    entries: list[DailyEntry]  # unaided wins: fewest moves, then fastest, then first
    finished: int  # scored attempts finished, whatever the outcome
    won: int  # of which won, hints or not
    won_unaided: int  # of which won without a hint (every one ranked, even past ``limit``)


@dataclass(frozen=True)
class Scope:
    """Which results a statistic counts; every filter given must hold. ``outside_servers``:
    only games played outside servers (DMs, the console)."""

    user_id: int | None = None
    guild_id: int | None = None
    outside_servers: bool = False
    game: str | None = None
    since: float | None = None  # finished at or after (Unix seconds)
    daily: str | None = None  # the scored attempts at that day's daily deal (YYYY-MM-DD)

    def sql(self) -> tuple[str, list[Any]]:
        """The filters as a WHERE clause with ``$n`` placeholders, and their values."""
        where: list[str] = []
        params: list[Any] = []
        for column, value in (
            ("user_id", self.user_id),
            ("guild_id", self.guild_id),
            ("game", self.game),
            ("daily", self.daily),
        ):
            if value is not None:
                params.append(value)
                where.append(f"{column} = ${len(params)}")
        if self.outside_servers:
            where.append("guild_id IS NULL")
        if self.since is not None:
            params.append(float(self.since))
            where.append(f"finished_at >= ${len(params)}")
        return (" AND ".join(where) or "TRUE"), params


_UNAIDED = "CASE WHEN outcome = 'won' AND hints = 0 THEN 1 ELSE 0 END"
_ASSISTED = "CASE WHEN outcome = 'won' AND hints > 0 THEN 1 ELSE 0 END"

# A record per game and for all games (key ''), streaks in finish order. Each loss (or
# assisted win, or anything not an unaided win) starts a new run; a run's wins are a streak,
# and the last run's wins are the current streak.
_RECORDS_SQL = f"""
WITH picked AS (
    SELECT game, moves, seconds_played, finished_at, id,
           {_UNAIDED} AS win, {_ASSISTED} AS assisted
    FROM results WHERE {{where}}
),
keyed AS (
    SELECT game AS k, picked.* FROM picked
    UNION ALL
    SELECT '' AS k, picked.* FROM picked
),
runs AS (
    SELECT k, win, assisted, moves, seconds_played,
           SUM(1 - win) OVER (PARTITION BY k ORDER BY finished_at, id
                              ROWS UNBOUNDED PRECEDING) AS run
    FROM keyed
),
by_run AS (
    SELECT k, run, COUNT(*) AS played, SUM(win) AS won, SUM(assisted) AS assisted,
           MIN(CASE WHEN win = 1 THEN moves END) AS fewest,
           MIN(CASE WHEN win = 1 THEN seconds_played END) AS fastest,
           MAX(run) OVER (PARTITION BY k) AS last_run
    FROM runs GROUP BY k, run
)
SELECT k, SUM(played) AS played, SUM(won) AS won, SUM(assisted) AS assisted,
       MIN(fewest) AS fewest, MIN(fastest) AS fastest, MAX(won) AS best,
       SUM(CASE WHEN run = last_run THEN won ELSE 0 END) AS current
FROM by_run GROUP BY k ORDER BY k
"""


# Each player's games and unaided wins, scored by the lower end of the Wilson interval on
# their win rate, p + z²/2n - z·sqrt(p(1-p)/n + z²/4n²), over 1 + z²/n, never below 0;
# placed by score, then wins, then fewer games, then user id. {top} and {viewer} are the
# numbers of their placeholders.
_Z = f"CAST({WILSON_Z!r} AS DOUBLE PRECISION)"
_LEADERBOARD_SQL = f"""
WITH tallies AS (
    SELECT user_id, COUNT(*) AS played, SUM({_UNAIDED}) AS won
    FROM results WHERE {{where}} GROUP BY user_id
),
rates AS (
    SELECT user_id, played, won, CAST(won AS DOUBLE PRECISION) / played AS p FROM tallies
),
bounds AS (
    SELECT user_id, played, won,
           (p + {_Z} * {_Z} / (2 * played)
            - {_Z} * sqrt(p * (1 - p) / played + {_Z} * {_Z} / (4 * played * played)))
           / (1 + {_Z} * {_Z} / played) AS bound
    FROM rates
),
scores AS (
    SELECT user_id, played, won, CASE WHEN bound > 0 THEN bound ELSE 0.0 END AS score
    FROM bounds
),
placed AS (
    SELECT user_id, played, won, score,
           ROW_NUMBER() OVER (ORDER BY score DESC, won DESC, played, user_id) AS place
    FROM scores
)
SELECT place, user_id, played, won, score FROM placed
WHERE place <= ${{top}} OR user_id = ${{viewer}} ORDER BY place
"""


class ResultStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def records(self, scope: Scope) -> PlayerRecords:
        """A record per game and in all games together over the results in ``scope``
        (one player's, normally)."""
        where, params = scope.sql()
        async with self._db.reading() as conn:
            rows = await conn.fetch(_RECORDS_SQL.format(where=where), *params)
        per_game: dict[str, Record] = {}
        total = NO_RECORD
        for row in rows:
            rec = Record(
                played=int(row["played"]),
                won=int(row["won"]),
                current_streak=int(row["current"]),
                best_streak=int(row["best"]),
                fewest_moves=None if row["fewest"] is None else int(row["fewest"]),
                fastest_seconds=None if row["fastest"] is None else float(row["fastest"]),
                assisted=int(row["assisted"]),
            )
            if row["k"] == "":
                total = rec
            else:
                per_game[str(row["k"])] = rec
        return PlayerRecords(per_game=per_game, total=total)

    async def leaderboard(
        self, scope: Scope, *, top: int, viewer: int | None = None
    ) -> list[Standing]:
        """The players placed ``top`` or better, and ``viewer`` wherever placed, over the
        results in ``scope``, best first. The database counts, scores and places every
        player, and only these rows come back."""
        where, params = scope.sql()
        params += [top, viewer]
        sql = _LEADERBOARD_SQL.format(where=where, top=len(params) - 1, viewer=len(params))
        async with self._db.reading() as conn:
            rows = await conn.fetch(sql, *params)
        return [
            Standing(rank=int(r["place"]), user_id=int(r["user_id"]), played=int(r["played"]),
                     won=int(r["won"]), score=float(r["score"]))
            for r in rows
        ]

    async def won_daily_days(self, scope: Scope) -> set[date]:
        """The days whose scored daily deal (of any game) was won unaided in ``scope``."""
        where, params = scope.sql()
        sql = (
            f"SELECT DISTINCT daily FROM results WHERE {where} AND daily IS NOT NULL "
            "AND outcome = 'won' AND hints = 0"
        )
        async with self._db.reading() as conn:
            rows = await conn.fetch(sql, *params)
        return {date.fromisoformat(str(r["daily"])) for r in rows}

    async def daily_ranking(self, scope: Scope, *, limit: int | None = None) -> DailyRanking:
        """The scored attempts at a day's daily deal in ``scope`` (which names the day and
        the game): the unaided wins ranked by fewest moves, then time, then who finished
        first (the first ``limit``), and how many finished and won."""
        where, params = scope.sql()
        ranked = (
            f"SELECT user_id, moves, seconds_played FROM results WHERE {where} "
            "AND outcome = 'won' AND hints = 0 ORDER BY moves, seconds_played, finished_at, id"
        )
        if limit is not None:
            ranked += f" LIMIT {int(limit)}"
        counts = (
            f"SELECT COUNT(*) AS finished, "
            f"COALESCE(SUM(CASE WHEN outcome = 'won' THEN 1 ELSE 0 END), 0) AS won, "
            f"COALESCE(SUM({_UNAIDED}), 0) AS unaided FROM results WHERE {where}"
        )
        async with self._db.reading() as conn:
            rows = await conn.fetch(ranked, *params)
            totals = await conn.fetchrow(counts, *params)
        assert totals is not None
        entries = [
            DailyEntry(rank, int(r["user_id"]), int(r["moves"]), float(r["seconds_played"]))
            for rank, r in enumerate(rows, start=1)
        ]
        return DailyRanking(entries=entries, finished=int(totals["finished"]),
                            won=int(totals["won"]), won_unaided=int(totals["unaided"]))

    async def has_daily_attempt(self, user_id: int, game_id: str, day: str) -> bool:
        """Whether the player has already started their scored attempt at that day's deal."""
        async with self._db.writer() as conn:
            row = await conn.fetchrow(
                "SELECT 1 FROM daily_attempts WHERE user_id = $1 AND game = $2 AND day = $3",
                user_id, game_id, day,
            )
        return row is not None

    async def count(self, guild_id: int) -> int:
        """How many finished games a server has recorded."""
        async with self._db.reading() as conn:
            row = await conn.fetchrow(
                "SELECT COUNT(*) AS n FROM results WHERE guild_id = $1", guild_id
            )
        assert row is not None
        return int(row["n"])

    async def reset_guild(self, guild_id: int) -> int:
        """Delete a server's results (its statistics, leaderboards, daily boards); how many.

        Games being played there are kept, and count when they finish.
        """
        async with self._db.transaction() as conn:
            return await conn.execute("DELETE FROM results WHERE guild_id = $1", guild_id)

"""The store: each player's current game, one result row per finished game, the statistics
computed from them, and the few other facts that must outlast the process.

One ``Store`` over two backends: SQLite (a file, the default) and PostgreSQL (for more than
one process). The SQL is written once; ``database.py`` says what a backend provides.

Across processes, a player's game is changed by one writer at a time: every change names the
revision it was loaded at, and a change to a game that moved on (or was replaced) raises
``ConcurrentChange`` and writes nothing — starting a game included. Every method that
returns after a write has committed it, but for the swap of a player's live board message,
which is written about a second behind (``live_boards.py`` says why that is safe).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from engine import Game

from ..lru import LRU
from ..records import ABANDONED, OUTCOMES, WILSON_Z, DailyEntry, Record, Result, Standing
from .database import Connection, Database
from .live_boards import LiveBoards
from .postgres import PostgresDatabase, is_postgres_url
from .sqlite import SqliteDatabase

PLAYING = "playing"  # a current game's status until it ends in one of OUTCOMES
# Engine games kept in memory between moves (3-5 KB each), the most recently used: enough
# for the players active at once; anyone else's game is rebuilt from its saved state at
# their next move (about 1 ms).
LIVE_GAMES = 256

# Each player's settings and their value until they change it.
DEFAULT_SETTINGS: dict[str, bool] = {
    "private_boards": False,  # boards only the player sees
    "four_colour": False,  # the four-colour deck
    "auto_moves": False,  # cards that can safely go up go up by themselves
}


class ConcurrentChange(RuntimeError):
    """The game changed between load and save: the change was refused, nothing written."""


@dataclass
class SavedGame:
    """A player's current game with its bookkeeping; ``game`` is the live engine game."""

    id: int
    user_id: int
    guild_id: int | None
    game: Game
    status: str
    revision: int
    undos: int
    hints: int
    seconds_played: float
    daily: str | None
    started_at: float
    updated_at: float
    finished_at: float | None
    proven_lost_at: int | None = None  # the revision the solver proved lost, if any

    @property
    def is_finished(self) -> bool:
        return self.status != PLAYING

    @property
    def proven_lost(self) -> bool:
        """The solver proved this very position lost (not an earlier one)."""
        return self.proven_lost_at == self.revision


@dataclass(frozen=True)
class PlayerRecords:
    """A player's record in each game they finished one of, and in all together."""

    per_game: dict[str, Record]  # game id -> record, only games with results
    total: Record


@dataclass(frozen=True)
class DailyBoard:
    """A day's daily deal of one game in one place."""

    entries: list[DailyEntry]  # unaided wins: fewest moves, then fastest, then first
    finished: int  # scored attempts finished, whatever the outcome
    won: int  # of which won, hints or not
    won_unaided: int  # of which won without a hint (every one ranked, even past ``limit``)


NO_RECORD = Record(played=0, won=0, current_streak=0, best_streak=0, fewest_moves=None,
                   fastest_seconds=None, assisted=0)

_RESULT_COLUMNS = (
    "game_row, user_id, guild_id, game, deal, outcome, moves, undos, hints, "
    "redeals_used, seconds_played, finished_at, daily"
)
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
# their win rate, placed by score, then wins, then fewer games, then user id: the
# arithmetic of ``records.wilson_lower_bound`` and the order of ``records.leaderboard``,
# step for step, so that both give the same floats and the same places. {top} and
# {viewer} are the numbers of their placeholders.
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


def _where(
    *,
    user_id: int | None = None,
    guild_id: int | None = None,
    outside_servers: bool = False,
    game: str | None = None,
    since: float | None = None,
    daily: str | None = None,
) -> tuple[str, list[Any]]:
    """The filters of a statistics read as SQL, every one given must hold."""
    where: list[str] = []
    params: list[Any] = []
    for column, value in (
        ("user_id", user_id),
        ("guild_id", guild_id),
        ("game", game),
        ("daily", daily),
    ):
        if value is not None:
            params.append(value)
            where.append(f"{column} = ${len(params)}")
    if outside_servers:
        where.append("guild_id IS NULL")
    if since is not None:
        params.append(float(since))
        where.append(f"finished_at >= ${len(params)}")
    return (" AND ".join(where) or "TRUE"), params


class Store:
    """Open one with ``await Store.open(url_or_path)``; every method is a coroutine that
    either commits what it writes before returning or writes nothing."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self.path: Path | None = db.path  # the SQLite file; None on PostgreSQL
        self.where = db.where  # the file or the server, for messages
        # Engine games as last loaded or saved, with their saved state, by game row: a load
        # whose saved state is still that one reuses the game instead of replaying every
        # move from the deal.
        self._live: LRU[int, tuple[str, Game]] = LRU(LIVE_GAMES)
        self._boards = LiveBoards(self._stored_board, self._store_boards)

    @classmethod
    async def open(cls, target: Path | str) -> Store:
        """Open and migrate the database: a ``postgresql://`` URL, else a SQLite file path
        (created if needed)."""
        if isinstance(target, str) and is_postgres_url(target):
            return cls(await PostgresDatabase.open(target))
        return cls(await SqliteDatabase.open(Path(target)))

    async def close(self) -> None:
        """Write the live boards still in memory, then close the database; closing again
        does nothing."""
        await self._boards.close()
        await self._db.close()

    async def schema_version(self) -> int:
        return await self._db.schema_version()

    @property
    def schema_target(self) -> int:
        """The schema version this bot writes (each backend counts its own migrations)."""
        return self._db.schema_target

    async def try_lead(self, name: str) -> bool:
        """Whether this process leads ``name`` (syncing commands, background jobs): true
        for exactly one process at a time on PostgreSQL while it keeps the store open,
        always true on SQLite. Ask again later: a leader that dies is replaced."""
        return await self._db.try_lead(name)

    # -- meta ---------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        async with self._db.primary() as conn:
            row = await conn.fetchrow("SELECT value FROM meta WHERE key = $1", key)
        return None if row is None else str(row["value"])

    async def set_meta(self, key: str, value: str) -> None:
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES ($1, $2) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                key, value,
            )

    # -- games --------------------------------------------------------------------------

    async def load(self, user_id: int) -> SavedGame | None:
        """The player's current game (playing or finished and not yet replaced), or None."""
        async with self._db.primary() as conn:
            row = await conn.fetchrow("SELECT * FROM games WHERE user_id = $1", user_id)
        if row is None:
            return None
        return _saved_game(row, self._live_game(int(row["id"]), str(row["state"])))

    def _live_game(self, row_id: int, state: str) -> Game:
        """A copy of the game saved as ``state``: of the live one if it was kept with
        exactly that state, else of the game rebuilt from ``state``.

        The live game is a copy taken when it was saved, so a change played on a loaded
        game but never saved (a failure in between) never reaches it. Every load gets its
        own copy, so two loads never share one game."""
        live = self._live.get(row_id)
        game = live[1] if live is not None and live[0] == state else None
        if game is None:
            game = Game.from_dict(json.loads(state))
        self._keep(row_id, state, game)
        return game.copy()

    def _keep(self, row_id: int, state: str, game: Game) -> None:
        """Remember ``game``, saved as ``state``, as the newest of the live games,
        forgetting the least recently used one beyond ``LIVE_GAMES``."""
        self._live[row_id] = (state, game)

    async def start(
        self,
        user_id: int,
        guild_id: int | None,
        game: Game,
        now: float,
        *,
        replacing: SavedGame | None = None,
        left_as: str | None = ABANDONED,
        daily: str | None = None,
    ) -> SavedGame:
        """Make ``game`` the player's current game, in one transaction.

        ``replacing`` is the game it takes the place of, as last loaded: if it is still
        being played its result is recorded as ``left_as`` (abandoned, or lost when it was
        stuck), or not at all when ``left_as`` is None — allowed only for a game left
        untouched (no move, no undo), which then does not count as played. Raises
        ConcurrentChange, writing nothing, if the stored game is not ``replacing`` at its
        revision (or, with ``replacing`` None, if the player has a game): another process
        got there first.

        ``daily`` is the UTC day (``YYYY-MM-DD``) when ``game`` is that day's daily deal. The
        player's first start of it that day is their scored attempt, and the game is tagged
        with the day; a later start is a replay, untagged. The returned ``SavedGame.daily``
        says which. (Leaving a scored attempt untouched still uses the day's attempt up.)
        """
        leaving = replacing is not None and not replacing.is_finished
        record_left = leaving and left_as is not None
        untouched = replacing is None or not (replacing.game.moves_made or replacing.undos)
        if leaving and left_as is None and not untouched:
            raise ValueError("only a game left untouched may leave no result")
        state = _state(game)
        async with self._db.transaction() as conn:
            if replacing is not None:
                gone = await conn.execute(
                    "DELETE FROM games WHERE id = $1 AND user_id = $2 AND revision = $3",
                    replacing.id, user_id, replacing.revision,
                )
                if gone != 1:
                    raise ConcurrentChange(
                        f"user {user_id}: game {replacing.id} is no longer at revision "
                        f"{replacing.revision}"
                    )
                if record_left:
                    assert left_as is not None
                    left = dataclasses.replace(replacing, status=left_as, finished_at=now)
                    await _insert_result(conn, left)
            if daily is not None:
                attempts = await conn.execute(
                    "INSERT INTO daily_attempts (user_id, game, day, started_at) "
                    "VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                    user_id, game.game_id, daily, float(now),
                )
                if attempts != 1:
                    daily = None  # the scored attempt was made earlier today: a replay
            row = await conn.fetchrow(
                "INSERT INTO games (user_id, guild_id, game, deal, state, status, revision, "
                "started_at, updated_at, daily) VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $8, $9) "
                "ON CONFLICT (user_id) DO NOTHING RETURNING id",
                user_id, guild_id, game.game_id, game.deal, state, PLAYING, float(now),
                float(now), daily,
            )
            if row is None:
                raise ConcurrentChange(f"user {user_id}: a game was started elsewhere meanwhile")
            row_id = int(row["id"])
        if record_left:
            assert replacing is not None and left_as is not None
            replacing.status, replacing.finished_at = left_as, now
        self._keep(row_id, state, game.copy())
        return SavedGame(
            id=row_id,
            user_id=user_id,
            guild_id=guild_id,
            game=game,
            status=PLAYING,
            revision=0,
            undos=0,
            hints=0,
            seconds_played=0.0,
            daily=daily,
            started_at=now,
            updated_at=now,
            finished_at=None,
        )

    async def save(self, saved: SavedGame) -> None:
        """Write ``saved`` back as the next revision, in one transaction.

        If its status is final (won, lost, resigned), its result row is written in the
        same transaction. ``saved.proven_lost_at`` is written as it is: set it to the next
        revision to save a position already known to be lost. ``saved.revision`` is the
        revision it was loaded at; on success it is advanced. Raises ConcurrentChange,
        writing nothing, if the stored game moved on.
        """
        state = _state(saved.game)
        # A move in play is one statement, its own transaction; a game that ends writes
        # its result row too, in the same transaction.
        writing = self._db.transaction() if saved.is_finished else self._db.primary()
        async with writing as conn:
            changed = await conn.execute(
                "UPDATE games SET state = $1, status = $2, revision = revision + 1, "
                "undos = $3, hints = $4, seconds_played = $5, updated_at = $6, "
                "finished_at = $7, proven_lost_at = $10 "
                "WHERE id = $8 AND revision = $9 AND status = 'playing'",
                state,
                saved.status,
                saved.undos,
                saved.hints,
                float(saved.seconds_played),
                float(saved.updated_at),
                None if saved.finished_at is None else float(saved.finished_at),
                saved.id,
                saved.revision,
                saved.proven_lost_at,
            )
            if changed != 1:
                raise ConcurrentChange(
                    f"game {saved.id} is no longer at revision {saved.revision} or is finished"
                )
            if saved.is_finished:
                await _insert_result(conn, saved)
        saved.revision += 1
        self._keep(saved.id, state, saved.game.copy())

    async def add_hint(self, game_row: int) -> None:
        """Count a hint on a game being played. The board's revision stays: a hint changes
        nothing on the board, so the buttons under it keep working."""
        async with self._db.primary() as conn:
            await conn.execute(
                "UPDATE games SET hints = hints + 1 WHERE id = $1 AND status = 'playing'",
                game_row,
            )

    async def mark_proven_lost(self, game_row: int, revision: int) -> bool:
        """Remember that the solver proved game ``game_row`` lost at ``revision``; loads
        say so (``SavedGame.proven_lost``) until the game moves on. False, and nothing
        written, if the game is no longer being played at that revision."""
        async with self._db.primary() as conn:
            changed = await conn.execute(
                "UPDATE games SET proven_lost_at = $2 "
                "WHERE id = $1 AND revision = $2 AND status = 'playing'",
                game_row, revision,
            )
        return changed == 1

    # -- results and statistics ---------------------------------------------------------

    async def results(
        self,
        *,
        user_id: int | None = None,
        guild_id: int | None = None,
        outside_servers: bool = False,
        game: str | None = None,
        since: float | None = None,
        daily: str | None = None,
    ) -> list[Result]:
        """Finished games, oldest first: all of them, or only those matching every filter
        given — one player's, one server's (or, ``outside_servers``, those played in DMs
        and the console), one game's, finished at or after ``since`` (Unix seconds), or
        the scored attempts at the daily deal of day ``daily`` (``YYYY-MM-DD``).

        Every row comes back: for statistics, ``records``, ``leaderboard``,
        ``won_daily_days`` and ``daily_board`` let the database count instead.
        """
        where, params = _where(user_id=user_id, guild_id=guild_id,
                               outside_servers=outside_servers, game=game, since=since,
                               daily=daily)
        sql = f"SELECT {_RESULT_COLUMNS} FROM results WHERE {where} ORDER BY finished_at, id"
        async with self._db.reading() as conn:
            rows = await conn.fetch(sql, *params)
        return [_result(row) for row in rows]

    async def records(
        self,
        user_id: int,
        *,
        guild_id: int | None = None,
        outside_servers: bool = False,
        game: str | None = None,
        since: float | None = None,
    ) -> PlayerRecords:
        """A player's record per game and in all games together, over their results that
        match the filters (as in ``results``); the same as ``records.record`` over them."""
        where, params = _where(user_id=user_id, guild_id=guild_id,
                               outside_servers=outside_servers, game=game, since=since)
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
        self,
        *,
        top: int,
        viewer: int | None = None,
        guild_id: int | None = None,
        outside_servers: bool = False,
        user_id: int | None = None,
        game: str | None = None,
        since: float | None = None,
    ) -> list[Standing]:
        """The players placed ``top`` or better, and ``viewer`` wherever placed, over the
        results matching the filters (as in ``results``), best first: the same standings
        as ``records.leaderboard`` over those results.

        The database counts, scores and places every player, and only these rows come
        back: a big server's thousands of players never cross to Python one row at a time
        (each row a turn at Python's lock, taken from the thread that serves the moves).
        """
        where, params = _where(user_id=user_id, guild_id=guild_id,
                               outside_servers=outside_servers, game=game, since=since)
        params += [top, viewer]
        sql = _LEADERBOARD_SQL.format(where=where, top=len(params) - 1, viewer=len(params))
        async with self._db.reading() as conn:
            rows = await conn.fetch(sql, *params)
        return [
            Standing(rank=int(r["place"]), user_id=int(r["user_id"]), played=int(r["played"]),
                     won=int(r["won"]), score=float(r["score"]))
            for r in rows
        ]

    async def won_daily_days(
        self, user_id: int, *, guild_id: int | None = None, outside_servers: bool = False
    ) -> set[date]:
        """The days whose scored daily deal (of any game) the player won unaided, in the
        place the filters say: what ``records.daily_streaks`` counts."""
        where, params = _where(user_id=user_id, guild_id=guild_id,
                               outside_servers=outside_servers)
        sql = (
            f"SELECT DISTINCT daily FROM results WHERE {where} AND daily IS NOT NULL "
            "AND outcome = 'won' AND hints = 0"
        )
        async with self._db.reading() as conn:
            rows = await conn.fetch(sql, *params)
        return {date.fromisoformat(str(r["daily"])) for r in rows}

    async def daily_board(
        self,
        day: str,
        game: str,
        *,
        guild_id: int | None = None,
        outside_servers: bool = False,
        user_id: int | None = None,
        limit: int | None = None,
    ) -> DailyBoard:
        """The scored attempts at ``game``'s daily deal of ``day`` (``YYYY-MM-DD``) in the
        place the filters say: the unaided wins ranked as ``records.daily_board`` ranks
        them (the first ``limit``), and how many finished and won."""
        where, params = _where(user_id=user_id, guild_id=guild_id,
                               outside_servers=outside_servers, game=game, daily=day)
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
        return DailyBoard(entries=entries, finished=int(totals["finished"]),
                          won=int(totals["won"]), won_unaided=int(totals["unaided"]))

    async def has_daily_attempt(self, user_id: int, game_id: str, day: str) -> bool:
        """Whether the player has already started their scored attempt at that day's deal."""
        async with self._db.primary() as conn:
            row = await conn.fetchrow(
                "SELECT 1 FROM daily_attempts WHERE user_id = $1 AND game = $2 AND day = $3",
                user_id, game_id, day,
            )
        return row is not None

    async def count_results(self, guild_id: int) -> int:
        """How many finished games a server has recorded."""
        async with self._db.reading() as conn:
            row = await conn.fetchrow(
                "SELECT COUNT(*) AS n FROM results WHERE guild_id = $1", guild_id
            )
        assert row is not None
        return int(row["n"])

    # -- data rights --------------------------------------------------------------------

    async def forget_player(self, user_id: int) -> tuple[int, int]:
        """Delete everything kept about a player, in every server, in one transaction: their
        current game, results, daily attempts, settings and board messages; then push the
        deleted rows out of the database's log. (games, results) deleted."""
        self._boards.forget(user_id)
        async with self._boards.lock, self._db.transaction() as conn:  # after any write
            # of live boards already under way
            games = await conn.execute("DELETE FROM games WHERE user_id = $1", user_id)
            results = await conn.execute("DELETE FROM results WHERE user_id = $1", user_id)
            for table in ("daily_attempts", "player_settings", "board_messages"):
                await conn.execute(f"DELETE FROM {table} WHERE user_id = $1", user_id)
        await self._db.after_forget()
        return games, results

    async def reset_guild(self, guild_id: int) -> int:
        """Delete a server's results (its statistics, leaderboards, daily boards); how many.

        Games being played there are kept, and count when they finish.
        """
        async with self._db.transaction() as conn:
            return await conn.execute("DELETE FROM results WHERE guild_id = $1", guild_id)

    # -- settings and board messages ----------------------------------------------------

    async def get_settings(self, user_id: int) -> dict[str, bool]:
        """The player's settings, every one of ``DEFAULT_SETTINGS``."""
        async with self._db.primary() as conn:
            return await _settings(conn, user_id)

    async def set_settings(self, user_id: int, **values: bool) -> dict[str, bool]:
        """Change some of the player's settings; all of them as they now are. Raises
        ValueError, changing nothing, for a name not in ``DEFAULT_SETTINGS`` or a value
        that is not a bool."""
        for name, value in values.items():
            if name not in DEFAULT_SETTINGS:
                raise ValueError(f"no setting called {name!r}; the settings are "
                                 f"{', '.join(DEFAULT_SETTINGS)}")
            if not isinstance(value, bool):
                raise ValueError(f"setting {name} is true or false, not {value!r}")
        names = list(DEFAULT_SETTINGS)
        async with self._db.transaction() as conn:
            settings = await _settings(conn, user_id) | values
            await conn.execute(
                f"INSERT INTO player_settings (user_id, {', '.join(names)}) "
                f"VALUES ($1, {', '.join(f'${i}' for i in range(2, len(names) + 2))}) "
                "ON CONFLICT (user_id) DO UPDATE SET "
                + ", ".join(f"{n} = excluded.{n}" for n in names),
                user_id, *(settings[n] for n in names),
            )
        return settings

    async def swap_board_message(
        self, user_id: int, channel_id: int, message_id: int
    ) -> int | None:
        """Make ``message_id`` the player's live board in ``channel_id``; the board it
        replaces there (to collapse or delete), or None if there was none — or if it is
        this same message. Swapped in memory and written about a second later (the one
        exception to writing before returning: see ``live_boards.py``)."""
        return await self._boards.swap(user_id, channel_id, message_id)

    async def _stored_board(self, user_id: int, channel_id: int) -> int | None:
        async with self._db.primary() as conn:
            row = await conn.fetchrow(
                "SELECT message_id FROM board_messages WHERE user_id = $1 AND channel_id = $2",
                user_id, channel_id,
            )
        return None if row is None else int(row["message_id"])

    async def _store_boards(self, boards: Mapping[tuple[int, int], int]) -> None:
        # One statement, prepared once, for every row: a statement whose text grew with
        # the number of rows would fill the databases' statement caches with big copies.
        async with self._db.transaction() as conn:
            await conn.executemany(
                "INSERT INTO board_messages (user_id, channel_id, message_id) "
                "VALUES ($1, $2, $3) ON CONFLICT (user_id, channel_id) DO UPDATE "
                "SET message_id = excluded.message_id",
                [(user, channel, message) for (user, channel), message in boards.items()],
            )

    # -- the pool of winnable deals -----------------------------------------------------

    async def add_winnable(self, game_id: str, deal: int, now: float) -> None:
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO winnable_deals (game, deal, found_at) VALUES ($1, $2, $3) "
                "ON CONFLICT DO NOTHING",
                game_id, deal, float(now),
            )

    async def winnable_count(self, game_id: str) -> int:
        async with self._db.primary() as conn:
            row = await conn.fetchrow(
                "SELECT COUNT(*) AS n FROM winnable_deals WHERE game = $1", game_id
            )
        assert row is not None
        return int(row["n"])

    async def take_winnable(self, game_id: str) -> int | None:
        """Hand out (and remove) the oldest winnable deal of a game, if there is one; a
        deal is handed out once, however many processes ask at once."""
        async with self._db.transaction() as conn:
            row = await conn.fetchrow(self._db.take_winnable_sql, game_id)
        return None if row is None else int(row["deal"])


async def open_store(target: Path | str) -> Store:
    """``Store.open``: a ``postgresql://`` URL, else a SQLite file path."""
    return await Store.open(target)


# -- rows ---------------------------------------------------------------------------------


async def _settings(conn: Connection, user_id: int) -> dict[str, bool]:
    row = await conn.fetchrow("SELECT * FROM player_settings WHERE user_id = $1", user_id)
    if row is None:
        return dict(DEFAULT_SETTINGS)
    return {name: bool(row[name]) for name in DEFAULT_SETTINGS}


async def _insert_result(conn: Connection, saved: SavedGame) -> None:
    game = saved.game
    assert saved.status in OUTCOMES and saved.finished_at is not None
    await conn.execute(
        f"INSERT INTO results ({_RESULT_COLUMNS}) "
        f"VALUES ({', '.join(f'${i}' for i in range(1, 14))})",
        saved.id,
        saved.user_id,
        saved.guild_id,
        game.game_id,
        game.deal,
        saved.status,
        game.moves_made,
        saved.undos,
        saved.hints,
        game.rules.redeals - game.redeals_left,
        float(saved.seconds_played),
        float(saved.finished_at),
        saved.daily,
    )


def _result(row: Any) -> Result:
    return Result(
        user_id=int(row["user_id"]),
        guild_id=None if row["guild_id"] is None else int(row["guild_id"]),
        game_id=str(row["game"]),
        deal=int(row["deal"]),
        outcome=str(row["outcome"]),
        moves=int(row["moves"]),
        undos=int(row["undos"]),
        hints=int(row["hints"]),
        redeals_used=int(row["redeals_used"]),
        seconds=float(row["seconds_played"]),
        finished_at=datetime.fromtimestamp(float(row["finished_at"]), UTC),
        daily=None if row["daily"] is None else date.fromisoformat(row["daily"]),
    )


def _state(game: Game) -> str:
    """A game as the database keeps it."""
    return json.dumps(game.to_dict(), separators=(",", ":"))


def _saved_game(row: Any, game: Game) -> SavedGame:
    return SavedGame(
        id=int(row["id"]),
        user_id=int(row["user_id"]),
        guild_id=None if row["guild_id"] is None else int(row["guild_id"]),
        game=game,
        status=str(row["status"]),
        revision=int(row["revision"]),
        undos=int(row["undos"]),
        hints=int(row["hints"]),
        seconds_played=float(row["seconds_played"]),
        daily=row["daily"],
        started_at=float(row["started_at"]),
        updated_at=float(row["updated_at"]),
        finished_at=None if row["finished_at"] is None else float(row["finished_at"]),
        proven_lost_at=None if row["proven_lost_at"] is None else int(row["proven_lost_at"]),
    )

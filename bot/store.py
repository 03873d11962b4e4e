"""SQLite storage: each player's current game, and one result row per finished game.

One file, WAL mode, one aiosqlite connection. Every operation runs under one asyncio
lock, so a transaction of one player never interleaves with another's statements on the
shared connection. The schema is versioned with ``PRAGMA user_version``; ``MIGRATIONS``
lists every step from an empty file, and ``Store.open`` applies the missing ones, so an
older file moves forward at start. A change to the schema is a new entry at the end of
``MIGRATIONS``, never an edit of an old one.

Durability: ``synchronous=NORMAL`` (the WAL default): a committed move survives the
bot crashing or being killed; a power cut may lose the last moments.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from engine import Game

from .records import ABANDONED, LOST, OUTCOMES, RESIGNED, WON, Result

PLAYING = "playing"  # a current game's status until it ends in one of OUTCOMES
__all__ = [
    "ABANDONED", "LOST", "MIGRATIONS", "OUTCOMES", "PLAYING", "RESIGNED", "SCHEMA_VERSION", "WON",
    "ConcurrentChange", "Result", "SavedGame", "Store", "StoreError",
]

MIGRATIONS: tuple[str, ...] = (
    # 1: the current game of each player.
    """
    CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: buttons carry it
        user_id INTEGER NOT NULL UNIQUE,       -- one current game per player
        guild_id INTEGER,                      -- server it was started in; NULL: DM, console
        game TEXT NOT NULL,
        deal INTEGER NOT NULL,
        state TEXT NOT NULL,                   -- engine Game.to_dict() as JSON
        status TEXT NOT NULL DEFAULT 'playing',
        revision INTEGER NOT NULL DEFAULT 0,   -- +1 on every saved change
        started_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    """,
    # 2: results (one row per finished game, written with the game's last change),
    #    and the counters a result needs.
    """
    ALTER TABLE games ADD COLUMN undos INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN seconds_played REAL NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN daily TEXT;
    ALTER TABLE games ADD COLUMN finished_at REAL;
    CREATE TABLE results (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_row INTEGER NOT NULL UNIQUE,      -- games.id: a game is counted once
        user_id INTEGER NOT NULL,
        guild_id INTEGER,
        game TEXT NOT NULL,
        deal INTEGER NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('won', 'lost', 'resigned', 'abandoned')),
        moves INTEGER NOT NULL,
        undos INTEGER NOT NULL,
        hints INTEGER NOT NULL,
        redeals_used INTEGER NOT NULL,
        seconds_played REAL NOT NULL,
        finished_at REAL NOT NULL,
        daily TEXT                             -- the UTC day of a daily deal, else NULL
    );
    CREATE INDEX results_by_guild ON results (guild_id, game, finished_at);
    CREATE INDEX results_by_user ON results (user_id, game, finished_at);
    """,
    # 3: the daily deal. A player's first start of a game's daily deal on a UTC day is their
    #    one scored attempt; the row stays when a server's results are reset, so a reset
    #    hands out no second attempt. Daily boards read results by server and day.
    """
    CREATE TABLE daily_attempts (
        user_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        day TEXT NOT NULL,                     -- UTC date, YYYY-MM-DD
        started_at REAL NOT NULL,
        PRIMARY KEY (user_id, game, day)
    );
    INSERT OR IGNORE INTO daily_attempts (user_id, game, day, started_at)
        SELECT user_id, game, daily, started_at FROM games WHERE daily IS NOT NULL;
    INSERT OR IGNORE INTO daily_attempts (user_id, game, day, started_at)
        SELECT user_id, game, daily, finished_at FROM results WHERE daily IS NOT NULL;
    CREATE INDEX results_by_daily ON results (guild_id, daily, game);
    """,
    # 4: deals the solver proved winnable, waiting to be handed out by `/new winnable`.
    """
    CREATE TABLE winnable_deals (
        game TEXT NOT NULL,
        deal INTEGER NOT NULL,
        found_at REAL NOT NULL,
        PRIMARY KEY (game, deal)
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
LIVE_GAMES = 10_000  # engine games kept in memory between moves


class StoreError(RuntimeError):
    """The database cannot be used as it is; the message says why."""


class ConcurrentChange(RuntimeError):
    """The game changed between load and save: the save was refused, nothing written."""


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

    @property
    def is_finished(self) -> bool:
        return self.status != PLAYING


_RESULT_COLUMNS = (
    "game_row, user_id, guild_id, game, deal, outcome, moves, undos, hints, "
    "redeals_used, seconds_played, finished_at, daily"
)


class Store:
    def __init__(self, db: aiosqlite.Connection, path: Path) -> None:
        self._db = db
        self.path = path
        self._lock = asyncio.Lock()
        self._closed = False
        # Engine games as last loaded or saved, by game row: a load whose saved state still
        # matches one exactly reuses it instead of replaying every move from the deal.
        self._live: dict[int, Game] = {}

    @classmethod
    async def open(cls, path: Path | str) -> Store:
        """Open (creating if needed) and migrate the database at ``path``."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(path, isolation_level=None)
        try:
            db.row_factory = sqlite3.Row
            await db.execute("PRAGMA busy_timeout = 5000")
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = NORMAL")
            store = cls(db, path)
            await store._migrate()
        except BaseException:
            await db.close()
            raise
        return store

    async def close(self) -> None:
        """Close the database; closing again does nothing."""
        async with self._lock:
            if not self._closed:
                self._closed = True
                await self._db.close()

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        assert row is not None
        return int(row[0])

    async def _migrate(self) -> None:
        version = await self.schema_version()
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} has schema version {version}, newer than this bot's "
                f"{SCHEMA_VERSION}: it was written by a newer version of the bot. "
                "Upgrade the bot, or point DATABASE_PATH at another file."
            )
        for target in range(version + 1, SCHEMA_VERSION + 1):
            script = MIGRATIONS[target - 1]
            try:
                await self._db.executescript(
                    f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {target};\nCOMMIT;"
                )
            except sqlite3.Error as err:
                if self._db.in_transaction:
                    await self._db.rollback()
                raise StoreError(
                    f"Could not migrate {self.path} to schema version {target}: {err}"
                ) from err

    # -- meta ---------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        async with self._lock, self._db.execute(
            "SELECT value FROM meta WHERE key = ?", (key,)
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else str(row["value"])

    async def set_meta(self, key: str, value: str) -> None:
        async with self._lock:
            await self._db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    # -- games --------------------------------------------------------------------------

    async def load(self, user_id: int) -> SavedGame | None:
        """The player's current game (playing or finished and not yet replaced), or None."""
        async with self._lock, self._db.execute(
            "SELECT * FROM games WHERE user_id = ?", (user_id,)
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        return _saved_game(row, self._live_game(int(row["id"]), str(row["state"])))

    def _live_game(self, row_id: int, state: str) -> Game:
        """A copy of the game saved as ``state``: of the live one if it is exactly that,
        else of the game rebuilt from ``state``.

        A change played but never saved (a failure in between) makes the states differ,
        so it is dropped here and the saved game is what comes back. Every load gets its
        own copy, so two loads never share one game."""
        game = self._live.get(row_id)
        if game is None or _state(game) != state:
            game = Game.from_dict(json.loads(state))
            self._keep(row_id, game)
        return game.copy()

    def _keep(self, row_id: int, game: Game) -> None:
        if row_id not in self._live and len(self._live) >= LIVE_GAMES:
            self._live.pop(next(iter(self._live)))
        self._live[row_id] = game

    async def start(
        self,
        user_id: int,
        guild_id: int | None,
        game: Game,
        now: float,
        *,
        replacing: SavedGame | None = None,
        left_as: str = ABANDONED,
        daily: str | None = None,
    ) -> SavedGame:
        """Make ``game`` the player's current game, in one transaction.

        ``replacing`` is the game it takes the place of, as last loaded: if it is still
        being played its result is recorded as ``left_as`` (abandoned, or lost when it was
        stuck). Raises ConcurrentChange if the stored game is not ``replacing`` (at its
        revision).

        ``daily`` is the UTC day (``YYYY-MM-DD``) when ``game`` is that day's daily deal. The
        player's first start of it that day is their scored attempt, and the game is tagged
        with the day; a later start is a replay, untagged. The returned ``SavedGame.daily``
        says which.
        """
        state = _state(game)
        async with self._lock, self._transaction():
            current = await self._current_ref(user_id)
            expected = None if replacing is None else (replacing.id, replacing.revision)
            if current != expected:
                raise ConcurrentChange(f"user {user_id}: expected game {expected}, found {current}")
            if replacing is not None:
                if not replacing.is_finished:
                    replacing.status = left_as
                    replacing.finished_at = now
                    await self._insert_result(replacing)
                await self._db.execute("DELETE FROM games WHERE id = ?", (replacing.id,))
            if daily is not None:
                attempt = await self._db.execute(
                    "INSERT OR IGNORE INTO daily_attempts (user_id, game, day, started_at) "
                    "VALUES (?, ?, ?, ?)",
                    (user_id, game.game_id, daily, now),
                )
                if attempt.rowcount != 1:
                    daily = None  # the scored attempt was made earlier today: a replay
            cursor = await self._db.execute(
                "INSERT INTO games (user_id, guild_id, game, deal, state, status, revision, "
                "started_at, updated_at, daily) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?)",
                (user_id, guild_id, game.game_id, game.deal, state, PLAYING, now, now, daily),
            )
            row_id = cursor.lastrowid
            assert row_id is not None
        self._keep(row_id, game.copy())
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
        same transaction. ``saved.revision`` is the revision it was loaded at; on success
        it is advanced. Raises ConcurrentChange, writing nothing, if the stored game moved on.
        """
        state = _state(saved.game)
        async with self._lock, self._transaction():
            cursor = await self._db.execute(
                "UPDATE games SET state = ?, status = ?, revision = revision + 1, "
                "undos = ?, hints = ?, seconds_played = ?, updated_at = ?, finished_at = ? "
                "WHERE id = ? AND revision = ? AND status = 'playing'",
                (
                    state,
                    saved.status,
                    saved.undos,
                    saved.hints,
                    saved.seconds_played,
                    saved.updated_at,
                    saved.finished_at,
                    saved.id,
                    saved.revision,
                ),
            )
            if cursor.rowcount != 1:
                raise ConcurrentChange(
                    f"game {saved.id} is no longer at revision {saved.revision} or is finished"
                )
            if saved.is_finished:
                await self._insert_result(saved)
        saved.revision += 1
        self._keep(saved.id, saved.game.copy())

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

        The rows come as ``standings.Result``, ready for the statistics computed there.
        """
        where: list[str] = []
        params: list[Any] = []
        for column, value in (
            ("user_id", user_id),
            ("guild_id", guild_id),
            ("game", game),
            ("daily", daily),
        ):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        if outside_servers:
            where.append("guild_id IS NULL")
        if since is not None:
            where.append("finished_at >= ?")
            params.append(since)
        sql = f"SELECT {_RESULT_COLUMNS} FROM results"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY finished_at, id"
        async with self._lock, self._db.execute(sql, params) as cursor:
            rows = await cursor.fetchall()
        return [_result(row) for row in rows]

    async def has_daily_attempt(self, user_id: int, game_id: str, day: str) -> bool:
        """Whether the player has already started their scored attempt at that day's deal."""
        async with self._lock, self._db.execute(
            "SELECT 1 FROM daily_attempts WHERE user_id = ? AND game = ? AND day = ?",
            (user_id, game_id, day),
        ) as cursor:
            return await cursor.fetchone() is not None

    async def count_results(self, guild_id: int) -> int:
        """How many finished games a server has recorded."""
        async with self._lock, self._db.execute(
            "SELECT COUNT(*) FROM results WHERE guild_id = ?", (guild_id,)
        ) as cursor:
            row = await cursor.fetchone()
        assert row is not None
        return int(row[0])

    async def forget_player(self, user_id: int) -> tuple[int, int]:
        """Delete everything kept about a player, in every server, in one transaction: their
        current game, their results and their daily attempts. (games, results) deleted."""
        async with self._lock, self._transaction():
            games = await self._db.execute("DELETE FROM games WHERE user_id = ?", (user_id,))
            results = await self._db.execute("DELETE FROM results WHERE user_id = ?", (user_id,))
            await self._db.execute("DELETE FROM daily_attempts WHERE user_id = ?", (user_id,))
        return games.rowcount, results.rowcount

    async def reset_guild(self, guild_id: int) -> int:
        """Delete a server's results (its statistics, leaderboards, daily boards); how many.

        Games being played there are kept, and count when they finish.
        """
        async with self._lock, self._transaction():
            cursor = await self._db.execute("DELETE FROM results WHERE guild_id = ?", (guild_id,))
        return cursor.rowcount

    async def add_hint(self, game_row: int) -> None:
        """Count a hint on a game being played. The board's revision stays: a hint changes
        nothing on the board, so the buttons under it keep working."""
        async with self._lock:
            await self._db.execute(
                "UPDATE games SET hints = hints + 1 WHERE id = ? AND status = 'playing'",
                (game_row,),
            )

    # -- the pool of winnable deals -----------------------------------------------------

    async def add_winnable(self, game_id: str, deal: int, now: float) -> None:
        async with self._lock:
            await self._db.execute(
                "INSERT OR IGNORE INTO winnable_deals (game, deal, found_at) VALUES (?, ?, ?)",
                (game_id, deal, now),
            )

    async def winnable_count(self, game_id: str) -> int:
        async with self._lock, self._db.execute(
            "SELECT COUNT(*) FROM winnable_deals WHERE game = ?", (game_id,)
        ) as cursor:
            row = await cursor.fetchone()
        assert row is not None
        return int(row[0])

    async def take_winnable(self, game_id: str) -> int | None:
        """Hand out (and remove) the oldest winnable deal of a game, if there is one."""
        async with self._lock, self._transaction():
            async with self._db.execute(
                "SELECT deal FROM winnable_deals WHERE game = ? ORDER BY found_at, deal LIMIT 1",
                (game_id,),
            ) as cursor:
                row = await cursor.fetchone()
            if row is None:
                return None
            await self._db.execute(
                "DELETE FROM winnable_deals WHERE game = ? AND deal = ?", (game_id, row["deal"])
            )
        return int(row["deal"])

    # -- internals ----------------------------------------------------------------------

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    async def _current_ref(self, user_id: int) -> tuple[int, int] | None:
        async with self._db.execute(
            "SELECT id, revision FROM games WHERE user_id = ?", (user_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else (int(row["id"]), int(row["revision"]))

    async def _insert_result(self, saved: SavedGame) -> None:
        game = saved.game
        assert saved.status in OUTCOMES and saved.finished_at is not None
        await self._db.execute(
            f"INSERT INTO results ({_RESULT_COLUMNS}) VALUES ({', '.join('?' * 13)})",
            (
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
                saved.seconds_played,
                saved.finished_at,
                saved.daily,
            ),
        )


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` if the block raised."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def __aenter__(self) -> None:
        await self._db.execute("BEGIN IMMEDIATE")

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is None:
            await self._db.execute("COMMIT")
        else:
            await self._db.execute("ROLLBACK")


def _result(row: sqlite3.Row) -> Result:
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


def _saved_game(row: sqlite3.Row, game: Game) -> SavedGame:
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
    )

"""The PostgreSQL backend, for bots that run more than one process or outgrow one machine.

asyncpg with two pools: each transaction takes a connection of the first and
``conn.transaction()``; statistics read on a connection of the second, so a read never waits
for a connection behind the moves, nor a move behind the reads, and MVCC lets them read
beside the writers.
Discord ids are BIGINT. The schema version is kept in ``schema_version``; ``MIGRATIONS``
lists every step from an empty database, applied at open under an advisory lock so that
processes starting together migrate once. A change is a new entry, never an edit.

Leading: ``try_lead(name)`` takes a session advisory lock on a connection of its own, held
for as long as the store is open, so exactly one process syncs commands and runs the
background jobs; if that process dies, its connection closes and another can take over.
"""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import asyncpg

from .database import StoreError

MIGRATIONS: tuple[str, ...] = (
    # 1: everything SQLite's schema 5 holds, in PostgreSQL's types.
    """
    CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE TABLE games (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- never reused: buttons carry it
        user_id BIGINT NOT NULL UNIQUE,         -- one current game per player
        guild_id BIGINT,                        -- server it was started in; NULL: DM, console
        game TEXT NOT NULL,
        deal BIGINT NOT NULL,
        state TEXT NOT NULL,                    -- engine Game.to_dict() as JSON, kept verbatim
        status TEXT NOT NULL DEFAULT 'playing',
        revision INTEGER NOT NULL DEFAULT 0,    -- +1 on every saved change
        started_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        undos INTEGER NOT NULL DEFAULT 0,
        hints INTEGER NOT NULL DEFAULT 0,
        seconds_played DOUBLE PRECISION NOT NULL DEFAULT 0,
        daily TEXT,
        finished_at DOUBLE PRECISION,
        proven_lost_at INTEGER                  -- a revision; stale once the game moves on
    );
    CREATE TABLE results (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        game_row BIGINT NOT NULL UNIQUE,        -- games.id: a game is counted once
        user_id BIGINT NOT NULL,
        guild_id BIGINT,
        game TEXT NOT NULL,
        deal BIGINT NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('won', 'lost', 'resigned', 'abandoned')),
        moves INTEGER NOT NULL,
        undos INTEGER NOT NULL,
        hints INTEGER NOT NULL,
        redeals_used INTEGER NOT NULL,
        seconds_played DOUBLE PRECISION NOT NULL,
        finished_at DOUBLE PRECISION NOT NULL,
        daily TEXT                              -- the UTC day of a daily deal, else NULL
    );
    CREATE INDEX results_by_guild
        ON results (guild_id, game, finished_at, user_id, outcome, hints);
    CREATE INDEX results_by_guild_player
        ON results (guild_id, user_id, game, finished_at, outcome, hints);
    CREATE INDEX results_by_user ON results
        (user_id, guild_id, game, finished_at, outcome, hints, moves, seconds_played, daily, id);
    CREATE INDEX results_by_daily ON results (guild_id, daily, game);
    CREATE TABLE daily_attempts (
        user_id BIGINT NOT NULL,
        game TEXT NOT NULL,
        day TEXT NOT NULL,                      -- UTC date, YYYY-MM-DD
        started_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (user_id, game, day)
    );
    CREATE TABLE winnable_deals (
        game TEXT NOT NULL,
        deal BIGINT NOT NULL,
        found_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game, deal)
    );
    CREATE TABLE player_settings (
        user_id BIGINT PRIMARY KEY,
        private_boards BOOLEAN NOT NULL,
        four_colour BOOLEAN NOT NULL,
        auto_moves BOOLEAN NOT NULL
    );
    CREATE TABLE board_messages (
        user_id BIGINT NOT NULL,
        channel_id BIGINT NOT NULL,
        message_id BIGINT NOT NULL,             -- the player's live board in that channel
        previous_id BIGINT,                     -- the one it replaced
        PRIMARY KEY (user_id, channel_id)
    );
    """,
    # 2: board_messages.previous_id was never written.
    """
    ALTER TABLE board_messages DROP COLUMN previous_id;
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
MIGRATION_LOCK = 0x736F6C6974616972  # advisory lock key while migrating ("solitair")


def is_postgres_url(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))


def describe(url: str) -> str:
    """The server and database of a URL, for messages and logs: no user, password or
    options (a password may be in the authority or in ``?password=``)."""
    parts = urlsplit(url)
    address = parts.netloc.rpartition("@")[2] or "localhost"
    return f"postgresql://{address}{parts.path}"


def lead_key(name: str) -> int:
    """A stable 64-bit advisory lock key for a leadership name."""
    return int.from_bytes(hashlib.sha256(f"lead/{name}".encode()).digest()[:8], "big",
                          signed=True)


class _Connection:
    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        return list(await self._conn.fetch(sql, *args))

    async def fetchrow(self, sql: str, *args: Any) -> Any | None:
        return await self._conn.fetchrow(sql, *args)

    async def execute(self, sql: str, *args: Any) -> int:
        status = await self._conn.execute(sql, *args)  # "UPDATE 1", "INSERT 0 1"
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._conn.executemany(sql, rows)


WRITERS = 10  # connections for games, settings and other writes (and the reads they make)
READERS = 2  # connections for statistics: a few reads at a time, each a few tens of ms


class PostgresDatabase:
    schema_target = SCHEMA_VERSION
    # SKIP LOCKED: two processes asking at once get two different deals, neither waits.
    take_winnable_sql = (
        "DELETE FROM winnable_deals WHERE (game, deal) = (SELECT game, deal FROM winnable_deals "
        "WHERE game = $1 ORDER BY found_at, deal LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING deal"
    )
    path: Path | None = None

    def __init__(self, pool: asyncpg.Pool, readers: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self._readers = readers
        self._url = url
        self.where = describe(url)
        self._leading: dict[str, asyncpg.Connection] = {}
        self._closed = False

    @classmethod
    async def open(cls, url: str) -> PostgresDatabase:
        where = describe(url)
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=WRITERS)
        except (OSError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as err:
            raise StoreError(f"Cannot connect to {where}: {err}") from err
        try:
            await _migrate(pool, where)
            readers = await asyncpg.create_pool(url, min_size=1, max_size=READERS)
        except BaseException:
            await pool.close()
            raise
        return cls(pool, readers, url)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[_Connection]:
        async with self._pool.acquire() as conn, conn.transaction():
            yield _Connection(conn)

    @asynccontextmanager
    async def writer(self) -> AsyncIterator[_Connection]:
        async with self._pool.acquire() as conn:
            yield _Connection(conn)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[_Connection]:
        async with self._readers.acquire() as conn:
            yield _Connection(conn)

    async def schema_version(self) -> int:
        async with self._pool.acquire() as conn:
            return await _version(conn)

    async def try_lead(self, name: str) -> bool:
        """Whether this store leads ``name``: it holds the lock already, or takes it now."""
        held = self._leading.pop(name, None)
        if held is not None:
            try:
                await held.fetchval("SELECT 1")  # the lock lives as long as this session
                self._leading[name] = held
                return True
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
                held.terminate()  # lost: the server has let the lock go with it
        conn = await asyncpg.connect(self._url)
        try:
            took = await conn.fetchval("SELECT pg_try_advisory_lock($1)", lead_key(name))
        except BaseException:
            await conn.close()
            raise
        if not took:
            await conn.close()
            return False
        self._leading[name] = conn
        return True

    async def after_forget(self) -> None:
        """Deleted rows are gone for every reader at commit; the server's WAL and vacuum
        are the operator's, as with any PostgreSQL database."""

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for conn in self._leading.values():
            await conn.close()
        self._leading.clear()
        await self._readers.close()
        await self._pool.close()


async def _version(conn: asyncpg.Connection) -> int:
    exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT version FROM schema_version"))


async def _migrate(pool: asyncpg.Pool, where: str) -> None:
    async with pool.acquire() as conn, conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        version = await _version(conn)
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{where} has schema version {version}, newer than this bot's "
                f"{SCHEMA_VERSION}: it was written by a newer version of the bot. "
                "Upgrade the bot, or point DATABASE_URL at another database."
            )
        if version == 0:
            await conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
            await conn.execute("INSERT INTO schema_version VALUES (0)")
        for target in range(version + 1, SCHEMA_VERSION + 1):
            try:
                await conn.execute(MIGRATIONS[target - 1])
            except asyncpg.PostgresError as err:
                raise StoreError(
                    f"Could not migrate {where} to schema version {target}: {err}"
                ) from err
            await conn.execute("UPDATE schema_version SET version = $1", target)

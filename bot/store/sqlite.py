"""The SQLite backend: one file in WAL mode, the embedded default.

Two connections: the writer, behind one asyncio lock so one transaction never interleaves
with another's statements, and a read-only reader for statistics. WAL lets the reader read
the last committed data while the writer writes, so a long leaderboard never holds up a move.

The schema is versioned with ``PRAGMA user_version``; ``MIGRATIONS`` (``migrations.py``, the
schema written once for both backends) lists every step from an empty file, applied at open,
each in its own transaction. A change to the schema is a new step at the end, never an edit
of an old one.

Durability: ``synchronous=NORMAL`` (the WAL default): a committed move survives the bot
crashing or being killed; a power cut may lose the last moments. ``secure_delete`` overwrites
deleted rows, and forgetting a player checkpoints the WAL, so their ids leave both files.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import re
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from .database import Listener, Notice, Outage, StoreError, StoreUnavailable
from .migrations import SQLITE_MIGRATIONS as MIGRATIONS

log = logging.getLogger(__name__)

SCHEMA_VERSION = len(MIGRATIONS)
# The writer's page cache (SQLite's default is 2 MB): a move reads and writes a few pages
# of one player's rows, and the operating system caches the file anyway. The reader keeps
# the default, for leaderboards that scan an index.
WRITER_CACHE_KB = 512


@functools.lru_cache(maxsize=256)
def _sqlite_sql(sql: str) -> str:
    """``$1`` placeholders as SQLite spells them, ``?1``."""
    return re.sub(r"\$(\d+)", r"?\1", sql)


class _Connection:
    """Each call is as few trips to the connection's thread as aiosqlite allows: rows come
    back with their statement (a cursor of their own would cost two more trips each)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        # Told when the transaction under way commits.
        self.notices: list[tuple[Notice, int | None]] = []

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        return list(await self._db.execute_fetchall(_sqlite_sql(sql), args))

    async def fetchrow(self, sql: str, *args: Any) -> Any | None:
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    async def execute(self, sql: str, *args: Any) -> int:
        # The rows changed, from the connection's count of changes, which costs no trip
        # (a cursor's rowcount costs two: its statement and its closing). Exact because
        # the connection runs one statement at a time, under the database's lock, and
        # the schema has no triggers.
        before = self._db.total_changes
        await self._db.execute_fetchall(_sqlite_sql(sql), args)
        return self._db.total_changes - before

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._db.executemany(_sqlite_sql(sql), rows)

    async def notify(self, notice: Notice, user_id: int | None = None) -> None:
        self.notices.append((notice, user_id))


# What SQLite says when the file cannot be used just now: another process holds it past
# the busy timeout, or the disk fails.
_UNREACHABLE = ("database is locked", "database table is locked", "disk i/o error",
                "unable to open database")


def _unreachable(err: BaseException) -> bool:
    return isinstance(err, sqlite3.OperationalError) and str(err).lower().startswith(
        _UNREACHABLE
    )


class SqliteDatabase:
    schema_target = SCHEMA_VERSION
    # One statement picks and deletes, and SQLite runs one writer at a time: a deal goes
    # to one caller, across processes too.
    take_winnable_sql = (
        "DELETE FROM winnable_deals WHERE rowid = (SELECT rowid FROM winnable_deals "
        "WHERE game = $1 ORDER BY found_at, deal LIMIT 1) RETURNING deal"
    )
    share_lock = ""  # one writer at a time: what a transaction read stays as it read it
    erases_at_once = True  # secure_delete, and the log emptied after each /forget-me

    def __init__(self, writer: aiosqlite.Connection, reader: aiosqlite.Connection,
                 path: Path) -> None:
        self._writer = writer
        self._reader = reader
        self._write = _Connection(writer)
        self._read = _Connection(reader)
        self._lock = asyncio.Lock()
        self._closed = False
        self._listener: Listener | None = None
        self.path: Path | None = path
        self.where = str(path)
        self._outage = Outage(self.where)

    @classmethod
    async def open(cls, path: Path) -> SqliteDatabase:
        """Open (creating if needed) and migrate the file at ``path``."""
        path.parent.mkdir(parents=True, exist_ok=True)
        writer = await aiosqlite.connect(path, isolation_level=None)
        reader: aiosqlite.Connection | None = None
        try:
            writer.row_factory = sqlite3.Row
            await writer.execute("PRAGMA busy_timeout = 5000")
            await writer.execute("PRAGMA journal_mode = WAL")
            await writer.execute("PRAGMA synchronous = NORMAL")
            await writer.execute("PRAGMA secure_delete = ON")
            await writer.execute(f"PRAGMA cache_size = -{WRITER_CACHE_KB}")
            await _migrate(writer, path)
            reader = await aiosqlite.connect(
                f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None
            )
            reader.row_factory = sqlite3.Row
            await reader.execute_fetchall("PRAGMA busy_timeout = 5000")  # no statement left open
            await _lend_sqrt(reader)
        except BaseException:
            await writer.close()
            if reader is not None:
                await reader.close()
            raise
        return cls(writer, reader, path)

    def _unavailable(self, err: BaseException, *, in_doubt: bool = False) -> StoreUnavailable:
        self._outage.failed(err)
        return StoreUnavailable(f"{self.where}: {err}", in_doubt=in_doubt)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[_Connection]:
        async with self._lock:
            conn = self._write
            conn.notices = []
            try:
                # IMMEDIATE takes the write lock at once, so two processes on one file queue
                # (busy_timeout) instead of one failing at its first write.
                await self._writer.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as err:
                if _unreachable(err):
                    raise self._unavailable(err) from err
                raise
            except BaseException:
                # Cancelled while waiting: the BEGIN still runs in aiosqlite's thread, and
                # would leave the next transaction inside this one. Its queue keeps order,
                # so a ROLLBACK sent now runs after it.
                with contextlib.suppress(sqlite3.OperationalError):
                    await self._writer.execute("ROLLBACK")
                raise
            try:
                yield conn
            except BaseException as exc:
                await self._writer.execute("ROLLBACK")
                if _unreachable(exc):
                    raise self._unavailable(exc) from exc
                raise
            try:
                await self._writer.execute("COMMIT")
            except sqlite3.OperationalError as err:
                if _unreachable(err):
                    raise self._unavailable(err, in_doubt=True) from err
                raise
            self._outage.succeeded()
            notices, conn.notices = conn.notices, []
        for notice, user_id in notices:
            self._tell(notice, user_id)

    @asynccontextmanager
    async def writer(self) -> AsyncIterator[_Connection]:
        async with self._lock:
            try:
                yield self._write
            except sqlite3.OperationalError as err:
                if _unreachable(err):
                    raise self._unavailable(err, in_doubt=True) from err
                raise
            self._outage.succeeded()

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[_Connection]:
        try:
            yield self._read
        except sqlite3.OperationalError as err:
            if _unreachable(err):
                raise self._unavailable(err) from err
            raise

    def as_leader(self, name: str) -> AbstractAsyncContextManager[_Connection]:
        """A SQLite file serves one bot process, which leads: a plain transaction."""
        return self.transaction()

    def listen(self, listener: Listener) -> None:
        self._listener = listener

    def _tell(self, notice: Notice, user_id: int | None) -> None:
        if self._listener is not None:
            try:
                self._listener(notice, user_id)
            except Exception:
                log.exception("a listener failed on notice %s of %s", notice, user_id)

    async def schema_version(self) -> int:
        return await _user_version(self._writer)

    async def try_lead(self, name: str, on_lost: Callable[[], None]) -> bool:
        """A SQLite file serves one bot process (it cannot be shared across machines), so
        that process leads."""
        return True

    async def after_forget(self) -> None:
        async with self._lock:
            await self._writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    async def close(self) -> None:
        async with self._lock:
            if not self._closed:
                self._closed = True
                await self._reader.close()
                await self._writer.close()


MATH_PROBE = "SELECT sqrt(4.0)"


async def _lend_sqrt(db: aiosqlite.Connection) -> None:
    """The leaderboard's score takes a square root in SQL. SQLite has ``sqrt`` where it was
    built with its math functions, as Debian's and most are; elsewhere Python's is lent to
    it, which gives the same numbers more slowly (a call into Python for each player)."""
    try:
        await db.execute_fetchall(MATH_PROBE)
    except sqlite3.OperationalError:
        await db.create_function("sqrt", 1, math.sqrt, deterministic=True)


async def _user_version(db: aiosqlite.Connection) -> int:
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


async def _migrate(db: aiosqlite.Connection, path: Path) -> None:
    version = await _user_version(db)
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"{path} has schema version {version}, newer than this bot's "
            f"{SCHEMA_VERSION}: it was written by a newer version of the bot. "
            "Upgrade the bot, or point DATABASE_PATH at another file."
        )
    for target in range(version + 1, SCHEMA_VERSION + 1):
        script = MIGRATIONS[target - 1]
        try:
            await db.executescript(
                f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {target};\nCOMMIT;"
            )
        except sqlite3.Error as err:
            if db.in_transaction:
                await db.rollback()
            raise StoreError(f"Could not migrate {path} to schema version {target}: {err}") from err

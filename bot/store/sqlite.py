"""The SQLite backend: one file in WAL mode, the embedded default.

The writer, behind one asyncio lock so one transaction never interleaves with another's
statements, and a read-only reader for statistics. WAL lets the reader read the last
committed data while the writer writes, so a long leaderboard never holds up a move.

The writer is two connections to the file. Transactions run in aiosqlite's thread. A lone
statement (a move's save, a point read by key) runs on the event loop itself: 15 µs of
SQLite there against 60–90 µs of CPU for the trip through the thread and back, which was
most of a move's save (``_OnTheLoop``). Nothing on the loop waits: that connection never
waits for a lock (another process writing sends its statement to the thread, which does),
and never checkpoints the WAL (writing and syncing the database file); every
``CHECKPOINT_EVERY`` writes on the loop, the thread checkpoints instead.

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
# Each writer connection's own settings (the journal's mode is the file's).
WRITER_PRAGMAS = ("PRAGMA synchronous = NORMAL", "PRAGMA secure_delete = ON",
                  f"PRAGMA cache_size = -{WRITER_CACHE_KB}")
CHECKPOINT_EVERY = 250  # writes on the event loop between two checkpoints in the thread
# (SQLite's own default is a checkpoint at 1,000 pages of WAL; a move writes 2 to 4)


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


class _OnTheLoop(_Connection):
    """The writer's statements outside a transaction, each its own, run on the event loop
    by a connection of their own (see the module's docstring). If another process holds
    the file's write lock, that connection does not wait: the statement goes to
    aiosqlite's thread, which waits its busy timeout, as every statement used to. (Only
    lone statements: ``executemany``, in a transaction only, stays the thread's.)"""

    def __init__(self, db: aiosqlite.Connection, here: sqlite3.Connection,
                 wrote: Callable[[], None]) -> None:
        super().__init__(db)
        self._here = here
        self._wrote = wrote  # told after each statement here that changed rows

    def _rows_here(self, sql: str, args: tuple[Any, ...]) -> list[Any] | None:
        """The statement's rows, run here; None if the write lock is another's (then it
        wrote nothing)."""
        before = self._here.total_changes
        try:
            rows = self._here.execute(_sqlite_sql(sql), args).fetchall()
        except sqlite3.OperationalError as err:
            if not _busy(err):
                raise
            return None
        if self._here.total_changes != before:
            self._wrote()
        return rows

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        rows = self._rows_here(sql, args)
        return await super().fetch(sql, *args) if rows is None else rows

    async def execute(self, sql: str, *args: Any) -> int:
        before = self._here.total_changes
        if self._rows_here(sql, args) is None:
            return await super().execute(sql, *args)
        return self._here.total_changes - before


def _busy(err: sqlite3.OperationalError) -> bool:
    """The file's write lock is another connection's (a statement that meets it writes
    nothing)."""
    return str(err).lower().startswith(_BUSY)


# What SQLite says when the file cannot be used just now: another process holds it past
# the busy timeout, or the disk fails.
_BUSY = ("database is locked", "database table is locked")
_UNREACHABLE = (*_BUSY, "disk i/o error", "unable to open database")


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
    notices_everywhere = False  # told to this process's listener alone

    def __init__(self, writer: aiosqlite.Connection, here: sqlite3.Connection,
                 reader: aiosqlite.Connection, path: Path) -> None:
        self._writer = writer
        self._here = here
        self._reader = reader
        self._write = _Connection(writer)
        self._write_here = _OnTheLoop(writer, here, self._wrote_here)
        self._writes_here = 0  # since the last checkpoint
        self._checkpoint: asyncio.Task[None] | None = None
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
        here: sqlite3.Connection | None = None
        try:
            writer.row_factory = sqlite3.Row
            await writer.execute("PRAGMA busy_timeout = 5000")
            await writer.execute("PRAGMA journal_mode = WAL")
            for pragma in WRITER_PRAGMAS:
                await writer.execute(pragma)
            await _migrate(writer, path)
            here = _on_the_loop(path)
            reader = await aiosqlite.connect(
                f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None
            )
            reader.row_factory = sqlite3.Row
            await reader.execute_fetchall("PRAGMA busy_timeout = 5000")  # no statement left open
            await _lend_sqrt(reader)
        except BaseException:
            await writer.close()
            if here is not None:
                here.close()
            if reader is not None:
                await reader.close()
            raise
        return cls(writer, here, reader, path)

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
                yield self._write_here
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

    def _wrote_here(self) -> None:
        """A statement on the event loop changed rows: every ``CHECKPOINT_EVERY`` of them,
        the WAL is checkpointed in the thread (PASSIVE: it waits for no one, and writes go
        on meanwhile)."""
        self._writes_here += 1
        if self._writes_here >= CHECKPOINT_EVERY and self._checkpoint is None:
            self._writes_here = 0
            self._checkpoint = asyncio.get_running_loop().create_task(self._checkpointed())

    async def _checkpointed(self) -> None:
        try:
            await self._writer.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
        except Exception as err:  # the next one tries again; the WAL grows meanwhile
            log.warning("could not checkpoint %s's write-ahead log: %s", self.where, err)
        finally:
            self._checkpoint = None

    async def after_forget(self) -> None:
        async with self._lock:
            await self._writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    async def close(self) -> None:
        async with self._lock:
            if not self._closed:
                self._closed = True
                if self._checkpoint is not None:
                    await self._checkpoint
                self._here.close()
                await self._reader.close()
                await self._writer.close()


def _on_the_loop(path: Path) -> sqlite3.Connection:
    """The writer's connection for lone statements on the event loop: it never waits for a
    lock and never checkpoints; otherwise set as the writer is (``WRITER_PRAGMAS``)."""
    here = sqlite3.connect(path, isolation_level=None)
    try:
        here.row_factory = sqlite3.Row
        for pragma in ("PRAGMA busy_timeout = 0", "PRAGMA wal_autocheckpoint = 0",
                       *WRITER_PRAGMAS):
            here.execute(pragma)
    except BaseException:
        here.close()
        raise
    return here


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

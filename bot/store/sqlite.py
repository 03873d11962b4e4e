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

A file that cannot be written (read-only, its disk full, an I/O error) is an outage as a
server gone is on PostgreSQL: players are told, the log says so once each way, and reads
(a player's board) go on. After such a failure the writer's connections are opened anew
before the next use (at most every ``REOPEN_S``): SQLite opens a file it may not write
read-only, and that connection stays so after the file can be written again. The outage
ends at the first write that lands: a read that works says nothing of writes.

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
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from .database import Listener, Notice, Outage, StoreError, StoreUnavailable
from .migrations import SQLITE_MIGRATIONS as MIGRATIONS
from .sqlite_errors import busy, file_fails, in_doubt, refuses_writes, unreachable

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
REOPEN_S = 1.0  # after the file failed a write, the writer is opened anew this often at most


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
        except sqlite3.Error as err:
            if not busy(err):
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
        self._use_writer(writer, here)
        self._reader = reader
        self._writes_here = 0  # since the last checkpoint
        self._reopen_at: float | None = None  # the file failed a write: when to reopen it
        self._checkpoint: asyncio.Task[None] | None = None
        self._read = _Connection(reader)
        self._lock = asyncio.Lock()
        self._closed = False
        self._listener: Listener | None = None
        self._path = path
        self.path: Path | None = path
        self.where = str(path)
        self._outage = Outage(self.where)

    def _use_writer(self, writer: aiosqlite.Connection, here: sqlite3.Connection) -> None:
        self._writer = writer
        self._here = here
        self._write = _Connection(writer)
        self._write_here = _OnTheLoop(writer, here, self._wrote_here)

    @classmethod
    async def open(cls, path: Path) -> SqliteDatabase:
        """Open (creating if needed) and migrate the file at ``path``. A file that cannot
        be written is opened all the same, its outage in the log at once (reads go on)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        writer = await _writer(path)
        reader: aiosqlite.Connection | None = None
        here: sqlite3.Connection | None = None
        try:
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
        db = cls(writer, here, reader, path)
        refused = refuses_writes(here)
        if refused is not None:
            db._unavailable(refused)
        return db

    def _unavailable(self, err: BaseException, *, in_doubt: bool = False) -> StoreUnavailable:
        self._outage.failed(err)
        if file_fails(err) and self._reopen_at is None:
            self._reopen_at = time.monotonic()  # at the next use
        return StoreUnavailable(f"{self.where}: {err}", in_doubt=in_doubt)

    def _changes(self) -> int:
        return self._writer.total_changes + self._here.total_changes

    def _writer_used(self, changes_before: int) -> None:
        """A use of the writer ended well: if it changed rows, the file takes writes."""
        if self._changes() != changes_before:
            self._reopen_at = None
            self._outage.succeeded()

    async def _reopen_if_due(self) -> None:
        """Open the writer's connections anew, the file having failed a write (at most
        every ``REOPEN_S``); the file still out of reach is StoreUnavailable."""
        if self._reopen_at is None or time.monotonic() < self._reopen_at:
            return
        self._reopen_at = time.monotonic() + REOPEN_S
        try:
            writer = await _writer(self._path, create=False)
        except sqlite3.Error as err:
            if unreachable(err):
                raise self._unavailable(err) from err
            raise
        try:
            here = _on_the_loop(self._path)
        except BaseException:
            await writer.close()
            raise
        # No checkpoint runs meanwhile: it takes the lock this holds, and then finds the new
        # connection.
        old_writer, old_here = self._writer, self._here
        self._use_writer(writer, here)
        old_here.close()
        with contextlib.suppress(sqlite3.Error, ValueError):
            await old_writer.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[_Connection]:
        async with self._lock:
            await self._reopen_if_due()
            conn = self._write
            conn.notices = []
            changes = self._changes()
            try:
                # IMMEDIATE takes the write lock at once, so two processes on one file queue
                # (busy_timeout) instead of one failing at its first write.
                await self._writer.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as err:
                if unreachable(err):
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
                with contextlib.suppress(sqlite3.Error):  # a failed write may have ended it
                    await self._writer.execute("ROLLBACK")
                if unreachable(exc):  # before COMMIT: nothing was written
                    raise self._unavailable(exc) from exc
                raise
            try:
                await self._writer.execute("COMMIT")
            except sqlite3.Error as err:
                if unreachable(err):
                    with contextlib.suppress(sqlite3.Error):
                        await self._writer.execute("ROLLBACK")
                    raise self._unavailable(err, in_doubt=in_doubt(err)) from err
                raise
            self._writer_used(changes)
            notices, conn.notices = conn.notices, []
        for notice, user_id in notices:
            self._tell(notice, user_id)

    @asynccontextmanager
    async def writer(self) -> AsyncIterator[_Connection]:
        async with self._lock:
            await self._reopen_if_due()
            changes = self._changes()
            here = self._write_here
            here.notices = []
            try:
                yield here
            except sqlite3.Error as err:
                if unreachable(err):
                    raise self._unavailable(err, in_doubt=in_doubt(err)) from err
                raise
            self._writer_used(changes)
            notices, here.notices = here.notices, []
        for notice, user_id in notices:  # each statement was its own transaction: all done
            self._tell(notice, user_id)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[_Connection]:
        try:
            yield self._read
        except sqlite3.Error as err:
            if unreachable(err):
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
        """A checkpoint between transactions, never inside one (the writer's connection is
        the transactions' too: there it fails, "database table is locked")."""
        try:
            async with self._lock:
                if not self._closed:
                    await self._writer.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
        except Exception as err:  # the next one tries again; the WAL grows meanwhile
            log.warning("could not checkpoint %s's write-ahead log: %s", self.where, err)
        finally:
            self._checkpoint = None

    async def after_forget(self) -> None:
        async with self._lock:
            await self._writer.execute_fetchall("PRAGMA wal_checkpoint(TRUNCATE)")

    async def close(self) -> None:
        if self._checkpoint is not None:  # before the lock, which it takes
            await self._checkpoint
        async with self._lock:
            if not self._closed:
                self._closed = True
                self._here.close()
                await self._reader.close()
                await self._writer.close()


async def _writer(path: Path, *, create: bool = True) -> aiosqlite.Connection:
    """The writer's connection in aiosqlite's thread (``create``: the file too, if it is
    missing; a file opened anew never is: one gone is an outage, not an empty database)."""
    target = path if create else f"{path.resolve().as_uri()}?mode=rw"
    writer = await aiosqlite.connect(target, uri=not create, isolation_level=None)
    try:
        writer.row_factory = sqlite3.Row
        for pragma in ("PRAGMA busy_timeout = 5000", "PRAGMA journal_mode = WAL",
                       *WRITER_PRAGMAS):
            await writer.execute_fetchall(pragma)  # no statement left open
    except BaseException:
        await writer.close()
        raise
    return writer


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

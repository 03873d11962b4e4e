"""SQLite's errors as the store reads them: the file busy (another process writing it), or
failing (read-only, its disk full, an I/O error, gone): an outage either way, told to
players and logged once each way, not a failure of what was asked."""

from __future__ import annotations

import sqlite3

# SQLite's (primary) result codes that say the file cannot be used just now: another
# process holds its write lock past the busy timeout; or the file fails ("attempt to write
# a readonly database", "database or disk is full", "disk I/O error", "unable to open").
_BUSY = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
_FILE_FAILS = (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR,
               sqlite3.SQLITE_CANTOPEN)


def _code(err: BaseException) -> int | None:
    """SQLite's primary result code of ``err`` (its low byte), if it is one of SQLite's."""
    number = getattr(err, "sqlite_errorcode", None) if isinstance(err, sqlite3.Error) else None
    return None if number is None else int(number) & 0xFF


def busy(err: BaseException) -> bool:
    """The file's write lock is another connection's (a statement that meets it writes
    nothing)."""
    return _code(err) in _BUSY


def file_fails(err: BaseException) -> bool:
    return _code(err) in _FILE_FAILS


def unreachable(err: BaseException) -> bool:
    return busy(err) or file_fails(err)


def in_doubt(err: BaseException) -> bool:
    """Whether a write that failed so may have reached the file all the same: an I/O error
    may come after the write (syncing it); a busy, read-only or full file took none."""
    return _code(err) == sqlite3.SQLITE_IOERR


def refuses_writes(here: sqlite3.Connection) -> sqlite3.Error | None:
    """Why the file takes no write (read-only, or failing), found by one that writes
    nothing: its header's schema version set as it is, then rolled back. None if it does
    (or another process is writing it now: it can be written)."""
    try:
        version = here.execute("PRAGMA user_version").fetchone()[0]
        here.execute("BEGIN IMMEDIATE")
        here.execute(f"PRAGMA user_version = {int(version)}")
    except sqlite3.Error as err:
        return err if file_fails(err) else None
    finally:
        if here.in_transaction:
            here.execute("ROLLBACK")
    return None

"""A copy of the SQLite file while the bot plays on: ``python -m bot --backup FILE``.

SQLite's online backup (``sqlite3.Connection.backup``) copies every page in one step, inside
one read transaction: in WAL mode the bot's writes go on meanwhile, and the copy is the
database as it stood when that transaction began, so every move acknowledged before the
backup started is in it and nothing is half-written. The copy is made beside FILE under
another name and linked into place only once it is whole and passes SQLite's integrity
check: FILE never holds half a backup, and a file already there is never replaced
(``os.link`` refuses one, even one that appeared meanwhile). The copy is in SQLite's
rollback-journal mode, one file with no ``-wal`` to carry along; the bot puts it back in WAL
mode when it opens it.

PostgreSQL is backed up by its own tools; this says how (``pg_dump``), with the bot's own
URL less its password.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from .database import StoreError
from .postgres import describe, is_postgres_url

BUSY_MS = 5000  # waited for a lock the bot holds (only while it recovers its WAL)


class BackupRefused(StoreError):
    """No backup was made; the message says why, and what to do instead."""


@dataclass(frozen=True)
class Backup:
    """A backup made: where, its size in bytes, and its schema version."""

    path: Path
    size: int
    schema_version: int


def back_up(database: Path | str, target: Path) -> Backup:
    """Copy the SQLite ``database`` (what ``Config.database`` names) to the new file
    ``target``, consistent while the bot writes to it. Raises BackupRefused, writing
    nothing, when ``target`` exists or its folder does not, when the database is
    PostgreSQL's, or when there is no file to copy."""
    if os.path.lexists(target):
        raise BackupRefused(f"{target} exists already, and a backup never replaces a file: "
                            "name a new one, or move that one away first.")
    if not target.parent.is_dir():
        raise BackupRefused(f"The folder {target.parent} does not exist: make it first "
                            f"(mkdir -p {shlex.quote(str(target.parent))}), or name a file "
                            "in a folder that does.")
    if isinstance(database, str) and is_postgres_url(database):
        raise BackupRefused(_use_pg_dump(database, target))
    source = Path(database)
    if not source.is_file():
        raise BackupRefused(f"There is no database file at {source} to back up: DATABASE_PATH "
                            "names the bot's file (default data/solitaire.db, from the folder "
                            "the bot starts in).")
    handle, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                    suffix=".partial")  # readable by its owner alone
    os.close(handle)
    partial = Path(name)
    try:
        version = _copy(source, partial)
        try:
            os.link(partial, target)
        except FileExistsError:
            raise BackupRefused(f"{target} appeared while the backup was made; it was left "
                                "as it is, and no backup was kept.") from None
        except OSError as err:  # a disk that has no hard links (FAT, some network shares)
            raise BackupRefused(f"The folder {target.parent} cannot take the backup without "
                                f"risking half of one under its name ({err.strerror}): back "
                                "up into a folder on another disk, then copy the backup "
                                "there.") from None
    finally:
        partial.unlink(missing_ok=True)
    _sync(target.parent)
    return Backup(target, target.stat().st_size, version)


def _copy(source: Path, partial: Path) -> int:
    """Copy ``source`` into the empty file ``partial``, check it and write it to disk; its
    schema version."""
    # Read-write like the bot, not read-only: a WAL left by a bot that was killed is
    # recovered on opening, and its moves are copied too.
    with contextlib.closing(sqlite3.connect(f"{source.resolve().as_uri()}?mode=rw",
                                            uri=True)) as db:
        db.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        with contextlib.closing(sqlite3.connect(partial)) as copy:
            db.backup(copy)  # every page in one step: one snapshot
            copy.execute("PRAGMA journal_mode = DELETE")
            problems = [row[0] for row in copy.execute("PRAGMA integrity_check")]
            if problems != ["ok"]:
                raise BackupRefused(f"The copy of {source} fails SQLite's integrity check, so "
                                    f"the database itself is damaged: {problems[0]}")
            version = int(copy.execute("PRAGMA user_version").fetchone()[0])
    _sync(partial)
    return version


def _sync(path: Path) -> None:
    """Write a file, or a folder's entries, to disk (the backup survives a power cut)."""
    handle = os.open(path, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def _use_pg_dump(url: str, target: Path) -> str:
    """What to run instead on PostgreSQL: pg_dump, at the bot's URL without its password
    (pg_dump asks for it, or reads PGPASSWORD or ~/.pgpass)."""
    return (
        f"The database is PostgreSQL ({describe(url)}): --backup copies a SQLite file only. "
        "Back it up with PostgreSQL's pg_dump, which asks for the password (or reads "
        "PGPASSWORD):\n"
        f"  pg_dump --format=custom --file={shlex.quote(str(target))} "
        f"--dbname={shlex.quote(without_password(url))}\n"
        "and restore it with pg_restore: docs/OPERATING.md says how."
    )


def without_password(url: str) -> str:
    """A PostgreSQL URL with no password in it, neither in its authority nor as
    ``?password=``: the rest (user, host, database, options) as it was."""
    parts = urlsplit(url)
    user, at, host = parts.netloc.rpartition("@")
    netloc = f"{user.partition(':')[0]}{at}{host}"
    query = "&".join(p for p in parts.query.split("&") if p and not p.startswith("password="))
    return urlunsplit(parts._replace(netloc=netloc, query=query))

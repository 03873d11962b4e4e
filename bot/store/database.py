"""What the stores ask of a database: the small surface both backends provide.

The stores write their SQL once, with PostgreSQL's ``$1`` placeholders and the SQL that
SQLite and PostgreSQL share (``ON CONFLICT``, ``RETURNING``, window functions); the SQLite
backend rewrites the placeholders to ``?1``. Rows are read by column name.

Both backends turn "the database cannot be reached" (a server down or restarting; a file
locked too long, read-only or on a full disk) into ``StoreUnavailable``, and say so in the
log once when it starts and once when it ends (``Outage``), rather than a traceback for
every player who tried.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol

from ..ops.metrics import STORE_OUTAGES, STORE_REACHABLE

log = logging.getLogger(__name__)


class StoreError(RuntimeError):
    """The database cannot be used as it is; the message says why."""


class StoreUnavailable(StoreError):
    """The database cannot be reached just now. ``in_doubt``: the failure came while a
    write was on its way, so it may have been stored; otherwise nothing was written."""

    def __init__(self, message: str, *, in_doubt: bool = False) -> None:
        super().__init__(message)
        self.in_doubt = in_doubt


class NotLeading(StoreError):
    """A write only the leader may make, by a process that does not lead."""


class Notice(StrEnum):
    """What a notice to the bot's processes says changed, about a player (a user id), a
    table (``TABLE``: its key) or nobody in particular (None). The values are what
    PostgreSQL's notices carry."""

    POOL = "pool"  # a winnable deal was taken: the leader tops the pool up
    GAME = "game"  # a player's game: started, moved, a hint counted, or proven lost
    TABLE = "table"  # who is at an Activity's table (about the table's key, not a player)
    SETTINGS = "settings"  # a player's settings
    FORGET = "forget"  # a player was forgotten: drop everything kept of them
    MISSED = "*"  # notices may have been missed: nothing kept is sure (never sent)


Listener = Callable[[Notice, int | None], None]  # a notice, and the player it is about


class Outage:
    """The state of the database's reachability, for the log: one line when an outage
    starts and one when it ends, with how long it lasted."""

    def __init__(self, where: str) -> None:
        self._where = where
        self._since: float | None = None
        STORE_REACHABLE.set(1)

    def failed(self, err: BaseException) -> None:
        if self._since is None:
            self._since = time.monotonic()
            STORE_OUTAGES.inc()
            STORE_REACHABLE.set(0)
            log.warning("the database %s is unreachable (%s: %s); players are told to try "
                        "again shortly", self._where, type(err).__name__, err)

    def succeeded(self) -> None:
        if self._since is not None:
            lasted = time.monotonic() - self._since
            self._since = None
            STORE_REACHABLE.set(1)
            log.warning("the database %s is reachable again, after %.1f s", self._where,
                        lasted)


class Connection(Protocol):
    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        """Every row of a query."""

    async def fetchrow(self, sql: str, *args: Any) -> Any | None:
        """The first row of a query, or None."""

    async def execute(self, sql: str, *args: Any) -> int:
        """Run a statement; how many rows it changed."""

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once for each row of arguments (prepared once, one trip)."""

    async def notify(self, notice: Notice, user_id: int | None = None) -> None:
        """Tell every bot process, this one too, when the transaction commits
        (``Database.listen``) that ``notice`` changed, of player ``user_id`` if one; in a
        transaction only."""


class Database(Protocol):
    #: Where the data lives, for messages (never a password).
    where: str
    #: The SQLite file, or None on PostgreSQL.
    path: Path | None
    #: The newest schema version this backend knows.
    schema_target: int
    #: ``DELETE ... RETURNING deal`` of the oldest pooled deal of game ``$1``, taken by one
    #: caller only: the one statement the backends spell differently.
    take_winnable_sql: str
    #: Whether deleted rows leave the database's files at once (SQLite: overwritten, and
    #: its log emptied), or only at the server's routine maintenance (PostgreSQL: VACUUM
    #: and the recycling of its write-ahead log).
    erases_at_once: bool
    #: Whether a notice reaches every process on the database (PostgreSQL's ``NOTIFY``), or
    #: this process alone (SQLite: another process on the file, the page's or the console,
    #: hears of no change): what may be kept in memory between reads.
    notices_everywhere: bool
    #: `` FOR SHARE`` where a read must hold the rows it reads until its transaction
    #: ends (PostgreSQL); empty where one writer at a time makes it so (SQLite).
    share_lock: str

    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """All or nothing: the block's statements commit together when it ends, or none do."""

    def writer(self) -> AbstractAsyncContextManager[Connection]:
        """A connection of the writers, outside a transaction: the newest committed data,
        for the reads of playing (a player's game), and for writes of one statement, which
        is its own transaction: a move is saved in one trip to the database rather than
        three (begin, write, commit)."""

    def reading(self) -> AbstractAsyncContextManager[Connection]:
        """Committed data for statistics: never waits for a write, nor makes one wait."""

    def as_leader(self, name: str) -> AbstractAsyncContextManager[Connection]:
        """A transaction that commits only while this process leads ``name``: on the very
        session that holds the lease, so a leader that lost it (its connection or the
        server gone) writes nothing. Raises NotLeading if this process does not lead."""

    def listen(self, listener: Listener) -> None:
        """Call ``listener`` with each notice from the bot's processes and its player, and
        with ``Notice.MISSED`` whenever notices may have been missed (the listening
        connection was lost and is back)."""

    async def schema_version(self) -> int: ...

    async def try_lead(self, name: str, on_lost: Callable[[], None]) -> bool:
        """Whether this process holds the lease ``name`` (already, or taken now). While it
        does, ``on_lost`` is called as soon as the lease is seen lost."""

    async def after_forget(self) -> None:
        """Push deleted rows out of logs that would still hold them."""

    async def close(self) -> None: ...

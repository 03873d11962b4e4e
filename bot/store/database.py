"""What the store's rooms ask of a database: the small surface both backends provide.

The rooms write their SQL once, with PostgreSQL's ``$1`` placeholders and the SQL that
SQLite and PostgreSQL share (``ON CONFLICT``, ``RETURNING``, window functions); the SQLite
backend rewrites the placeholders to ``?1``. Rows are read by column name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, Protocol


class StoreError(RuntimeError):
    """The database cannot be used as it is; the message says why."""


class Connection(Protocol):
    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        """Every row of a query."""

    async def fetchrow(self, sql: str, *args: Any) -> Any | None:
        """The first row of a query, or None."""

    async def execute(self, sql: str, *args: Any) -> int:
        """Run a statement; how many rows it changed."""

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once for each row of arguments (prepared once, one trip)."""


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

    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """All or nothing: the block's statements commit together when it ends, or none do."""

    def writer(self) -> AbstractAsyncContextManager[Connection]:
        """A connection of the writers, outside a transaction: the newest committed data,
        for the reads of playing (a player's game), and for writes of one statement, which
        is its own transaction: a move is saved in one trip to the database rather than
        three (begin, write, commit)."""

    def reading(self) -> AbstractAsyncContextManager[Connection]:
        """Committed data for statistics: never waits for a write, nor makes one wait."""

    async def schema_version(self) -> int: ...

    async def try_lead(self, name: str) -> bool: ...

    async def after_forget(self) -> None:
        """Push deleted rows out of logs that would still hold them."""

    async def close(self) -> None: ...

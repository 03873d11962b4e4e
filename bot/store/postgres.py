"""The PostgreSQL backend, for bots that run more than one process or outgrow one machine.

asyncpg with two pools: each transaction takes a connection of the first and
``conn.transaction()``; statistics read on a connection of the second, so a read never waits
for a connection behind the moves, nor a move behind the reads, and MVCC lets them read
beside the writers.
Discord ids are BIGINT. The schema version is kept in ``schema_version``; ``MIGRATIONS``
(``migrations.py``, the schema written once for both backends) lists every step from an
empty database, applied at open under an advisory lock so that processes starting together
migrate once. A change is a new step, never an edit.

Leading: ``try_lead(name)`` takes a session advisory lock on a connection of its own (the
lease's), held for as long as that session lives, so exactly one process syncs commands and
runs the background jobs. The session ending — the process killed, the connection or the
server gone — lets the lock go, and this process hears of it at once (a termination
listener). What only the leader may write is written on that same session
(``as_leader``), so a leader that lost its lease cannot write it.

Notices: ``LISTEN``/``NOTIFY`` on a connection of its own tell every bot process
when a player's cached facts changed, each a ``Notice``'s value, then ``:`` and the user id
if it names a player (``settings:42``); after that connection was lost, ``Notice.MISSED``
says that notices may have been missed. Channel and lease keys are named after the schema, so two
bots sharing a server (or tests sharing one) never hear or block each other.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import asyncpg

from ..ops.metrics import WATCHED
from .database import Listener, Notice, NotLeading, Outage, StoreError, StoreUnavailable
from .migrations import POSTGRES_MIGRATIONS as MIGRATIONS

log = logging.getLogger(__name__)

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
    def __init__(self, conn: asyncpg.Connection, channel: str) -> None:
        self._conn = conn
        self._channel = channel

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

    async def notify(self, notice: Notice, user_id: int | None = None) -> None:
        payload = notice.value if user_id is None else f"{notice.value}:{user_id}"
        await self._conn.execute("SELECT pg_notify($1, $2)", self._channel, payload)


WRITERS = 10  # connections for games, settings and other writes (and the reads they make)
READERS = 2  # connections for statistics: a few reads at a time, each a few tens of ms
RECONNECT_S = 1.0  # the notices' and the lease's connections try again this often
PING_S = 10.0  # and check their session this often (a server gone without a word)
_SERVER_GONE = (
    asyncpg.PostgresConnectionError,  # the connection was lost, or could not be made
    asyncpg.CannotConnectNowError,  # the server is starting or stopping
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.TooManyConnectionsError,
    OSError,  # refused, reset, unreachable
    TimeoutError,
    asyncpg.InternalClientError,  # a connection left mid-operation (below)
)


def _unreachable(err: BaseException) -> bool:
    """Whether ``err`` says the server cannot be reached, rather than something wrong
    with what was asked of it. asyncpg tells a connection lost mid-statement in more than
    one way: a closed connection, or (seen during ``pg_ctl restart -m fast``) its protocol
    left mid-operation, "cannot switch to state 12; another operation (2) is in
    progress", an InternalClientError, which nothing the bot asks can cause otherwise."""
    if isinstance(err, _SERVER_GONE):
        return True
    return isinstance(err, asyncpg.InterfaceError) and "closed" in str(err)


class PostgresDatabase:
    schema_target = SCHEMA_VERSION
    # SKIP LOCKED: two processes asking at once get two different deals, neither waits.
    take_winnable_sql = (
        "DELETE FROM winnable_deals WHERE (game, deal) = (SELECT game, deal FROM winnable_deals "
        "WHERE game = $1 ORDER BY found_at, deal LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING deal"
    )
    share_lock = " FOR SHARE"
    erases_at_once = False  # gone from every answer at commit; from the files at VACUUM
    notices_everywhere = True  # LISTEN/NOTIFY
    path: Path | None = None

    def __init__(self, pool: asyncpg.Pool, readers: asyncpg.Pool, url: str, schema: str) -> None:
        self._pool = pool
        self._readers = readers
        self._url = url
        self.where = describe(url)
        self._outage = Outage(self.where)
        self._schema = schema
        self._channel = f"solitaire:{schema}"
        self._lease: asyncpg.Connection | None = None  # the session that holds the leases
        self._lease_lock = asyncio.Lock()  # one use of that session at a time
        self._held: dict[str, Callable[[], None]] = {}  # lease -> told when it is lost
        self._listener: Listener | None = None
        self._listening: asyncio.Task[None] | None = None
        self._closed = False
        WATCHED.labelled("solitaire_store_connections", "The database's connections this "
                         "process holds, by pool and whether in use", ("pool", "state"),
                         self._connections)

    def _connections(self) -> list[tuple[tuple[str, str], float]]:
        rows: list[tuple[tuple[str, str], float]] = []
        for name, pool in (("writers", self._pool), ("readers", self._readers)):
            idle = pool.get_idle_size()
            rows += [((name, "in_use"), pool.get_size() - idle), ((name, "idle"), idle)]
        return rows

    @classmethod
    async def open(cls, url: str) -> PostgresDatabase:
        where = describe(url)
        try:
            # No floor of idle connections: asyncpg would log a traceback each second
            # while restoring it through an outage; a busy bot keeps its connections.
            pool = await asyncpg.create_pool(url, min_size=0, max_size=WRITERS)
            async with pool.acquire() as conn:
                schema = str(await conn.fetchval("SELECT current_schema()"))
        except (OSError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as err:
            raise StoreError(f"Cannot connect to {where}: {err}") from err
        try:
            await _migrate(pool, where)
            readers = await asyncpg.create_pool(url, min_size=0, max_size=READERS)
        except BaseException:
            await pool.close()
            raise
        return cls(pool, readers, url, schema)

    def _unavailable(self, err: BaseException, *, in_doubt: bool = False) -> StoreUnavailable:
        self._outage.failed(err)
        return StoreUnavailable(f"{self.where}: {err}", in_doubt=in_doubt)

    @asynccontextmanager
    async def _using(self, pool: asyncpg.Pool, *, writes: bool) -> AsyncIterator[Any]:
        """A connection of ``pool``; the server out of reach is StoreUnavailable."""
        try:
            conn = await pool.acquire()
        except Exception as err:
            if _unreachable(err):
                raise self._unavailable(err) from err
            raise
        try:
            yield conn
        except Exception as err:
            if _unreachable(err):
                raise self._unavailable(err, in_doubt=writes) from err
            raise
        finally:
            with contextlib.suppress(Exception):  # a lost connection is dropped, not reused
                await pool.release(conn)
        self._outage.succeeded()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[_Connection]:
        async with self._using(self._pool, writes=True) as conn, conn.transaction():
            yield _Connection(conn, self._channel)

    @asynccontextmanager
    async def writer(self) -> AsyncIterator[_Connection]:
        async with self._using(self._pool, writes=True) as conn:
            yield _Connection(conn, self._channel)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[_Connection]:
        async with self._using(self._readers, writes=False) as conn:
            yield _Connection(conn, self._channel)

    async def schema_version(self) -> int:
        async with self._using(self._pool, writes=False) as conn:
            return await _version(conn)

    # -- notices ------------------------------------------------------------------------

    def listen(self, listener: Listener) -> None:
        self._listener = listener
        if self._listening is None:
            self._listening = asyncio.get_running_loop().create_task(self._keep_listening())

    async def _keep_listening(self) -> None:
        """Listen on a connection of its own, for as long as the database is open; after
        a gap, tell ``"*"``."""
        gap = False
        while not self._closed:
            try:
                conn = await asyncpg.connect(self._url)
            except Exception as err:
                if not _unreachable(err):
                    log.exception("cannot listen for the processes' notices; trying again")
                await asyncio.sleep(RECONNECT_S)
                gap = True
                continue
            try:
                await conn.add_listener(self._channel, self._on_notify)
                self._outage.succeeded()
                if gap:
                    self._tell(Notice.MISSED, None)  # what changed meanwhile is unknown
                while not self._closed:  # until the session is found dead
                    await asyncio.sleep(PING_S)
                    await asyncio.wait_for(conn.fetchval("SELECT 1"), PING_S)
            except Exception as err:
                if not _unreachable(err):
                    log.exception("listening for the processes' notices failed; trying again")
                gap = True
            finally:
                conn.terminate()

    def _on_notify(self, conn: Any, pid: int, channel: str, payload: str) -> None:
        kind, _, who = payload.partition(":")
        try:
            notice = Notice(kind)
        except ValueError:  # told by a newer release: of nothing this one keeps
            log.debug("a notice of an unknown kind: %r", payload)
            return
        self._tell(notice, int(who) if who.isdigit() else None)

    def _tell(self, notice: Notice, user_id: int | None) -> None:
        if self._listener is not None:
            try:
                self._listener(notice, user_id)
            except Exception:
                log.exception("a listener failed on notice %s of %s", notice, user_id)

    # -- leases -------------------------------------------------------------------------

    def _lead_key(self, name: str) -> int:
        return lead_key(f"{self._schema}/{name}")

    async def try_lead(self, name: str, on_lost: Callable[[], None]) -> bool:
        """Whether this process holds lease ``name``: already (its session still answers),
        or taken now."""
        async with self._lease_lock:
            try:
                conn = self._lease
                if conn is None or conn.is_closed():
                    conn = self._lease = await asyncpg.connect(self._url)
                    conn.add_termination_listener(self._lease_ended)
                if name in self._held:
                    await asyncio.wait_for(conn.fetchval("SELECT 1"), PING_S)
                    self._outage.succeeded()
                    return True
                took = bool(await conn.fetchval(
                    "SELECT pg_try_advisory_lock($1)", self._lead_key(name)
                ))
            except Exception as err:
                if self._lease is not None:
                    self._lease.terminate()  # whatever it held is let go with it
                    self._lease_ended(self._lease)
                if _unreachable(err):
                    raise self._unavailable(err) from err
                raise
            self._outage.succeeded()
            if took:
                self._held[name] = on_lost
            return took

    def _lease_ended(self, conn: Any) -> None:
        """The lease's session is over: every lease it held is lost, at once."""
        if conn is not self._lease:
            return
        self._lease = None
        held, self._held = self._held, {}
        for on_lost in held.values():
            on_lost()

    @asynccontextmanager
    async def as_leader(self, name: str) -> AsyncIterator[_Connection]:
        async with self._lease_lock:
            conn = self._lease
            if conn is None or conn.is_closed() or name not in self._held:
                raise NotLeading(f"this process does not hold the lease {name!r}")
            try:
                async with conn.transaction():
                    yield _Connection(conn, self._channel)
            except Exception as err:
                if _unreachable(err):
                    raise self._unavailable(err, in_doubt=True) from err
                raise

    async def after_forget(self) -> None:
        """Deleted rows are gone for every reader at commit; the server's WAL and vacuum
        are the operator's, as with any PostgreSQL database (README: Running big)."""

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._listening is not None:
            self._listening.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listening
        async with self._lease_lock:
            if self._lease is not None:
                lease, self._lease = self._lease, None
                self._held.clear()
                with contextlib.suppress(Exception):
                    await lease.close(timeout=2)
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

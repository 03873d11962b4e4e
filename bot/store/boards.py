"""Each player's live board message in each channel: kept in memory, written behind.

Every board posted replaces the player's previous one in that channel, which is then
collapsed: one swap a /move. Asking the database for it each time cost a trip to its
thread on every move, so the swap happens here, in memory, and what changed is written
to the database ``WRITE_AFTER_S`` later, all of it in one statement. The database is read
only for a player and channel not seen since the process started (or long forgotten).

This is sound because a channel is served by one process: a server's interactions go to
its shard, and every process serves its own shards. What the database holds is for the
next start. A crash loses at most the last second of swaps, so after a restart at most
the board posted in that second is left standing, not collapsed; no game or result
depends on it. While the database cannot be reached, at most ``UNWRITTEN`` swaps wait
(the oldest are dropped beyond that, and the log says how many).

A forgotten player (`/forget-me`, in any process) is dropped from every process's memory
by the processes' notice, and a swap still waiting to be written never brings their row
back: a row is written only for a player who has a game, checked in the same statement
(and on PostgreSQL with the game's row locked, so a forget committing meanwhile waits
for the write, then deletes what it wrote, or the write sees the game gone).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping

from engine.lru import LRU

from .database import Database, StoreUnavailable

log = logging.getLogger(__name__)

Key = tuple[int, int]  # (user id, channel id)
REMEMBERED = 500  # players' channels kept in memory, the most recently used (the active
# ones, as for the bot's other caches of players); any other pair costs one read
WRITE_AFTER_S = 1.0  # a swap reaches the database this long after it, at most (and more)
UNWRITTEN = 10_000  # swaps waiting for the database at most (an outage); older ones dropped


class LiveBoards:
    """``read(user, channel)`` gives the board stored for a pair, ``write(changes)`` stores
    several at once; ``lock`` is held while writing (forgetting a player takes it too, so
    that no write in flight brings their rows back)."""

    def __init__(
        self,
        read: Callable[[int, int], Awaitable[int | None]],
        write: Callable[[Mapping[Key, int]], Awaitable[None]],
        *,
        write_after_s: float = WRITE_AFTER_S,
        remembered: int = REMEMBERED,
        unwritten: int = UNWRITTEN,
    ) -> None:
        self._read = read
        self._write = write
        self._write_after_s = write_after_s
        self._most_unwritten = unwritten
        self._dropped = 0  # swaps dropped unwritten since the last write that went through
        self._forgets = 0  # players forgotten so far: a swap reading meanwhile records nothing
        self._known: LRU[Key, int | None] = LRU(remembered)
        self._unwritten: dict[Key, int] = {}
        self._writing: dict[Key, int] = {}  # the changes of the write under way
        self._writer: asyncio.Task[None] | None = None
        self.lock = asyncio.Lock()
        self._closed = False

    async def swap(self, user_id: int, channel_id: int, message_id: int) -> int | None:
        """Make ``message_id`` the live board; the one it replaces, or None (none, or the
        same message again)."""
        key = (user_id, channel_id)
        if key not in self._known:
            forgets = self._forgets
            stored = await self._stored(key)
            if self._forgets != forgets:  # a player was forgotten while the database answered
                return None  # (maybe this one): keep nothing of it
            if key not in self._known:  # no swap came in while the database answered
                self._known[key] = stored
        previous = self._known.get(key)
        self._known[key] = message_id
        if self._closed:
            return None if previous == message_id else previous
        self._unwritten[key] = message_id
        while len(self._unwritten) > self._most_unwritten:
            del self._unwritten[next(iter(self._unwritten))]  # the oldest
            if not self._dropped:
                log.warning("more than %d board swaps wait for the database: the oldest are "
                            "dropped (those boards stay uncollapsed after a restart)",
                            self._most_unwritten)
            self._dropped += 1
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_later())
        return None if previous == message_id else previous

    async def _stored(self, key: Key) -> int | None:
        """The board of a pair no longer in memory: the newest one not yet written (it
        may have been pushed out before its write), or else the database's."""
        for pending in (self._unwritten, self._writing):
            if key in pending:
                return pending[key]
        return await self._read(*key)

    def newer(self, user_id: int) -> dict[int, int | None]:
        """What this process knows of a player's live boards beyond the database's rows:
        channel id -> message id (None: none there), the newest swap of each channel."""
        known: dict[int, int | None] = {}
        for pending in (self._writing, self._unwritten):
            known.update({channel: message for (user, channel), message in pending.items()
                          if user == user_id})
        known.update({key[1]: self._known.get(key) for key in list(self._known)
                      if key[0] == user_id})
        return known

    def forget(self, user_id: int) -> None:
        """Drop everything kept about a player (their rows are deleted by the caller)."""
        self._forgets += 1
        for key in [k for k in self._known if k[0] == user_id]:
            self._known.pop(key)
        for pending in (self._unwritten, self._writing):
            for key in [k for k in pending if k[0] == user_id]:
                del pending[key]

    def drop_memory(self) -> None:
        """Forget which boards are live (not what waits to be written): the next swap of
        each pair asks the database, after notices may have been missed."""
        self._forgets += 1
        self._known.clear()

    @property
    def unwritten(self) -> int:
        return len(self._unwritten)

    async def _write_later(self) -> None:
        while self._unwritten:
            await asyncio.sleep(self._write_after_s)
            await self.write_now()

    async def write_now(self) -> None:
        """Write what changed since the last write. On a failure the changes stay, to go
        with the next write (a newer swap of the same pair wins)."""
        async with self.lock:
            changes, self._unwritten = self._unwritten, {}
            if not changes:
                return
            self._writing = changes
            try:
                await self._write(changes)
            except BaseException as exc:  # kept for the next write, even if cancelled
                self._unwritten = changes | self._unwritten
                if isinstance(exc, StoreUnavailable):
                    return  # the outage is in the log already; the next write tries again
                if not isinstance(exc, Exception):
                    raise
                log.exception("could not store %d live boards; trying again", len(changes))
            finally:
                self._writing = {}
            if self._dropped:
                log.warning("board swaps are written again; %d were dropped meanwhile",
                            self._dropped)
                self._dropped = 0

    async def close(self) -> None:
        """Stop the timer and write what is left; after this, swaps are kept in memory
        only (the database is closing). Closing again does nothing."""
        if self._closed:
            return
        self._closed = True
        if self._writer is not None and not self._writer.done():
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
        await self.write_now()


class BoardStore:
    """The live boards over the database's ``board_messages`` table."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self.live = LiveBoards(self._stored, self._store)

    async def swap(self, user_id: int, channel_id: int, message_id: int) -> int | None:
        """Make ``message_id`` the player's live board in ``channel_id``; the board it
        replaces there (to collapse or delete), or None if there was none — or if it is
        this same message. Swapped in memory and written about a second later (the one
        exception to writing before returning)."""
        return await self.live.swap(user_id, channel_id, message_id)

    async def of_player(self, user_id: int) -> dict[int, int]:
        """The player's live boards, channel id -> message id: those a move made elsewhere
        (the page) brings up to date."""
        async with self._db.writer() as conn:
            rows = await conn.fetch(
                "SELECT channel_id, message_id FROM board_messages WHERE user_id = $1", user_id)
        boards: dict[int, int | None] = {int(r["channel_id"]): int(r["message_id"])
                                         for r in rows}
        boards.update(self.live.newer(user_id))
        return {channel: message for channel, message in boards.items() if message is not None}

    async def close(self) -> None:
        await self.live.close()

    async def _stored(self, user_id: int, channel_id: int) -> int | None:
        async with self._db.writer() as conn:
            row = await conn.fetchrow(
                "SELECT message_id FROM board_messages WHERE user_id = $1 AND channel_id = $2",
                user_id, channel_id,
            )
        return None if row is None else int(row["message_id"])

    async def _store(self, boards: Mapping[Key, int]) -> None:
        # One statement, prepared once, for every row: a statement whose text grew with
        # the number of rows would fill the databases' statement caches with big copies.
        # Only for a player who has a game: a forgotten one's row never comes back.
        async with self._db.transaction() as conn:
            await conn.executemany(
                "INSERT INTO board_messages (user_id, channel_id, message_id) "
                "SELECT $1, $2, $3 WHERE EXISTS "
                f"(SELECT 1 FROM games WHERE user_id = $1{self._db.share_lock}) "
                "ON CONFLICT (user_id, channel_id) DO UPDATE "
                "SET message_id = excluded.message_id",
                [(user, channel, message) for (user, channel), message in boards.items()],
            )

"""Whose game changed, for whoever follows a player's game live (the page's socket): each
follower is woken when the store hears of a change to that player's game (or to who is at
a table it follows), from this process or, where the database's notices reach every
process (PostgreSQL's ``LISTEN``/``NOTIFY``), from any. Where they do not (SQLite, whose
file another process may share: a page's process beside the bot's), the games followed are
also looked at every ``LOOK_S`` while anyone follows one, in one query, and a change found
there wakes its followers too. (A table's followers there look at its seats themselves as
often: ``LOOK_S``.)

A wake says only "look again": several changes may make one wake, and a wake may find
nothing new (the follower compares what it shows with the game as it is).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator

from ..store.database import StoreUnavailable
from ..store.games import GameStore
from ..store.saved import GameMark

log = logging.getLogger(__name__)

LOOK_S = 1.0  # without notices from every process: the games followed are looked at this often


class Follower:
    """One follower of a player's game: ``wait`` returns once it changed (or may have) since
    the last wait returned."""

    def __init__(self) -> None:
        self._changed = asyncio.Event()

    def wake(self) -> None:
        self._changed.set()

    @property
    def woken(self) -> bool:
        """Whether it was woken since the last wait returned (or ``clear``)."""
        return self._changed.is_set()

    def clear(self) -> None:
        self._changed.clear()

    async def wait(self) -> None:
        await self._changed.wait()
        self._changed.clear()


class Changes:
    """The followers of each player's game, woken by ``tell``. ``everywhere``: whether the
    store hears every process's changes (else ``games`` is looked at every ``look_s``)."""

    def __init__(self, games: GameStore, *, everywhere: bool, look_s: float = LOOK_S) -> None:
        self._games = games
        self._everywhere = everywhere
        self._look_s = look_s
        self._following: dict[int, set[Follower]] = {}
        self._tables: dict[int, set[Follower]] = {}  # by table key
        self._looking: asyncio.Task[None] | None = None

    @property
    def everywhere(self) -> bool:
        """Whether every process's changes are heard (else: looked for every ``look_s``)."""
        return self._everywhere

    @property
    def followers(self) -> int:
        """How many follow a game now."""
        return sum(len(some) for some in self._following.values())

    @contextlib.contextmanager
    def follow(self, user_id: int, follower: Follower | None = None) -> Iterator[Follower]:
        """A follower of the player's game, for as long as the ``with`` lasts (``follower``:
        one that follows other things too, a table's players' games)."""
        follower = follower or Follower()
        self._following.setdefault(user_id, set()).add(follower)
        if not self._everywhere and self._looking is None:
            self._looking = asyncio.create_task(self._look(), name="looking at games followed")
        try:
            yield follower
        finally:
            some = self._following[user_id]
            some.discard(follower)
            if not some:
                del self._following[user_id]

    @contextlib.contextmanager
    def follow_table(self, key: int, follower: Follower) -> Iterator[Follower]:
        """``follower`` is woken too when who is at the table ``key`` changes."""
        self._tables.setdefault(key, set()).add(follower)
        try:
            yield follower
        finally:
            some = self._tables[key]
            some.discard(follower)
            if not some:
                del self._tables[key]

    def tell_table(self, key: int) -> None:
        """Who is at the table ``key`` changed: wake its followers."""
        for follower in self._tables.get(key, ()):
            follower.wake()

    def tell(self, user_id: int | None) -> None:
        """The player's game changed (None: anyone's may have, and anyone may have sat down
        or left): wake their followers."""
        if user_id is None:
            for some in (*self._following.values(), *self._tables.values()):
                for follower in some:
                    follower.wake()
            return
        for follower in self._following.get(user_id, ()):
            follower.wake()

    def close(self) -> None:
        """Stop looking (the core is closing)."""
        if self._looking is not None:
            self._looking.cancel()
            self._looking = None

    async def _look(self) -> None:
        """While anyone follows a game: look at the games followed, and wake the followers of
        each that changed since the last look (or is looked at for the first time, as it may
        have changed since its follower last read it)."""
        seen: dict[int, GameMark | None] = {}
        try:
            while self._following:
                await asyncio.sleep(self._look_s)
                players = list(self._following)
                try:
                    marks = await self._games.marks(players)
                except StoreUnavailable:
                    continue  # the next look tries again
                except Exception:
                    log.exception("cannot look at the games followed; trying again")
                    continue
                for user_id in players:
                    mark = marks.get(user_id)
                    if user_id not in seen or seen[user_id] != mark:
                        seen[user_id] = mark
                        self.tell(user_id)
                for user_id in seen.keys() - set(players):
                    del seen[user_id]
        finally:
            if self._looking is asyncio.current_task():
                self._looking = None

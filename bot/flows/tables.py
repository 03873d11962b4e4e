"""An Activity's table: everyone whose page is connected to one instance of it (Discord's
``instanceId``, or a dev table's name), in any process, each with how far their game has
got. A page sits down for as long as its socket is open (``sitting``); this process keeps
its pages' seats fresh every ``KEEP_S``, and a process gone leaves its seats to go stale
(``store.seats.STALE_S``), cleared by any process still keeping its own.

A player's progress is what anyone at the table may see, whether or not their boards are
private: the game, its cards home and its moves, never the cards themselves.

Each process looks at a table once for all its pages there (``Watch``), and reads again only
the games that changed: a table of a hundred racers each moving once a second is a hundred
reads a second, not a hundred for each of their pages.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from ..ops.metrics import WATCHED
from ..store.database import StoreUnavailable
from ..store.games import GameStore
from ..store.races import COUNTING, OVER, RUNNING, Race
from ..store.seats import Seat, Seated, SeatStore, table_key
from .changes import LOOK_S, Changes, Follower
from .races import AWAY_S, Races
from .settings import PlayerSettings

log = logging.getLogger(__name__)

KEEP_S = 20.0  # this process's seats are kept fresh this often (a third of STALE_S)
# A table that changed is looked at again at most this often: at a table of a hundred
# racers each moving once a second, its pages are sent a few lists a second, not a hundred.
EVERY_S = 0.25
DRIVE_S = 5.0  # a running race is looked at this often (its racers who left, its limit)


@dataclass(frozen=True)
class Instance:
    """An Activity's instance as Discord tells it: who is connected to it now, and where it
    was opened (the channel, and its server; None: none, or not said)."""

    users: frozenset[int]
    channel_id: int | None = None
    guild_id: int | None = None


@dataclass(frozen=True)
class Progress:
    """How far a player's current game has got."""

    game_id: str
    home: int  # cards on the foundations
    cards: int  # of so many
    moves: int
    finished: bool  # won, lost or resigned: over
    won: bool


@dataclass(frozen=True)
class AtTable:
    """A player at a table: who (as they signed in), their game's progress (None: no
    game), and whether their boards are private (then their table cannot be watched)."""

    user_id: int
    name: str
    avatar: str | None
    progress: Progress | None
    private: bool = False


class _Marked(Follower):
    """A follower of one player's game at a watched table: its wake also wakes the watch."""

    def __init__(self, watch: asyncio.Event) -> None:
        super().__init__()
        self._watch = watch

    def wake(self) -> None:
        super().wake()
        self._watch.set()


class Watch:
    """This process's look at one table, shared by all its pages there: who is at it and
    their progress (``players``), looked at again whenever anyone sits down or leaves and
    whenever one of their games changes (only theirs is read again). ``looks`` counts its
    looks, ``version`` those that found something new (0: not looked yet); ``changed``
    waits for the next version, ``looked`` for a look."""

    def __init__(self, tables: Tables, changes: Changes, instance: str) -> None:
        self.instance = instance
        self.players: list[AtTable] = []
        self.race: Race | None = None  # the table's race, under way or just over
        self._away: dict[int, float] = {}  # racers not at the table, since when (seen here)
        self._drive_at = 0.0  # when the running race is next moved on, at the latest
        self.version = 0
        self.looks = 0  # the looks done, each counted as it began (``begun``)
        self.begun = 0
        self._tables = tables
        self._changes = changes
        self._new = asyncio.Condition()
        self._woken = asyncio.Event()
        self._seats = _Marked(self._woken)  # woken when anyone sits down or leaves
        self._seated: list[Seated] = []
        # each seated player's game followed, and their standing as last read
        self._games: dict[int, tuple[_Marked, contextlib.ExitStack]] = {}
        self._standing: dict[int, tuple[Progress | None, bool]] = {}
        self._task: asyncio.Task[None] | None = None

    async def changed(self, seen: int) -> None:
        """Once ``version`` is past ``seen``."""
        async with self._new:
            await self._new.wait_for(lambda: self.version > seen)

    def look_again(self) -> None:
        """Read who is at the table again, now (a page of this process just sat down)."""
        self._seats.wake()

    async def looked(self, since: int) -> None:
        """Once a look begun after the ``since``-th (``begun``) is done: it read the table
        as it was then, or later."""
        async with self._new:
            await self._new.wait_for(lambda: self.looks > since)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"watching table {self.instance}")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        try:
            with self._changes.follow_table(table_key(self.instance), self._seats):
                self._seats.wake()
                while True:
                    try:
                        version = self.version
                        await self._look()
                        await self._drive()
                    except StoreUnavailable:
                        self._seats.wake()  # the next look reads everything again
                        await asyncio.sleep(LOOK_S)
                        continue
                    except Exception:
                        log.exception("looking at table %s failed; looking again", self.instance)
                        self._seats.wake()
                        await asyncio.sleep(LOOK_S)
                        continue
                    if self.version != version:
                        await asyncio.sleep(EVERY_S)  # what changes meanwhile, looked at once
                    await self._wait(self._due())
        finally:
            for _, following in self._games.values():
                following.close()

    async def _look(self) -> None:
        self._woken.clear()
        self.begun += 1
        look = self.begun
        race = self.race
        if self._seats.woken or not self._changes.everywhere:
            # (every change to the table's race is a notice about the table, as a seat's is)
            self._seats.clear()
            self._seated = await self._tables.seats.at(self.instance, self._tables.now())
            self._follow({s.user_id for s in self._seated})
            race = await self._tables.races.at(self.instance)
        for user_id, (marked, _) in self._games.items():
            if marked.woken:
                marked.clear()
                self._standing[user_id] = await self._tables.standing(user_id)
        players = [AtTable(s.user_id, s.name, s.avatar,
                           *self._standing.get(s.user_id, (None, False)))
                   for s in self._seated]
        async with self._new:
            if players != self.players or race != self.race or not self.version:
                self.players, self.race = players, race
                self.version += 1
            self.looks = look
            self._new.notify_all()

    def _follow(self, at: set[int]) -> None:
        """Follow the games of those at the table now, and no longer those who left."""
        for user_id in self._games.keys() - at:
            self._games.pop(user_id)[1].close()
            self._standing.pop(user_id, None)
        for user_id in at - self._games.keys():
            following = contextlib.ExitStack()
            marked = _Marked(self._woken)
            following.enter_context(self._changes.follow(user_id, marked))
            self._games[user_id] = (marked, following)
            marked.wake()  # (read at once)

    def _due(self) -> float | None:
        """In how many seconds the table's race is next to be moved on (None: no race to
        move on)."""
        race, now = self.race, self._tables.now()
        if race is None or race.status == OVER:
            return None
        if race.status == COUNTING:
            return max(0.0, race.starts_at - now)
        return min(DRIVE_S, max(0.0, (race.ends_at or now) - now) + 0.05)

    async def _drive(self) -> None:
        """Move the table's race on, if it is time: begin it, record the racers who left,
        end it (``Races.advance``)."""
        race, now = self.race, self._tables.now()
        if race is None or race.status == OVER:
            self._away.clear()
            return
        if race.status == COUNTING and now < race.starts_at:
            return
        at = {p.user_id for p in self.players}
        for racer in race.racers:
            if racer.user_id in at or racer.outcome is not None:
                self._away.pop(racer.user_id, None)
            else:
                self._away.setdefault(racer.user_id, now)
        away = {u for u, since in self._away.items() if now - since >= AWAY_S}
        if (race.status == RUNNING and now < self._drive_at and not away
                and all(r.dealt for r in race.racers)
                and any(r.outcome is None for r in race.racers)):
            return  # nothing to do before the next round (``DRIVE_S``)
        self._drive_at = now + DRIVE_S
        moved = await self._tables.races.advance(race, away, self._home)
        if moved != race:
            self._seats.wake()  # (its notice wakes it too, where notices are heard)

    def _home(self, user_id: int) -> int:
        standing = self._standing.get(user_id)
        progress = None if standing is None else standing[0]
        return 0 if progress is None else progress.home

    async def _wait(self, due: float | None) -> None:
        """Until anything the table shows may have changed: at once where every process's
        changes are heard; else at most ``LOOK_S`` (seats taken in another process); and
        no later than ``due`` (the race's next step; None: none)."""
        if not self._changes.everywhere:
            due = LOOK_S if due is None else min(due, LOOK_S)
        if due is None:
            await self._woken.wait()
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(due):
                await self._woken.wait()


class Tables:
    def __init__(self, seats: SeatStore, games: GameStore, settings: PlayerSettings,
                 changes: Changes, races: Races,
                 clock: Callable[[], float] = time.time) -> None:
        self.seats = seats
        self.races = races
        self._games = games
        self._settings = settings
        self._changes = changes
        self._clock = clock
        self._mine: dict[str, Seat] = {}  # this process's pages' seats, by seat id
        self._keeping: asyncio.Task[None] | None = None
        self._watches: dict[str, tuple[Watch, int]] = {}  # by instance, with its pages
        WATCHED.gauge("solitaire_table_seats", "This process's pages seated at an Activity's "
                      "table", lambda: len(self._mine))
        WATCHED.gauge("solitaire_races_under_way", "Races counting down or running at the "
                      "tables this process's pages sit at", self.races_under_way)

    def now(self) -> float:
        return self._clock()

    @property
    def seated(self) -> int:
        """How many of this process's pages sit at a table now."""
        return len(self._mine)

    def races_under_way(self) -> int:
        """The races counting down or running at the tables this process watches."""
        return sum(w.race is not None and w.race.status != OVER
                   for w, _ in self._watches.values())

    @contextlib.asynccontextmanager
    async def sitting(self, seat: Seat) -> AsyncIterator[tuple[Watch, int]]:
        """The page sits at its table for as long as the ``with`` lasts; yields this
        process's watch of that table, and the look past which it shows the page seated
        (``Watch.looked``)."""
        await self.seats.sit(seat, self._clock())  # (first: a new watch's first look sees it)
        self._mine[seat.seat] = seat
        if self._keeping is None:
            self._keeping = asyncio.create_task(self._keep(), name="keeping the seats")
        try:
            async with self.watching(seat.instance) as watch:
                since = watch.begun
                if since:  # a watch already looking: it looks again, with this seat
                    watch.look_again()
                yield watch, since
        finally:
            self._mine.pop(seat.seat, None)
            try:
                await self.seats.leave(seat)
            except StoreUnavailable:  # its seat goes stale, and is cleared then
                log.info("a page left its table while the database was out of reach")

    async def standing(self, user_id: int) -> tuple[Progress | None, bool]:
        """How far the player's current game has got (None: no game), and whether their
        boards are private."""
        private = await self._settings.private(user_id)
        saved = await self._games.load(user_id)
        if saved is None:
            return None, private
        game = saved.game
        return Progress(game.rules.id, game.cards_on_foundations, game.rules.card_count,
                        game.moves_made, saved.is_finished, game.is_won), private

    def close(self) -> None:
        """Stop keeping the seats (the core is closing: its pages' sockets close too)."""
        if self._keeping is not None:
            self._keeping.cancel()
            self._keeping = None

    @contextlib.asynccontextmanager
    async def watching(self, instance: str) -> AsyncIterator[Watch]:
        """This process's one watch of the table, for as long as any of its pages sits
        there or watches a player's table there."""
        watch, pages = self._watches.get(instance, (None, 0))
        if watch is None:
            watch = Watch(self, self._changes, instance)
            watch.start()
        self._watches[instance] = (watch, pages + 1)
        try:
            yield watch
        finally:
            watch, pages = self._watches[instance]
            if pages > 1:
                self._watches[instance] = (watch, pages - 1)
            else:
                del self._watches[instance]
                await watch.stop()

    async def _keep(self) -> None:
        try:
            while self._mine:
                await asyncio.sleep(KEEP_S)
                try:
                    await self.seats.keep(list(self._mine), self._clock())
                except StoreUnavailable:
                    continue  # the next round tries again (seats last STALE_S)
                except Exception:
                    log.exception("cannot keep the seats at the tables; trying again")
        finally:
            if self._keeping is asyncio.current_task():
                self._keeping = None

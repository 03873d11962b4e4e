"""Races at an Activity's table: one player starts one for a game, the others at the table
join it while its countdown runs, and as it ends every racer is dealt the same
proven-winnable deal, taken from the pool then (nobody has seen it before).

A race goes counting -> running -> over, each step one conditional statement, so two
processes driving the same race move it once: the one whose statement begins it takes its
deal, in the same transaction. One race is under way at a table at a time (a unique
index). Each racer's outcome is written by ``games.py`` in the transaction that records
their game as finished, if it finished before the race's limit (``ends_at``); a racer who
leaves the table is recorded as resigned (``resign``). Every change is a notice about the
table (``Notice.TABLE``), so every page at it, in any process, looks again.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .database import Connection, Database, Notice
from .pool import take_pooled
from .seats import table_key
from .statuses import RESIGNED, GameStatus

SHOWN_AFTER_S = 10 * 60  # a race over is still shown at its table this long


class RaceStatus(StrEnum):
    COUNTING = "counting"  # counting down: players may join
    RUNNING = "running"  # dealt: the racers are playing
    OVER = "over"


COUNTING, RUNNING, OVER = RaceStatus


class _NoDeal(Exception):
    """The pool had no deal for a race beginning: its transaction writes nothing."""


class NotRaceable(RuntimeError):
    """A game to start for a race that is not the player's to be dealt now (not running,
    not a racer, already dealt, another game or deal): nothing was written."""


@dataclass(frozen=True)
class Racer:
    user_id: int
    name: str
    guild_id: int | None
    joined_at: float
    dealt: bool
    outcome: GameStatus | None  # None: still racing, or did not finish by the limit
    moves: int | None
    seconds: float | None
    hints: int
    home: int | None


@dataclass(frozen=True)
class Race:
    id: int
    instance: str
    guild_id: int | None
    channel_id: int | None
    game: str
    deal: int | None
    status: RaceStatus
    started_by: int
    created_at: float
    starts_at: float
    begun_at: float | None
    ends_at: float | None
    language: str
    posted: bool
    racers: tuple[Racer, ...]

    def racer(self, user_id: int) -> Racer | None:
        return next((r for r in self.racers if r.user_id == user_id), None)


@dataclass(frozen=True)
class NewRace:
    """What ``RaceStore.create`` is asked to make."""

    instance: str
    guild_id: int | None
    channel_id: int | None
    game: str
    starter: int
    name: str
    starter_guild: int | None
    language: str


class RaceStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def create(self, new: NewRace, now: float, starts_at: float) -> Race | None:
        """A race counting down at its table, the starter its first racer; None when one is
        under way there already (the unique index decides between two made at once)."""
        tab = table_key(new.instance)
        async with self._db.transaction() as conn:
            row = await conn.fetchrow(
                "INSERT INTO races (tab, instance, guild_id, channel_id, game, status, "
                "started_by, created_at, starts_at, language, posted) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) "
                "ON CONFLICT DO NOTHING RETURNING id",
                tab, new.instance, new.guild_id, new.channel_id, new.game, COUNTING,
                new.starter, float(now), float(starts_at), new.language, False)
            if row is None:
                return None
            race_id = int(row["id"])
            await _add_racer(conn, race_id, new.starter, new.name, new.starter_guild, now)
            await conn.notify(Notice.TABLE, tab)
        return await self.get(race_id)

    async def get(self, race_id: int) -> Race | None:
        async with self._db.reading() as conn:
            row = await conn.fetchrow("SELECT * FROM races WHERE id = $1", race_id)
            return None if row is None else await _race(conn, row)

    async def at(self, instance: str, now: float) -> Race | None:
        """The table's race: the one under way, else the last one over within
        ``SHOWN_AFTER_S`` (its result still shown); None: none."""
        async with self._db.reading() as conn:
            row = await conn.fetchrow(
                "SELECT * FROM races WHERE tab = $1 AND instance = $2 "
                "AND (status <> $3 OR ended_at >= $4) ORDER BY id DESC LIMIT 1",
                table_key(instance), instance, OVER, float(now - SHOWN_AFTER_S))
            return None if row is None else await _race(conn, row)

    async def join(self, race_id: int, user_id: int, name: str, guild_id: int | None,
                   now: float) -> bool:
        """Add a racer while the race counts down; whether they are one now."""
        async with self._db.transaction() as conn:
            race = await conn.fetchrow(
                "SELECT tab FROM races WHERE id = $1 AND status = $2 AND starts_at > $3"
                + self._db.share_lock, race_id, COUNTING, float(now))
            if race is None:
                return False
            await _add_racer(conn, race_id, user_id, name, guild_id, now)
            await conn.notify(Notice.TABLE, int(race["tab"]))
        return True

    async def begin(self, race_id: int, now: float, ends_at: float, *,
                    deal: int | None = None) -> bool | None:
        """Begin a race whose countdown is over, its deal taken from the winnable pool now
        (or ``deal``, proven on the spot when the pool had none): True if this call began
        it, False if it is not counting down (begun by another), None if the pool had no
        deal for it (nothing written). The statement that begins it comes first: of two
        calls at once, the second waits for the first and then finds it begun."""
        try:
            async with self._db.transaction() as conn:
                race = await conn.fetchrow(
                    "UPDATE races SET status = $2, begun_at = $3, ends_at = $4 "
                    "WHERE id = $1 AND status = $5 AND starts_at <= $3 RETURNING tab, game",
                    race_id, RUNNING, float(now), float(ends_at), COUNTING)
                if race is None:
                    return False
                if deal is None:
                    deal = await take_pooled(self._db, conn, str(race["game"]))
                    if deal is None:
                        raise _NoDeal
                await conn.execute("UPDATE races SET deal = $2 WHERE id = $1", race_id, deal)
                await conn.notify(Notice.TABLE, int(race["tab"]))
        except _NoDeal:
            return None
        return True

    async def resign(self, race_id: int, user_id: int, now: float, home: int) -> bool:
        """A racer who left the table, recorded as having resigned (if still racing)."""
        async with self._db.transaction() as conn:
            race = await conn.fetchrow(
                "SELECT tab FROM races WHERE id = $1 AND status = $2 AND ends_at >= $3",
                race_id, RUNNING, float(now))
            if race is None:
                return False
            resigned = await conn.execute(
                "UPDATE racers SET outcome = $3, moves = 0, seconds = 0, hints = 0, "
                "home = $4 WHERE race_id = $1 AND user_id = $2 AND outcome IS NULL",
                race_id, user_id, RESIGNED, home)
            if resigned:
                await conn.notify(Notice.TABLE, int(race["tab"]))
        return bool(resigned)

    async def close(self, race_id: int, now: float) -> bool:
        """End a running race whose racers have all finished, or whose limit has passed:
        True for the one call that ended it."""
        async with self._db.transaction() as conn:
            row = await conn.fetchrow(
                "UPDATE races SET status = $2, ended_at = $4 WHERE id = $1 AND status = $3 "
                "AND (ends_at < $4 OR NOT EXISTS "
                "(SELECT 1 FROM racers WHERE race_id = $1 AND outcome IS NULL)) "
                "RETURNING tab", race_id, OVER, RUNNING, float(now))
            if row is not None:
                await conn.notify(Notice.TABLE, int(row["tab"]))
        return row is not None

    async def call_off(self, race_id: int, now: float) -> bool:
        """End a race that cannot begin (no deal could be found for it, say)."""
        async with self._db.transaction() as conn:
            row = await conn.fetchrow(
                "UPDATE races SET status = $2, posted = $3, ended_at = $5 WHERE id = $1 "
                "AND status = $4 RETURNING tab", race_id, OVER, True, COUNTING, float(now))
            if row is not None:
                await conn.notify(Notice.TABLE, int(row["tab"]))
        return row is not None

    async def left_behind(self, now: float, counting_for: float) -> list[Race]:
        """The races no page drove on in time: running past their limit, or still counting
        down ``counting_for`` after their countdown ended."""
        async with self._db.reading() as conn:
            rows = await conn.fetch(
                "SELECT * FROM races WHERE (status = $1 AND ends_at < $2) "
                "OR (status = $3 AND starts_at < $4) ORDER BY id",
                RUNNING, float(now), COUNTING, float(now - counting_for))
            return [await _race(conn, row) for row in rows]

    async def to_post(self, race_id: int) -> bool:
        """Whether this call is the one to post the race's result (once, by one process)."""
        async with self._db.writer() as conn:
            return bool(await conn.execute(
                "UPDATE races SET posted = $2 WHERE id = $1 AND status = $3 AND NOT posted",
                race_id, True, OVER))

    async def of_player(self, user_id: int, guild_id: int | None) -> list[Race]:
        """The races over that the player raced in (in one server, or everywhere)."""
        where = "" if guild_id is None else " AND races.guild_id = $3"
        args = () if guild_id is None else (guild_id,)
        async with self._db.reading() as conn:
            rows = await conn.fetch(
                "SELECT races.* FROM races JOIN racers ON racers.race_id = races.id "
                "WHERE racers.user_id = $1 AND races.status = $2 "
                f"AND races.begun_at IS NOT NULL{where} ORDER BY races.id",
                user_id, OVER, *args)
            return [await _race(conn, row) for row in rows]


async def _add_racer(conn: Connection, race_id: int, user_id: int, name: str,
                     guild_id: int | None, now: float) -> None:
    await conn.execute(
        "INSERT INTO racers (race_id, user_id, name, guild_id, joined_at, dealt, hints) "
        "VALUES ($1, $2, $3, $4, $5, $6, 0) ON CONFLICT DO NOTHING",
        race_id, user_id, name, guild_id, float(now), False)


async def check_raceable(conn: Connection, share_lock: str, race_id: int, user_id: int,
                         game_id: str, deal: int, draw: bool) -> None:
    """Raise NotRaceable unless this game may be the player's game of ``race_id`` now (the
    race running, the player a racer not yet dealt, its game and deal); marks them dealt."""
    race = await conn.fetchrow(
        "SELECT id FROM races WHERE id = $1 AND status = $2 AND game = $3 AND deal = $4"
        + share_lock, race_id, RUNNING, game_id, deal)
    dealt = 0 if race is None or draw else await conn.execute(
        "UPDATE racers SET dealt = $3 WHERE race_id = $1 AND user_id = $2 AND NOT dealt "
        "AND outcome IS NULL", race_id, user_id, True)
    if not dealt:
        raise NotRaceable(f"user {user_id}: race {race_id} is not theirs to be dealt "
                          f"{game_id} deal {deal}")


async def record_racer(conn: Connection, race_id: int, user_id: int, outcome: GameStatus,
                       moves: int, seconds: float, hints: int, home: int,
                       finished_at: float) -> None:
    """The racer's outcome, if still racing and within the race's limit: a game finished
    after it is not counted, whether or not the race has been closed yet."""
    race = await conn.fetchrow(
        "SELECT tab FROM races WHERE id = $1 AND status = $2 AND ends_at >= $3",
        race_id, RUNNING, float(finished_at))
    if race is None:
        return
    recorded = await conn.execute(
        "UPDATE racers SET outcome = $3, moves = $4, seconds = $5, hints = $6, home = $7 "
        "WHERE race_id = $1 AND user_id = $2 AND outcome IS NULL",
        race_id, user_id, outcome, moves, float(seconds), hints, home)
    if recorded:
        await conn.notify(Notice.TABLE, int(race["tab"]))


async def _race(conn: Connection, row: Any) -> Race:
    racers = await conn.fetch(
        "SELECT * FROM racers WHERE race_id = $1 ORDER BY joined_at, user_id", int(row["id"]))
    return Race(
        id=int(row["id"]), instance=str(row["instance"]),
        guild_id=_maybe_int(row["guild_id"]), channel_id=_maybe_int(row["channel_id"]),
        game=str(row["game"]), deal=_maybe_int(row["deal"]), status=RaceStatus(row["status"]),
        started_by=int(row["started_by"]), created_at=float(row["created_at"]),
        starts_at=float(row["starts_at"]), begun_at=_maybe_float(row["begun_at"]),
        ends_at=_maybe_float(row["ends_at"]), language=str(row["language"]),
        posted=bool(row["posted"]),
        racers=tuple(Racer(
            user_id=int(r["user_id"]), name=str(r["name"]), guild_id=_maybe_int(r["guild_id"]),
            joined_at=float(r["joined_at"]), dealt=bool(r["dealt"]),
            outcome=None if r["outcome"] is None else GameStatus(r["outcome"]),
            moves=_maybe_int(r["moves"]), seconds=_maybe_float(r["seconds"]),
            hints=int(r["hints"] or 0), home=_maybe_int(r["home"]),
        ) for r in racers))


def _maybe_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _maybe_float(value: Any) -> float | None:
    return None if value is None else float(value)

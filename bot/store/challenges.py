"""Challenges between members: who challenged whom to which game, where the challenge's
message is, its deal once accepted, and how each side's game ended.

A challenge goes open -> accepted (or declined) -> over; each step is one conditional
statement, so two processes pressing at once move it once. Accepting takes its deal from
the winnable pool in the same transaction, after the statement that moved it: of many
presses at once, one takes a deal, and one that lost the race (to another Accept, or to
Decline) takes none. Each side's outcome is written by ``games.py`` in the transaction
that records that side's game as finished, if it finished within the challenge's day
(``DAY_S`` after it was accepted). Its message keeps the language it was posted in
(``language``), whichever process words it later.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .database import Database
from .pool import take_pooled
from .statuses import ACCEPTED, EXPIRED, OPEN, OVER, ChallengeStatus, GameStatus

GONE = 0  # the user id of a side who asked to be forgotten
DAY_S = 24 * 3600  # a challenge waits this long for its answer, and lasts this long after


class Acceptance(StrEnum):
    """What became of an Accept (``ChallengeStore.accept``)."""

    TAKEN = "taken"
    NOT_OPEN = "not open"  # answered meanwhile, or past its day to be answered
    NO_DEAL = "no deal"  # the winnable pool had none


class NotMade(StrEnum):
    """Why a challenge was not made (``Made.why``)."""

    PAIR_BUSY = "pair busy"  # the pair has one under way already
    TOO_MANY = "too many"  # the challenger has as many waiting for an answer as they may


class _Unchanged(Exception):
    """A transaction that must write nothing after all: why (``NOT_OPEN``, ``NO_DEAL``)."""

    def __init__(self, why: Acceptance) -> None:
        super().__init__(why)
        self.why = why


@dataclass(frozen=True)
class Side:
    """One side of a challenge: who, and how their game ended (None: not yet)."""

    user_id: int
    outcome: GameStatus | None
    moves: int | None
    seconds: float | None
    hints: int = 0  # asked in that game: a win with any is assisted


@dataclass(frozen=True)
class Challenge:
    id: int
    guild_id: int
    channel_id: int | None
    message_id: int | None
    game: str
    deal: int | None
    status: ChallengeStatus
    created_at: float
    accepted_at: float | None
    challenger: Side
    challenged: Side
    language: str  # the locale its message is worded in, from first to last

    @property
    def sides(self) -> tuple[Side, Side]:
        return self.challenger, self.challenged

    def side_of(self, user_id: int) -> Side | None:
        return next((s for s in self.sides if s.user_id == user_id != GONE), None)


@dataclass(frozen=True)
class Made:
    """What ``ChallengeStore.create`` did: the challenge made, or why none was (``why``);
    and the ids of the pair's earlier challenges it found past their day to be answered,
    and closed as unanswered (their messages are to be brought up to date)."""

    challenge: Challenge | None
    why: NotMade | None = None
    expired: tuple[int, ...] = ()


class ChallengeStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def create(
        self, guild_id: int, challenger: int, challenged: int, game: str, now: float, *,
        language: str, most_open: int,
    ) -> Made:
        """A new open challenge, unless the two already have one under way (waiting for
        an answer, or accepted and being played within its day), whoever challenged whom,
        or the challenger has ``most_open`` waiting for an answer already. One statement
        decides, so two made at once (by two processes, or by each of the pair) cannot
        both pass: a unique index holds one waiting challenge per pair."""
        since = float(now - DAY_S)
        pair = ("((challenger_id = $1 AND challenged_id = $2) "
                "OR (challenger_id = $2 AND challenged_id = $1))")
        async with self._db.transaction() as conn:
            expired = await conn.fetch(  # the pair's own, past their day: not in the way
                f"UPDATE challenges SET status = $3 WHERE {pair} AND status = $4 "
                "AND created_at < $5 RETURNING id",
                challenger, challenged, EXPIRED, OPEN, since,
            )
            row = await conn.fetchrow(
                "INSERT INTO challenges (guild_id, challenger_id, challenged_id, game, status, "
                "created_at, language) SELECT $3, $1, $2, $4, $5, $6, $7 "
                f"WHERE NOT EXISTS (SELECT 1 FROM challenges WHERE {pair} AND status = $8 "
                "AND accepted_at >= $9 "
                "AND (challenger_outcome IS NULL OR challenged_outcome IS NULL)) "
                "AND (SELECT COUNT(*) FROM challenges WHERE challenger_id = $1 "
                "AND status = $5 AND created_at >= $9) < $10 "
                "ON CONFLICT DO NOTHING RETURNING *",
                challenger, challenged, guild_id, game, OPEN, float(now), language, ACCEPTED,
                since, most_open,
            )
            why = None
            if row is None:
                busy = await conn.fetchrow(
                    f"SELECT id FROM challenges WHERE {pair} AND (status = $3 OR "
                    "(status = $4 AND accepted_at >= $5)) LIMIT 1",
                    challenger, challenged, OPEN, ACCEPTED, since,
                )
                why = NotMade.PAIR_BUSY if busy is not None else NotMade.TOO_MANY
        closed = tuple(int(r["id"]) for r in expired)
        return Made(None if row is None else _challenge(row), why, closed)

    async def get(self, challenge_id: int) -> Challenge | None:
        async with self._db.writer() as conn:
            row = await conn.fetchrow("SELECT * FROM challenges WHERE id = $1", challenge_id)
        return None if row is None else _challenge(row)

    async def posted(self, challenge_id: int, channel_id: int, message_id: int) -> None:
        """The challenge's message went out here: it is the one updated as it goes on."""
        async with self._db.writer() as conn:
            await conn.execute(
                "UPDATE challenges SET channel_id = $2, message_id = $3 WHERE id = $1",
                challenge_id, channel_id, message_id,
            )

    async def accept(
        self, challenge_id: int, now: float, *, deal: int | None = None
    ) -> Acceptance:
        """Open -> accepted at ``now``, in one transaction: ``TAKEN``, with ``deal`` or, if
        None, a deal taken from the winnable pool; ``NOT_OPEN`` if it was no longer open or
        its day to be answered is over, ``NO_DEAL`` if the pool had none: then nothing is
        written, and no deal taken. The conditional update comes first, so presses at once
        wait for each other (PostgreSQL locks the row; SQLite has one writer), and only
        the one that moved it takes a deal."""
        try:
            async with self._db.transaction() as conn:
                row = await conn.fetchrow(
                    "UPDATE challenges SET status = $2, accepted_at = $3 "
                    "WHERE id = $1 AND status = $4 AND created_at >= $5 RETURNING game",
                    challenge_id, ACCEPTED, float(now), OPEN, float(now - DAY_S),
                )
                if row is None:
                    raise _Unchanged(Acceptance.NOT_OPEN)
                if deal is None:
                    deal = await take_pooled(self._db, conn, str(row["game"]))
                if deal is None:
                    raise _Unchanged(Acceptance.NO_DEAL)
                await conn.execute("UPDATE challenges SET deal = $2 WHERE id = $1",
                                   challenge_id, deal)
        except _Unchanged as unchanged:
            return unchanged.why
        return Acceptance.TAKEN

    async def close(
        self, challenge_id: int, was: ChallengeStatus, becomes: ChallengeStatus
    ) -> bool:
        """``was`` -> ``becomes`` (declined, over); False if it was no longer ``was``."""
        async with self._db.writer() as conn:
            changed = await conn.execute(
                "UPDATE challenges SET status = $3 WHERE id = $1 AND status = $2",
                challenge_id, was, becomes,
            )
        return changed == 1

    async def playing(self, challenge_id: int) -> set[int]:
        """The players whose current game is this challenge's, still being played."""
        async with self._db.writer() as conn:
            rows = await conn.fetch(
                "SELECT user_id FROM games WHERE challenge_id = $1 AND status = 'playing'",
                challenge_id,
            )
        return {int(r["user_id"]) for r in rows}

    async def due(self, status: ChallengeStatus, since_before: float) -> list[Challenge]:
        """Challenges in ``status`` whose clock (created, or accepted) started before
        ``since_before``: the open ones unanswered for a day, the accepted ones over."""
        column = "accepted_at" if status == ACCEPTED else "created_at"
        async with self._db.writer() as conn:
            rows = await conn.fetch(
                f"SELECT * FROM challenges WHERE status = $1 AND {column} < $2 "
                "ORDER BY id LIMIT 100",
                status, float(since_before),
            )
        return [_challenge(r) for r in rows]

    async def live_on(self, game: str, deal: int, since: float) -> list[Challenge]:
        """The accepted challenges on this deal accepted at ``since`` or later (whose day
        is not over): their sides may still be playing it."""
        async with self._db.writer() as conn:
            rows = await conn.fetch(
                "SELECT * FROM challenges WHERE game = $1 AND deal = $2 AND status = $3 "
                "AND accepted_at >= $4 ORDER BY id LIMIT 100",
                game, deal, ACCEPTED, float(since),
            )
        return [_challenge(r) for r in rows]

    async def of_player(self, user_id: int, guild_id: int | None) -> list[Challenge]:
        """The challenges over that a player took part in (in one server, or anywhere)."""
        where = "status = $2 AND (challenger_id = $1 OR challenged_id = $1)"
        args: list[Any] = [user_id, OVER]
        if guild_id is not None:
            where += " AND guild_id = $3"
            args.append(guild_id)
        async with self._db.reading() as conn:
            rows = await conn.fetch(f"SELECT * FROM challenges WHERE {where}", *args)
        return [_challenge(r) for r in rows]


def _side(row: Any, side: str) -> Side:
    moves, seconds = row[f"{side}_moves"], row[f"{side}_seconds"]
    outcome = row[f"{side}_outcome"]
    return Side(
        user_id=int(row[f"{side}_id"]),
        outcome=None if outcome is None else GameStatus(outcome),
        moves=None if moves is None else int(moves),
        seconds=None if seconds is None else float(seconds),
        hints=int(row[f"{side}_hints"] or 0),  # none kept before hints were: none counted
    )


def _challenge(row: Any) -> Challenge:
    def optional(name: str) -> int | None:
        return None if row[name] is None else int(row[name])

    return Challenge(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=optional("channel_id"),
        message_id=optional("message_id"),
        game=str(row["game"]),
        deal=optional("deal"),
        status=ChallengeStatus(row["status"]),
        created_at=float(row["created_at"]),
        accepted_at=None if row["accepted_at"] is None else float(row["accepted_at"]),
        challenger=_side(row, "challenger"),
        challenged=_side(row, "challenged"),
        language=str(row["language"]),
    )

"""Current games: each player's one game, loaded, started and saved revision by revision.

Across processes, a player's game is changed by one writer at a time: every change names
the revision it was loaded at, and a change to a game that moved on (or was replaced)
raises ``ConcurrentChange`` and writes nothing — starting a game included. The hint
counter is the one number two writers may both change: it is only ever incremented in
SQL (``count_hint``), never written back from a value read earlier, and a save reads it
back, so a finished game's result carries every hint counted anywhere.

A game that ends writes its result row (``results.py`` reads them) in the same
transaction as its last change.

A process keeps each active player's game as it last loaded, started or saved it
(``cached``): a move can be played on that copy without reading the game back, because the
save names the revision it was played at and is refused if the stored game moved on
meanwhile (in another process, say), and the game flow then reads the stored game and
decides again. What a copy may miss without a revision telling it: a hint counted or a
position proven lost by another process (a save reads the hint count back).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Collection
from typing import Any

from engine import Game
from engine.lru import LRU

from .challenges import DAY_S
from .database import Connection, Database, Notice
from .races import check_raceable, record_racer
from .replays import OUTSIDE_SERVERS
from .saved import GameMark, SavedGame, saved_game, with_game
from .statuses import ABANDONED, ACCEPTED, OUTCOMES, PLAYING, GameStatus

# Engine games kept in memory between moves (3-5 KB each), the most recently used: enough
# for the players active at once; anyone else's game is rebuilt from its saved state at
# their next move (about 1 ms).
LIVE_GAMES = 256

RESULT_COLUMNS = (
    "game_row, user_id, guild_id, game, deal, outcome, moves, undos, hints, "
    "redeals_used, seconds_played, finished_at, daily, challenge_id, draw"
)


class ConcurrentChange(RuntimeError):
    """The game changed between load and save: the change was refused, nothing written."""


class NotChallengeable(RuntimeError):
    """A game to start for a challenge that is not open to the player with that deal (not
    accepted, its day over, their side already played, another game or deal): nothing
    was written."""


MARKS_PER_QUERY = 500  # players asked about in one query (SQLite allows 32,766 parameters)


class GameStore:
    """Every method either commits what it writes before returning or writes nothing."""

    def __init__(self, db: Database) -> None:
        self._db = db
        # Each player's game row as last loaded, started or saved here, with its saved
        # state, by player: a move plays on a copy of it (``cached``), and a load whose saved
        # state is still that one reuses its engine game instead of replaying every move
        # from the deal. Its game is never handed out: each caller gets a copy of its own.
        self._held: LRU[int, tuple[str, SavedGame]] = LRU(LIVE_GAMES)

    def cached(self, user_id: int) -> SavedGame | None:
        """A copy of the player's game as this process last loaded, started or saved it,
        without reading the database; None if none is kept. It may be out of date (changed
        by another process): only a save, refused then, can tell. A caller that decides
        anything on it other than a move it saves reads the game (``load``) instead."""
        kept = self._held.get(user_id)
        if kept is None:
            return None
        cached = kept[1]
        return with_game(cached, cached.game.copy())

    async def load(self, user_id: int) -> SavedGame | None:
        """The player's current game (playing or finished and not yet replaced), or None."""
        async with self._db.writer() as conn:
            row = await conn.fetchrow("SELECT * FROM games WHERE user_id = $1", user_id)
        if row is None:
            return None
        state = str(row["state"])
        kept = self._held.get(user_id)
        if kept is not None and kept[1].id == int(row["id"]) and kept[0] == state:
            game = kept[1].game
        else:
            game = Game.from_dict(json.loads(state))
        saved = saved_game(row, game)
        self._held[user_id] = (state, saved)
        return with_game(saved, game.copy())

    def forget(self, user_id: int) -> None:
        """Drop the player's game kept in memory (its row is deleted elsewhere)."""
        self._held.pop(user_id)

    async def start(
        self,
        user_id: int,
        guild_id: int | None,
        game: Game,
        now: float,
        *,
        replacing: SavedGame | None = None,
        left_as: GameStatus | None = ABANDONED,
        daily: str | None = None,
        challenge: int | None = None,
        race: int | None = None,
    ) -> SavedGame:
        """Make ``game`` the player's current game, in one transaction.

        ``replacing`` is the game it takes the place of, as last loaded: if it is still
        being played its result is recorded as ``left_as`` (abandoned, or lost when it was
        stuck), or not at all when ``left_as`` is None — allowed only for a game left
        untouched (no move, no undo), which then does not count as played (a challenge's
        game so left still spends its side's go: the side is recorded as having left). Raises
        ConcurrentChange, writing nothing, if the stored game is not ``replacing`` at its
        revision (or, with ``replacing`` None, if the player has a game): another process
        got there first.

        ``daily`` is the UTC day (``YYYY-MM-DD``) when ``game`` is that day's daily deal. The
        player's first start of it that day is their scored attempt, and the game is tagged
        with the day; a later start is a replay, untagged. The returned ``SavedGame.daily``
        says which. (Leaving a scored attempt untouched still uses the day's attempt up.)
        A game with a house rule on is never a scored attempt, nor tagged.
        ``challenge``: the challenge ``game`` is played for; its side's outcome is written
        when the game ends. It must be open to the player (accepted, within its day, their
        side not yet played, after the game replaced has been recorded) and be of this
        game and deal, else NotChallengeable is raised, writing nothing: whatever a
        question's buttons carried, only the challenge decides. ``race``: the race ``game``
        is dealt for, likewise: running, of this game and deal, the player a racer not yet
        dealt (else NotRaceable, writing nothing).
        """
        leaving = replacing is not None and not replacing.is_finished
        record_left = leaving and left_as is not None
        untouched = replacing is None or replacing.untouched
        if leaving and left_as is None and not untouched:
            raise ValueError("only a game left untouched may leave no result")
        state = _state(game)
        daily = None if game.draw_rule else daily  # a house rule never plays a scored game
        async with self._db.transaction() as conn:
            if replacing is not None:
                await _leave(conn, replacing, left_as if record_left else None, now,
                             spends_a_go=leaving)
            if daily is not None and not await _first_attempt(conn, user_id, game, daily, now):
                daily = None  # the scored attempt was made earlier today: a replay
            if challenge is not None:
                await _check_challengeable(conn, self._db.share_lock, challenge, user_id,
                                           game, now)
            if race is not None:
                await check_raceable(conn, self._db.share_lock, race, user_id, game.game_id,
                                     game.deal_number, game.draw_rule)
            row = await conn.fetchrow(
                "INSERT INTO games (user_id, guild_id, game, deal, state, status, revision, "
                "started_at, updated_at, daily, challenge_id, race_id) "
                "VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $8, $9, $10, $11) "
                "ON CONFLICT (user_id) DO NOTHING RETURNING id",
                user_id, guild_id, game.game_id, game.deal_number, state, PLAYING, float(now),
                float(now), daily, challenge, race,
            )
            if row is None:
                raise ConcurrentChange(f"user {user_id}: a game was started elsewhere meanwhile")
            row_id = int(row["id"])
            await conn.notify(Notice.GAME, user_id)
        if record_left:
            assert replacing is not None and left_as is not None
            replacing.status, replacing.finished_at = left_as, now
        saved = SavedGame(
            id=row_id, user_id=user_id, guild_id=guild_id, game=game, status=PLAYING,
            revision=0, undos=0, hints=0, seconds_played=0.0, daily=daily, started_at=now,
            updated_at=now, finished_at=None, challenge_id=challenge, race_id=race,
        )
        self._held[user_id] = (state, with_game(saved, game.copy()))
        return saved

    async def save(self, saved: SavedGame) -> None:
        """Write ``saved`` back as the next revision, in one transaction.

        If its status is final (won, lost, resigned), its result row is written in the
        same transaction. ``saved.proven_lost_at`` is written as it is: set it to the next
        revision to save a position already known to be lost. ``saved.revision`` is the
        revision it was loaded at; on success it is advanced, and ``saved.hints`` is the
        count as stored, ``hints_to_add`` added to it in SQL (another process may have
        counted one meanwhile). Raises ConcurrentChange, writing nothing, if the stored game
        moved on.
        """
        state = _state(saved.game)
        # A move in play is one statement, its own transaction; a game that ends writes
        # its result row too, in the same transaction.
        writing = self._db.transaction() if saved.is_finished else self._db.writer()
        async with writing as conn:
            changed = await conn.fetchrow(
                "UPDATE games SET state = $1, status = $2, revision = revision + 1, "
                "undos = $3, seconds_played = $4, updated_at = $5, finished_at = $6, "
                # A deal proven lost stays so, whichever process proved it meanwhile.
                "proven_lost_at = CASE WHEN proven_lost_at = -1 THEN -1 ELSE $9 END, "
                "hints = hints + $10 WHERE id = $7 AND revision = $8 AND status = 'playing' "
                "RETURNING hints",
                state,
                saved.status,
                saved.undos,
                float(saved.seconds_played),
                float(saved.updated_at),
                None if saved.finished_at is None else float(saved.finished_at),
                saved.id,
                saved.revision,
                saved.proven_lost_at,
                saved.hints_to_add,
            )
            if changed is None:
                raise ConcurrentChange(
                    f"game {saved.id} is no longer at revision {saved.revision} or is finished"
                )
            saved.hints = int(changed["hints"])
            if saved.is_finished:
                await _insert_result(conn, saved)
            await conn.notify(Notice.GAME, saved.user_id)
        saved.revision, saved.hints_to_add = saved.revision + 1, 0
        self._held[saved.user_id] = (state, with_game(saved, saved.game.copy()))

    async def count_hint(self, game_row: int) -> None:
        """Count a hint on a game being played, in SQL: a count another process made at the
        same time is never lost. The board's revision stays: a hint changes nothing on the
        board, so the buttons under it keep working."""
        async with self._db.writer() as conn:
            counted = await conn.fetchrow(
                "UPDATE games SET hints = hints + 1 WHERE id = $1 AND status = 'playing' "
                "RETURNING user_id",
                game_row,
            )
            if counted is not None:
                await conn.notify(Notice.GAME, int(counted["user_id"]))
        self._drop_held(counted, game_row)

    async def marks(self, user_ids: Collection[int]) -> dict[int, GameMark]:
        """What each of these players' games is at now (a player without one is left out),
        read in as few queries as the database's limit on parameters allows: compared
        with an earlier look, it tells whose game changed, for a process that hears no
        notices from the others (``Database.notices_everywhere`` False)."""
        ids = list(user_ids)
        marks: dict[int, GameMark] = {}
        async with self._db.reading() as conn:
            for start in range(0, len(ids), MARKS_PER_QUERY):
                some = ids[start:start + MARKS_PER_QUERY]
                places = ", ".join(f"${i}" for i in range(1, len(some) + 1))
                for row in await conn.fetch(
                    "SELECT user_id, id, revision, hints, proven_lost_at FROM games "
                    f"WHERE user_id IN ({places})", *some,
                ):
                    marks[int(row["user_id"])] = GameMark(
                        int(row["id"]), int(row["revision"]), int(row["hints"]),
                        row["proven_lost_at"])
        return marks

    async def mark_proven_lost(
        self, game_row: int, revision: int, *, deal_too: bool = False
    ) -> bool:
        """Remember that the solver proved game ``game_row`` lost at ``revision``; loads
        say so (``SavedGame.proven_lost``) until the game moves on. ``deal_too``: the deal
        itself is proven lost, and every position of the game with it, for good
        (``SavedGame.lost_as_dealt``). False, and nothing written, if the game is no longer
        being played at that revision."""
        async with self._db.writer() as conn:
            marked = await conn.fetchrow(
                "UPDATE games SET proven_lost_at = "
                "CASE WHEN $3 OR proven_lost_at = -1 THEN -1 ELSE $2 END "
                "WHERE id = $1 AND revision = $2 AND status = 'playing' RETURNING user_id",
                game_row, revision, deal_too,
            )
            if marked is not None:
                await conn.notify(Notice.GAME, int(marked["user_id"]))
        self._drop_held(marked, game_row)
        return marked is not None

    def _drop_held(self, changed: Any, game_row: int) -> None:
        """After a write that leaves the revision as it was (``changed``: the row it
        changed, with its ``user_id``, or None): the copy kept of that game is out of date,
        and the next move reads the game."""
        if changed is None:
            return
        user_id = int(changed["user_id"])
        kept = self._held.get(user_id)
        if kept is not None and kept[1].id == game_row:
            self._held.pop(user_id)


async def _check_challengeable(
    conn: Connection, share_lock: str, challenge: int, user_id: int, game: Game, now: float
) -> None:
    """Raise NotChallengeable unless ``game`` may be the player's game of ``challenge``."""
    open_to = await conn.fetchrow(
        "SELECT id FROM challenges WHERE id = $1 AND status = $2 AND game = $3 "
        "AND deal = $4 AND accepted_at >= $5 "
        "AND ((challenger_id = $6 AND challenger_outcome IS NULL) "
        "OR (challenged_id = $6 AND challenged_outcome IS NULL))" + share_lock,
        challenge, ACCEPTED, game.game_id, game.deal_number, float(now - DAY_S), user_id,
    )
    if open_to is None or game.draw_rule:
        raise NotChallengeable(f"user {user_id}: challenge {challenge} is not open to them "
                               f"with {game.game_id} deal {game.deal_number}")


async def _leave(conn: Connection, replacing: SavedGame, left_as: GameStatus | None,
                 now: float, *, spends_a_go: bool) -> None:
    """Delete the game ``replacing`` (still at its revision, else ConcurrentChange) and
    record its result as ``left_as`` (None: none); a challenge's game left with no result
    still spends its side's go, when it was being played (``spends_a_go``)."""
    gone = await conn.fetchrow(
        "DELETE FROM games WHERE id = $1 AND user_id = $2 AND revision = $3 RETURNING hints",
        replacing.id, replacing.user_id, replacing.revision,
    )
    if gone is None:
        raise ConcurrentChange(f"user {replacing.user_id}: game {replacing.id} is no longer "
                               f"at revision {replacing.revision}")
    if left_as is not None:
        await _insert_result(conn, dataclasses.replace(
            replacing, status=left_as, finished_at=now, hints=int(gone["hints"])))
    elif spends_a_go and replacing.challenge_id is not None:
        await _record_side(conn, replacing.challenge_id, replacing.user_id, ABANDONED, 0,
                           replacing.seconds_played, int(gone["hints"]), now)
    if spends_a_go and left_as is None and replacing.race_id is not None:
        await record_racer(conn, replacing.race_id, replacing.user_id, ABANDONED, 0,
                           replacing.seconds_played, int(gone["hints"]),
                           replacing.game.cards_on_foundations, now)


async def _first_attempt(conn: Connection, user_id: int, game: Game, day: str,
                         now: float) -> bool:
    """Whether this start of ``day``'s daily deal is the player's first of the day (their
    scored attempt), noting it if so."""
    attempts = await conn.execute(
        "INSERT INTO daily_attempts (user_id, game, day, started_at) "
        "VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
        user_id, game.game_id, day, float(now),
    )
    return bool(attempts == 1)


async def _insert_result(conn: Connection, saved: SavedGame) -> None:
    """The finished game's result row, and its side's outcome if it was a challenge's (its
    racer's, if a race's)."""
    game = saved.game
    assert saved.status in OUTCOMES and saved.finished_at is not None
    await conn.execute(
        f"INSERT INTO results ({RESULT_COLUMNS}) "
        f"VALUES ({', '.join(f'${i}' for i in range(1, 16))})",
        saved.id,
        saved.user_id,
        saved.guild_id,
        game.game_id,
        game.deal_number,
        saved.status,
        game.moves_made,
        saved.undos,
        saved.hints,
        game.rules.redeals - game.redeals_left,
        float(saved.seconds_played),
        float(saved.finished_at),
        saved.daily,
        saved.challenge_id,
        game.draw_rule,
    )
    # The player's last finished game in this place, for /replay: one row a place.
    await conn.execute(
        "INSERT INTO replays (user_id, place, state, outcome, hints, finished_at) "
        "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (user_id, place) DO UPDATE SET "
        "state = excluded.state, outcome = excluded.outcome, hints = excluded.hints, "
        "finished_at = excluded.finished_at",
        saved.user_id, saved.guild_id or OUTSIDE_SERVERS, _state(game), saved.status,
        saved.hints, float(saved.finished_at),
    )
    if saved.challenge_id is not None:
        await _record_side(conn, saved.challenge_id, saved.user_id, saved.status,
                           game.moves_made, saved.seconds_played, saved.hints,
                           saved.finished_at)
    if saved.race_id is not None:
        await record_racer(conn, saved.race_id, saved.user_id, saved.status, game.moves_made,
                           saved.seconds_played, saved.hints, game.cards_on_foundations,
                           saved.finished_at)


async def _record_side(
    conn: Connection, challenge_id: int, user_id: int, outcome: GameStatus, moves: int,
    seconds: float, hints: int, finished_at: float,
) -> None:
    """The player's side of a challenge, if still to finish and within the challenge's day:
    a game finished after it is not counted, whether or not it has been closed yet."""
    for side in ("challenger", "challenged"):
        await conn.execute(
            f"UPDATE challenges SET {side}_outcome = $3, {side}_moves = $4, "
            f"{side}_seconds = $5, {side}_hints = $6 WHERE id = $1 AND {side}_id = $2 "
            f"AND {side}_outcome IS NULL AND status = $7 AND accepted_at >= $8",
            challenge_id, user_id, outcome, moves, float(seconds), hints, ACCEPTED,
            float(finished_at) - DAY_S,
        )


def _state(game: Game) -> str:
    """A game as the database keeps it."""
    return json.dumps(game.to_dict(), separators=(",", ":"))

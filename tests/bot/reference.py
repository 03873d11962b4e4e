"""The statistics stated plainly, in Python, over every result read back: what the store's
SQL must agree with. Tests build histories of ``Result`` and hold the store to these."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from bot.store import WON, Record, Scope, Standing, Stores
from bot.store.games import RESULT_COLUMNS
from bot.store.results import WILSON_Z, DailyEntry


@dataclass(frozen=True)
class Result:
    """One finished game, as the results table keeps it."""

    user_id: int
    guild_id: int | None
    game_id: str
    deal: int
    outcome: str
    moves: int
    undos: int
    hints: int
    redeals_used: int
    seconds: float
    finished_at: datetime  # UTC
    daily: date | None = None  # the UTC day of a scored daily deal; None for any other game

    @property
    def won(self) -> bool:
        return self.outcome == WON

    @property
    def assisted(self) -> bool:
        return self.hints > 0

    @property
    def won_unaided(self) -> bool:
        return self.won and not self.assisted


async def all_results(stores: Stores, **filters: Any) -> list[Result]:
    """Every result matching the filters (those of ``Scope``), oldest first."""
    where, params = Scope(**filters).sql()
    sql = f"SELECT {RESULT_COLUMNS} FROM results WHERE {where} ORDER BY finished_at, id"
    async with stores.db.reading() as conn:
        rows = await conn.fetch(sql, *params)
    return [_result(row) for row in rows]


def _result(row: Any) -> Result:
    return Result(
        user_id=int(row["user_id"]),
        guild_id=None if row["guild_id"] is None else int(row["guild_id"]),
        game_id=str(row["game"]),
        deal=int(row["deal"]),
        outcome=str(row["outcome"]),
        moves=int(row["moves"]),
        undos=int(row["undos"]),
        hints=int(row["hints"]),
        redeals_used=int(row["redeals_used"]),
        seconds=float(row["seconds_played"]),
        finished_at=datetime.fromtimestamp(float(row["finished_at"]), UTC),
        daily=None if row["daily"] is None else date.fromisoformat(row["daily"]),
    )


def record(results: Iterable[Result]) -> Record:
    """The record over ``results``; streaks follow the order the games finished. Only
    unaided wins are wins: an assisted win breaks a streak like any other game not won."""
    ordered = sorted(results, key=lambda r: r.finished_at)
    wins = [r for r in ordered if r.won_unaided]
    current, best = win_streaks([r.won_unaided for r in ordered])
    return Record(
        played=len(ordered),
        won=len(wins),
        current_streak=current,
        best_streak=best,
        fewest_moves=min((r.moves for r in wins), default=None),
        fastest_seconds=min((r.seconds for r in wins), default=None),
        assisted=sum(1 for r in ordered if r.won and r.assisted),
    )


def win_streaks(outcomes: Sequence[bool]) -> tuple[int, int]:
    """(current, best) runs of consecutive wins, oldest first."""
    best = run = 0
    for won in outcomes:
        run = run + 1 if won else 0
        best = max(best, run)
    return run, best


def wilson_lower_bound(wins: int, played: int, z: float = WILSON_Z) -> float:
    """The lower end of the Wilson score interval for ``wins`` out of ``played``."""
    if played <= 0:
        return 0.0
    p = wins / played
    denominator = 1 + z * z / played
    centre = p + z * z / (2 * played)
    margin = z * math.sqrt(p * (1 - p) / played + z * z / (4 * played * played))
    return max(0.0, (centre - margin) / denominator)


def leaderboard(results: Iterable[Result]) -> list[Standing]:
    """Every player ranked: score, then wins, then fewer games, then user id."""
    tally: dict[int, list[int]] = {}
    for r in results:
        counts = tally.setdefault(r.user_id, [0, 0])
        counts[0] += 1
        counts[1] += r.won_unaided
    rows = sorted(
        ((wilson_lower_bound(w, p), w, p, uid) for uid, (p, w) in tally.items()),
        key=lambda row: (-row[0], -row[1], row[2], row[3]),
    )
    return [
        Standing(rank=i + 1, user_id=uid, played=p, won=w, score=score)
        for i, (score, w, p, uid) in enumerate(rows)
    ]


def won_days(results: Iterable[Result]) -> set[date]:
    """The days whose scored daily deal the player won unaided (any game)."""
    return {r.daily for r in results if r.daily is not None and r.won_unaided}


def daily_board(results: Iterable[Result]) -> list[DailyEntry]:
    """A day's scored, unaided wins: fewest moves first, then the fastest, then who
    finished first."""
    wins = sorted(
        (r for r in results if r.daily is not None and r.won_unaided),
        key=lambda r: (r.moves, r.seconds, r.finished_at),
    )
    return [DailyEntry(i + 1, r.user_id, r.moves, r.seconds) for i, r in enumerate(wins)]

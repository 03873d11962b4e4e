"""Records, streaks and rankings computed from finished games: pure, so tests build histories.

A finished game's outcome is one of ``OUTCOMES``; the store writes one ``Result`` per
finished game. The bot asks the store, whose SQL computes records, leaderboards and daily
boards without reading every result back; these functions are the plain statement of the
same numbers, which the store's tests hold its SQL to.

The leaderboard ranks by the lower bound of the 95% Wilson score interval on a player's win
rate: one lucky win out of one game scores 0.21, while 30 wins out of 40 scores 0.60, so a
player has to win often *and* play enough for the rate to be believable.

A win that used a hint is *assisted*: it counts as played but not as won in records, streaks,
the leaderboard and the daily board (``Result.won_unaided``); a record counts it apart.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

WON, LOST, RESIGNED, ABANDONED = "won", "lost", "resigned", "abandoned"
OUTCOMES = (WON, LOST, RESIGNED, ABANDONED)
PERIODS = {"week": timedelta(days=7), "month": timedelta(days=30), "all": None}
WILSON_Z = 1.96  # 95% confidence


@dataclass(frozen=True)
class Result:
    """One finished game, as the results table keeps it."""

    user_id: int
    guild_id: int | None
    game_id: str
    deal: int
    outcome: str  # one of OUTCOMES
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
        """A win that counts as one: won without a hint."""
        return self.won and not self.assisted


@dataclass(frozen=True)
class Record:
    """A player's record in one game (or in all games together)."""

    played: int
    won: int
    current_streak: int
    best_streak: int
    fewest_moves: int | None
    fastest_seconds: float | None
    assisted: int = 0  # wins that used a hint: played, not won

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0


def record(results: Iterable[Result]) -> Record:
    """The record over ``results``; streaks follow the order the games finished.

    Only unaided wins are wins: an assisted win breaks a streak like any other game not won.
    """
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


@dataclass(frozen=True)
class Standing:
    rank: int
    user_id: int
    played: int
    won: int
    score: float


def leaderboard(results: Iterable[Result]) -> list[Standing]:
    """Every player ranked: score, then wins, then fewer games, then user id (stable ties)."""
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


@dataclass(frozen=True)
class DailyEntry:
    rank: int
    user_id: int
    moves: int
    seconds: float


def period_start(period: str, now: datetime) -> datetime | None:
    """The first moment a period covers (None: all time)."""
    if period not in PERIODS:
        raise ValueError(f"period is one of {', '.join(PERIODS)}, not {period!r}")
    span = PERIODS[period]
    return None if span is None else now - span


def format_seconds(seconds: float) -> str:
    """``75`` -> ``1:15``; ``3725`` -> ``1:02:05``."""
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"

"""The daily deal: each game has one deal a UTC day, the same for everyone.

Whoever starts today's daily deal of a game — with `/daily`, or with `/new` and that deal
number — makes a daily attempt. A player's first attempt at a game's daily deal that day is
scored: the game is tagged with the day, and its result feeds the daily board and daily
streaks. Later attempts that day are replays, played like any game but not scored. The store
decides which, in the transaction that starts the game.

The day comes from the flow's clock (Unix seconds), so tests choose where midnight falls.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta

from engine import MAX_DEAL

from .records import DailyEntry, Result
from .store import SavedGame, Store
from .wording import code

log = logging.getLogger(__name__)


def utc_day(now: float) -> date:
    """The UTC calendar day of a moment given in Unix seconds."""
    return datetime.fromtimestamp(now, UTC).date()


def daily_deal(game_id: str, day: date) -> int:
    """The deal everyone plays on ``day`` (UTC): fixed by game and date, like every deal."""
    digest = hashlib.sha256(f"daily/{game_id}/{day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % MAX_DEAL + 1


def todays_daily(game_id: str, deal: int, now: float) -> str | None:
    """The day (``YYYY-MM-DD``) if ``deal`` is today's daily deal of ``game_id``, else None."""
    today = utc_day(now)
    return today.isoformat() if daily_deal(game_id, today) == deal else None


def won_days(results: Iterable[Result]) -> set[date]:
    """The days whose scored daily deal the player won unaided (any game)."""
    return {r.daily for r in results if r.daily is not None and r.won_unaided}


def daily_streaks(won_days: Iterable[date], today: date) -> tuple[int, int]:
    """(current, best) runs of consecutive UTC days with a won daily deal.

    The current streak is still alive on a day not yet won: it counts up to yesterday.
    """
    days = sorted(set(won_days))
    best = run = 0
    previous: date | None = None
    for day in days:
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    alive = previous is not None and (today - previous).days <= 1
    return (run if alive else 0), best


def daily_board(results: Iterable[Result]) -> list[DailyEntry]:
    """A day's scored, unaided wins: fewest moves first, then the fastest, then who finished
    first."""
    wins = sorted(
        (r for r in results if r.daily is not None and r.won_unaided),
        key=lambda r: (r.moves, r.seconds, r.finished_at),
    )
    return [DailyEntry(i + 1, r.user_id, r.moves, r.seconds) for i, r in enumerate(wins)]


def start_line(game_id: str, day: str, scored: bool) -> str:
    """What the board says when a daily deal is dealt."""
    if scored:
        return (
            f"📅 Today's daily deal ({day} UTC) — this is your scored attempt. "
            f"Win it in the fewest moves to top {code(f'/daily-board {game_id}')}."
        )
    return (
        f"📅 Today's daily deal ({day} UTC) — you already made your scored attempt at it "
        "today, so this replay is not scored."
    )


async def won_line(store: Store, saved: SavedGame, now: float) -> str:
    """What the board adds when a scored daily deal is won: the daily streak it makes.

    The win is already saved when this runs, so a failure to read the streak only shortens
    the line; it must not turn a stored win into an apology.
    """
    game_id = saved.game.game_id
    if saved.hints:
        return (
            "📅 Daily deal won with hints: it counts as assisted, so it is not on "
            f"{code(f'/daily-board {game_id}')} and does not extend your daily streak."
        )
    # In a server the streak is that server's; in DMs (private anyway) the player's own.
    try:
        days = await store.won_daily_days(saved.user_id, guild_id=saved.guild_id)
    except Exception:
        log.exception("could not read the daily streak of user %s", saved.user_id)
        return f"📅 Daily deal won! See {code(f'/daily-board {game_id}')}."
    current, best = daily_streaks(days, utc_day(now))
    return (
        f"📅 Daily deal won! Daily streak: **{current}** day{'' if current == 1 else 's'} "
        f"(best {best}). See {code(f'/daily-board {game_id}')}."
    )

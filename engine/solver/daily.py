"""The daily deal: one deal a game a UTC day, proven winnable, the same everywhere.

A day's candidates are a fixed sequence of deal numbers, each a hash of the game, the
date and its place (``daily_candidates``), keyed by a secret the bot's database keeps:
without it nobody can work out tomorrow's deal from this code and practise it today.
With no secret (the days before one was kept, and the pinned days of the tests),
candidate 0 is the deal the bot gave a day before deals were proven, so a day whose deal
was winnable keeps it. The day's deal is
the first candidate that ``solve`` proves won within ``DAILY_POSITIONS[game]``
positions: positions, never seconds, so every process on every machine, compiled or
not, picks the same deal. A candidate the budget leaves undecided is passed over like
a lost one.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

from ..game import MAX_DEAL, new_game
from ..lru import LRU
from . import solve
from .verdict import Verdict

# Positions per candidate, by game: enough that a winnable deal is nearly always proven
# so (a day's first candidate then keeps the deal it had before deals were proven),
# few enough that a candidate the search cannot settle is passed over soon. Over the 60
# days from 2026-11-25, a larger budget kept no more first candidates, and Clover
# Leaf's undecided candidates cost the most: ODDS.md has the figures. Changing a value
# may change past days' deals: never change them.
DAILY_POSITIONS: dict[str, int] = {
    "clover-leaf": 20_000,
    "four-leaf-clovers": 100_000,
    "super-flower-garden": 100_000,
    "trefoil": 100_000,
    "corner-stones": 100_000,
}


@dataclass(frozen=True)
class DailyDeal:
    """A day's deal of a game: ``candidate`` is its place among the day's candidates
    (0: the day's deal before deals were proven); ``positions`` were searched over every
    candidate tried."""

    game_id: str
    day: date
    deal: int
    candidate: int
    positions: int


def daily_candidates(game_id: str, day: date, secret: str = "") -> Iterator[int]:
    """The day's candidate deals, in order, without end: candidate 0 from
    ``daily/{game}/{day}``, candidate n from ``daily/{game}/{day}/{n}``, each hashed with
    HMAC-SHA256 under ``secret``, or with SHA-256 alone when there is none."""
    key = secret.encode()
    n = 0
    while True:
        seed = (f"daily/{game_id}/{day.isoformat()}" + (f"/{n}" if n else "")).encode()
        digest = (hmac.digest(key, seed, "sha256") if key
                  else hashlib.sha256(seed).digest())
        yield int.from_bytes(digest[:8], "big") % MAX_DEAL + 1
        n += 1


def find_daily_deal(
    game_id: str, day: date, positions: int | None = None, *, secret: str = ""
) -> DailyDeal:
    """The first of the day's candidates (under ``secret``) proven winnable within
    ``positions`` each (by default the game's ``DAILY_POSITIONS``)."""
    budget = DAILY_POSITIONS[game_id] if positions is None else positions
    searched = 0
    for candidate, deal in enumerate(daily_candidates(game_id, day, secret)):
        solution = solve(new_game(game_id, deal), positions=budget)
        searched += solution.positions
        if solution.status == Verdict.WON:
            return DailyDeal(game_id, day, deal, candidate, searched)
    raise AssertionError("the candidates never end")  # pragma: no cover


def winnable_daily_deal(game_id: str, day: date, secret: str = "") -> int:
    """The deal everyone plays of ``game_id`` on ``day`` (UTC) where the daily's secret is
    ``secret``, proven winnable.

    A search of up to a second or so the first time a day is asked for; remembered
    after that (the last days of every game)."""
    key = (game_id, day, secret)
    deal = _FOUND.get(key)
    if deal is None:
        deal = find_daily_deal(game_id, day, secret=secret).deal
        _FOUND[key] = deal
    return deal


_FOUND: LRU[tuple[str, date, str], int] = LRU(64)

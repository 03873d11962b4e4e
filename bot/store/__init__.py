"""Storage: each player's current game, results and the statistics over them, settings.

``await Store.open(target)`` (or ``open_store``) opens PostgreSQL for a ``postgresql://``
URL, else the SQLite file at that path; both backends behave the same (``store.py``).
"""

from ..records import ABANDONED, LOST, OUTCOMES, RESIGNED, WON
from .database import StoreError
from .sqlite import MIGRATIONS, SCHEMA_VERSION
from .store import (
    DEFAULT_SETTINGS,
    LIVE_GAMES,
    PLAYING,
    ConcurrentChange,
    DailyBoard,
    PlayerRecords,
    SavedGame,
    Store,
    open_store,
)

__all__ = [
    "ABANDONED",
    "DEFAULT_SETTINGS",
    "LIVE_GAMES",
    "LOST",
    "MIGRATIONS",
    "OUTCOMES",
    "PLAYING",
    "RESIGNED",
    "SCHEMA_VERSION",
    "WON",
    "ConcurrentChange",
    "DailyBoard",
    "PlayerRecords",
    "SavedGame",
    "Store",
    "StoreError",
    "open_store",
]

"""The store: one store per kind of data over two backends, SQLite and PostgreSQL.

``await Stores.open(target)`` opens PostgreSQL for a ``postgresql://`` URL, else the SQLite
file at that path; both backends behave the same, and each store writes its SQL once.
"""

from .database import StoreError
from .games import LIVE_GAMES, ConcurrentChange
from .results import DailyRanking, PlayerRecords, Record, Scope, Standing
from .saved import SavedGame
from .settings import DEFAULT_SETTINGS, Settings
from .statuses import (
    ABANDONED,
    LOST,
    OUTCOMES,
    PLAYING,
    RESIGNED,
    WON,
    ChallengeStatus,
    GameStatus,
)
from .stores import Stores

__all__ = [
    "ABANDONED",
    "DEFAULT_SETTINGS",
    "LIVE_GAMES",
    "LOST",
    "OUTCOMES",
    "PLAYING",
    "RESIGNED",
    "WON",
    "ChallengeStatus",
    "ConcurrentChange",
    "DailyRanking",
    "GameStatus",
    "PlayerRecords",
    "Record",
    "SavedGame",
    "Scope",
    "Settings",
    "Standing",
    "StoreError",
    "Stores",
]

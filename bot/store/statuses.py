"""What the rows say of a game and of a challenge: where each stands. The values are the
text the database keeps (a ``StrEnum``'s member equals its value), so rows written before
these were named read back the same."""

from __future__ import annotations

from enum import StrEnum


class GameStatus(StrEnum):
    """A game is being played until it ends in one of ``OUTCOMES``: its result's outcome,
    and its side's in a challenge."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"  # stuck when the player left it
    RESIGNED = "resigned"
    ABANDONED = "abandoned"  # left for a new game while it could still go on


PLAYING, WON, LOST, RESIGNED, ABANDONED = GameStatus
OUTCOMES = (WON, LOST, RESIGNED, ABANDONED)


class ChallengeStatus(StrEnum):
    """A challenge goes open -> accepted (or declined, expired, cancelled) -> over."""

    OPEN = "open"
    DECLINED = "declined"
    ACCEPTED = "accepted"
    OVER = "over"
    EXPIRED = "expired"  # open, and nobody answered it within its day
    CANCELLED = "cancelled"  # open, and one of the two asked to be forgotten


OPEN, DECLINED, ACCEPTED, OVER, EXPIRED, CANCELLED = ChallengeStatus

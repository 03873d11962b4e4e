"""A player's current game as the store keeps it (``SavedGame``): the live engine game and
its bookkeeping, made from a row of ``games`` and copied cheaply at each move; and what
changes as it is played (``GameMark``), for a follower that looks instead of listening."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import Game

from .statuses import PLAYING, GameStatus

DEAL_LOST = -1  # proven_lost_at of a game whose deal is proven lost (no revision is)


@dataclass(frozen=True)
class GameMark:
    """What changes as a game is played: its row (a new game), its revision (a move), its
    hints and its verdict (neither of which moves the revision)."""

    row: int
    revision: int
    hints: int
    proven_lost_at: int | None

    @property
    def proven_lost(self) -> bool:
        """As ``SavedGame.proven_lost``: this very position, or the deal."""
        return proven_lost(self.proven_lost_at, self.revision)


@dataclass
class SavedGame:
    """A player's current game with its bookkeeping; ``game`` is the live engine game."""

    id: int
    user_id: int
    guild_id: int | None
    game: Game
    status: GameStatus
    revision: int
    undos: int
    hints: int
    seconds_played: float
    daily: str | None
    started_at: float
    updated_at: float
    finished_at: float | None
    # The revision the solver proved lost, if any; DEAL_LOST: the deal itself is lost, so
    # every position of the game is, whatever is undone.
    proven_lost_at: int | None = None
    challenge_id: int | None = None  # the challenge this game is played for, if any
    race_id: int | None = None  # the race this game is dealt for, if any
    hints_to_add: int = 0  # help this change adds, counted by ``save`` (a redeal undone)

    @property
    def scored(self) -> bool:
        """A daily deal's scored attempt, a challenge's game or a race's: a shuffle seen in
        it stays seen (undo stops at its last redeal)."""
        return self.daily is not None or self.challenge_id is not None or self.race_id is not None

    @property
    def is_finished(self) -> bool:
        return self.status != PLAYING

    @property
    def untouched(self) -> bool:
        """Never moved in: no move on the board but those that came with the deal, and none
        undone (leaving it is no game)."""
        return not self.game.own_moves and not self.undos

    def as_dealt(self, game_id: str, deal: int | None, draw: bool) -> bool:
        """This very deal (``draw``: with Trefoil's draw rule), as dealt: untouched, and
        neither a daily attempt nor a challenge's game. Asking for it again is asking for
        the game the player has (its hints still counted), not for another."""
        game = self.game
        return (self.untouched and self.daily is None
                and self.challenge_id is None and self.race_id is None
                and (game.game_id, game.deal_number, game.draw_rule) == (game_id, deal, draw))

    @property
    def proven_lost(self) -> bool:
        """The solver proved this very position lost (not an earlier one), or the deal."""
        return proven_lost(self.proven_lost_at, self.revision)

    @property
    def lost_as_dealt(self) -> bool:
        """The solver proved the deal itself lost: no undo can help."""
        return self.proven_lost_at == DEAL_LOST


def proven_lost(proven_lost_at: int | None, revision: int) -> bool:
    """Whether a game whose verdict was found at ``proven_lost_at`` is lost at
    ``revision``: proven at that very position, or its deal proven lost."""
    return proven_lost_at in (revision, DEAL_LOST)


def with_game(saved: SavedGame, game: Game) -> SavedGame:
    """``saved`` with ``game`` in place of its own (a shallow copy: every other field is a
    number or a string; at every move, so made the quickest way: not ``dataclasses.replace``
    nor ``copy.copy``, which goes through pickling's protocol)."""
    other = SavedGame.__new__(SavedGame)
    other.__dict__.update(saved.__dict__)
    other.game = game
    return other


def saved_game(row: Any, game: Game) -> SavedGame:
    return SavedGame(
        id=int(row["id"]),
        user_id=int(row["user_id"]),
        guild_id=None if row["guild_id"] is None else int(row["guild_id"]),
        game=game,
        status=GameStatus(row["status"]),
        revision=int(row["revision"]),
        undos=int(row["undos"]),
        hints=int(row["hints"]),
        seconds_played=float(row["seconds_played"]),
        daily=row["daily"],
        started_at=float(row["started_at"]),
        updated_at=float(row["updated_at"]),
        finished_at=None if row["finished_at"] is None else float(row["finished_at"]),
        proven_lost_at=None if row["proven_lost_at"] is None else int(row["proven_lost_at"]),
        challenge_id=None if row["challenge_id"] is None else int(row["challenge_id"]),
        race_id=None if row["race_id"] is None else int(row["race_id"]),
    )

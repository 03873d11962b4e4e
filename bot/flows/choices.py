"""What a slash command's options suggest as the player types (Discord's autocomplete): the
legal moves of the player's game, and where a pile's top card may go. Read from the stored
game each time; a player with no game being played is offered nothing."""

from __future__ import annotations

from ..replies import MenuOption, Player
from ..store.games import GameStore
from .boards import destination_options, move_options


class Choices:
    def __init__(self, games: GameStore) -> None:
        self.games = games

    async def moves(self, player: Player, typed: str = "") -> list[MenuOption]:
        """Legal moves matching what the player has typed so far (for `/move from`)."""
        saved = await self.games.load(player.user_id)
        return [] if saved is None or saved.is_finished else move_options(saved.game, typed)

    async def destinations(self, player: Player, source: str,
                           typed: str = "") -> list[MenuOption]:
        """Where the top card of pile ``source`` may go (for `/move to`), as ``3`` or ``f2``."""
        saved = await self.games.load(player.user_id)
        playing = saved is not None and not saved.is_finished
        return destination_options(saved.game, source, typed) if saved and playing else []

"""The game's slash commands: each one turns its options into one call of the core.

/new game deal, /move from to (with autocomplete), /undo, /redo, /redeal, /hint, /show,
/resign, /rules game, /help.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from engine import GAMES, MAX_DEAL
from engine.moves import MAX_TEXT  # the longest text a move can be: Discord stops more

from ..core import Core
from ..replies import Action, MenuOption
from .context import player_of
from .limits import MENU_LIMIT, OPTION_LIMIT, cut
from .send import replying
from .translator import named

log = logging.getLogger(__name__)

# The games by their names, which are proper names: the same in every language.
GAME_CHOICES = [app_commands.Choice(name=name, value=game_id) for game_id, name in GAMES.items()]


def _choices(options: list[MenuOption]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=cut(o.label, OPTION_LIMIT), value=o.value)
            for o in options[:MENU_LIMIT]]


class GameCommands(commands.Cog, name="Solitaire"):
    def __init__(self, core: Core) -> None:
        self.core = core

    @app_commands.command(
        name=named("command", "new"), description=locale_str("Deal a new game of solitaire")
    )
    @app_commands.rename(
        game=named("option", "game"), deal=named("option", "deal"),
        winnable=named("option", "winnable"), draw=named("option", "draw"),
    )
    @app_commands.describe(
        game=locale_str("The game to play"),
        deal=locale_str("A deal number, to replay or share a deal (leave out for a random one)"),
        winnable=locale_str("Only a deal the solver has proven can be won"),
        draw=locale_str(
            "Trefoil only: one buried card to the top, after the last redeal"
        ),
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        deal: app_commands.Range[int, 1, MAX_DEAL] | None = None,
        winnable: bool = False,
        draw: bool = False,
    ) -> None:
        async with replying(interaction) as presenter:
            await self.core.new_game(player_of(interaction), game, deal, winnable=winnable,
                                     draw=draw, presenter=presenter)

    @app_commands.command(
        name=named("command", "move"),
        description=locale_str("Move a card: /move 7 3, /move 7 f2, /move 7"),
    )
    @app_commands.rename(source=named("option", "from"), target=named("option", "to"))
    @app_commands.describe(
        source=locale_str(
            "The pile to move from, or a whole legal move from the list"
        ),
        target=locale_str(
            "A pile, f2 for a foundation, f for its own (none: its only move)"
        ),
    )
    async def move(
        self,
        interaction: discord.Interaction[Any],
        source: app_commands.Range[str, 1, MAX_TEXT],
        target: app_commands.Range[str, 1, MAX_TEXT] | None = None,
    ) -> None:
        text = f"{source} {target or ''}".strip()
        async with replying(interaction) as presenter:
            await self.core.act(player_of(interaction), Action.MOVE, text, presenter=presenter)

    @move.autocomplete("source")
    async def move_from(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            return _choices(await self.core.move_choices(player_of(interaction), current))
        except Exception:
            log.exception("autocomplete of /move from failed for user %s", interaction.user.id)
            return []

    @move.autocomplete("target")
    async def move_to(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        source = getattr(interaction.namespace, "from", None) or ""
        try:
            options = await self.core.destination_choices(
                player_of(interaction), str(source), current
            )
            return _choices(options)
        except Exception:
            log.exception("autocomplete of /move to failed for user %s", interaction.user.id)
            return []

    @app_commands.command(
        name=named("command", "undo"), description=locale_str("Take back your last move")
    )
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        await self._act(interaction, Action.UNDO)

    @app_commands.command(
        name=named("command", "redo"),
        description=locale_str("Play again the move you took back"),
    )
    async def redo(self, interaction: discord.Interaction[Any]) -> None:
        await self._act(interaction, Action.REDO)

    @app_commands.command(
        name=named("command", "redeal"),
        description=locale_str("Gather the piles, shuffle and deal again (if redeals are left)"),
    )
    async def redeal(self, interaction: discord.Interaction[Any]) -> None:
        await self._act(interaction, Action.REDEAL)

    @app_commands.command(
        name=named("command", "hint"),
        description=locale_str("The solver's next move for your game (counts as assisted)"),
    )
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        await self._act(interaction, Action.HINT)

    @app_commands.command(
        name=named("command", "show"), description=locale_str("Post your current board again")
    )
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        await self._act(interaction, Action.SHOW)

    @app_commands.command(
        name=named("command", "resign"),
        description=locale_str("Give up your current game (counts as a loss)"),
    )
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        await self._act(interaction, Action.RESIGN)

    @app_commands.command(
        name=named("command", "rules"), description=locale_str("How a game is played")
    )
    @app_commands.rename(game=named("option", "game"))
    @app_commands.describe(game=locale_str("The game to explain"))
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction[Any], game: str) -> None:
        async with replying(interaction, private=True) as presenter:
            await self.core.rules(player_of(interaction), game, presenter=presenter)

    @app_commands.command(
        name=named("command", "settings"),
        description=locale_str(
            "Private boards, four-colour deck, safe moves by themselves"
        ),
    )
    @app_commands.rename(
        private_boards=named("option", "private_boards"),
        four_colour=named("option", "four_colour"),
        auto_moves=named("option", "auto_moves"),
    )
    @app_commands.describe(
        private_boards=locale_str("Boards only you see"),
        four_colour=locale_str("The four-colour deck: ♣ green, ♦ blue, ♥ red, ♠ black"),
        auto_moves=locale_str("Cards that can safely go up go up by themselves"),
    )
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        private_boards: bool | None = None,
        four_colour: bool | None = None,
        auto_moves: bool | None = None,
    ) -> None:
        given = {"private_boards": private_boards, "four_colour": four_colour,
                 "auto_moves": auto_moves}
        changes = {name: value for name, value in given.items() if value is not None}
        async with replying(interaction, private=True) as presenter:
            await self.core.change_settings(player_of(interaction), presenter=presenter, **changes)

    @app_commands.command(
        name=named("command", "help"),
        description=locale_str("The commands and buttons, in short"),
    )
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        async with replying(interaction, private=True) as presenter:
            await self.core.help(player_of(interaction), presenter=presenter)

    async def _act(self, interaction: discord.Interaction[Any], action: Action) -> None:
        async with replying(interaction) as presenter:
            await self.core.act(player_of(interaction), action, presenter=presenter)
